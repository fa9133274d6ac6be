//! Texel's method: fit the weights so that a logistic curve of the
//! evaluation predicts the game results of quiet positions, by full-batch
//! Adam gradient descent on the mean squared error; the curve's scaling
//! constant is fitted first (golden-section search) and again at the end.
//!
//! With a teacher (a stronger engine's scores of the positions), the target
//! of a position is a blend of its game result and the teacher's winning
//! chance, `sigmoid(k_teacher · score)`, with `k_teacher` fitted so that
//! the teacher's scores best predict the results: the teacher's scale need
//! not be ours. Results of self-play at a few thousand nodes are noisy
//! labels (a won position is often lost later by a blunder); a deeper
//! search's opinion of the position itself is a far less noisy one.

use crate::eval::weights::GROUPS;
use crate::{trace, Trace, Weights};

use super::selfplay::red_points;
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
    /// Share of the teacher's winning chance in the target of positions
    /// that have a teacher's score (0: results only, 1: teacher only).
    pub teacher_weight: f64,
    /// Names of the weight groups to fit (see `GROUPS`); empty: every
    /// linear group. The others keep their starting values, so a new term
    /// can be fitted on little data without moving the tables around it.
    /// A name that is no linear group selects nothing (`xiangqi tune
    /// --fit-only` rejects such names before fitting).
    pub only: Vec<String>,
}

impl Default for FitOptions {
    fn default() -> FitOptions {
        FitOptions {
            epochs: 300,
            learning_rate: 1.0,
            l2: 1e-7,
            teacher_weight: 0.0,
            only: Vec::new(),
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
    /// Positions whose target blends in a teacher's score.
    pub taught: usize,
    /// Scaling constant fitted to the teacher's scores (when any was blended in).
    pub k_teacher: Option<f64>,
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

/// The argument in `[1e-4, 0.05]` minimising `error` (golden-section search;
/// the errors here are unimodal in the scaling constant).
fn golden_section(error: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (1e-4f64, 0.05f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if error(a) < error(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// The scaling constant minimising the error for `weights`.
fn fit_k(data: &[(Trace, f64)], weights: &[f64]) -> f64 {
    golden_section(|k| mean_squared_error(data, weights, k))
}

/// The scaling constant with which the teacher's scores best predict the
/// results, over `(score, Red's points)` pairs.
fn fit_teacher_k(pairs: &[(f64, f64)]) -> f64 {
    golden_section(|k| {
        pairs
            .iter()
            .map(|&(cp, r)| (r - sigmoid(k, cp)).powi(2))
            .sum::<f64>()
    })
}

/// Each sample's target: its result, blended with the teacher's winning
/// chance where there is a teacher's score and a weight for it.
fn targets(samples: &[Sample], teacher_weight: f64) -> (Vec<f64>, Option<f64>) {
    let pairs: Vec<(f64, f64)> = samples
        .iter()
        .filter_map(|s| s.teacher_cp.map(|cp| (f64::from(cp), red_points(s.result))))
        .collect();
    let k = (teacher_weight > 0.0 && !pairs.is_empty()).then(|| fit_teacher_k(&pairs));
    let target = samples
        .iter()
        .map(|s| {
            let r = red_points(s.result);
            match (k, s.teacher_cp) {
                (Some(k), Some(cp)) => {
                    teacher_weight * sigmoid(k, f64::from(cp)) + (1.0 - teacher_weight) * r
                }
                _ => r,
            }
        })
        .collect();
    (target, k)
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
    let teacher_weight = options.teacher_weight.clamp(0.0, 1.0);
    let (target, k_teacher) = targets(samples, teacher_weight);
    let data: Vec<(Trace, f64)> = samples
        .iter()
        .zip(target)
        .map(|(s, t)| (trace(&s.position, start), t))
        .collect();
    let initial: Vec<f64> = start.values().iter().map(|&v| f64::from(v)).collect();
    let mut trainable = vec![false; initial.len()];
    let chosen = |name: &str| options.only.is_empty() || options.only.iter().any(|o| o == name);
    for g in GROUPS.iter().filter(|g| g.linear && chosen(g.name)) {
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
        taught: if k_teacher.is_some() {
            samples.iter().filter(|s| s.teacher_cp.is_some()).count()
        } else {
            0
        },
        k_teacher,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::{generate, SelfPlay};
    use xiangqi_adjudication::Outcome;
    use xiangqi_core::Position;

    #[test]
    fn the_teacher_scale_is_recovered_from_its_predictions() {
        let k0 = 0.004;
        let pairs: Vec<(f64, f64)> = (-60..=60)
            .map(|i| {
                let cp = f64::from(i) * 10.0;
                (cp, sigmoid(k0, cp))
            })
            .collect();
        let k = fit_teacher_k(&pairs);
        assert!((k - k0).abs() < k0 * 0.01, "{k}");
    }

    #[test]
    fn targets_blend_results_with_the_teacher_only_where_it_scored() {
        let sample = |result, teacher_cp| Sample {
            position: Position::startpos(),
            result,
            teacher_cp,
        };
        let samples = [
            sample(Outcome::Red, Some(0)),
            sample(Outcome::Black, None),
            sample(Outcome::Draw, Some(-300)),
            sample(Outcome::Black, Some(-500)),
        ];
        let (plain, k) = targets(&samples, 0.0);
        assert_eq!(plain, [1.0, 0.0, 0.5, 0.0]);
        assert_eq!(k, None);
        let (blended, k) = targets(&samples, 0.5);
        let k = k.expect("a teacher scale");
        assert!(k > 0.0);
        assert!((blended[0] - 0.75).abs() < 1e-12, "{blended:?}");
        assert_eq!(blended[1], 0.0);
        let expected = 0.5 * sigmoid(k, -300.0) + 0.25;
        assert!((blended[2] - expected).abs() < 1e-12, "{blended:?}");
    }

    /// Quiet positions of a few short self-play games at 300 nodes a move.
    fn self_play_samples(games: usize, max_plies: usize) -> Vec<Sample> {
        let config = SelfPlay {
            games,
            nodes: 300,
            max_plies,
            ..SelfPlay::default()
        };
        generate(&config, &Weights::default(), |_, _| {})
    }

    #[test]
    fn a_fit_towards_a_teacher_reports_what_it_blended() {
        let start = Weights::default();
        let mut samples = self_play_samples(2, 40);
        // A "teacher" that values the position as twice our evaluation.
        let taught = samples.len() / 2;
        for s in samples.iter_mut().take(taught) {
            let mover = crate::evaluate_with(&s.position, &start);
            let red = match s.position.side_to_move() {
                xiangqi_core::Color::Red => mover,
                xiangqi_core::Color::Black => -mover,
            };
            s.teacher_cp = Some(2 * red);
        }
        let options = FitOptions {
            epochs: 5,
            teacher_weight: 0.5,
            ..FitOptions::default()
        };
        let r = fit(&samples, &start, &options, |_, _| {});
        assert_eq!(r.taught, taught);
        assert!(r.k_teacher.is_some());
        assert!(r.error_after <= r.error_before + 1e-9, "{r:?}");
    }

    #[test]
    fn a_fit_does_not_raise_the_error_and_keeps_fixed_weights() {
        let start = Weights::default();
        let samples = self_play_samples(4, 60);
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

    #[test]
    fn a_fit_limited_to_some_groups_moves_only_those() {
        let start = Weights::default();
        let samples = self_play_samples(2, 60);
        let options = FitOptions {
            epochs: 20,
            only: vec!["tempo".to_string(), "mobility".to_string()],
            ..FitOptions::default()
        };
        let r = fit(&samples, &start, &options, |_, _| {});
        let moved: Vec<&str> = GROUPS
            .iter()
            .filter(|g| {
                let range = g.offset..g.offset + g.len;
                r.weights.values()[range.clone()] != start.values()[range]
            })
            .map(|g| g.name)
            .collect();
        assert!(!moved.is_empty(), "20 epochs at 1 cp a step move something");
        assert!(
            moved
                .iter()
                .all(|name| options.only.iter().any(|o| o == name)),
            "{moved:?}"
        );
    }
}
