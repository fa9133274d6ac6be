//! The network in floating point: what the trainer fits, and the reference
//! every quantised evaluation is checked against.

use xiangqi_core::{Color, Position, SplitMix64};

use crate::features::{active_features, INPUTS};
use crate::network::Network;
use crate::quantise::quantise;

/// Centipawns per unit of the network's output (a win-rate logit).
pub const SCALE: i32 = 400;

/// `clamp(x, 0, 1)²`, the activation between the feature transformer and the output.
#[inline]
pub fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// The float network `(1260 -> H) x 2 -> 1` with SCReLU.
///
/// Both perspectives share the feature transformer (`ft_weights`,
/// `ft_bias`); the output sees the side to move's accumulator first.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    /// Neurons per accumulator (H).
    pub hidden: usize,
    /// Feature transformer weights, feature-major: row `f` is `ft_weights[f*H..(f+1)*H]`; `1260 * H` values.
    pub ft_weights: Vec<f32>,
    /// Feature transformer bias, `H` values.
    pub ft_bias: Vec<f32>,
    /// Output weights, `2H` values: the first `H` for the side to move's accumulator, then the other side's.
    pub out_weights: Vec<f32>,
    /// Output bias.
    pub out_bias: f32,
}

/// Why a [`FloatNetwork`]'s vectors do not fit its `hidden` size.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the float network's {field} holds {found} values where hidden size {hidden} needs {expected}"
)]
pub struct ShapeError {
    /// The field with the wrong length.
    pub field: &'static str,
    /// The network's hidden size.
    pub hidden: usize,
    /// The length that size needs.
    pub expected: usize,
    /// The length found.
    pub found: usize,
}

impl FloatNetwork {
    /// A network of `hidden` neurons with every weight and bias zero.
    pub fn zeros(hidden: usize) -> FloatNetwork {
        FloatNetwork {
            hidden,
            ft_weights: vec![0.0; INPUTS * hidden],
            ft_bias: vec![0.0; hidden],
            out_weights: vec![0.0; 2 * hidden],
            out_bias: 0.0,
        }
    }

    /// A network of `hidden` neurons with small random weights fixed by
    /// `seed`: accumulators spread over the activation's range, outputs of
    /// hundreds to thousands of centipawns. For tests and benchmarks (and a trainer's
    /// starting point), not for play.
    pub fn random(hidden: usize, seed: u64) -> FloatNetwork {
        let mut rng = SplitMix64::new(seed);
        let mut uniform = |half_width: f32| {
            // 24 random bits to a float in [-1, 1), then scaled.
            let unit = (rng.next_u64() >> 40) as f32 / (1u64 << 23) as f32 - 1.0;
            unit * half_width
        };
        let mut net = FloatNetwork::zeros(hidden);
        net.ft_weights.iter_mut().for_each(|w| *w = uniform(0.12));
        net.ft_bias.iter_mut().for_each(|b| *b = 0.4 + uniform(0.3));
        net.out_weights.iter_mut().for_each(|w| *w = uniform(1.5));
        net.out_bias = uniform(0.2);
        net
    }

    /// Checks that every vector has the length `hidden` asks for.
    pub fn check_shape(&self) -> Result<(), ShapeError> {
        let h = self.hidden;
        for (field, expected, found) in [
            ("ft_weights", INPUTS * h, self.ft_weights.len()),
            ("ft_bias", h, self.ft_bias.len()),
            ("out_weights", 2 * h, self.out_weights.len()),
        ] {
            if expected != found {
                return Err(ShapeError {
                    field,
                    hidden: h,
                    expected,
                    found,
                });
            }
        }
        Ok(())
    }

    /// The accumulator of `perspective`: the bias plus the weight rows of its active features.
    ///
    /// Panics when the network's shape is wrong ([`FloatNetwork::check_shape`]).
    pub fn accumulator(&self, pos: &Position, perspective: Color) -> Vec<f32> {
        let h = self.hidden;
        let mut acc = self.ft_bias.clone();
        for feature in active_features(pos, perspective) {
            let row = &self.ft_weights[feature * h..(feature + 1) * h];
            acc.iter_mut().zip(row).for_each(|(a, w)| *a += w);
        }
        acc
    }

    /// The output for `pos` from the side to move's view, in win-rate logit
    /// units (multiply by [`SCALE`] for centipawns).
    ///
    /// Panics when the network's shape is wrong ([`FloatNetwork::check_shape`]).
    pub fn evaluate(&self, pos: &Position) -> f32 {
        let us = pos.side_to_move();
        self.output(
            &self.accumulator(pos, us),
            &self.accumulator(pos, us.opposite()),
        )
    }

    /// [`FloatNetwork::evaluate`] in centipawns (not rounded).
    pub fn evaluate_centipawns(&self, pos: &Position) -> f32 {
        self.evaluate(pos) * SCALE as f32
    }

    /// The output layer on two accumulators, the side to move's first.
    pub fn output(&self, ours: &[f32], theirs: &[f32]) -> f32 {
        let (w_ours, w_theirs) = self.out_weights.split_at(self.hidden);
        let half = |acc: &[f32], w: &[f32]| -> f32 {
            acc.iter().zip(w).map(|(&a, &w)| screlu(a) * w).sum()
        };
        half(ours, w_ours) + half(theirs, w_theirs) + self.out_bias
    }

    /// The quantised network (weights rounded to nearest, out-of-range
    /// weights saturated). Use [`FloatNetwork::quantise_counting_clipped`]
    /// to learn how many were saturated.
    ///
    /// Panics when the network's shape is wrong ([`FloatNetwork::check_shape`]).
    pub fn quantise(&self) -> Network {
        self.quantise_counting_clipped().0
    }

    /// [`FloatNetwork::quantise`] and the number of weights and biases that
    /// lay outside the integer range and were saturated.
    pub fn quantise_counting_clipped(&self) -> (Network, usize) {
        quantise(self)
    }
}
