//! Fitting the evaluation: labelled positions from seeded self-play
//! ([`generate`]), its games judged by `xiangqi-adjudication` under the
//! engine's rules ([`engine_rules`]), a quiet-position filter ([`crate::is_quiet`]), Texel's
//! logistic fit of the weights with a fitted scaling constant ([`fit`]),
//! optionally towards a stronger engine's scores of the same positions,
//! and fixed-node matches between two weight tables ([`play_match`]).
//! `cargo xtask tune` drives it through `xiangqi tune` and writes the result
//! with [`crate::weights_source`].

mod game;
mod selfplay;
mod texel;

pub use game::{engine_rules, play_game, Choice, Endings, GameEnd};
pub use selfplay::{
    balanced_opening, generate, generate_scored, generate_scored_with_endings,
    generate_with_endings, play_match, MatchTally, Sample, SelfPlay, TEACHER_MATE_CP,
};
pub use texel::{fit, mean_squared_error, FitOptions, FitReport};
