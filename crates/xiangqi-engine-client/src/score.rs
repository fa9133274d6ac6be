//! Typed evaluations as engines report them: centipawns or a mate distance
//! (the core's [`Score`], which our own search reports too), exact or a
//! bound, from the side to move's point of view.

use xiangqi_core::Color;
pub use xiangqi_core::Score;

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
    fn views() {
        let e = Evaluation {
            score: Score::Cp(40),
            bound: Bound::Lower,
        };
        let red = e.for_red(Color::Black);
        assert_eq!(red.score, Score::Cp(-40));
        assert_eq!(red.bound, Bound::Upper);
        assert_eq!(e.for_red(Color::Red), e);
    }
}
