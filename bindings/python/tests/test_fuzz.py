"""Fuzzing the public API: whatever Python passes in, only the documented
exceptions come out (ValueError and its subclasses for bad values, TypeError
for wrong types, IndexError for an empty move stack), never a Rust panic."""

from __future__ import annotations

import os
import random
from typing import Any, Callable

from hypothesis import given, settings
from hypothesis import strategies as st

import xiangqi
import xiangqi.svg
from xiangqi import Board, Move, Piece, PieceKind, Square

DOCUMENTED = (ValueError, TypeError, IndexError)

FEN_ALPHABET = "rnbakcpehRNBAKCPEH0123456789/ wrb-"

junk = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True),
    st.text(max_size=40),
    st.text(alphabet="abcdefghijABCDEFGHI0123456789-+=.", max_size=8),
    st.text(alphabet=FEN_ALPHABET, max_size=90),
    st.binary(max_size=20),
    st.lists(st.text(max_size=5), max_size=3),
    st.tuples(st.integers(-5, 95), st.integers(-5, 95)),
    st.sampled_from(["e0", "h2e2", "炮二平五", "\x00", "a0a1" * 70, xiangqi.STARTING_FEN]),
)


def call(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
    try:
        fn(*args, **kwargs)
    except DOCUMENTED:
        pass


@settings(max_examples=400, deadline=None)
@given(junk, junk)
def test_constructors_and_parsers(a: Any, b: Any) -> None:
    call(Board, a)
    call(Square, a)
    call(Square.from_coords, a, b)
    call(Move, a, b)
    call(Move.from_iccs, a)
    call(Piece.from_symbol, a)
    call(Piece, a, b)
    call(PieceKind.parse, a)
    call(xiangqi.Color.parse, a)
    call(xiangqi.encode_move, a)
    call(xiangqi.decode_move, a)
    call(xiangqi.fens_to_numpy, a)
    call(xiangqi.fens_to_numpy, [a, b])


@settings(max_examples=400, deadline=None)
@given(junk, junk)
def test_board_methods(a: Any, b: Any) -> None:
    board = Board()
    board.push_iccs("h2e2")
    for name in [
        "push", "push_iccs", "piece_at", "is_legal", "is_capture", "gives_check",
        "legal_moves_from", "set_fen", "general", "__setstate__",
    ]:
        call(getattr(board, name), a)
    call(board.attackers, a, b)
    call(board.is_attacked_by, a, b)
    call(board.pieces, a, b)
    call(board.copy, stack=a)
    if not (isinstance(a, int) and 4 <= a <= 10):  # deep perft is slow, not wrong
        call(board.perft, a)
    call(board.san, a, b)
    call(board.san, "h9g7", a)
    call(board.san, "h9g7", "wxf", **{"simplified": a})
    call(board.variation_san, [a, b])
    call(board.parse_move, a)
    call(board.parse_move, a, b)
    call(board.push_text, a)
    call(board.outcome, a)
    # Whatever happened, the board is still consistent.
    assert Board(board.fen()) == board


@settings(max_examples=200, deadline=None)
@given(junk, junk)
def test_pgn_and_engine(a: Any, b: Any) -> None:
    import io

    import xiangqi.pgn

    # A string is a path, and a folder or a pattern is a collection the
    # reader walks on purpose (a "/" would read the whole disk): junk here
    # means text that names no folder and holds no pattern.
    as_path = a
    if isinstance(a, str) and (os.path.isdir(a) or any(c in a for c in "*?[")):
        as_path = b""
    for source in (as_path, io.StringIO(a) if isinstance(a, str) else a, a if isinstance(a, bytes) else b""):
        try:
            for _ in xiangqi.pgn.read_games(source, errors=b):
                pass
        except (*DOCUMENTED, OSError):
            pass
    call(xiangqi.pgn.Game.from_pgn, a)
    text = f'[Event "x"]\n[FEN "{a}"]\n\n1. {b} *\n' if isinstance(a, str) else a
    call(xiangqi.pgn.Game.from_pgn, text)
    game = xiangqi.pgn.Game.from_pgn('[Event "x"]\n\n1. h2e2 h9g7 *\n')
    call(game.to_pgn, a)
    call(game.to_pgn, "wxf", a)
    call(game.adjudicate, a)
    call(game.set_header, a, b)
    call(xiangqi.pgn.Game.from_board, a, b)
    from xiangqi.engine import Limit, SimpleEngine

    engine = SimpleEngine.builtin(hash_mb=1)
    # A valid but large table is real memory (up to 32 GiB), not junk: such sizes become 1.
    call(SimpleEngine.builtin, hash_mb=a if not isinstance(a, int) or not 64 < a <= 32 * 1024 else 1)
    call(SimpleEngine.builtin, hash_mb=1, threads=a if not isinstance(a, int) or a < 1 or a > 4 else 2)
    shallow = a if not isinstance(a, int) or isinstance(a, bool) or not 3 <= a else 2

    # A junk limit is refused where it is made (Limit checks its fields).
    def analyse_within(**limit: Any) -> None:
        engine.analyse(Board(), Limit(**limit))

    call(analyse_within, depth=shallow)
    call(engine.analyse, Board(), Limit(depth=1), multipv=a)
    call(analyse_within, nodes=a if not isinstance(a, int) or a < 5000 else 10)
    call(analyse_within, mate=a if not isinstance(a, int) or isinstance(a, bool) or not 2 <= a else 1)
    call(analyse_within, red_clock=a if not isinstance(a, (int, float)) or a < 0 else 0.01, black_clock=b)
    call(engine.analyse, a, Limit(depth=1))
    call(analyse_within, time=a if not isinstance(a, (int, float)) or a < 0.05 else 0.01)
    call(engine.client.search, Board(), depth=1, timeout=b)


@settings(max_examples=150, deadline=None)
@given(junk, junk, junk)
def test_svg(a: Any, b: Any, c: Any) -> None:
    board = Board()
    call(xiangqi.svg.board, a)
    call(xiangqi.svg.board, board, lastmove=a, arrows=[b], squares=[c])
    call(xiangqi.svg.board, board, size=a, flipped=b, check=c)
    call(xiangqi.svg.board, board, colors={"red": a} if isinstance(a, str) else a)
    call(xiangqi.svg.piece, a, size=b)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=FEN_ALPHABET, min_size=20, max_size=120))
def test_fen_like_strings(text: str) -> None:
    try:
        board = Board(text)
    except xiangqi.InvalidFenError:
        return
    # Anything accepted is a coherent, re-readable position.
    assert Board(board.fen()) == board
    assert len(board.legal_moves) == sum(1 for _ in board.legal_moves)


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_random_playouts_keep_invariants(seed: int) -> None:
    rng = random.Random(seed)
    board = Board()
    for _ in range(rng.randrange(1, 120)):
        moves = board.legal_moves
        if not moves:
            assert board.is_game_over()
            break
        board.push(rng.choice(moves))
        again = Board(board.fen())
        assert again == board and again.zobrist_hash() == board.zobrist_hash()
    while board.move_stack:
        board.pop()
    assert board == Board()
