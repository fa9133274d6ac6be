//! The win-rate model: from a search score and the game ply to the chances
//! of a win, a draw and a loss (UCI `UCI_ShowWDL`, and annotation).
//!
//! The model is Stockfish's: with `x` the score in centipawns for the side
//! to move,
//!
//! ```text
//! P(win)  = 1 / (1 + exp((a - x) / b))
//! P(loss) = 1 / (1 + exp((a + x) / b))
//! P(draw) = 1 - P(win) - P(loss)
//! ```
//!
//! where `a` (the score at which a win is as likely as not) and `b` (how
//! fast the chances change with the score) move linearly with the game's
//! progress `t = min(ply, 240) / 100`. The parameters are fitted by maximum
//! likelihood to our own self-play ([`fit`], run by `xiangqi tune --wdl`);
//! the committed ones are [`WinRateModel::FITTED`] (data, method and error
//! in `docs/engine.md`).

mod fit;

pub use fit::{fit, WdlFitError, WdlFitReport};

use crate::Score;

/// Plies after which the model stops changing with the ply.
pub const MAX_MODEL_PLY: u32 = 240;

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

/// Win, draw and loss chances in per mille (they sum to 1000).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Wdl {
    /// Chance the side to move wins.
    pub win: u32,
    /// Chance of a draw.
    pub draw: u32,
    /// Chance the side to move loses.
    pub loss: u32,
}

/// The fitted win-rate model; see the [module documentation](self).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct WinRateModel {
    /// `a = a[0] + a[1] * t`, centipawns.
    pub a: [f64; 2],
    /// `b = b[0] + b[1] * t`, centipawns.
    pub b: [f64; 2],
}

impl Default for WinRateModel {
    fn default() -> WinRateModel {
        WinRateModel::FITTED
    }
}

impl WinRateModel {
    /// The parameters fitted by `xiangqi tune --wdl` (see `docs/engine.md`).
    pub const FITTED: WinRateModel = WinRateModel {
        a: [FITTED_A0, FITTED_A1],
        b: [FITTED_B0, FITTED_B1],
    };

    /// `a` and `b` at `ply`; `b` kept positive whatever the parameters.
    fn parameters(&self, ply: u32) -> (f64, f64) {
        let t = f64::from(ply.min(MAX_MODEL_PLY)) / 100.0;
        let a = self.a[0] + self.a[1] * t;
        let b = (self.b[0] + self.b[1] * t).max(1.0);
        (a, b)
    }

    /// Probabilities of win, draw and loss for a score of `cp` centipawns
    /// (side to move) at `ply`.
    pub fn probabilities(&self, cp: f64, ply: u32) -> [f64; 3] {
        let (a, b) = self.parameters(ply);
        let win = logistic((cp - a) / b);
        let loss = logistic((-cp - a) / b);
        let draw = (1.0 - win - loss).max(0.0);
        [win, draw, loss]
    }

    /// The chances in per mille for `score` at `ply`; a mate is certain.
    ///
    /// ```
    /// use xiangqi_search::{wdl::WinRateModel, Score};
    /// let model = WinRateModel::default();
    /// let even = model.wdl(Score::Cp(0), 40);
    /// assert_eq!(even.win + even.draw + even.loss, 1000);
    /// assert_eq!(even.win, even.loss);
    /// let ahead = model.wdl(Score::Cp(300), 40);
    /// assert!(ahead.win > even.win && ahead.loss < even.loss);
    /// assert_eq!(model.wdl(Score::Mate(-3), 40).loss, 1000);
    /// ```
    pub fn wdl(&self, score: Score, ply: u32) -> Wdl {
        let cp = match score {
            Score::Mate(n) if n > 0 => {
                return Wdl {
                    win: 1000,
                    draw: 0,
                    loss: 0,
                }
            }
            Score::Mate(_) => {
                return Wdl {
                    win: 0,
                    draw: 0,
                    loss: 1000,
                }
            }
            Score::Cp(v) => f64::from(v),
        };
        let [win, _, loss] = self.probabilities(cp, ply);
        let win = (win * 1000.0).round() as u32;
        let loss = ((loss * 1000.0).round() as u32).min(1000 - win);
        Wdl {
            win,
            draw: 1000 - win - loss,
            loss,
        }
    }
}

/// Plies played before `pos` in its game, from its FEN move number and side
/// to move (the `ply` of the model).
pub fn game_ply(pos: &xiangqi_core::Position) -> u32 {
    let black = u32::from(pos.side_to_move() == xiangqi_core::Color::Black);
    2 * pos.fullmove_number().saturating_sub(1) + black
}

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

// Fitted by `xiangqi tune --wdl --games 300 --nodes 2000 --seed 1`: 41,884
// positions of 300 self-play games; log loss 0.6955 against 1.0880 for the
// constant W/D/L guess (docs/engine.md has the data, method and error).
const FITTED_A0: f64 = 48.70;
const FITTED_A1: f64 = 409.36;
const FITTED_B0: f64 = 253.93;
const FITTED_B1: f64 = 14.29;
