"""Xiangqi (Chinese chess) for Python, written in Rust.

>>> import xiangqi
>>> board = xiangqi.Board()
>>> len(board.legal_moves)
44
>>> board.push_iccs("h2e2")
Move.from_iccs('h2e2')
>>> board.fen()
'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1'

The guide to every function ships with the package: ``xiangqi.GUIDE`` is
its path (``xiangqi/guide/python.md``, the project's docs/python.md), with
``xiangqi/guide/engine-client.md`` beside it.
"""

from __future__ import annotations

from pathlib import Path
from typing import NoReturn

from xiangqi._xiangqi import (
    MOVE_ENCODING_SIZE,
    NOTATIONS,
    RULE_SETS,
    STARTING_FEN,
    AmbiguousMoveError,
    Board,
    Color,
    EngineError,
    IllegalMoveError,
    InvalidFenError,
    LegalMoves,
    InvalidMoveError,
    Move,
    PgnError,
    Piece,
    PieceKind,
    PlayerRating,
    Ratings,
    Score,
    Square,
    Verdict,
    __version__,
    decode_move,
    detect_notation,
    encode_move,
    expected_score,
    fens_to_numpy,
    game_accuracy,
    move_accuracy,
    rate,
    wdl,
)
from xiangqi import ecco, engine, nnue, pgn, svg
from xiangqi._status import Status

#: The guide to the module, shipped with it (the project's docs/python.md).
GUIDE = Path(__file__).resolve().parent / "guide" / "python.md"

#: ``board.status() == STATUS_VALID``: nothing keeps the board from play.
STATUS_VALID = Status.VALID

RED = Color.RED
BLACK = Color.BLACK
COLORS = [RED, BLACK]

GENERAL = PieceKind.GENERAL
ADVISOR = PieceKind.ADVISOR
ELEPHANT = PieceKind.ELEPHANT
HORSE = PieceKind.HORSE
CHARIOT = PieceKind.CHARIOT
CANNON = PieceKind.CANNON
SOLDIER = PieceKind.SOLDIER
PIECE_KINDS = [GENERAL, ADVISOR, ELEPHANT, HORSE, CHARIOT, CANNON, SOLDIER]

#: All 90 squares in index order (a0, b0, ..., i9).
SQUARES = [Square(i) for i in range(90)]
FILE_NAMES = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
RANK_NAMES = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]

# Square constants A0 ... I9, as in python-chess.
# fmt: off
A0, B0, C0, D0, E0, F0, G0, H0, I0, \
A1, B1, C1, D1, E1, F1, G1, H1, I1, \
A2, B2, C2, D2, E2, F2, G2, H2, I2, \
A3, B3, C3, D3, E3, F3, G3, H3, I3, \
A4, B4, C4, D4, E4, F4, G4, H4, I4, \
A5, B5, C5, D5, E5, F5, G5, H5, I5, \
A6, B6, C6, D6, E6, F6, G6, H6, I6, \
A7, B7, C7, D7, E7, F7, G7, H7, I7, \
A8, B8, C8, D8, E8, F8, G8, H8, I8, \
A9, B9, C9, D9, E9, F9, G9, H9, I9 = SQUARES
# fmt: on

# Static, so type checkers (mypy --strict, pyright) see every export.
__all__ = [
    "MOVE_ENCODING_SIZE", "NOTATIONS", "RULE_SETS", "STARTING_FEN", "AmbiguousMoveError", "Board",
    "Color", "EngineError", "IllegalMoveError", "InvalidFenError", "InvalidMoveError", "LegalMoves", "Move",
    "PgnError", "Piece", "PieceKind", "PlayerRating", "Ratings", "Score", "Square", "Verdict",
    "__version__", "decode_move", "detect_notation", "ecco", "encode_move", "engine", "expected_score",
    "fens_to_numpy", "game_accuracy", "move_accuracy", "nnue", "pgn", "rate", "svg", "wdl", "RED", "BLACK",
    "COLORS", "GENERAL", "ADVISOR", "ELEPHANT", "HORSE", "CHARIOT", "CANNON", "SOLDIER",
    "GUIDE", "PIECE_KINDS", "STATUS_VALID", "Status", "SQUARES", "FILE_NAMES", "RANK_NAMES",
    "A0", "B0", "C0", "D0", "E0", "F0", "G0", "H0", "I0",
    "A1", "B1", "C1", "D1", "E1", "F1", "G1", "H1", "I1",
    "A2", "B2", "C2", "D2", "E2", "F2", "G2", "H2", "I2",
    "A3", "B3", "C3", "D3", "E3", "F3", "G3", "H3", "I3",
    "A4", "B4", "C4", "D4", "E4", "F4", "G4", "H4", "I4",
    "A5", "B5", "C5", "D5", "E5", "F5", "G5", "H5", "I5",
    "A6", "B6", "C6", "D6", "E6", "F6", "G6", "H6", "I6",
    "A7", "B7", "C7", "D7", "E7", "F7", "G7", "H7", "I7",
    "A8", "B8", "C8", "D8", "E8", "F8", "G8", "H8", "I8",
    "A9", "B9", "C9", "D9", "E9", "F9", "G9", "H9", "I9",
]

# Names of the former second engine API, kept only to say what replaced them.
_REPLACED = {
    "Engine": "xiangqi.Engine was replaced by xiangqi.engine.SimpleEngine.builtin(); see the guide, xiangqi.GUIDE",
    "Analysis": "xiangqi.Analysis was replaced by xiangqi.engine.EngineInfo, "
    "what SimpleEngine.analyse returns; see the guide, xiangqi.GUIDE",
}


def __getattr__(name: str) -> NoReturn:
    if name in _REPLACED:
        raise AttributeError(_REPLACED[name])
    raise AttributeError(f"module 'xiangqi' has no attribute {name!r}")
