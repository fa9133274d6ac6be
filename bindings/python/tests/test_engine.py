"""The engine from Python: results, limits, threads, stopping, Ctrl-C."""

from __future__ import annotations

import _thread
import signal
import threading
import time

import pytest

import xiangqi
from xiangqi import Board, Engine

MATE_IN_ONE = "5k3/9/9/9/8R/9/9/9/9/4K4 w - - 0 1"


def test_finds_mate_in_one() -> None:
    engine = Engine(hash_mb=4)
    analysis = engine.analyse(Board(MATE_IN_ONE), depth=3)
    assert analysis.best_move == xiangqi.Move.from_iccs("i5f5")
    assert analysis.score.mate == 1 and analysis.score.cp is None and analysis.score.is_mate()
    assert analysis.red_score == analysis.score and analysis.turn == xiangqi.RED
    assert analysis.pv[0] == analysis.best_move
    assert str(analysis.score) == "mate 1" and repr(analysis.score) == "Score(mate=1)"
    assert analysis.score.score() == 9999 and (-analysis.score).score() == -9999
    assert engine.play(Board(MATE_IN_ONE), depth=2) == analysis.best_move


def test_limits_and_fields() -> None:
    engine = Engine()
    board = Board()
    board.push_iccs("h2e2")
    fixed = engine.analyse(board, depth=4)
    assert fixed.depth == 4 and fixed.nodes > 0 and board.is_legal(fixed.best_move)  # type: ignore[arg-type]
    assert fixed.turn == xiangqi.BLACK
    assert fixed.red_score == -fixed.score
    assert fixed.score.cp is not None and fixed.time >= 0 and fixed.nps >= 0
    assert "best_move=" in repr(fixed)
    engine.new_game()
    by_nodes = engine.analyse(board, nodes=2000)
    assert by_nodes.nodes <= 2100
    start = time.monotonic()
    engine.analyse(board, movetime=0.2)
    assert time.monotonic() - start < 5
    assert engine.hash_mb == 16 and repr(engine) == "Engine(hash_mb=16, threads=1)"
    # The board is untouched by a search.
    assert board.move_stack == [xiangqi.Move.from_iccs("h2e2")]


def test_no_legal_move_and_bad_limits() -> None:
    engine = Engine(hash_mb=1)
    mated = Board(MATE_IN_ONE)
    mated.push_iccs("i5f5")
    assert engine.analyse(mated, depth=3).best_move is None
    assert engine.play(mated, depth=3) is None
    for kwargs in [{}, {"depth": 0}, {"depth": 10**6}, {"movetime": -1.0}, {"nodes": 0}]:
        with pytest.raises(ValueError):
            engine.analyse(Board(), **kwargs)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        engine.analyse("not a board", depth=2)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Engine(hash_mb=0)


def test_search_releases_the_gil() -> None:
    engine = Engine(hash_mb=4)
    done = threading.Event()
    result: list = []

    def search() -> None:
        result.append(engine.analyse(Board(), movetime=0.5))
        done.set()

    thread = threading.Thread(target=search)
    thread.start()
    ticks = 0
    while not done.is_set():
        ticks += 1  # pure Python work runs while the engine searches
        time.sleep(0.001)
    thread.join()
    assert ticks > 50
    assert result and result[0].best_move is not None


def test_stop_from_another_thread() -> None:
    engine = Engine(hash_mb=4)
    threading.Timer(0.2, engine.stop).start()
    start = time.monotonic()
    analysis = engine.analyse(Board(), movetime=30.0)
    assert time.monotonic() - start < 10
    assert analysis.best_move is not None


def test_keyboard_interrupt_stops_a_search() -> None:
    engine = Engine(hash_mb=4)
    # A process started in the background by a non-interactive shell
    # inherits SIGINT ignored, and then `interrupt_main` does nothing:
    # install Python's own handler for the length of the test.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        threading.Timer(0.3, _thread.interrupt_main).start()
        start = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            engine.analyse(Board(), movetime=30.0)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert time.monotonic() - start < 10
    # The engine is usable again afterwards.
    assert engine.analyse(Board(MATE_IN_ONE), depth=2).best_move is not None


def test_multipv_gives_distinct_lines_best_first() -> None:
    engine = Engine(hash_mb=4)
    board = Board(MATE_IN_ONE)
    lines = engine.analyse(board, depth=3, multipv=3)
    assert isinstance(lines, list) and len(lines) == 3
    # i5f5 and i5i8 both mate at once; the third line does not.
    assert {str(a.best_move) for a in lines[:2]} == {"i5f5", "i5i8"}
    assert [a.score.mate for a in lines[:2]] == [1, 1] and lines[2].score.mate != 1
    firsts = [a.pv[0] for a in lines]
    assert len(set(firsts)) == 3 and all(a.best_move == a.pv[0] for a in lines)
    assert all(board.is_legal(m) for m in firsts)
    scores = [a.score.score() for a in lines]
    assert scores == sorted(scores, reverse=True)
    assert all(a.depth == 3 and a.nodes == lines[0].nodes for a in lines)
    # One line is the single analysis, in a list.
    single = Engine(hash_mb=4).analyse(board, depth=3)
    one = Engine(hash_mb=4).analyse(board, depth=3, multipv=1)
    assert len(one) == 1 and (one[0].best_move, one[0].score, one[0].nodes) == (
        single.best_move,
        single.score,
        single.nodes,
    )
    for bad in [0, 129]:
        with pytest.raises(ValueError):
            engine.analyse(board, depth=2, multipv=bad)


def test_threads() -> None:
    engine = Engine(hash_mb=4, threads=2)
    assert engine.threads == 2 and repr(engine) == "Engine(hash_mb=4, threads=2)"
    board = Board()
    board.push_iccs("h2e2")
    analysis = engine.analyse(board, depth=5)
    assert analysis.depth == 5 and board.is_legal(analysis.best_move)  # type: ignore[arg-type]
    threading.Timer(0.2, engine.stop).start()
    start = time.monotonic()
    assert engine.analyse(board, movetime=30.0).best_move is not None
    assert time.monotonic() - start < 10
    for bad in [0, 257]:
        with pytest.raises(ValueError):
            Engine(threads=bad)
