"""An opening explorer over your own games: ``build`` indexes game files
(PGN, WXF, XQF, CBF, CBR, CBL; files, directories, patterns) into one file,
the same one ``xiangqi explore build`` writes; ``open(path).query(board)``
answers with the moves played from the board's position, most played first,
their counts, score for the side to move, mean rating and example games.
See the guide shipped beside it, ``xiangqi/guide/explorer.md``.

>>> import pathlib, tempfile, xiangqi, xiangqi.explorer
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> games = folder / "games.pgn"
>>> _ = games.write_text('[Red "A"]\\n[Black "B"]\\n1. h2e2 h9g7 1-0\\n\\n[Red "C"]\\n[Black "D"]\\n1. h2e2 b9c7 1/2-1/2\\n')
>>> report = xiangqi.explorer.build([games], folder / "openings.db")
>>> report["indexed"]
2
>>> explorer = xiangqi.explorer.open(folder / "openings.db")
>>> answer = explorer.query(xiangqi.Board())
>>> [(str(m["move"]), m["games"], m["score"]) for m in answer["moves"]]
[('h2e2', 2, 75.0)]
>>> answer["moves"][0]["examples"][0]["red"]
'A'
"""

from __future__ import annotations

from xiangqi._xiangqi import Explorer, ExplorerError
from xiangqi._xiangqi import build_explorer_file as build
from xiangqi._xiangqi import open_explorer as open

__all__ = ["Explorer", "ExplorerError", "build", "open"]
