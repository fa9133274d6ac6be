//! Typed evaluations as engines report them: centipawns or a mate distance,
//! exact or a bound, from the side to move's point of view.

use std::fmt;

use xiangqi_core::Color;

/// An evaluation from one side's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Score {
    /// Centipawns (a soldier on its own half is worth about 100).
    Cp(i32),
    /// Moves to mate: positive, this side mates; negative, it is mated.
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

    /// The chance of winning, 0.0 to 1.0, of the side whose view this is:
    /// a logistic curve of the centipawns (see `docs/engine-client.md`);
    /// 1.0 or 0.0 for a mate.
    pub fn winning_chance(self) -> f64 {
        match self {
            Score::Cp(cp) => 1.0 / (1.0 + (-f64::from(cp) / WINNING_CHANCE_SCALE).exp()),
            Score::Mate(n) if n > 0 => 1.0,
            // Mated (0: mated now).
            Score::Mate(_) => 0.0,
        }
    }
}

/// Centipawns at which the winning chance is 1/(1+e^-1), about 73%.
pub const WINNING_CHANCE_SCALE: f64 = 250.0;

/// `cp 35` or `mate 3`, as UCI writes it.
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(v) => write!(f, "cp {v}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// Whether a reported score is exact or only a bound (a search that failed
/// high or low in its aspiration window).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Bound {
    #[default]
    Exact,
    /// The true score is at least this (`lowerbound`).
    Lower,
    /// The true score is at most this (`upperbound`).
    Upper,
}

impl Bound {
    /// The bound from the other side's point of view.
    pub fn flipped(self) -> Bound {
        match self {
            Bound::Exact => Bound::Exact,
            Bound::Lower => Bound::Upper,
            Bound::Upper => Bound::Lower,
        }
    }

    /// `exact`, `lowerbound` or `upperbound`.
    pub fn name(self) -> &'static str {
        match self {
            Bound::Exact => "exact",
            Bound::Lower => "lowerbound",
            Bound::Upper => "upperbound",
        }
    }
}

/// A score with its bound, from the side to move's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Evaluation {
    pub score: Score,
    pub bound: Bound,
}

impl Evaluation {
    /// An exact score.
    pub fn exact(score: Score) -> Evaluation {
        Evaluation {
            score,
            bound: Bound::Exact,
        }
    }

    /// Red's view of an evaluation that is `mover`'s view.
    pub fn for_red(self, mover: Color) -> Evaluation {
        match mover {
            Color::Red => self,
            Color::Black => Evaluation {
                score: self.score.flipped(),
                bound: self.bound.flipped(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_and_chances() {
        let e = Evaluation {
            score: Score::Cp(40),
            bound: Bound::Lower,
        };
        let red = e.for_red(Color::Black);
        assert_eq!(red.score, Score::Cp(-40));
        assert_eq!(red.bound, Bound::Upper);
        assert_eq!(e.for_red(Color::Red), e);
        assert_eq!(Score::Mate(-3).flipped(), Score::Mate(3));
        assert!((Score::Cp(0).winning_chance() - 0.5).abs() < 1e-12);
        assert!(Score::Cp(300).winning_chance() > Score::Cp(100).winning_chance());
        assert_eq!(Score::Mate(2).winning_chance(), 1.0);
        assert_eq!(Score::Mate(-2).winning_chance(), 0.0);
        assert_eq!(Score::Mate(3).to_string(), "mate 3");
    }
}
