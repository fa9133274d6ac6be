//! The win-rate model and accuracy for Python: `xiangqi.wdl(cp, ply)` and
//! `xiangqi.expected_score(cp, ply)` (the fitted model of
//! `xiangqi_core::winrate`, as UCI `UCI_ShowWDL` and annotation use it),
//! `xiangqi.move_accuracy(drop)` and `xiangqi.game_accuracy(values)`
//! (`xiangqi_engine_client::annotate::accuracy`, see
//! docs/engine-client.md). Each annotated move has its own `accuracy`.

use pyo3::prelude::*;
use xiangqi_core::winrate::WinRateModel;
use xiangqi_core::Score;
use xiangqi_engine_client::annotate::accuracy;

/// Win, draw and loss chances in per mille (summing to 1000) of the side to
/// move with a score of `cp` centipawns `ply` plies into the game.
#[pyfunction]
pub fn wdl(cp: i32, ply: u32) -> (u32, u32, u32) {
    let w = WinRateModel::FITTED.wdl(Score::Cp(cp), ply);
    (w.win, w.draw, w.loss)
}

/// The expected game score (win + draw / 2, 0.0-1.0) of the side to move
/// with `cp` centipawns at `ply`: the winning chance annotation judges by.
#[pyfunction]
pub fn expected_score(cp: i32, ply: u32) -> f64 {
    WinRateModel::FITTED.expected_score(Score::Cp(cp), ply)
}

/// A move's accuracy, 0-100, from the winning chance (0.0-1.0) it lost.
#[pyfunction]
pub fn move_accuracy(drop: f64) -> f64 {
    accuracy::move_accuracy(drop)
}

/// A game's accuracy from its moves' accuracies (mean of the arithmetic
/// and harmonic means); `None` for no moves.
#[pyfunction]
pub fn game_accuracy(accuracies: Vec<f64>) -> Option<f64> {
    accuracy::game_accuracy(accuracies)
}
