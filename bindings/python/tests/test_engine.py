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
    assert engine.hash_mb == 16 and repr(engine) == "Engine(hash_mb=16)"
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
