"""Squares, moves, pieces and colours: constructors, reprs, conversions."""

from __future__ import annotations

import pytest

import xiangqi
from xiangqi import Color, Move, Piece, PieceKind, Square


def test_square() -> None:
    sq = Square("h2")
    assert (sq.file, sq.rank, sq.index, sq.name) == (7, 2, 25, "h2")
    assert Square(25) == sq == Square(sq) == Square.from_coords(7, 2) == xiangqi.H2
    assert repr(sq) == "Square('h2')" and str(sq) == "h2"
    assert int(sq) == 25 and list(range(90))[sq] == 25
    assert sq.flip_ranks() == Square("h7") and sq.flip_files() == Square("b2")
    assert Square("A0") < Square("b0") < Square("a1")
    assert len(set(xiangqi.SQUARES)) == 90 and xiangqi.SQUARES[89] == xiangqi.I9
    for bad in ["", "a", "a10", "j0", "e-1"]:
        with pytest.raises(ValueError):
            Square(bad)
    for bad_index in [-1, 90, 2**80]:
        with pytest.raises(ValueError):
            Square(bad_index)
    with pytest.raises(ValueError):
        Square.from_coords(9, 0)
    with pytest.raises(TypeError):
        Square(None)  # type: ignore[arg-type]


def test_move() -> None:
    mv = Move.from_iccs("h2e2")
    assert mv == Move("h2", "e2") == Move(xiangqi.H2, 22) == Move.from_iccs("H2-E2")
    assert mv.from_square == xiangqi.H2 and mv.to_square == xiangqi.E2
    assert str(mv) == mv.iccs() == "h2e2"
    assert repr(mv) == "Move.from_iccs('h2e2')"
    assert len({mv, Move.from_iccs("h2e2"), Move.from_iccs("h2h9")}) == 2
    for bad in ["", "h2", "h2e2x", "z2e2", "h2:e2", "炮二平五"]:
        with pytest.raises(xiangqi.InvalidMoveError):
            Move.from_iccs(bad)


def test_piece_and_kinds() -> None:
    p = Piece.from_symbol("R")
    assert p.color == xiangqi.RED and p.kind == xiangqi.CHARIOT
    assert p.symbol() == str(p) == "R" and p.name == "red chariot"
    assert repr(p) == "Piece.from_symbol('R')"
    assert p.chinese() == "俥" and p.chinese(simplified=True) == "车"
    assert Piece.from_symbol("c").chinese() == "砲"
    assert Piece(xiangqi.BLACK, xiangqi.GENERAL).chinese() == "將"
    assert Piece.from_symbol("H") == Piece.from_symbol("N")
    assert xiangqi.ELEPHANT.symbol() == "B" and xiangqi.ELEPHANT.wxf_symbol() == "E"
    assert str(xiangqi.HORSE) == "horse"
    assert PieceKind.parse("rook") == PieceKind.parse("r") == xiangqi.CHARIOT
    assert len(xiangqi.PIECE_KINDS) == 7
    for bad in ["", "X", "RR", "炮"]:
        with pytest.raises(ValueError):
            Piece.from_symbol(bad)
        with pytest.raises(ValueError):
            PieceKind.parse(bad)


def test_color() -> None:
    assert ~xiangqi.RED == xiangqi.BLACK == xiangqi.RED.opposite()
    assert str(xiangqi.RED) == "red" and repr(xiangqi.BLACK) == "Color.BLACK"
    assert Color.parse("w") == Color.parse("Red") == xiangqi.RED
    assert int(xiangqi.BLACK) == 1
    with pytest.raises(ValueError):
        Color.parse("green")


def test_exceptions_are_value_errors() -> None:
    for exc in [
        xiangqi.InvalidFenError,
        xiangqi.InvalidMoveError,
        xiangqi.IllegalMoveError,
        xiangqi.AmbiguousMoveError,
        xiangqi.PgnError,
    ]:
        assert issubclass(exc, ValueError)
        assert exc.__module__ == "xiangqi"
