"""SVG rendering: the picture is well-formed and contains what was asked for."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

import xiangqi
import xiangqi.svg
from xiangqi import Board

NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def classes(root: ET.Element, name: str) -> list:
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


def texts(root: ET.Element) -> list:
    return [e.text for e in root.iter(NS + "text")]


def test_start_board() -> None:
    root = parse(xiangqi.svg.board(Board(), size=400))
    assert root.get("width") == "400"
    assert len(classes(root, "piece")) == 32
    assert len(classes(root, "red")) == 16 and len(classes(root, "black")) == 16
    words = texts(root)
    assert "楚河" in words and "漢界" in words
    for char in "帥仕相傌俥炮兵將士象馬車砲卒":
        assert char in words
    assert not classes(root, "check") and not classes(root, "lastmove")
    # 10 ranks, 2 edge files, 7 inner files in two halves, 4 palace diagonals.
    assert len(list(root.iter(NS + "line"))) == 10 + 2 + 14 + 4


def test_lastmove_check_arrows_squares() -> None:
    board = Board("4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1")
    svg = xiangqi.svg.board(
        board, lastmove="e2e1", arrows=["e9d9", ("e1", "e8", "red")], squares=["d9", "f9"]
    )
    root = parse(svg)
    assert len(classes(root, "lastmove")) == 2
    assert len(classes(root, "check")) == 1
    assert len(classes(root, "arrow")) == 2
    assert len(classes(root, "mark")) == 2
    assert not classes(parse(xiangqi.svg.board(board, check=False)), "check")
    assert len(classes(parse(xiangqi.svg.board(Board(), check="e0")), "check")) == 1


def test_flipped_and_coordinates() -> None:
    plain = parse(xiangqi.svg.board(Board()))
    flipped = parse(xiangqi.svg.board(Board(), flipped=True))

    def general_y(root: ET.Element, color: str) -> float:
        piece = [e for e in classes(root, "general") if color in e.get("class", "")][0]
        return float(piece.find(NS + "text").get("y"))  # type: ignore[union-attr]

    assert general_y(plain, "red") > general_y(plain, "black")
    assert general_y(flipped, "red") < general_y(flipped, "black")
    assert "a" in texts(plain)
    assert "a" not in texts(parse(xiangqi.svg.board(Board(), coordinates=False)))
    assert len(classes(parse(xiangqi.svg.board(None)), "piece")) == 0


def test_repr_svg_and_piece() -> None:
    board = Board()
    board.push_iccs("h2e2")
    root = parse(board._repr_svg_())
    assert len(classes(root, "lastmove")) == 2
    picture = xiangqi.svg.board(board)
    assert picture._repr_svg_() == picture and picture._repr_html_() == picture
    one = parse(xiangqi.svg.piece(xiangqi.Piece.from_symbol("r"), size=50))
    assert texts(one) == ["車"]
    assert "车" in texts(parse(xiangqi.svg.board(Board(), simplified=True)))


def test_bad_arguments() -> None:
    with pytest.raises(TypeError):
        xiangqi.svg.board("rnbakabnr")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        xiangqi.svg.board(Board(), size=0)
    with pytest.raises(xiangqi.InvalidMoveError):
        xiangqi.svg.board(Board(), lastmove="zz")
    with pytest.raises(ValueError):
        xiangqi.svg.board(Board(), arrows=[("e0", "z9")])
    with pytest.raises(TypeError):
        xiangqi.svg.board(Board(), arrows=[42])  # type: ignore[list-item]
    with pytest.raises(ValueError):
        xiangqi.svg.board(Board(), colors={"nope": "#fff"})
    # Colour values are escaped, never break the XML.
    parse(xiangqi.svg.board(Board(), colors={"red": '"><script>'}))


def test_an_arrow_from_a_point_to_itself_is_a_ring() -> None:
    # Found by test_fuzz's test_svg: a zero-length arrow divided by zero.
    picture = xiangqi.svg.board(Board(), arrows=[("e4", "e4", "blue")])
    assert '<circle class="arrow"' in picture and 'stroke="blue"' in picture
