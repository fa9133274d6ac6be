//! Fitting the win-rate model (`xiangqi_core::winrate`, re-exported here):
//! the data it is fitted to ([`WdlSample`]: a search score, the ply and how
//! the game ended for the side to move) and the maximum-likelihood [`fit`],
//! run by `xiangqi tune --wdl`. The model itself, its committed parameters
//! and its evaluation live in the core so that annotation, accuracy and UCI
//! `UCI_ShowWDL` share one curve.

mod calibration;
mod fit;

pub use calibration::{calibration, Bucket, PLY_BANDS};
pub use fit::{expected_score_log_loss, fit, log_loss, WdlFitError, WdlFitReport};
pub use xiangqi_core::winrate::{game_ply, Wdl, WinRateModel, MAX_MODEL_PLY};

/// A game's result from the point of view of the side to move in a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move won the game.
    Win,
    /// Drawn.
    Draw,
    /// The side to move lost.
    Loss,
}

/// One position of the data the model is fitted to.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct WdlSample {
    /// The search score, centipawns for the side to move (no mates).
    pub score_cp: i32,
    /// Plies played in the game before the position.
    pub ply: u32,
    /// How the game ended for the side to move.
    pub outcome: Outcome,
}

impl Outcome {
    /// The place of the outcome in a `[win, draw, loss]` array.
    pub fn index(self) -> usize {
        match self {
            Outcome::Win => 0,
            Outcome::Draw => 1,
            Outcome::Loss => 2,
        }
    }

    /// The game score of the side to move: 1 for a win, one half for a
    /// draw, 0 for a loss.
    pub fn score(self) -> f64 {
        match self {
            Outcome::Win => 1.0,
            Outcome::Draw => 0.5,
            Outcome::Loss => 0.0,
        }
    }
}
