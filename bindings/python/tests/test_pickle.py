"""Pickling, copying and multiprocessing keep boards (with their move stacks) and values."""

from __future__ import annotations

import copy
import multiprocessing
import pickle

import xiangqi
from xiangqi import Board


def _played(board: Board) -> tuple:
    return (board.fen(), [str(m) for m in board.move_stack], len(board.legal_moves))


def _board_after(moves: list) -> Board:
    board = Board()
    for m in moves:
        board.push_iccs(m)
    return board


def test_pickle_round_trips_everything() -> None:
    board = _board_after(["h2e2", "h9g7", "e2e6"])
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        clone = pickle.loads(pickle.dumps(board, protocol=protocol))
        assert clone == board
        assert clone.move_stack == board.move_stack
        assert clone.root() == board.root()
        assert clone.pop() == xiangqi.Move.from_iccs("e2e6")
    values = [
        xiangqi.RED,
        xiangqi.CANNON,
        xiangqi.Piece.from_symbol("n"),
        xiangqi.Square("e7"),
        xiangqi.Move.from_iccs("b9c7"),
    ]
    for value in values:
        assert pickle.loads(pickle.dumps(value)) == value
    custom = Board("4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1")
    custom.push_iccs("e0d0")
    assert pickle.loads(pickle.dumps(custom)).root() == Board("4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1")


def test_deepcopy_and_copy_are_independent() -> None:
    board = _board_after(["h2e2"])
    deep = copy.deepcopy(board)
    shallow = copy.copy(board)
    deep.push_iccs("h9g7")
    assert board.move_stack == shallow.move_stack == [xiangqi.Move.from_iccs("h2e2")]
    assert len(deep.move_stack) == 2
    nested = copy.deepcopy({"boards": [board, board]})
    assert nested["boards"][0] == board


def test_setstate_rejects_bad_moves() -> None:
    board = Board()
    try:
        board.__setstate__("h2e2 e0e5")
    except xiangqi.IllegalMoveError as e:
        assert "cannot restore" in str(e)
    else:
        raise AssertionError("an illegal move in the state must be refused")
    assert board == Board() and board.move_stack == []


def test_multiprocessing_pool() -> None:
    boards = [_board_after(["h2e2", "h9g7"][:n]) for n in range(3)]
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(2) as pool:
        results = pool.map(_played, boards)
    assert results == [_played(b) for b in boards]
