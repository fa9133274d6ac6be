"""The built-in engine through the one engine API, ``xiangqi.engine``:
results, limits, lines, threads, stopping, Ctrl-C; the former
``xiangqi.Engine`` names say what replaced them."""

from __future__ import annotations

import _thread
import signal
import threading
import time

import pytest

import xiangqi
from xiangqi import Board
from xiangqi.engine import EngineInfo, Limit, SimpleEngine

MATE_IN_ONE = "5k3/9/9/9/8R/9/9/9/9/4K4 w - - 0 1"


def test_finds_mate_in_one() -> None:
    with SimpleEngine.builtin(hash_mb=4) as engine:
        info = engine.analyse(Board(MATE_IN_ONE), Limit(depth=3))
        assert info.score is not None
        score = info.score.relative
        assert info.pv[0] == xiangqi.Move.from_iccs("i5f5")
        assert score.mate == 1 and score.cp is None and score.is_mate() and info.score.is_mate()
        assert info.score.red() == score and info.turn == xiangqi.RED
        assert str(score) == "mate 1" and repr(score) == "Score(mate=1)"
        assert score.score() == 9999 and (-score).score() == -9999
        assert engine.play(Board(MATE_IN_ONE), Limit(depth=2)).move == info.pv[0]


def test_limits_and_fields() -> None:
    engine = SimpleEngine.builtin()
    board = Board()
    board.push_iccs("h2e2")
    fixed = engine.analyse(board, Limit(depth=4))
    assert fixed.depth == 4 and fixed.nodes is not None and fixed.nodes > 0
    assert board.is_legal(fixed.pv[0]) and fixed.turn == xiangqi.BLACK
    assert fixed.score is not None and fixed.score.red() == -fixed.score.relative
    assert fixed.score.relative.cp is not None and fixed.bound == "exact" and fixed.multipv == 1
    assert fixed.time is not None and fixed.time >= 0 and fixed.nps is not None and fixed.nps >= 0
    assert fixed.seldepth is not None and fixed.seldepth >= 4
    assert "EngineInfo(multipv=1, depth=4" in repr(fixed)
    engine.new_game()
    by_nodes = engine.analyse(board, Limit(nodes=2000))
    assert by_nodes.nodes is not None and by_nodes.nodes <= 2100
    start = time.monotonic()
    played = engine.play(board, Limit(time=0.2))
    assert time.monotonic() - start < 5 and board.is_legal(played.move)
    assert played.info is not None and played.info.pv[0] == played.move
    name = f"xiangqi {xiangqi.__version__}"
    assert engine.name == name and engine.protocol == "builtin"
    assert repr(engine) == f"<SimpleEngine {name!r} (builtin)>"
    # The board is untouched by a search.
    assert board.move_stack == (xiangqi.Move.from_iccs("h2e2"),)
    engine.quit()
    assert not engine.alive


def test_no_legal_move_and_bad_limits() -> None:
    with SimpleEngine.builtin(hash_mb=1) as engine:
        mated = Board(MATE_IN_ONE)
        mated.push_iccs("i5f5")
        with pytest.raises(ValueError, match="no legal moves"):
            engine.analyse(mated, Limit(depth=3))
        with pytest.raises(ValueError, match="no legal moves"):
            engine.play(mated, Limit(depth=3))
        # A bad limit is refused where it is made, and by the search itself.
        bad: list[dict[str, float]] = [{}, {"depth": 0}, {"depth": 10**6}, {"time": -1.0}, {"nodes": 0}]
        for keywords in bad:
            with pytest.raises(ValueError):
                Limit(**keywords)  # type: ignore[arg-type]
            with pytest.raises(ValueError):
                engine.client.search(Board(), **keywords)  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            engine.analyse("not a board", Limit(depth=2))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="hash_mb 0"):
        SimpleEngine.builtin(hash_mb=0)


def test_search_releases_the_gil() -> None:
    engine = SimpleEngine.builtin(hash_mb=4)
    done = threading.Event()
    result: list = []

    def search() -> None:
        result.append(engine.analyse(Board(), Limit(time=0.5)))
        done.set()

    thread = threading.Thread(target=search)
    thread.start()
    ticks = 0
    while not done.is_set():
        ticks += 1  # pure Python work runs while the engine searches
        time.sleep(0.001)
    thread.join()
    assert ticks > 50
    assert result and result[0].pv


def test_stop_from_another_thread() -> None:
    with SimpleEngine.builtin(hash_mb=4) as engine:
        engine.stop()  # harmless when nothing runs
        threading.Timer(0.2, engine.stop).start()
        start = time.monotonic()
        result = engine.play(Board(), Limit(time=30.0))
        assert time.monotonic() - start < 10
        assert Board().is_legal(result.move)


def test_keyboard_interrupt_stops_a_search() -> None:
    engine = SimpleEngine.builtin(hash_mb=4)
    # A process started in the background by a non-interactive shell
    # inherits SIGINT ignored, and then `interrupt_main` does nothing:
    # install Python's own handler for the length of the test.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        threading.Timer(0.3, _thread.interrupt_main).start()
        start = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            engine.analyse(Board(), Limit(time=30.0))
    finally:
        signal.signal(signal.SIGINT, previous)
    assert time.monotonic() - start < 10
    # The engine is usable again afterwards.
    assert engine.play(Board(MATE_IN_ONE), Limit(depth=2)).move == xiangqi.Move.from_iccs("i5f5")


def test_keyboard_interrupt_stops_a_review() -> None:
    import xiangqi.pgn
    from xiangqi.engine import annotate

    game = xiangqi.pgn.Game.from_pgn('[Event "t"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 *\n')
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with SimpleEngine.builtin(hash_mb=4) as engine:
            threading.Timer(0.3, _thread.interrupt_main).start()
            start = time.monotonic()
            with pytest.raises(KeyboardInterrupt):
                annotate(game, engine, Limit(time=10.0))
    finally:
        signal.signal(signal.SIGINT, previous)
    # Seven searches of 10 s each: every one after the interrupt is stopped too.
    assert time.monotonic() - start < 10


def test_multipv_gives_distinct_lines_best_first() -> None:
    engine = SimpleEngine.builtin(hash_mb=4)
    board = Board(MATE_IN_ONE)
    lines = engine.analyse(board, Limit(depth=3), multipv=3)
    assert isinstance(lines, list) and len(lines) == 3
    assert all(isinstance(line, EngineInfo) for line in lines)
    assert [line.multipv for line in lines] == [1, 2, 3]
    scores = [line.score.relative for line in lines if line.score is not None]
    assert len(scores) == 3
    # i5f5 and i5i8 both mate at once; the third line does not.
    assert {str(line.pv[0]) for line in lines[:2]} == {"i5f5", "i5i8"}
    assert [s.mate for s in scores[:2]] == [1, 1] and scores[2].mate != 1
    firsts = [line.pv[0] for line in lines]
    assert len(set(firsts)) == 3 and all(board.is_legal(m) for m in firsts)
    numbers = [s.score() for s in scores]
    assert numbers == sorted(numbers, reverse=True)
    assert all(line.depth == 3 and line.nodes == lines[0].nodes for line in lines)
    # One line is the single analysis, in a list.
    single = SimpleEngine.builtin(hash_mb=4).analyse(board, Limit(depth=3))
    one = SimpleEngine.builtin(hash_mb=4).analyse(board, Limit(depth=3), multipv=1)
    assert len(one) == 1 and (one[0].pv, one[0].score, one[0].nodes) == (single.pv, single.score, single.nodes)
    # More lines than moves: one per legal move.
    assert len(engine.analyse(Board(), Limit(depth=1), multipv=100)) == 44
    for bad in [0, 501]:
        with pytest.raises(ValueError, match="multipv"):
            engine.client.search(board, depth=2, multipv=bad)


def test_threads() -> None:
    engine = SimpleEngine.builtin(hash_mb=4, threads=2)
    board = Board()
    board.push_iccs("h2e2")
    info = engine.analyse(board, Limit(depth=5))
    assert info.depth == 5 and board.is_legal(info.pv[0])
    threading.Timer(0.2, engine.stop).start()
    start = time.monotonic()
    assert board.is_legal(engine.play(board, Limit(time=30.0)).move)
    assert time.monotonic() - start < 10
    for bad in [0, 257]:
        with pytest.raises(ValueError, match="threads"):
            SimpleEngine.builtin(threads=bad)


def test_the_former_engine_api_names_its_replacement() -> None:
    with pytest.raises(AttributeError, match=r"xiangqi\.engine\.SimpleEngine\.builtin\(\)"):
        xiangqi.Engine  # noqa: B018
    with pytest.raises(AttributeError, match=r"xiangqi\.engine\.EngineInfo"):
        xiangqi.Analysis  # noqa: B018
    with pytest.raises(ImportError):
        from xiangqi import Engine  # noqa: F401
    assert not hasattr(xiangqi, "Engine") and "Engine" not in xiangqi.__all__
    with pytest.raises(AttributeError, match="no attribute 'Engin'"):
        xiangqi.Engin  # noqa: B018
    # The one score type: what the engine reports is xiangqi.Score.
    assert xiangqi.engine.Score is xiangqi.Score
