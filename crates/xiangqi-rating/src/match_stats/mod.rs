//! Statistics of a match between two engines, from the first engine's side:
//! the score and Elo difference with its 95% interval from game results
//! ([`Tally`], each game a trinomial draw) or from game pairs
//! ([`Pentanomial`], two games of one opening with colours swapped), and the
//! sequential probability ratio test that accepts or rejects an engine change
//! ([`Sprt`]). The formulas are written out in `docs/match.md`.
//!
//! ```
//! use xiangqi_rating::match_stats::{EloModel, Pentanomial, Sprt, SprtVerdict};
//! let sprt: Sprt = "elo0=0 elo1=5 alpha=0.05 beta=0.05 model=logistic".parse().unwrap();
//! let mut pairs = Pentanomial::default();
//! pairs.add_pair(1, 0); // a win and a draw: 1.5 of 2
//! assert_eq!(sprt.model(), EloModel::Logistic);
//! assert_eq!(sprt.verdict(&pairs), SprtVerdict::Continue);
//! assert!((sprt.bounds().1 - (0.95f64 / 0.05).ln()).abs() < 1e-12);
//! ```

mod elo;
mod mle;
mod pentanomial;
mod sprt;
mod trinomial;

pub use elo::{elo_of_score, normalized_elo_of_t, score_of_elo, NELO_PER_T, Z_95};
pub use pentanomial::{Pentanomial, PAIR_SCORES};
pub use sprt::{EloModel, Sprt, SprtError, SprtVerdict};
pub use trinomial::Tally;
