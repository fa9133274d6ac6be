//! # xiangqi-rating
//!
//! Elo ratings of the players of a corpus. [`result`] decides what each game
//! counts for: the verdict of `xiangqi-adjudication` on its moves when the
//! rules ended it, else the recorded result; a game cancelled under
//! R-CLOCK-CANCEL (a flag before the flagged side's first move) or without
//! a result is not rated (R-CLOCK-RATED). [`fit`] then finds the ratings
//! that make the results most likely under the Elo (logistic) model, with
//! a prior of virtual draws so that a player who won every game still gets
//! a finite rating (the method of BayesElo; parameters in [`FitOptions`]
//! and `docs/rating.md`). [`match_stats`] measures a match between two
//! engines: Elo with its interval from games or game pairs, and the SPRT
//! that accepts engine changes (`docs/match.md`).
//!
//! ```
//! use xiangqi_rating::{fit, FitOptions, RatedGame};
//! let games = vec![
//!     RatedGame::new("A", "B", 1.0),
//!     RatedGame::new("A", "B", 1.0),
//!     RatedGame::new("B", "A", 1.0),
//!     RatedGame::new("B", "A", 0.0),
//! ];
//! let options = FitOptions { prior_draws: 0.0, ..FitOptions::default() };
//! let ratings = fit(&games, &options).unwrap();
//! // A scored 3/4: 400·log10(3) ≈ 191 Elo above B.
//! assert!((ratings.elo("A").unwrap() - ratings.elo("B").unwrap() - 190.85).abs() < 0.01);
//! ```

mod fit;
pub mod glicko2;
pub mod match_stats;
pub mod online;
pub mod result;

pub use fit::{fit, FitError, FitOptions, PlayerRating, Ratings};
pub use glicko2::{Glicko2, Glicko2Settings};
pub use result::{rated_game, RatedGame, Unrated};
