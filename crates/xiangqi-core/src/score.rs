//! A position's evaluation as engines report it: centipawns or a mate
//! distance, from the side to move's point of view. The core holds it
//! because both our own search and the external-engine client speak it,
//! and neither may depend on the other.

use std::cmp::Ordering;
use std::fmt;

use crate::winrate::{Wdl, WinRateModel};
use crate::Color;

/// An evaluation from one side's point of view (the side to move's, unless
/// said otherwise).
///
/// `Mate(n)` with `n > 0`: this side mates in `n` moves (its own moves);
/// `n < 0`: it is mated in `-n` moves; `Mate(0)`: it is mated now (no legal
/// move). Repetitions lost or won by rule (perpetual check, R-REP-VERDICT)
/// end the game like a mate and are reported the same way.
///
/// Scores order from worst to best for the side whose view they are: mated
/// now, mated later, any centipawn score, mating later, mating sooner.
///
/// ```
/// use xiangqi_core::{Color, Score};
/// assert_eq!(Score::Mate(2).to_string(), "mate 2");
/// assert_eq!(Score::Cp(-35).to_string(), "cp -35");
/// assert_eq!(Score::Cp(-35).for_red(Color::Black), Score::Cp(35));
/// assert!(Score::Mate(-1) < Score::Cp(-5000) && Score::Cp(5000) < Score::Mate(3));
/// assert!(Score::Mate(0) < Score::Mate(-4) && Score::Mate(3) < Score::Mate(1));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Score {
    /// Centipawns (a soldier on its own half is worth about 100).
    Cp(i32),
    /// Moves to mate (see the type's documentation for the sign).
    Mate(i32),
}

impl Score {
    /// The same evaluation from the other side's point of view.
    pub fn flipped(self) -> Score {
        match self {
            Score::Cp(v) => Score::Cp(v.saturating_neg()),
            Score::Mate(n) => Score::Mate(n.saturating_neg()),
        }
    }

    /// Red's view of a score that is `mover`'s view.
    pub fn for_red(self, mover: Color) -> Score {
        match mover {
            Color::Red => self,
            Color::Black => self.flipped(),
        }
    }

    /// True for mate scores.
    pub fn is_mate(self) -> bool {
        matches!(self, Score::Mate(_))
    }

    /// The win, draw and loss chances in per mille of the side whose view
    /// this is, `ply` plies into the game, by the fitted
    /// [`WinRateModel`](crate::winrate::WinRateModel).
    pub fn wdl(self, ply: u32) -> Wdl {
        WinRateModel::FITTED.wdl(self, ply)
    }

    /// The expected game score (P(win) + P(draw) / 2, 0.0 to 1.0) of the
    /// side whose view this is, `ply` plies into the game, by the fitted
    /// win-rate model; 1.0 or 0.0 for a mate.
    pub fn expected_score(self, ply: u32) -> f64 {
        WinRateModel::FITTED.expected_score(self, ply)
    }

    /// [`expected_score`](Score::expected_score) when the ply is not known,
    /// taken at [`REFERENCE_PLY`].
    pub fn winning_chance(self) -> f64 {
        self.expected_score(REFERENCE_PLY)
    }

    /// A key that sorts as the scores do: the band (mated, centipawns,
    /// mating), then the place in it. Within both mate bands a smaller `n`
    /// is worse: mated now (0) is worse than mated later (-4), mating in 3
    /// worse than mating in 1.
    fn order_key(self) -> (u8, i64) {
        match self {
            Score::Mate(n) if n <= 0 => (0, -i64::from(n)),
            Score::Cp(v) => (1, i64::from(v)),
            Score::Mate(n) => (2, -i64::from(n)),
        }
    }
}

/// The ply at which [`Score::winning_chance`] reads the model when the
/// caller knows none (python-chess's default for its `wdl()`).
pub const REFERENCE_PLY: u32 = 30;

impl Ord for Score {
    fn cmp(&self, other: &Score) -> Ordering {
        self.order_key().cmp(&other.order_key())
    }
}

impl PartialOrd for Score {
    fn partial_cmp(&self, other: &Score) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// `cp 35` or `mate 3`, as UCI writes it.
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(v) => write!(f, "cp {v}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views() {
        assert_eq!(Score::Mate(-3).flipped(), Score::Mate(3));
        assert_eq!(Score::Cp(i32::MIN).flipped(), Score::Cp(i32::MAX));
        assert_eq!(Score::Cp(40).for_red(Color::Red), Score::Cp(40));
        assert_eq!(Score::Mate(2).for_red(Color::Black), Score::Mate(-2));
        assert!(Score::Mate(1).is_mate() && !Score::Cp(1).is_mate());
    }

    #[test]
    fn winning_chances() {
        assert!((Score::Cp(0).winning_chance() - 0.5).abs() < 1e-12);
        assert_eq!(
            Score::Cp(80).winning_chance(),
            Score::Cp(80).expected_score(REFERENCE_PLY)
        );
        assert_eq!(
            Score::Cp(80).wdl(50),
            WinRateModel::FITTED.wdl(Score::Cp(80), 50)
        );
        assert!(Score::Cp(300).winning_chance() > Score::Cp(100).winning_chance());
        assert_eq!(Score::Mate(2).winning_chance(), 1.0);
        assert_eq!(Score::Mate(-2).winning_chance(), 0.0);
        assert_eq!(Score::Mate(0).winning_chance(), 0.0);
    }

    #[test]
    fn order_from_worst_to_best() {
        let worst_first = [
            Score::Mate(0),
            Score::Mate(-1),
            Score::Mate(-7),
            Score::Cp(i32::MIN),
            Score::Cp(-1),
            Score::Cp(0),
            Score::Cp(i32::MAX),
            Score::Mate(9),
            Score::Mate(1),
        ];
        for pair in worst_first.windows(2) {
            assert!(pair[0] < pair[1], "{:?} < {:?}", pair[0], pair[1]);
        }
    }

    #[cfg(feature = "serde")]
    #[test]
    fn serde_names() {
        assert_eq!(serde_json::to_string(&Score::Cp(5)).unwrap(), r#"{"cp":5}"#);
        assert_eq!(
            serde_json::to_string(&Score::Mate(-2)).unwrap(),
            r#"{"mate":-2}"#
        );
    }
}
