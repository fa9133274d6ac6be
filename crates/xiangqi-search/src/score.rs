//! Scores: the internal integer scale and the public [`Score`] (centipawns or mate distance).

/// Internal score of a mate delivered at the root (mated in 0 plies is `-MATE`).
pub(crate) const MATE: i32 = 30_000;
/// Scores at or beyond this magnitude are mate scores.
pub(crate) const MATE_BOUND: i32 = MATE - 1_000;
/// Larger than any reachable score: the initial alpha-beta window.
pub(crate) const INFINITY: i32 = MATE + 1;

/// A search score from the point of view of the side to move.
///
/// `Mate(n)` with `n > 0`: the side to move mates in `n` moves (its own moves);
/// `n < 0`: it is mated in `-n` moves; `Mate(0)`: it is mated now (no legal move).
/// Repetitions lost or won by rule (perpetual check, R-REP-VERDICT) end the
/// game like a mate and are reported the same way.
///
/// ```
/// use xiangqi_search::Score;
/// assert_eq!(Score::Mate(2).to_string(), "mate 2");
/// assert_eq!(Score::Cp(-35).to_string(), "cp -35");
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Score {
    /// Centipawns (a soldier on its own half is worth about 100).
    Cp(i32),
    /// Mate distance in moves (see the type's documentation for the sign).
    Mate(i32),
}

impl Score {
    /// Converts an internal score (mate scores relative to the root).
    pub(crate) fn from_internal(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-((MATE + v) / 2))
        } else {
            Score::Cp(v)
        }
    }

    /// The score on one scale, for comparing and weighing: centipawns, with a
    /// mate in `n` moves as `±(30000 - 2n)` (beyond any centipawn score).
    pub fn ordinal(self) -> i32 {
        match self {
            Score::Cp(v) => v,
            Score::Mate(n) if n > 0 => MATE - 2 * n,
            Score::Mate(n) => -MATE + 2 * -n,
        }
    }

    /// True for mate scores.
    pub fn is_mate(self) -> bool {
        matches!(self, Score::Mate(_))
    }
}

impl std::fmt::Display for Score {
    /// The UCI form: `cp N` or `mate N`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Cp(v) => write!(f, "cp {v}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// Mate scores are stored in the transposition table relative to the node,
/// not the root, so that they stay right when the entry is found at another ply.
pub(crate) fn to_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v + ply as i32
    } else if v <= -MATE_BOUND {
        v - ply as i32
    } else {
        v
    }
}

/// Inverse of [`to_tt`].
pub(crate) fn from_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v - ply as i32
    } else if v <= -MATE_BOUND {
        v + ply as i32
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_distances() {
        // Mate delivered on our first move: the mated node is at ply 1.
        assert_eq!(Score::from_internal(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_internal(MATE - 3), Score::Mate(2));
        // Mated at the root (no move) and after our one move.
        assert_eq!(Score::from_internal(-MATE), Score::Mate(0));
        assert_eq!(Score::from_internal(-MATE + 2), Score::Mate(-1));
        assert_eq!(Score::from_internal(17), Score::Cp(17));
    }

    #[test]
    fn tt_round_trip() {
        for v in [MATE - 5, -MATE + 8, 120, -3] {
            assert_eq!(from_tt(to_tt(v, 7), 7), v);
        }
        assert_eq!(to_tt(MATE - 9, 4), MATE - 5);
    }
}
