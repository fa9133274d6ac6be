"""``Board.status()``'s flags: what keeps a hand-built board from being a
position the rules can play from (the core's checks, named as its
``FenError`` kinds)."""

from __future__ import annotations

import enum


class Status(enum.IntFlag):
    """``Status.VALID`` (0) when nothing is wrong; otherwise one flag per
    problem, e.g. ``Status.MISSING_GENERAL in board.status()``."""

    VALID = 0
    TOO_MANY_PIECES = 1 << 0
    MISSING_GENERAL = 1 << 1
    GENERAL_OUTSIDE_PALACE = 1 << 2
    UNREACHABLE_SQUARE = 1 << 3
    OUTSIDE_ITS_AREA = 1 << 4
    GENERALS_FACING = 1 << 5
    OPPONENT_IN_CHECK = 1 << 6
    BOTH_IN_CHECK = 1 << 7
