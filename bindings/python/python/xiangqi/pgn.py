"""Game records from game files, PGN, WXF game files (``FORMAT WXF … START{ … }END``),
XQF and CCBridge's CBF, CBR and CBL: read them lazily, walk their move trees
(``GameNode``), inspect, adjudicate, write them back (``to_pgn``, ``to_wxf``).
``shards(path, n)`` cuts a file into byte ranges at game starts (``Shard``)
that ``read_games(path, start=, end=)`` reads one at a time, for processes
or cluster workers that each take a part of one file. ``map_games(path,
"check" | "adjudicate" | "read", jobs=N)`` does our own per-game work on
every game on N threads without the GIL: one ``GameReport`` per game, in
file order.

>>> import io, xiangqi.pgn
>>> text = '[Event "demo"]\\n[Red "A"]\\n[Black "B"]\\n\\n1. h2e2 h9g7 2. h0g2 {a comment} 1-0\\n'
>>> game = next(xiangqi.pgn.read_games(io.StringIO(text)))
>>> game.headers["Red"], [str(m) for m in game.moves], game.result
('A', ['h2e2', 'h9g7', 'h0g2'], '1-0')
>>> game.board().fen()
'rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 2'
>>> again = next(xiangqi.pgn.read_games(game.to_wxf().encode()))  # a WXF game file, detected
>>> again.moves == game.moves, again.notation
(True, 'wxf')
>>> tree = xiangqi.pgn.Game.from_pgn("1. h2e2 h9g7 (1... b9c7 2. h0g2) 2. h0g2 *")
>>> [[str(m) for m in line] for line in tree.lines()]
[['h2e2', 'h9g7', 'h0g2'], ['h2e2', 'b9c7', 'h0g2']]
>>> reply = tree.variations[0].variations[1]
>>> str(reply.move), str(reply.parent.move), [str(n.move) for n in reply.mainline()]
('b9c7', 'h2e2', ['h0g2'])
"""

from __future__ import annotations

import enum
import weakref
from typing import IO, Any, Generic, Optional, TypeVar, overload

from xiangqi._xiangqi import Board, Move

from xiangqi._views import Headers, Nags
from xiangqi._xiangqi import Game, GameIterator, GameNode, GameReport, Shard, map_games, read_games, shards

__all__ = [
    "BaseVisitor", "Game", "GameIterator", "GameNode", "GameReport", "Headers", "Nags", "SKIP", "Shard",
    "SkipType", "map_games", "read_game", "read_games", "read_headers", "shards",
]

# One reader per open handle, so that successive ``read_game(handle)`` calls
# go on where the last one stopped. The reader reads the handle ahead in
# chunks: mixing ``read_game`` with the handle's own ``read``/``seek`` is not
# supported (``read_games`` is the streaming reader to use then).
_readers: "weakref.WeakKeyDictionary[Any, GameIterator]" = weakref.WeakKeyDictionary()


def _reader(handle: IO[Any]) -> GameIterator:
    reader = _readers.get(handle)
    if reader is None:
        reader = read_games(handle)
        _readers[handle] = reader
    return reader


ResultT = TypeVar("ResultT")


class SkipType(enum.Enum):
    """The type of :data:`SKIP`."""

    SKIP = "skip"


#: As in python-chess: ``end_headers`` returning it skips the game's moves,
#: ``begin_variation`` returning it skips that variation.
SKIP = SkipType.SKIP


class BaseVisitor(Generic[ResultT]):
    """python-chess's visitor: subclass it, override what you need, and
    pass the class to ``read_game(handle, Visitor=...)``, which returns
    ``result()``. The game is read by the Rust reader first; the visitor
    walks it in file order (headers, then each move with the board before
    it, its comment and NAGs, variations between ``begin_variation`` and
    ``end_variation``, the result). ``end_headers`` returning :data:`SKIP`
    skips the moves (the cheap way to read only tags)."""

    def begin_game(self) -> None: ...

    def visit_header(self, tagname: str, tagvalue: str) -> None: ...

    def end_headers(self) -> Optional[SkipType]:
        return None

    def visit_move(self, board: Board, move: Move) -> None: ...

    def visit_comment(self, comment: str) -> None: ...

    def visit_nag(self, nag: int) -> None: ...

    def begin_variation(self) -> Optional[SkipType]:
        return None

    def end_variation(self) -> None: ...

    def visit_result(self, result: str) -> None: ...

    def end_game(self) -> None: ...

    def result(self) -> ResultT:
        raise NotImplementedError("a visitor returns what it gathered from result()")


def _walk(visitor: BaseVisitor[Any], node: GameNode, board: Board) -> None:
    """Visits the moves after ``node`` (whose position ``board`` holds) in
    PGN order: the main continuation's move, its alternatives as
    variations, then the rest of the main line."""
    while True:
        children = node.variations
        if not children:
            return
        main = children[0]
        played = _visit_move(visitor, main, board)
        for alternative in children[1:]:
            if visitor.begin_variation() is SKIP:
                continue
            if alternative.starting_comment:
                visitor.visit_comment(alternative.starting_comment)
            branch = board.copy()
            branch.push(_visit_move(visitor, alternative, branch))
            _walk(visitor, alternative, branch)
            visitor.end_variation()
        board.push(played)
        node = main


def _visit_move(visitor: BaseVisitor[Any], node: GameNode, board: Board) -> Move:
    """Visits the node's move (with the board before it), NAGs and comment;
    returns the move."""
    move = node.move
    if move is None:
        raise ValueError("a game node below the root has no move")
    visitor.visit_move(board, move)
    for nag in sorted(node.nags):
        visitor.visit_nag(nag)
    if node.comment:
        visitor.visit_comment(node.comment)
    return move


def _visit(game: Game, visitor: BaseVisitor[ResultT]) -> ResultT:
    visitor.begin_game()
    for name, value in game.headers.items():
        visitor.visit_header(name, value)
    if visitor.end_headers() is not SKIP:
        if game.comment:
            visitor.visit_comment(game.comment)
        _walk(visitor, game.root(), game.start_board())
    visitor.visit_result(game.result)
    visitor.end_game()
    return visitor.result()


@overload
def read_game(handle: IO[Any]) -> Optional[Game]: ...


@overload
def read_game(handle: IO[Any], *, Visitor: type[BaseVisitor[ResultT]]) -> Optional[ResultT]: ...


def read_game(handle: IO[Any], *, Visitor: Optional[type[BaseVisitor[Any]]] = None) -> Optional[Any]:
    """The next game of an open file (text or binary), or ``None`` at its
    end, as python-chess's ``chess.pgn.read_game``: call it again for the
    game after. Broken games come back with ``errors``, as from
    ``read_games``. With ``Visitor=`` (a :class:`BaseVisitor` subclass),
    the game is walked by a new visitor and its ``result()`` returned."""
    game = next(_reader(handle), None)
    if game is None or Visitor is None:
        return game
    return _visit(game, Visitor())


def read_headers(handle: IO[Any]) -> Optional[Headers]:
    """The tags of the next game of an open file, or ``None`` at its end
    (python-chess's ``chess.pgn.read_headers``). The game is read whole (our
    reader is fast enough that skipping its moves would save little); its
    headers are those of ``read_game``."""
    game = read_game(handle)
    return None if game is None else game.headers
