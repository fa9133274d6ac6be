"""xiangqi.engine: external engines (our own over UCI and UCCI, Debian's
fairy-stockfish and maxqi when installed), the built-in engine behind the
same interface, and engines that hang, die or talk nonsense."""

from __future__ import annotations

import os
import shutil
import stat
import threading
from pathlib import Path

import pytest

import xiangqi
from xiangqi import Board, Move
from xiangqi.engine import (
    EngineError,
    EngineProtocolError,
    EngineTerminatedError,
    EngineTimeoutError,
    Limit,
    SimpleEngine,
)

MATE_IN_ONE = "5k3/9/9/9/8R/9/9/9/9/4K4 w - - 0 1"
FAIRY_STOCKFISH = "/usr/games/fairy-stockfish"
MAXQI = "/usr/games/maxqi"


def after(*moves: str) -> Board:
    board = Board()
    for m in moves:
        board.push_iccs(m)
    return board


@pytest.fixture(params=["uci", "ucci", "builtin"])
def engine(request: pytest.FixtureRequest, xiangqi_cli: str):  # type: ignore[no-untyped-def]
    if request.param == "uci":
        e = SimpleEngine.popen_uci([xiangqi_cli, "uci", "--hash", "4"])
    elif request.param == "ucci":
        e = SimpleEngine.popen_ucci([xiangqi_cli, "ucci", "--hash", "4"])
    else:
        e = SimpleEngine.builtin(hash_mb=4)
    with e:
        yield e
    assert not e.alive


def test_analyse_finds_mate_with_both_views(engine: SimpleEngine) -> None:
    board = Board(MATE_IN_ONE)
    info = engine.analyse(board, Limit(depth=3))
    assert info.pv[0] == Move.from_iccs("i5f5")
    assert info.score is not None and info.score.is_mate()
    assert info.score.relative.mate == 1 and info.score.red().mate == 1
    assert info.score.black().mate == -1 and info.turn == xiangqi.RED
    assert engine.play(board, Limit(depth=3)).move == Move.from_iccs("i5f5")


def test_black_to_move_red_view_is_flipped(engine: SimpleEngine) -> None:
    board = after("h2e2", "h9g7", "e2e6")  # the cannon takes a soldier: Black is a pawn down
    info = engine.analyse(board, Limit(depth=3))
    assert info.turn == xiangqi.BLACK and info.score is not None
    assert info.score.red() == -info.score.relative
    assert info.score.pov(xiangqi.BLACK) == info.score.relative
    assert info.depth is not None and info.depth >= 1
    assert all(isinstance(m, Move) for m in info.pv)


def test_limits_and_play(engine: SimpleEngine) -> None:
    board = after("h2e2")
    for limit in (Limit(time=0.05), Limit(nodes=500), Limit(depth=2)):
        result = engine.play(board, limit)
        assert board.is_legal(result.move)
    with pytest.raises(ValueError, match="give a limit"):
        Limit()
    # Limits combine: the first reached ends the search; UCCI's go takes one.
    combined = Limit(depth=2, nodes=10)
    if engine.protocol == "ucci":
        with pytest.raises(EngineError, match="UCCI's go takes one of depth, nodes, time or clocks, not depth and nodes"):
            engine.play(board, combined)
    else:
        assert board.is_legal(engine.play(board, combined).move)
    with pytest.raises(ValueError, match="no legal moves"):
        mated = Board(MATE_IN_ONE)
        mated.push_iccs("i5f5")
        engine.analyse(mated, Limit(depth=1))


def test_multipv_returns_a_list(engine: SimpleEngine) -> None:
    lines = engine.analyse(Board(), Limit(depth=2), multipv=3)
    assert isinstance(lines, list) and 1 <= len(lines) <= 3
    if engine.protocol in ("uci", "builtin"):  # UCCI has no MultiPV
        assert len(lines) == 3 and len({line.pv[0] for line in lines}) == 3
    assert [line.multipv for line in lines] == sorted(line.multipv for line in lines)


def test_configure_and_names(xiangqi_cli: str) -> None:
    with SimpleEngine.popen_uci(f"{xiangqi_cli} uci", options={"Hash": 4}) as engine:
        assert engine.protocol == "uci" and engine.name and engine.id["name"] == engine.name
        engine.configure({"Hash": 8, "Clear Hash": None})
        with pytest.raises(EngineError, match="only the built-in engine can be stopped"):
            engine.stop()
        engine.new_game()
        assert engine.play(Board(), Limit(depth=1)).move is not None
    with pytest.raises(EngineTerminatedError):
        engine.play(Board(), Limit(depth=1))
    with SimpleEngine.builtin() as builtin, pytest.raises(EngineError, match="no option"):
        builtin.configure({"Hash": 8})


def test_gil_is_released_during_a_search(xiangqi_cli: str) -> None:
    ticks = 0
    stop = threading.Event()

    def count() -> None:
        nonlocal ticks
        while not stop.is_set():
            ticks += 1
            stop.wait(0.001)

    thread = threading.Thread(target=count)
    with SimpleEngine.popen_uci([xiangqi_cli, "uci"]) as engine:
        thread.start()
        engine.play(Board(), Limit(time=0.3))
        stop.set()
        thread.join()
    assert ticks > 10


def fake_engine(tmp_path: Path, name: str, on_go: str) -> str:
    path = tmp_path / name
    path.write_text(
        "#!/bin/sh\n"
        "while read -r cmd rest; do\n"
        '  case "$cmd" in\n'
        f"    uci) echo 'id name {name}'; echo uciok ;;\n"
        "    isready) echo readyok ;;\n"
        f"    go) {on_go} ;;\n"
        "    quit) exit 0 ;;\n"
        "  esac\n"
        "done\n"
    )
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


needs_sh = pytest.mark.skipif(os.name != "posix", reason="the fake engines are /bin/sh scripts")


@needs_sh
def test_garbage_move_raises(tmp_path: Path) -> None:
    with SimpleEngine.popen_uci(fake_engine(tmp_path, "garbage", "echo '@@ nonsense'; echo 'bestmove zz99'")) as e:
        with pytest.raises(EngineProtocolError, match="unreadable move"):
            e.play(Board(), Limit(depth=1))
        assert not e.alive


@needs_sh
def test_illegal_move_raises(tmp_path: Path) -> None:
    with SimpleEngine.popen_uci(fake_engine(tmp_path, "illegal", "echo 'bestmove a0a5'")) as e:
        with pytest.raises(EngineProtocolError, match="illegal move a0a5"):
            e.play(Board(), Limit(depth=1))


@needs_sh
def test_hang_raises_timeout(tmp_path: Path) -> None:
    with SimpleEngine.popen_uci(fake_engine(tmp_path, "silent", ":")) as e:
        with pytest.raises(EngineTimeoutError):
            e.play(Board(), Limit(time=0.05), timeout=0.3)
        with pytest.raises(EngineTerminatedError):
            e.play(Board(), Limit(time=0.05))


@needs_sh
def test_death_mid_search_raises(tmp_path: Path) -> None:
    with SimpleEngine.popen_uci(fake_engine(tmp_path, "dies", "echo 'info depth 1 score cp 3'; exit 3")) as e:
        with pytest.raises(EngineTerminatedError, match="died"):
            e.analyse(Board(), Limit(depth=1))


def test_bad_commands() -> None:
    with pytest.raises(EngineError, match="cannot start"):
        SimpleEngine.popen_uci("/nonexistent/engine")
    with pytest.raises(ValueError, match="unclosed quote"):
        SimpleEngine.popen_uci("'open")
    with pytest.raises(TypeError):
        SimpleEngine.popen_uci(42)  # type: ignore[arg-type]
    if shutil.which("cat"):
        with pytest.raises(EngineTimeoutError, match="uciok"):
            SimpleEngine.popen_uci("cat", timeout=0.3)


def test_fairy_stockfish() -> None:
    if not os.access(FAIRY_STOCKFISH, os.X_OK):
        pytest.skip(f"{FAIRY_STOCKFISH} is not installed (apt-get install fairy-stockfish)")
    with SimpleEngine.popen_uci(FAIRY_STOCKFISH, options={"Hash": 16}) as engine:
        assert engine.name.startswith("Fairy-Stockfish")
        board = after("h2e2", "h9g7")
        lines = engine.analyse(board, Limit(depth=6), multipv=3)
        assert len(lines) == 3  # it honours MultiPV
        for line in lines:
            assert line.score is not None and line.pv and board.is_legal(line.pv[0])
        info = engine.analyse(Board(MATE_IN_ONE), Limit(depth=4))
        assert info.score is not None and info.score.red().mate == 1
        assert info.pv[0] == Move.from_iccs("i5f5")  # ranks 1-10 read back as ICCS


def test_maxqi_over_xboard() -> None:
    if not os.access(MAXQI, os.X_OK):
        pytest.skip(f"{MAXQI} is not installed (apt-get install fairymax)")
    with SimpleEngine.popen_xboard(MAXQI) as engine:
        board = after("h2e2")
        result = engine.play(board, Limit(depth=3))
        assert board.is_legal(result.move)
        board.push(result.move)
        assert board.is_legal(engine.play(board, Limit(depth=3)).move)
        with pytest.raises(EngineError, match="node"):
            engine.play(board, Limit(nodes=100))


def test_annotate_writes_evals_nags_and_lines(xiangqi_cli: str) -> None:
    import io

    import xiangqi.pgn
    from xiangqi.engine import annotate

    text = '[Event "t"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. h0h6 c6c5 5. h6g6 a9b9 1-0\n'
    for engine in (SimpleEngine.popen_uci([xiangqi_cli, "uci"]), SimpleEngine.builtin()):
        game = next(xiangqi.pgn.read_games(io.StringIO(text)))
        with engine:
            reviews = annotate(game, engine, Limit(depth=3))
        assert [r.ply for r in reviews] == list(range(1, 11))
        assert all(r.eval_comment is not None and r.eval_comment.startswith("[%eval ") for r in reviews)
        assert all(r.red_winning_chance is not None and 0 <= r.red_winning_chance <= 1 for r in reviews)
        # a9b9 leaves the horse on g7 to the chariot: a blunder with the engine's line.
        last = reviews[-1]
        assert last.judgement == "blunder" and last.symbol == "??" and last.best_line
        pgn = game.to_pgn()
        assert pgn.count("[%eval ") >= 10 and "$4" in pgn and "(" in pgn
