//! The evaluation as a linear function of its weights, for fitting: the same
//! term functions as the score, run into a sink that records coefficients.

use xiangqi_core::{Color, Position};

use super::weights::{Weights, TEMPO};
use super::{evaluate_with, terms, Board, Sink, PHASE_MAX};

/// A position's evaluation from Red's point of view as
/// `fixed + Σ coef · weight[index]` (tapering and the scale-down of a side
/// that cannot mate folded into the coefficients). Equal to the engine's
/// evaluation up to integer rounding.
///
/// ```
/// use xiangqi_core::Position;
/// use xiangqi_search::{trace, Weights};
/// let pos = Position::from_fen("3akab2/9/4b4/9/9/9/9/4B4/4A4/R2AK1B2 w - - 0 1").unwrap();
/// let w = Weights::default();
/// let t = trace(&pos, &w);
/// let linear = t.value(&w);
/// assert!((linear - xiangqi_search::evaluate(&pos) as f64).abs() < 2.0);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    /// (table index, coefficient), each index once, in index order.
    pub coefs: Vec<(u16, f32)>,
    /// The part that does not move with the fitted weights (the palace attack).
    pub fixed: f32,
}

impl Trace {
    /// The traced evaluation with `weights` (Red's point of view).
    pub fn value(&self, weights: &Weights) -> f64 {
        self.value_of(weights.values().iter().map(|&v| f64::from(v)))
    }

    /// The traced evaluation with real-valued weights in table order.
    pub fn value_of(&self, weights: impl IntoIterator<Item = f64>) -> f64 {
        let w: Vec<f64> = weights.into_iter().collect();
        f64::from(self.fixed)
            + self
                .coefs
                .iter()
                .map(|&(i, c)| f64::from(c) * w[i as usize])
                .sum::<f64>()
    }
}

struct Recorder {
    phase: f32,
    coefs: Vec<(u16, f32)>,
    fixed: f32,
}

fn sign(color: Color) -> f32 {
    match color {
        Color::Red => 1.0,
        Color::Black => -1.0,
    }
}

impl Sink for Recorder {
    fn add(&mut self, color: Color, index: usize, coef: i32) {
        self.coefs.push((index as u16, sign(color) * coef as f32));
    }

    fn add_tapered(&mut self, color: Color, opening: usize, endgame: usize, coef: i32) {
        let c = sign(color) * coef as f32;
        let share = self.phase / PHASE_MAX as f32;
        self.coefs.push((opening as u16, c * share));
        self.coefs.push((endgame as u16, c * (1.0 - share)));
    }

    fn add_fixed(&mut self, color: Color, value: i32) {
        self.fixed += sign(color) * value as f32;
    }
}

/// The linear form of the evaluation of `pos` around `weights` (which fix
/// the non-linear palace attack and decide whether a side that cannot mate
/// is scaled down).
pub fn trace(pos: &Position, weights: &Weights) -> Trace {
    let b = Board::new(pos, weights);
    let mut r = Recorder {
        phase: b.phase as f32,
        coefs: Vec::with_capacity(96),
        fixed: 0.0,
    };
    terms(&b, &mut r);
    let stm = pos.side_to_move();
    // Whether the scale-down applied: compare the real score without tempo.
    let red_score = (evaluate_with(pos, weights) - weights.get(TEMPO)) * sign(stm) as i32;
    let scaled_down =
        (red_score > 0 && !b.can_mate(Color::Red)) || (red_score < 0 && !b.can_mate(Color::Black));
    let scale = if scaled_down {
        1.0 / super::NO_MATE_DIVISOR as f32
    } else {
        1.0
    };
    let mut coefs = r.coefs;
    for c in &mut coefs {
        c.1 *= scale;
    }
    coefs.push((TEMPO as u16, sign(stm)));
    coefs.sort_by_key(|c| c.0);
    let mut merged: Vec<(u16, f32)> = Vec::with_capacity(coefs.len());
    for (i, c) in coefs {
        match merged.last_mut() {
            Some(last) if last.0 == i => last.1 += c,
            _ => merged.push((i, c)),
        }
    }
    merged.retain(|c| c.1 != 0.0);
    Trace {
        coefs: merged,
        fixed: r.fixed * scale,
    }
}
