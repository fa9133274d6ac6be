//! The win-rate model: from an engine score and the game ply to the chances
//! of a win, a draw and a loss. One model serves UCI `UCI_ShowWDL`, the
//! judgements of annotation and the players' accuracy; it lives next to
//! [`Score`] because our search and the external-engine client both use it
//! and neither may depend on the other. The fit (`xiangqi tune --wdl`) is
//! the search crate's (`xiangqi_search::wdl::fit`).
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
//! progress `t = min(ply, 240) / 100`. The committed parameters are
//! [`WinRateModel::FITTED`] (data, method and error in `docs/engine.md`).
//!
//! ```
//! use xiangqi_core::{winrate::WinRateModel, Score};
//! let model = WinRateModel::default();
//! let even = model.wdl(Score::Cp(0), 40);
//! assert_eq!(even.win + even.draw + even.loss, 1000);
//! assert_eq!(even.win, even.loss);
//! let ahead = model.wdl(Score::Cp(300), 40);
//! assert!(ahead.win > even.win && ahead.loss < even.loss);
//! assert_eq!(model.wdl(Score::Mate(-3), 40).loss, 1000);
//! assert!((model.expected_score(Score::Cp(0), 40) - 0.5).abs() < 1e-12);
//! ```

use crate::{Color, Position, Score};

/// Plies after which the model stops changing with the ply.
pub const MAX_MODEL_PLY: u32 = 240;

/// Win, draw and loss chances in per mille (they sum to 1000).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Wdl {
    /// Chance the side to move wins.
    pub win: u32,
    /// Chance of a draw.
    pub draw: u32,
    /// Chance the side to move loses.
    pub loss: u32,
}

impl Wdl {
    /// The expected game score of the side to move, 0.0 to 1.0: a win
    /// counts 1, a draw one half.
    pub fn expected_score(self) -> f64 {
        (f64::from(self.win) + f64::from(self.draw) / 2.0) / 1000.0
    }
}

/// The win-rate model; see the [module documentation](self).
#[derive(Copy, Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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

    /// The expected game score of the side to move for `cp` centipawns at
    /// `ply` (as [`WinRateModel::expected_score`] for `Score::Cp`, but for a
    /// real `cp`), and its derivative by `cp`: the curve a network trained
    /// on the model's scale is fitted through (`xiangqi-nnue-train`).
    /// `E = (1 + σ((cp − a)/b) − σ((−cp − a)/b)) / 2`.
    pub fn expected_score_and_slope(&self, cp: f64, ply: u32) -> (f64, f64) {
        let (a, b) = self.parameters(ply);
        let win = logistic((cp - a) / b);
        let loss = logistic((-cp - a) / b);
        let expected = (1.0 + win - loss) / 2.0;
        let slope = (win * (1.0 - win) + loss * (1.0 - loss)) / (2.0 * b);
        (expected, slope)
    }

    /// The chances in per mille for `score` at `ply`; a mate is certain.
    pub fn wdl(&self, score: Score, ply: u32) -> Wdl {
        let [win, _, loss] = self.chances(score, ply);
        let win = (win * 1000.0).round() as u32;
        let loss = ((loss * 1000.0).round() as u32).min(1000 - win);
        Wdl {
            win,
            draw: 1000 - win - loss,
            loss,
        }
    }

    /// The expected game score of the side to move, 0.0 to 1.0 (P(win) +
    /// P(draw) / 2, unrounded): the "winning chance" whose drop judges a
    /// move. 1.0 or 0.0 for a mate.
    pub fn expected_score(&self, score: Score, ply: u32) -> f64 {
        let [win, draw, _] = self.chances(score, ply);
        win + draw / 2.0
    }

    fn chances(&self, score: Score, ply: u32) -> [f64; 3] {
        match score {
            Score::Mate(n) if n > 0 => [1.0, 0.0, 0.0],
            // Mated (0: mated now).
            Score::Mate(_) => [0.0, 0.0, 1.0],
            Score::Cp(v) => self.probabilities(f64::from(v), ply),
        }
    }
}

/// Plies played before `pos` in its game, from its FEN move number and side
/// to move (the `ply` of the model).
pub fn game_ply(pos: &Position) -> u32 {
    let black = u32::from(pos.side_to_move() == Color::Black);
    2 * pos.fullmove_number().saturating_sub(1) + black
}

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

// Fitted by `xiangqi tune --wdl --games 6000 --nodes 2000 --seed 21
// --wdl-games fsf-match.pgn` on four fifths of 911,725 positions of judged
// self-play and 3,999 match positions (80 games against Fairy-Stockfish
// 11.1 at 80 ms a move, each judged by the adjudicator); held-out log loss
// 0.7102 against 1.0878 for the constant W/D/L guess, checked on three
// other seeds (docs/engine.md has the data, method and error).
const FITTED_A0: f64 = 73.09;
const FITTED_A1: f64 = 299.65;
const FITTED_B0: f64 = 302.14;
const FITTED_B1: f64 = -40.77;

#[cfg(test)]
mod tests {
    use super::*;

    const PLIES: [u32; 6] = [0, 20, 60, 120, 240, 400];

    #[test]
    fn chances_sum_to_one_thousand() {
        let model = WinRateModel::FITTED;
        for ply in PLIES {
            for cp in (-3000..=3000).step_by(37) {
                let w = model.wdl(Score::Cp(cp), ply);
                assert_eq!(w.win + w.draw + w.loss, 1000, "cp {cp} ply {ply}");
                let p = model.probabilities(f64::from(cp), ply);
                assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            }
        }
    }

    #[test]
    fn monotone_in_the_score() {
        let model = WinRateModel::FITTED;
        for ply in PLIES {
            let mut last = model.probabilities(-3001.0, ply);
            for cp in (-3000..=3000).step_by(10) {
                let p = model.probabilities(f64::from(cp), ply);
                assert!(p[0] >= last[0] && p[2] <= last[2], "cp {cp} ply {ply}");
                assert!(
                    model.expected_score(Score::Cp(cp), ply)
                        >= model.expected_score(Score::Cp(cp - 10), ply)
                );
                last = p;
            }
        }
    }

    #[test]
    fn symmetric_between_the_sides() {
        let model = WinRateModel::FITTED;
        for ply in PLIES {
            for cp in (-900..=900).step_by(50) {
                let ours = model.wdl(Score::Cp(cp), ply);
                let theirs = model.wdl(Score::Cp(-cp), ply);
                assert_eq!((ours.win, ours.loss), (theirs.loss, theirs.win));
                let sum = model.expected_score(Score::Cp(cp), ply)
                    + model.expected_score(Score::Cp(-cp), ply);
                assert!((sum - 1.0).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn mates_are_certain() {
        let model = WinRateModel::FITTED;
        assert_eq!(model.expected_score(Score::Mate(2), 10), 1.0);
        assert_eq!(model.expected_score(Score::Mate(-2), 10), 0.0);
        assert_eq!(model.expected_score(Score::Mate(0), 10), 0.0);
        let mating = model.wdl(Score::Mate(5), 90);
        assert_eq!((mating.win, mating.draw, mating.loss), (1000, 0, 0));
        assert_eq!(mating.expected_score(), 1.0);
    }

    #[test]
    fn the_real_valued_curve_and_its_slope() {
        let model = WinRateModel::FITTED;
        for ply in [0, 60, 300] {
            for cp in [-900, -120, 0, 35, 400] {
                let (e, slope) = model.expected_score_and_slope(f64::from(cp), ply);
                assert!((e - model.expected_score(Score::Cp(cp), ply)).abs() < 1e-12);
                let h = 1e-3;
                let up = model.expected_score_and_slope(f64::from(cp) + h, ply).0;
                let down = model.expected_score_and_slope(f64::from(cp) - h, ply).0;
                let numeric = (up - down) / (2.0 * h);
                assert!(
                    (slope - numeric).abs() < 1e-9,
                    "{cp} {ply}: {slope} {numeric}"
                );
                assert!(slope > 0.0);
            }
        }
    }

    #[test]
    fn ply_of_a_position() {
        let start = Position::startpos();
        assert_eq!(game_ply(&start), 0);
        let later = Position::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 11",
        )
        .unwrap();
        assert_eq!(game_ply(&later), 21);
    }
}
