//! Scores: the internal integer scale and its conversion to the public
//! [`Score`] (centipawns or mate distance), which is the core's: the
//! engine-client crate reports external engines' scores in the same type.

pub use xiangqi_core::Score;

/// Internal score of a mate delivered at the root (mated in 0 plies is `-MATE`).
pub(crate) const MATE: i32 = 30_000;
/// Scores at or beyond this magnitude are mate scores.
pub(crate) const MATE_BOUND: i32 = MATE - 1_000;
/// Larger than any reachable score: the initial alpha-beta window.
pub(crate) const INFINITY: i32 = MATE + 1;

/// The public score of an internal one (mate scores relative to the root).
pub(crate) fn from_internal(v: i32) -> Score {
    if v >= MATE_BOUND {
        Score::Mate((MATE - v + 1) / 2)
    } else if v <= -MATE_BOUND {
        Score::Mate(-((MATE + v) / 2))
    } else {
        Score::Cp(v)
    }
}

/// The score on one scale, for weighing (skill levels pick among lines by
/// how far apart they are): centipawns, with a mate in `n` moves as
/// `±(30000 - 2n)` (beyond any centipawn score the search returns). It
/// sorts as [`Score`]'s own order does for every score the search makes.
pub(crate) fn ordinal(score: Score) -> i32 {
    match score {
        Score::Cp(v) => v,
        Score::Mate(n) if n > 0 => MATE - 2 * n,
        Score::Mate(n) => -MATE + 2 * -n,
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
        assert_eq!(from_internal(MATE - 1), Score::Mate(1));
        assert_eq!(from_internal(MATE - 3), Score::Mate(2));
        // Mated at the root (no move) and after our one move.
        assert_eq!(from_internal(-MATE), Score::Mate(0));
        assert_eq!(from_internal(-MATE + 2), Score::Mate(-1));
        assert_eq!(from_internal(17), Score::Cp(17));
    }

    #[test]
    fn ordinal_sorts_as_scores_do() {
        let scores = [-MATE, -MATE + 2, -400, 0, 400, MATE - 3, MATE - 1].map(from_internal);
        for pair in scores.windows(2) {
            assert!(pair[0] < pair[1] && ordinal(pair[0]) < ordinal(pair[1]));
        }
    }

    #[test]
    fn tt_round_trip() {
        for v in [MATE - 5, -MATE + 8, 120, -3] {
            assert_eq!(from_tt(to_tt(v, 7), 7), v);
        }
        assert_eq!(to_tt(MATE - 9, 4), MATE - 5);
    }
}
