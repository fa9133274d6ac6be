"""Opening names: the ECCO classification (A00-E99) of a game or of moves
from the initial position. ``classify(game_or_moves)`` returns an
``Opening`` (``code``, ``name`` in simplified Chinese, ``name_traditional``,
``name_en``, ``ply``: the plies after which the code no longer changes), or
``None`` for a game from another position; ``Game.opening()`` is the same
for a game. ``codes()`` lists the 260 codes the system defines. See
docs/ecco.md.

>>> import xiangqi.ecco
>>> opening = xiangqi.ecco.classify(["h2e2", "h9g7", "h0g2", "b9c7"])
>>> opening.code, opening.name, opening.ply
('C00', '中炮对屏风马', 4)
>>> opening.name_en
'Central Cannon vs Screen Horses'
>>> len(xiangqi.ecco.codes())
260
"""

from __future__ import annotations

from xiangqi._xiangqi import Opening
from xiangqi._xiangqi import ecco_classify as classify
from xiangqi._xiangqi import ecco_codes as codes

__all__ = ["Opening", "classify", "codes"]
