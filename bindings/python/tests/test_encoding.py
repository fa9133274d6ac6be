"""NumPy planes and policy indices."""

from __future__ import annotations

import numpy as np
import pytest

import xiangqi
from xiangqi import Board, Move


def test_policy_indices_are_a_bijection() -> None:
    assert xiangqi.MOVE_ENCODING_SIZE == 2086
    seen = set()
    for i in range(xiangqi.MOVE_ENCODING_SIZE):
        mv = xiangqi.decode_move(i)
        assert xiangqi.encode_move(mv) == i
        seen.add(mv)
    assert len(seen) == 2086
    # Ordered by origin index, then destination index.
    order = [(xiangqi.decode_move(i).from_square.index, xiangqi.decode_move(i).to_square.index)
             for i in range(2086)]
    assert order == sorted(order)
    assert xiangqi.encode_move("a0b0") == 0 and xiangqi.encode_move("a0a1") == 8


def test_every_legal_move_has_an_index(legal_records: list) -> None:
    for rec in legal_records:
        board = Board(rec["fen"])
        mask = board.legal_move_mask()
        assert mask.shape == (2086,) and mask.dtype == np.bool_
        indices = {xiangqi.encode_move(m) for m in board.legal_moves}
        assert set(np.flatnonzero(mask).tolist()) == indices
        assert len(indices) == len(rec["moves"])


def test_impossible_moves_are_refused() -> None:
    for text in ["a0b5", "a0c5", "d0f2", "e1g3", "e4g6"]:
        with pytest.raises(ValueError, match="no policy index"):
            xiangqi.encode_move(text)
    # Elephant, advisor and horse geometry are all encoded.
    for text in ["c0e2", "e2g4", "d0e1", "b0c2", "e9e0"]:
        assert 0 <= xiangqi.encode_move(text) < 2086
    for bad in [-1, 2086, 10**30]:
        with pytest.raises(ValueError):
            xiangqi.decode_move(bad)
    with pytest.raises(TypeError):
        xiangqi.decode_move("3")  # type: ignore[arg-type]


def test_planes_match_pieces() -> None:
    board = Board()
    board.push_iccs("h2e2")
    planes = board.to_numpy()
    assert planes.shape == (14, 10, 9) and planes.dtype == np.float32
    assert planes.sum() == 32
    for sq, piece in board.pieces().items():
        plane = int(piece.color) * 7 + int(piece.kind)
        assert planes[plane, sq.rank, sq.file] == 1.0
    # Red cannon plane: b2 and e2.
    assert np.argwhere(planes[5]).tolist() == [[2, 1], [2, 4]]


def test_batch_planes(legal_records: list) -> None:
    fens = [rec["fen"] for rec in legal_records[:50]]
    batch = xiangqi.fens_to_numpy(fens)
    assert batch.shape == (50, 14, 10, 9) and batch.dtype == np.float32
    for i, fen in enumerate(fens):
        assert np.array_equal(batch[i], Board(fen).to_numpy())
    assert xiangqi.fens_to_numpy([]).shape == (0, 14, 10, 9)
    with pytest.raises(xiangqi.InvalidFenError, match=r"fens\[1\]: invalid FEN"):
        xiangqi.fens_to_numpy([fens[0], "junk"])
    with pytest.raises(TypeError):
        xiangqi.fens_to_numpy("not a list")  # type: ignore[arg-type]
