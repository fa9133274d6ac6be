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

import weakref
from typing import IO, Any, Optional

from xiangqi._views import Headers, Nags
from xiangqi._xiangqi import Game, GameIterator, GameNode, GameReport, Shard, map_games, read_games, shards

__all__ = [
    "Game", "GameIterator", "GameNode", "GameReport", "Headers", "Nags", "Shard", "map_games", "read_game",
    "read_games", "read_headers", "shards",
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


def read_game(handle: IO[Any]) -> Optional[Game]:
    """The next game of an open file (text or binary), or ``None`` at its
    end, as python-chess's ``chess.pgn.read_game``: call it again for the
    game after. Broken games come back with ``errors``, as from
    ``read_games``."""
    return next(_reader(handle), None)


def read_headers(handle: IO[Any]) -> Optional[Headers]:
    """The tags of the next game of an open file, or ``None`` at its end
    (python-chess's ``chess.pgn.read_headers``). The game is read whole (our
    reader is fast enough that skipping its moves would save little); its
    headers are those of ``read_game``."""
    game = read_game(handle)
    return None if game is None else game.headers
