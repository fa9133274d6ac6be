//! The quantised network inference runs on.

use xiangqi_core::{Color, Position};

use crate::features::{active_features, INPUTS};
use crate::float::SCALE;

/// Scale of the feature transformer's weights and biases (i16), and the
/// activation's ceiling: an accumulator value of `QA` is 1.0.
pub const QA: i32 = 255;
/// Scale of the output weights (i16).
pub const QB: i32 = 64;
/// Hidden sizes must be a multiple of this (the widest SIMD register holds 16 i16 lanes).
pub const HIDDEN_STEP: usize = 16;
/// The largest hidden size accepted.
pub const MAX_HIDDEN: usize = 4096;

/// Why integer weights do not make a network.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetworkError {
    /// The hidden size is not a positive multiple of [`HIDDEN_STEP`] up to [`MAX_HIDDEN`].
    #[error("hidden size {0} is not supported: it must be a multiple of {HIDDEN_STEP} from {HIDDEN_STEP} to {MAX_HIDDEN}")]
    UnsupportedHidden(usize),
    /// A vector's length does not fit the hidden size.
    #[error(
        "the network's {field} holds {found} values where hidden size {hidden} needs {expected}"
    )]
    Shape {
        /// The vector with the wrong length.
        field: &'static str,
        /// The hidden size.
        hidden: usize,
        /// The length it needs.
        expected: usize,
        /// The length found.
        found: usize,
    },
}

/// Checks that inference supports `hidden` neurons per accumulator.
pub fn check_hidden(hidden: usize) -> Result<(), NetworkError> {
    if hidden == 0 || hidden % HIDDEN_STEP != 0 || hidden > MAX_HIDDEN {
        return Err(NetworkError::UnsupportedHidden(hidden));
    }
    Ok(())
}

/// The quantised network `(1260 -> H) x 2 -> 1`, SCReLU: feature
/// transformer weights and bias scaled by [`QA`] in i16, output weights by
/// [`QB`] in i16, output bias by `QA * QB` in i32.
///
/// Accumulators add i16 rows with wrap-around (two's complement), so any
/// order of additions and removals gives the same bits; a net whose
/// accumulators leave the i16 range is a badly trained net, not undefined
/// behaviour. The output sums in i64 and cannot overflow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    hidden: usize,
    ft_weights: Vec<i16>,
    ft_bias: Vec<i16>,
    out_weights: Vec<i16>,
    out_bias: i32,
}

impl Network {
    /// A network from its integer weights, laid out as [`crate::FloatNetwork`]'s.
    pub fn from_parts(
        hidden: usize,
        ft_weights: Vec<i16>,
        ft_bias: Vec<i16>,
        out_weights: Vec<i16>,
        out_bias: i32,
    ) -> Result<Network, NetworkError> {
        check_hidden(hidden)?;
        for (field, expected, found) in [
            ("ft_weights", INPUTS * hidden, ft_weights.len()),
            ("ft_bias", hidden, ft_bias.len()),
            ("out_weights", 2 * hidden, out_weights.len()),
        ] {
            if expected != found {
                return Err(NetworkError::Shape {
                    field,
                    hidden,
                    expected,
                    found,
                });
            }
        }
        Ok(Network {
            hidden,
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
        })
    }

    /// Neurons per accumulator (H).
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Feature transformer weights, feature-major (`1260 * H`).
    pub fn ft_weights(&self) -> &[i16] {
        &self.ft_weights
    }

    /// The weight row of one feature (`H` values).
    #[inline(always)]
    pub fn ft_row(&self, feature: usize) -> &[i16] {
        &self.ft_weights[feature * self.hidden..(feature + 1) * self.hidden]
    }

    /// Feature transformer bias (`H`).
    pub fn ft_bias(&self) -> &[i16] {
        &self.ft_bias
    }

    /// Output weights (`2H`: the side to move's accumulator's, then the other's).
    pub fn out_weights(&self) -> &[i16] {
        &self.out_weights
    }

    /// Output bias, scaled by `QA * QB`.
    pub fn out_bias(&self) -> i32 {
        self.out_bias
    }

    /// The accumulator of `perspective` computed from scratch, without SIMD.
    pub fn accumulator_scalar(&self, pos: &Position, perspective: Color) -> Vec<i16> {
        let mut acc = self.ft_bias.clone();
        for feature in active_features(pos, perspective) {
            acc.iter_mut()
                .zip(self.ft_row(feature))
                .for_each(|(a, &w)| *a = a.wrapping_add(w));
        }
        acc
    }

    /// The evaluation of `pos` in centipawns from the side to move's view,
    /// computed from scratch without SIMD: the reference the incremental
    /// and SIMD paths are tested against.
    pub fn evaluate_scalar(&self, pos: &Position) -> i32 {
        let us = pos.side_to_move();
        let ours = self.accumulator_scalar(pos, us);
        let theirs = self.accumulator_scalar(pos, us.opposite());
        self.output_scalar(&ours, &theirs)
    }

    /// The output layer on two accumulators (the side to move's first), in
    /// centipawns, without SIMD: `sum(clamp(acc, 0, QA)² * w) / QA + bias`,
    /// then `* SCALE / (QA * QB)`, truncating toward zero.
    pub fn output_scalar(&self, ours: &[i16], theirs: &[i16]) -> i32 {
        let (w_ours, w_theirs) = self.out_weights.split_at(self.hidden);
        let sum = screlu_dot_scalar(ours, w_ours) + screlu_dot_scalar(theirs, w_theirs);
        self.finish(sum)
    }

    /// From the output layer's sum to centipawns (shared by every path).
    #[inline(always)]
    pub(crate) fn finish(&self, sum: i64) -> i32 {
        let v = sum / i64::from(QA) + i64::from(self.out_bias);
        let cp = v * i64::from(SCALE) / i64::from(QA * QB);
        cp.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    }
}

/// `sum(clamp(acc, 0, QA)² * w)`: each product fits an i32, the sum an i64.
#[inline]
pub(crate) fn screlu_dot_scalar(acc: &[i16], weights: &[i16]) -> i64 {
    acc.iter()
        .zip(weights)
        .map(|(&a, &w)| {
            let c = i32::from(a).clamp(0, QA);
            i64::from(c * c * i32::from(w))
        })
        .sum()
}

impl Network {
    /// The float network these integers stand for (each weight divided by its scale).
    /// Its float evaluation differs from [`Network::evaluate_scalar`] only by
    /// the integer path's two truncations (under 2 centipawns), as long as no
    /// accumulator leaves the i16 range.
    pub fn dequantise(&self) -> crate::FloatNetwork {
        let scaled = |v: &[i16], s: i32| v.iter().map(|&x| f32::from(x) / s as f32).collect();
        crate::FloatNetwork {
            hidden: self.hidden,
            ft_weights: scaled(&self.ft_weights, QA),
            ft_bias: scaled(&self.ft_bias, QA),
            out_weights: scaled(&self.out_weights, QB),
            out_bias: (f64::from(self.out_bias) / f64::from(QA * QB)) as f32,
        }
    }
}
