"""Board.outcome and Verdict against the reference endings."""

from __future__ import annotations

import pytest

import xiangqi
from xiangqi import Board
from xiangqi.pgn import Game


def play(fen: str, moves: list) -> Board:
    board = Board(fen)
    for m in moves:
        board.push_iccs(m)
    return board


def test_reference_endings_under_the_fairy_rules(ending_records: list) -> None:
    # The reference data was made with Fairy-Stockfish's adjudication.
    for rec in ending_records:
        board = play(rec["start_fen"], rec["moves"])
        verdict = board.outcome(rules="fairy")
        # The record's verdict, "ongoing" included, is Game.adjudicate's.
        record = Game.from_board(board).adjudicate(rules="fairy")
        expected = rec["winner"] or "ongoing"
        assert record.outcome == expected, (rec["id"], repr(record))
        assert board.is_game_over(rules="fairy") == (rec["first_end_ply"] is not None), rec["id"]
        if rec["first_end_ply"] is not None:
            assert verdict is not None and verdict.outcome == expected, (rec["id"], repr(verdict))
            assert verdict.ply == rec["first_end_ply"], rec["id"]
            assert verdict.is_over() and verdict.reason
        else:
            # While the game goes on there is no outcome, as in python-chess.
            assert verdict is None, (rec["id"], repr(verdict))
            assert not record.is_over() and record.reason is None


def test_verdict_fields() -> None:
    board = play(
        "4k4/9/9/9/9/9/9/9/9/5K2R w - - 0 1",
        "i0i9 e9e8 i9i8 e8e9 i8i9 e9e8 i9i8 e8e9 i8i9".split(),
    )
    verdict = board.outcome("asian")
    assert verdict is not None and verdict.outcome == "black" and verdict.winner == xiangqi.BLACK
    assert verdict.reason == "perpetual_check" and verdict.ply == 9
    assert verdict.result == "0-1"
    assert "perpetual check" in verdict.detail and "R-REP-PERP-CHECK" in str(verdict)
    assert repr(verdict) == "Verdict(outcome='black', reason='perpetual_check', ply=9)"
    rep = verdict.repetition
    assert rep is not None and rep["red"]["conduct"] == "perpetual_check"
    assert rep["red"]["pieces"] == ({"color": "red", "kind": "chariot", "square": "i9"},)
    with pytest.raises(TypeError):
        rep["red"]["conduct"] = "idle"  # a verdict's report is read-only
    # Moves after the end do not raise: the verdict is where the game ended.
    board.push_iccs("e9e8")
    after = board.outcome("asian")
    assert after is not None and after.ply == 9


def test_mate_stalemate_and_ongoing() -> None:
    mate = play("5k3/9/9/9/8R/9/9/9/9/4K4 w - - 0 1", ["i5f5"])
    v = mate.outcome()
    assert v is not None and (v.outcome, v.reason, v.ply, v.result) == ("red", "checkmate", 1, "1-0")
    assert Board().outcome() is None and not Board().is_game_over()
    start = Game.from_board(Board()).adjudicate()
    assert start.outcome == "ongoing" and start.winner is None and start.repetition is None
    assert start.result == "*"
    assert xiangqi.RULE_SETS == ["online", "asian", "pikafish", "fairy", "plain"]
    for rules in xiangqi.RULE_SETS:
        verdict = mate.outcome(rules=rules)
        assert verdict is not None and verdict.outcome == "red"
    with pytest.raises(ValueError, match="unknown rule set"):
        mate.outcome(rules="klingon")
