//! The loss of the network on a run of samples and its gradient, by hand:
//! the output `v` (win-rate logit units) is read as an expected game score
//! through the win-rate model at the sample's ply, `E(v * SCALE, ply)`, and
//! compared with the target by squared error. Backpropagation touches only
//! the feature transformer rows of each sample's active features.

use xiangqi_nnue::{screlu, FloatNetwork, SCALE};
use xiangqi_search::wdl::WinRateModel;

use super::samples::Samples;

/// Gradients of the summed loss, shaped as the network.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Gradient {
    pub ft_weights: Vec<f32>,
    pub ft_bias: Vec<f32>,
    pub out_weights: Vec<f32>,
    pub out_bias: f32,
    /// Summed loss of the samples.
    pub loss: f64,
    /// Samples summed.
    pub count: usize,
}

impl Gradient {
    pub(crate) fn zeros(net: &FloatNetwork) -> Gradient {
        Gradient {
            ft_weights: vec![0.0; net.ft_weights.len()],
            ft_bias: vec![0.0; net.ft_bias.len()],
            out_weights: vec![0.0; net.out_weights.len()],
            out_bias: 0.0,
            loss: 0.0,
            count: 0,
        }
    }

    /// Adds `other` to this gradient.
    pub(crate) fn add(&mut self, other: &Gradient) {
        let add = |a: &mut [f32], b: &[f32]| a.iter_mut().zip(b).for_each(|(a, b)| *a += b);
        add(&mut self.ft_weights, &other.ft_weights);
        add(&mut self.ft_bias, &other.ft_bias);
        add(&mut self.out_weights, &other.out_weights);
        self.out_bias += other.out_bias;
        self.loss += other.loss;
        self.count += other.count;
    }
}

/// The accumulator of one perspective: the bias plus the rows of `features`.
fn accumulate(net: &FloatNetwork, features: &[u16], acc: &mut [f32]) {
    let h = net.hidden;
    acc.copy_from_slice(&net.ft_bias);
    for &f in features {
        let row = &net.ft_weights[usize::from(f) * h..(usize::from(f) + 1) * h];
        acc.iter_mut().zip(row).for_each(|(a, w)| *a += w);
    }
}

/// The network's output on two accumulators (the side to move's first).
fn output(net: &FloatNetwork, ours: &[f32], theirs: &[f32]) -> f32 {
    net.output(ours, theirs)
}

/// The expected score the output `v` stands for at `ply`, and its slope in `v`.
fn expected(model: &WinRateModel, v: f32, ply: u32) -> (f64, f64) {
    let scale = f64::from(SCALE);
    let (e, slope) = model.expected_score_and_slope(f64::from(v) * scale, ply);
    (e, slope * scale)
}

/// The summed loss of the samples `indices` (no gradient).
pub(crate) fn loss(
    net: &FloatNetwork,
    samples: &Samples,
    indices: &[u32],
    model: &WinRateModel,
) -> f64 {
    let h = net.hidden;
    let (mut ours, mut theirs) = (vec![0.0; h], vec![0.0; h]);
    indices
        .iter()
        .map(|&i| {
            let (us, them, target, ply) = samples.get(i as usize);
            accumulate(net, us, &mut ours);
            accumulate(net, them, &mut theirs);
            let (e, _) = expected(model, output(net, &ours, &theirs), ply);
            (e - f64::from(target)).powi(2)
        })
        .sum()
}

/// Adds the gradient of the summed loss of the samples `indices` to `grad`.
pub(crate) fn accumulate_gradient(
    net: &FloatNetwork,
    samples: &Samples,
    indices: &[u32],
    model: &WinRateModel,
    grad: &mut Gradient,
) {
    let h = net.hidden;
    let (mut ours, mut theirs) = (vec![0.0; h], vec![0.0; h]);
    let (mut d_ours, mut d_theirs) = (vec![0.0f32; h], vec![0.0f32; h]);
    let (w_ours, w_theirs) = net.out_weights.split_at(h);
    for &i in indices {
        let (us, them, target, ply) = samples.get(i as usize);
        accumulate(net, us, &mut ours);
        accumulate(net, them, &mut theirs);
        let v = output(net, &ours, &theirs);
        let (e, slope) = expected(model, v, ply);
        let error = e - f64::from(target);
        grad.loss += error * error;
        grad.count += 1;
        // d loss / d v
        let g = (2.0 * error * slope) as f32;
        grad.out_bias += g;
        let (gw_ours, gw_theirs) = grad.out_weights.split_at_mut(h);
        for k in 0..h {
            gw_ours[k] += g * screlu(ours[k]);
            gw_theirs[k] += g * screlu(theirs[k]);
            d_ours[k] = g * w_ours[k] * screlu_slope(ours[k]);
            d_theirs[k] = g * w_theirs[k] * screlu_slope(theirs[k]);
            grad.ft_bias[k] += d_ours[k] + d_theirs[k];
        }
        for (features, d) in [(us, &d_ours), (them, &d_theirs)] {
            for &f in features {
                let row = &mut grad.ft_weights[usize::from(f) * h..(usize::from(f) + 1) * h];
                row.iter_mut().zip(d.iter()).for_each(|(r, d)| *r += d);
            }
        }
    }
}

/// The derivative of `clamp(x, 0, 1)²`.
fn screlu_slope(x: f32) -> f32 {
    if x > 0.0 && x < 1.0 {
        2.0 * x
    } else {
        0.0
    }
}
