//! Texel's method: fit the weights so that a logistic curve of the
//! evaluation predicts the game results of quiet positions, by full-batch
//! Adam gradient descent on the mean squared error; the curve's scaling
//! constant is fitted first (golden-section search) and again at the end.

use crate::eval::weights::GROUPS;
use crate::{trace, Trace, Weights};

use super::Sample;

/// Settings of a fit.
#[derive(Clone, Debug, PartialEq)]
pub struct FitOptions {
    /// Full passes over the data.
    pub epochs: usize,
    /// Adam step size, in centipawns.
    pub learning_rate: f64,
    /// Pull of each weight towards its starting value (L2), against
    /// overfitting weights that few positions see (piece-square points).
    pub l2: f64,
}

impl Default for FitOptions {
    fn default() -> FitOptions {
        FitOptions {
            epochs: 300,
            learning_rate: 1.0,
            l2: 1e-7,
        }
    }
}

/// What a fit found.
#[derive(Clone, Debug, PartialEq)]
pub struct FitReport {
    /// The fitted weights (rounded to integers).
    pub weights: Weights,
    /// Scaling constant of the logistic curve fitted to the starting weights.
    pub k_before: f64,
    /// The constant refitted to the fitted weights.
    pub k_after: f64,
    /// Mean squared error of the starting weights (with `k_before`).
    pub error_before: f64,
    /// Mean squared error of the fitted, rounded weights (with `k_after`).
    pub error_after: f64,
    /// Positions fitted.
    pub positions: usize,
}

fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + (-k * e).exp())
}

/// Mean squared error between results and `sigmoid(k · eval)` over traced
/// positions `(trace, Red's points)`, with real-valued weights in table order.
pub fn mean_squared_error(data: &[(Trace, f64)], weights: &[f64], k: f64) -> f64 {
    let total: f64 = data
        .iter()
        .map(|(t, r)| {
            let p = sigmoid(k, t.value_of(weights.iter().copied()));
            (r - p) * (r - p)
        })
        .sum();
    total / data.len().max(1) as f64
}

/// The scaling constant minimising the error for `weights` (golden-section search).
fn fit_k(data: &[(Trace, f64)], weights: &[f64]) -> f64 {
    let (mut lo, mut hi) = (1e-4f64, 0.05f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if mean_squared_error(data, weights, a) < mean_squared_error(data, weights, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Fits the linear weights of `start` to `samples` (the palace-attack
/// weights, which enter non-linearly, stay as they are). Calls
/// `progress(epoch, error)` after each epoch.
pub fn fit(
    samples: &[Sample],
    start: &Weights,
    options: &FitOptions,
    mut progress: impl FnMut(usize, f64),
) -> FitReport {
    let data: Vec<(Trace, f64)> = samples
        .iter()
        .map(|s| (trace(&s.position, start), s.result.red_points()))
        .collect();
    let initial: Vec<f64> = start.values().iter().map(|&v| f64::from(v)).collect();
    let mut trainable = vec![false; initial.len()];
    for g in GROUPS.iter().filter(|g| g.linear) {
        trainable[g.offset..g.offset + g.len].fill(true);
    }
    let k = fit_k(&data, &initial);
    let error_before = mean_squared_error(&data, &initial, k);

    let n = data.len().max(1) as f64;
    let mut w = initial.clone();
    let (mut m, mut v) = (vec![0.0; w.len()], vec![0.0; w.len()]);
    let (beta1, beta2, eps) = (0.9, 0.999, 1e-8);
    for epoch in 1..=options.epochs {
        let mut grad = vec![0.0; w.len()];
        let mut error = 0.0;
        for (t, r) in &data {
            let p = sigmoid(k, t.value_of(w.iter().copied()));
            error += (r - p) * (r - p);
            // d/dw of (r - p)^2 = -2 (r - p) p (1 - p) k c
            let common = -2.0 * (r - p) * p * (1.0 - p) * k / n;
            for &(i, c) in &t.coefs {
                grad[i as usize] += common * f64::from(c);
            }
        }
        for i in 0..w.len() {
            if !trainable[i] {
                continue;
            }
            let g = grad[i] + 2.0 * options.l2 * (w[i] - initial[i]);
            m[i] = beta1 * m[i] + (1.0 - beta1) * g;
            v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
            let m_hat = m[i] / (1.0 - beta1.powi(epoch as i32));
            let v_hat = v[i] / (1.0 - beta2.powi(epoch as i32));
            w[i] -= options.learning_rate * m_hat / (v_hat.sqrt() + eps);
        }
        progress(epoch, error / n);
    }
    let rounded: Vec<i32> = w
        .iter()
        .map(|x| x.round().clamp(-30_000.0, 30_000.0) as i32)
        .collect();
    let as_f64: Vec<f64> = rounded.iter().map(|&x| f64::from(x)).collect();
    let k_after = fit_k(&data, &as_f64);
    FitReport {
        error_after: mean_squared_error(&data, &as_f64, k_after),
        weights: Weights::from_values(rounded).unwrap_or_else(|_| start.clone()),
        k_before: k,
        k_after,
        error_before,
        positions: data.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::{generate, SelfPlay};

    #[test]
    fn a_fit_does_not_raise_the_error_and_keeps_fixed_weights() {
        let config = SelfPlay {
            games: 4,
            nodes: 300,
            max_plies: 60,
            ..SelfPlay::default()
        };
        let start = Weights::default();
        let samples = generate(&config, &start, |_, _| {});
        let options = FitOptions {
            epochs: 20,
            ..FitOptions::default()
        };
        let mut epochs = 0;
        let r = fit(&samples, &start, &options, |_, _| epochs += 1);
        assert_eq!(epochs, 20);
        assert_eq!(r.positions, samples.len());
        assert!(r.k_before > 0.0 && r.k_after > 0.0);
        assert!(r.error_after <= r.error_before + 1e-9, "{r:?}");
        for g in GROUPS.iter().filter(|g| !g.linear) {
            let range = g.offset..g.offset + g.len;
            assert_eq!(r.weights.values()[range.clone()], start.values()[range]);
        }
    }
}
