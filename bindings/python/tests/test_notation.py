"""Move text: Board.san / parse_move / push_text / variation_san in every notation."""

from __future__ import annotations

import pytest

import xiangqi
from xiangqi import Board, Move

TANDEM = "4k4/9/9/9/3R5/9/9/3R5/9/5K3 w - - 0 1"


@pytest.mark.parametrize(
    "iccs, wxf, chinese, vietnamese",
    [
        ("h2e2", "C2=5", "炮二平五", "Pháo 2 bình 5"),
        ("h0g2", "H2+3", "马二进三", "Mã 2 tiến 3"),
        ("c0e2", "E7+5", "相七进五", "Tượng 7 tiến 5"),
        ("e0e1", "K5+1", "帅五进一", "Tướng 5 tiến 1"),
        ("h2h9", "C2+7", "炮二进七", "Pháo 2 tiến 7"),
    ],
)
def test_start_position_examples(iccs: str, wxf: str, chinese: str, vietnamese: str) -> None:
    board = Board()
    mv = Move.from_iccs(iccs)
    assert board.san(mv) == wxf
    assert board.san(mv, "chinese") == chinese
    assert board.san(mv, "vietnamese") == vietnamese
    assert board.san(mv, "iccs") == iccs
    for text in (iccs, wxf, chinese, vietnamese):
        assert board.parse_move(text) == mv
    assert board.parse_move(wxf, "wxf") == mv


def test_styles() -> None:
    board = Board()
    assert board.san("h0g2", "chinese", simplified=False) == "傌二進三"
    assert board.san("h2e2", "wxf", sideways=".") == "C2.5"
    assert board.san("h0g2", "vietnamese", diacritics=False) == "Ma 2 tien 3"
    board.push_iccs("h2e2")
    assert board.san("h9g7", "wxf", black_lowercase=True) == "h8+7"
    assert board.san("h9g7", "chinese", simplified=False) == "馬8進7"
    with pytest.raises(TypeError, match="unknown style keyword"):
        board.san("h9g7", "wxf", colour=True)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        board.san("h9g7", "wxf", simplified="yes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown notation"):
        board.san("h9g7", "klingon")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        board.san("h9g7", "auto")  # type: ignore[arg-type]


def test_wxf_reference_data(wxf_records: list) -> None:
    # The sample data is written in the Fairy-Stockfish convention (N-WXF-FSF).
    for rec in wxf_records:
        board = Board(rec["fen"])
        assert board.san(rec["move"], "wxf", wxf_convention="fsf") == rec["wxf"], rec["id"]
        assert str(board.parse_move(rec["wxf"], "wxf", wxf_convention="fsf")) == rec["move"]


def test_tandem_pieces_and_errors() -> None:
    board = Board(TANDEM)
    assert board.san("d5f5") == "R+=4"
    assert board.san("d2d1", "chinese") == "后车退一"
    assert board.parse_move("前车平四") == Move.from_iccs("d5f5")
    with pytest.raises(xiangqi.AmbiguousMoveError, match="d2d3, d5d6"):
        board.parse_move("R6+1")
    with pytest.raises(xiangqi.IllegalMoveError, match="no chariot on file 1"):
        board.parse_move("R1+4")
    with pytest.raises(xiangqi.IllegalMoveError, match="cannot move"):
        Board().parse_move("R1+4")
    with pytest.raises(xiangqi.InvalidMoveError):
        board.parse_move("zz")
    with pytest.raises(xiangqi.InvalidMoveError):
        board.parse_move("")
    with pytest.raises(xiangqi.IllegalMoveError):
        Board().san("e5e6")
    assert board.move_stack == () and board.fen() == TANDEM


def test_push_text_and_variation() -> None:
    board = Board()
    assert board.push_text("炮二平五") == Move.from_iccs("h2e2")
    assert board.push_text("H8+7", "wxf") == Move.from_iccs("h9g7")
    assert board.push_text("Mã 2 tiến 3") == Move.from_iccs("h0g2")
    assert [str(m) for m in board.move_stack] == ["h2e2", "h9g7", "h0g2"]
    line = Board().variation_san(["h2e2", "h9g7", "h0g2"], "chinese")
    assert line == ["炮二平五", "马8进7", "马二进三"]
    with pytest.raises(xiangqi.IllegalMoveError):
        Board().variation_san(["h2e2", "h2e2"])


def test_detect_notation() -> None:
    assert xiangqi.detect_notation("h2e2") == "iccs"
    assert xiangqi.detect_notation("C2=5") == "wxf"
    assert xiangqi.detect_notation("炮二平五") == "chinese"
    assert xiangqi.detect_notation("Phao 2 binh 5") == "vietnamese"
    assert xiangqi.detect_notation("hello") is None
    assert xiangqi.NOTATIONS == ["iccs", "wxf", "chinese", "vietnamese"]


def test_compact_vietnamese_round_trips() -> None:
    board = Board()
    for mv in board.legal_moves:
        text = board.san(mv, "vietnamese", vietnamese_short=True)
        assert board.parse_move(text, "vietnamese", vietnamese_short=True) == mv
    assert board.san("h2e2", "vietnamese", vietnamese_short=True) == "P2-5"


def test_ranks_one_to_ten_convert_explicitly() -> None:
    assert Move.from_ranks10("h3e3") == Move.from_iccs("h2e2")
    assert Move.from_ranks10("a10a9").iccs() == "a9a8"
    assert Move.from_iccs("h2e2").ranks10() == "h3e3"
    with pytest.raises(xiangqi.InvalidMoveError):
        Move.from_ranks10("h0e0")  # rank 0 only exists in ICCS
    with pytest.raises(xiangqi.InvalidMoveError):
        Move.from_ranks10("not a move")
