"""Board: construction, legal moves against the reference data, push/pop, queries."""

from __future__ import annotations

import pickle

import pytest

import xiangqi
from xiangqi import Board, Move, Piece, Square

START = xiangqi.STARTING_FEN


def test_start_position() -> None:
    board = Board()
    assert board.fen() == START
    assert Board(None) == board == Board(START)
    assert board.turn == xiangqi.RED
    assert len(board.legal_moves) == 44
    assert board.halfmove_clock == 0 and board.fullmove_number == 1
    assert not board.is_check() and not board.is_game_over()
    assert board.move_stack == ()


def test_legal_moves_match_reference(legal_records: list) -> None:
    for rec in legal_records:
        board = Board(rec["fen"])
        assert sorted(str(m) for m in board.legal_moves) == rec["moves"], rec["id"]
        assert board.is_check() == rec["in_check"], rec["id"]
        # The record's game_over is the board's: no legal move (mate or stalemate).
        assert (not board.legal_moves) == rec["game_over"], rec["id"]
        # The rules also end games with moves left (dead material, the no-capture rule).
        assert board.is_game_over() == (board.outcome() is not None), rec["id"]
        if rec["game_over"]:
            assert board.is_game_over(), rec["id"]
        assert board.is_checkmate() == (rec["reason"] == "checkmate"), rec["id"]
        assert board.is_stalemate() == (rec["reason"] == "stalemate"), rec["id"]
        assert board.turn == xiangqi.Color.parse(rec["side_to_move"])
        assert all(board.is_legal(m) for m in board.legal_moves)


def test_perft_matches_reference(perft_records: list) -> None:
    for rec in perft_records:
        board = Board(rec["fen"])
        for depth, count in enumerate(rec["counts"], start=1):
            if count > 200_000:
                break
            assert board.perft(depth) == count, (rec["id"], depth)


def test_push_pop_peek_and_stack() -> None:
    board = Board()
    board.push(Move.from_iccs("h2e2"))
    assert board.push_iccs("H9-G7") == Move.from_iccs("h9g7")
    board.push("b0c2")
    assert [str(m) for m in board.move_stack] == ["h2e2", "h9g7", "b0c2"]
    assert board.peek() == Move.from_iccs("b0c2")
    assert board.turn == xiangqi.BLACK
    assert board.fullmove_number == 2
    assert board.pop() == Move.from_iccs("b0c2")
    assert board.pop() == Move.from_iccs("h9g7")
    assert board.pop() == Move.from_iccs("h2e2")
    assert board == Board()
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(IndexError):
        board.peek()


def test_captures_reset_the_clock_and_fen_round_trips() -> None:
    board = Board()
    for text in ["h2e2", "h9g7", "e2e6"]:
        board.push_iccs(text)
    assert board.halfmove_clock == 0
    assert board.is_check() is False
    assert Board(board.fen()) == board
    assert board.root() == Board()
    assert board.legal_captures() == [m for m in board.legal_moves if board.is_capture(m)]


def test_illegal_and_invalid_moves() -> None:
    board = Board()
    with pytest.raises(xiangqi.IllegalMoveError, match="no red piece on e5"):
        board.push_iccs("e5e6")
    with pytest.raises(xiangqi.IllegalMoveError, match="cannot move"):
        board.push_iccs("a0b1")
    with pytest.raises(xiangqi.InvalidMoveError, match="invalid ICCS move"):
        board.push_iccs("h2e")
    with pytest.raises(xiangqi.InvalidMoveError):
        Move.from_iccs("h2h2")
    with pytest.raises(xiangqi.InvalidMoveError):
        Move("e0", "e0")
    with pytest.raises(TypeError):
        board.push(42)  # type: ignore[arg-type]
    # A pinned piece: the advisor may not leave the file between the generals.
    pinned = Board("4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1")
    with pytest.raises(xiangqi.IllegalMoveError, match="leaves the red general in check"):
        pinned.push_iccs("e1d2")
    assert sorted(map(str, pinned.legal_moves)) == ["e0d0", "e0f0"]
    assert pinned.fen() == "4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1", "failed push left the board alone"
    assert pinned.move_stack == ()


def test_invalid_fen_messages() -> None:
    for fen, message in [
        ("", "empty"),
        ("rnbakabnr/9/1c5c1", "ranks"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w - - 0 1", "unknown piece"),
        ("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "generals face"),
        ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x - - 0 1", "side to move"),
    ]:
        with pytest.raises(xiangqi.InvalidFenError, match=message):
            Board(fen)
    with pytest.raises(ValueError):
        Board().set_fen("junk")


def test_pieces_and_squares() -> None:
    board = Board()
    assert board.piece_at("e0") == Piece(xiangqi.RED, xiangqi.GENERAL)
    assert board.piece_at(Square("e9")) == Piece.from_symbol("k")
    assert board.piece_at(4) == board.piece_at(xiangqi.E0)
    assert board.piece_at("e5") is None
    pieces = board.pieces()
    assert len(pieces) == 32
    assert list(pieces)[:3] == [xiangqi.A0, xiangqi.B0, xiangqi.C0]
    cannons = board.pieces(color=xiangqi.BLACK, kind=xiangqi.CANNON)
    assert sorted(sq.name for sq in cannons) == ["b7", "h7"]
    assert board.general(xiangqi.BLACK) == xiangqi.E9
    assert set(board.legal_moves_from("h2")) == {
        m for m in board.legal_moves if m.from_square == xiangqi.H2
    }
    assert board.legal_moves_from("e5") == []
    with pytest.raises(ValueError, match="invalid square"):
        board.piece_at("j0")
    with pytest.raises(ValueError, match="not in 0 to 89"):
        board.piece_at(90)
    with pytest.raises(TypeError):
        board.piece_at(1.5)  # type: ignore[arg-type]


def test_check_queries() -> None:
    # EX: a chariot on the e-file checks the black general.
    board = Board("4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1")
    assert board.is_check()
    assert board.checkers() == [xiangqi.E1]
    assert board.attackers(xiangqi.RED, "e9") == [xiangqi.E1]
    assert board.is_attacked_by(xiangqi.RED, "e8")
    assert not board.is_attacked_by(xiangqi.BLACK, "a0")
    mate = Board("5k3/9/9/9/8R/9/9/9/9/4K4 w - - 0 1")
    assert mate.gives_check("i5f5")
    mate.push_iccs("i5f5")
    assert mate.is_checkmate() and mate.is_game_over() and not mate.is_stalemate()
    with pytest.raises(xiangqi.IllegalMoveError):
        Board().gives_check("e5e6")


def test_copy_eq_hash() -> None:
    board = Board()
    board.push_iccs("h2e2")
    clone = board.copy()
    assert clone == board and clone is not board
    assert clone.move_stack == board.move_stack
    assert board.copy(stack=False).move_stack == ()
    clone.push_iccs("h9g7")
    assert clone != board
    assert len({board, board.copy(), Board()}) == 2
    assert board.zobrist_hash() == Board(board.fen()).zobrist_hash()
    assert hash(board) == hash(Board(board.fen()))
    assert board != "not a board"
    # Transpositions reach the same hash.
    a, b = Board(), Board()
    for m in ["h2e2", "h9g7", "b0c2"]:
        a.push_iccs(m)
    for m in ["b0c2", "h9g7", "h2e2"]:
        b.push_iccs(m)
    assert a == b and a.zobrist_hash() == b.zobrist_hash()


def test_text_forms() -> None:
    board = Board()
    assert repr(board) == f"Board('{START}')"
    text = str(board)
    assert text.splitlines()[0].split() == list("abcdefghi")
    assert "r n b a k a b n r" in text and "river" in text
    assert text.endswith("red to move")


# A composed diagram (rule book diagram 71): a black soldier on i7, behind
# its starting rank, a point no black soldier reaches in play.
COMPOSED = "3a2b1r/4ak3/8p/7P1/9/9/9/B2NN3B/3K5/4p4 w - - 0 1"


def test_lenient_board_reads_composed_diagrams() -> None:
    with pytest.raises(xiangqi.InvalidFenError, match="can never stand on i7"):
        Board(COMPOSED)
    board = Board(COMPOSED, lenient=True)
    assert board.fen() == COMPOSED
    assert Board(COMPOSED, True) == board
    # The soldier moves by its ordinary rule: one point forward.
    black = Board(COMPOSED.replace(" w ", " b "), lenient=True)
    assert "i7i6" in {str(m) for m in black.legal_moves_from("i7")}
    board.push_iccs("d2e4")
    assert pickle.loads(pickle.dumps(board)) == board
    other = Board()
    other.set_fen(COMPOSED, lenient=True)
    assert other == Board(COMPOSED, lenient=True)
    with pytest.raises(xiangqi.InvalidFenError):
        other.set_fen(COMPOSED)


@pytest.mark.parametrize(
    ("fen", "message"),
    [
        ("9/9/9/9/9/9/9/9/9/4K4 w", "no general"),
        ("4k4/9/9/9/9/9/9/9/9/K8 w", "outside its palace"),
        ("4k4/9/9/9/9/9/9/9/9/4K3A w", "outside its palace"),
        ("4k4/9/9/9/B8/9/9/9/9/4K4 w", "across the river"),
        ("4k4/4R4/9/9/9/9/9/9/9/3K5 w", "is in check"),
        ("4k4/9/9/9/9/9/9/9/9/RRR1K4 w", "at most 2"),
    ],
)
def test_lenient_board_still_refuses_what_the_rules_cannot_handle(fen: str, message: str) -> None:
    with pytest.raises(xiangqi.InvalidFenError, match=message):
        Board(fen, lenient=True)
