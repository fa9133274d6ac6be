"""Cross-checks against pyffish (Fairy-Stockfish) on random playout positions."""

from __future__ import annotations

import random
import re

import pytest

import xiangqi

pyffish = pytest.importorskip("pyffish", reason="pyffish is not installed (pip install pyffish)")


def fsf_to_iccs(move: str) -> str:
    # Fairy-Stockfish numbers ranks 1-10 (N-ICCS-RANKS10).
    m = re.fullmatch(r"([a-i])(\d+)([a-i])(\d+)", move)
    assert m, move
    return f"{m[1]}{int(m[2]) - 1}{m[3]}{int(m[4]) - 1}"


def test_legal_moves_agree_with_pyffish() -> None:
    rng = random.Random(7)
    checked = 0
    for _ in range(6):
        board = xiangqi.Board()
        for _ in range(rng.randrange(10, 60)):
            moves = board.legal_moves
            theirs = {fsf_to_iccs(m) for m in pyffish.legal_moves("xiangqi", board.fen(), [])}
            assert {str(m) for m in moves} == theirs, board.fen()
            checked += 1
            if not moves:
                break
            board.push(rng.choice(moves))
        assert pyffish.get_fen("xiangqi", board.root().fen(), [
            f"{m.from_square.name[0]}{m.from_square.rank + 1}{m.to_square.name[0]}{m.to_square.rank + 1}"
            for m in board.move_stack
        ]).split()[:2] == board.fen().split()[:2]
    assert checked > 50
