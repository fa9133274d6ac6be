"""Third-party Python clients play the standalone `xiangqi-engine` program,
started as they start Pikafish: a path and no arguments. cchess (the
version the corpus was checked with) drives it over UCI and UCCI;
pikafish-terminal learns legal moves with `go perft 1`. A client that is
not installed is skipped with the reason."""

from __future__ import annotations

import time
from typing import Any, Dict

import pytest

import xiangqi

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"


def _cchess() -> Any:
    return pytest.importorskip("cchess.engine", reason="cchess is not installed (pip install cchess==1.25.5)")


def _answer(engine: Any, deadline: float) -> Dict[str, Any]:
    """cchess's polling loop: actions until a move (or the engine's end)."""
    while True:
        action = engine.get_action()
        if action is None:
            assert time.time() < deadline, "no bestmove in time"
            time.sleep(0.02)
            continue
        if action["action"] in ("bestmove", "dead", "draw"):
            return action  # type: ignore[no-any-return]


@pytest.mark.parametrize("kind", ["UciEngine", "UcciEngine"])
def test_cchess_engines_play_the_program(kind: str, xiangqi_engine: str) -> None:
    module = _cchess()
    from cchess import ChessBoard

    engine = getattr(module, kind)()
    assert engine.load(xiangqi_engine)
    try:
        assert engine.wait_for_ready(30), f"no {engine.ok_resp()} from {xiangqi_engine}"
        assert engine.ids.get("name", "").startswith("xiangqi")
        ours = xiangqi.Board()
        theirs = ChessBoard(START)
        # Both sides played by the engine through cchess, each move checked by our rules.
        for _ in range(16):
            engine.go_from(theirs.to_fen(), {"depth": 3})
            action = _answer(engine, time.time() + 60)
            if action["action"] != "bestmove":
                assert not ours.legal_moves, action
                break
            move = xiangqi.Move.from_iccs(action["move"])
            assert move in ours.legal_moves, (ours.fen(), action["move"])
            ours.push(move)
            assert theirs.move_iccs(action["move"]) is not None
            theirs.next_turn()
        assert len(ours.move_stack) == 16
        assert theirs.to_fen().split()[:2] == ours.fen().split()[:2]
    finally:
        engine.quit()


def test_pikafish_terminal_checks_moves_with_go_perft(xiangqi_engine: str) -> None:
    engine_module = pytest.importorskip(
        "pikafish_terminal.engine", reason="pikafish-terminal is not installed (pip install pikafish-terminal)"
    )
    engine = engine_module.PikafishEngine(path=xiangqi_engine, depth=2)
    try:
        engine.new_game()
        board = xiangqi.Board()
        moves: list[str] = []
        # A human's moves are accepted when `go perft 1` lists them, and
        # only then; the engine answers each one.
        for _ in range(6):
            legal = [str(m) for m in board.legal_moves]
            assert engine.is_move_legal(START, moves, legal[-1])
            illegal = next(
                f"{a}{b}"
                for a in ("a0", "e0", "h2", "a9", "e9", "h7")
                for b in ("e5", "a4", "i6")
                if f"{a}{b}" not in legal
            )
            assert not engine.is_move_legal(START, moves, illegal), illegal
            board.push(xiangqi.Move.from_iccs(legal[-1]))
            moves.append(legal[-1])
            reply = engine.best_move(START, moves)
            assert reply in [str(m) for m in board.legal_moves], reply
            board.push(xiangqi.Move.from_iccs(reply))
            moves.append(reply)
        over, _ = engine.is_game_over(START, moves)
        assert not over
    finally:
        engine.quit()
