//! Maximum-likelihood fit of the [`WinRateModel`] to scored positions (self-play
//! and match games), and the losses that measure a model on other data.

use super::{WdlSample, WinRateModel};

/// Fewer samples than this cannot pin four parameters down.
const MIN_SAMPLES: usize = 100;
/// Gradient-descent steps at most.
const MAX_STEPS: usize = 2_000;
/// Stop when a step improves the mean log loss by less than this.
const TOLERANCE: f64 = 1e-10;

/// Why the model could not be fitted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WdlFitError {
    /// Not enough data.
    #[error("{found} positions are too few to fit the win-rate model (at least {MIN_SAMPLES})")]
    TooFewSamples {
        /// Samples given.
        found: usize,
    },
    /// The data has no win, no draw or no loss at all, so some parameter is unbounded.
    #[error(
        "the data needs wins, draws and losses; it has {wins} wins, {draws} draws, {losses} losses"
    )]
    OneSided {
        /// Positions from won games.
        wins: usize,
        /// Positions from drawn games.
        draws: usize,
        /// Positions from lost games.
        losses: usize,
    },
}

/// The fitted model and how well it fits.
#[derive(Clone, Debug, PartialEq)]
pub struct WdlFitReport {
    /// The fitted parameters.
    pub model: WinRateModel,
    /// Positions fitted.
    pub samples: usize,
    /// Mean negative log-likelihood per position (natural log) of the model.
    pub log_loss: f64,
    /// The same for the best constant guess (the data's W/D/L frequencies):
    /// what the score and ply add is the difference.
    pub baseline_log_loss: f64,
    /// Mean squared error of the three probabilities against the outcome
    /// (the Brier score, 0 is perfect).
    pub brier: f64,
    /// Observed win, draw, loss frequencies.
    pub observed: [f64; 3],
    /// Mean predicted win, draw, loss chances (close to `observed` when calibrated).
    pub predicted: [f64; 3],
    /// Gradient steps taken.
    pub steps: usize,
}

fn model_of(p: &[f64; 4]) -> WinRateModel {
    WinRateModel {
        a: [p[0], p[1]],
        b: [p[2], p[3]],
    }
}

/// Mean negative log-likelihood per position (natural log) of the
/// outcomes of `samples` under `model`; `NaN` for no samples.
pub fn log_loss(model: &WinRateModel, samples: &[WdlSample]) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let p = model.probabilities(f64::from(s.score_cp), s.ply);
            -p[s.outcome.index()].max(1e-12).ln()
        })
        .sum();
    total / samples.len() as f64
}

/// Mean binary cross-entropy per position of the game score (1, one half
/// or 0 for the side to move) against an expected score `curve(cp, ply)`
/// in 0..1: the one measure on which a curve of the expected score alone
/// (as annotation used before the fit) and the model's
/// [`WinRateModel::expected_score`] compare. `NaN` for no samples.
pub fn expected_score_log_loss(samples: &[WdlSample], curve: impl Fn(i32, u32) -> f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let e = curve(s.score_cp, s.ply).clamp(1e-12, 1.0 - 1e-12);
            let y = s.outcome.score();
            -(y * e.ln() + (1.0 - y) * (1.0 - e).ln())
        })
        .sum();
    total / samples.len() as f64
}

/// Fits the model to `samples` by maximum likelihood: gradient descent with
/// central-difference gradients and a backtracking line search, from
/// `a = 150`, `b = 80` centipawns, constant in the ply.
///
/// ```
/// use xiangqi_search::wdl::{fit, Outcome, WdlSample, WinRateModel};
/// // Positions drawn from a known model are fitted back close to it.
/// let truth = WinRateModel { a: [200.0, 50.0], b: [90.0, 10.0] };
/// let mut rng = xiangqi_core::SplitMix64::new(3);
/// let samples: Vec<WdlSample> = (0..4000i32)
///     .map(|i| {
///         let (cp, ply) = ((i % 81) * 10 - 400, (i % 7) as u32 * 30);
///         let [w, d, _] = truth.probabilities(f64::from(cp), ply);
///         let u = (rng.next_u64() % 1_000_000) as f64 / 1e6;
///         let outcome = if u < w { Outcome::Win } else if u < w + d { Outcome::Draw } else { Outcome::Loss };
///         WdlSample { score_cp: cp, ply, outcome }
///     })
///     .collect();
/// let report = fit(&samples).unwrap();
/// assert!((report.model.a[0] - 200.0).abs() < 40.0, "{:?}", report.model);
/// assert!(report.log_loss < report.baseline_log_loss);
/// ```
pub fn fit(samples: &[WdlSample]) -> Result<WdlFitReport, WdlFitError> {
    if samples.len() < MIN_SAMPLES {
        return Err(WdlFitError::TooFewSamples {
            found: samples.len(),
        });
    }
    let mut counts = [0usize; 3];
    for s in samples {
        counts[s.outcome.index()] += 1;
    }
    if counts.contains(&0) {
        return Err(WdlFitError::OneSided {
            wins: counts[0],
            draws: counts[1],
            losses: counts[2],
        });
    }
    let n = samples.len() as f64;
    let observed = counts.map(|c| c as f64 / n);
    let baseline_log_loss = -observed.iter().map(|&f| f * f.ln()).sum::<f64>();

    let loss_at = |p: &[f64; 4]| log_loss(&model_of(p), samples);
    let mut params = [150.0, 0.0, 80.0, 0.0];
    let mut current = loss_at(&params);
    let mut step = 1e4;
    let mut steps = 0;
    while steps < MAX_STEPS {
        steps += 1;
        let mut gradient = [0.0; 4];
        for (i, g) in gradient.iter_mut().enumerate() {
            let h = 1e-3;
            let (mut up, mut down) = (params, params);
            up[i] += h;
            down[i] -= h;
            *g = (loss_at(&up) - loss_at(&down)) / (2.0 * h);
        }
        let norm2: f64 = gradient.iter().map(|g| g * g).sum();
        if norm2 == 0.0 {
            break;
        }
        // Backtracking: halve the step until the loss drops enough (Armijo).
        let mut improved = false;
        while step > 1e-9 {
            let candidate: [f64; 4] = std::array::from_fn(|i| params[i] - step * gradient[i]);
            let value = loss_at(&candidate);
            if value <= current - 1e-4 * step * norm2 {
                let gain = current - value;
                params = candidate;
                current = value;
                improved = gain > TOLERANCE;
                step *= 2.0;
                break;
            }
            step /= 2.0;
        }
        if !improved {
            break;
        }
    }
    let model = model_of(&params);
    let mut predicted = [0.0; 3];
    let mut brier = 0.0;
    for s in samples {
        let p = model.probabilities(f64::from(s.score_cp), s.ply);
        for k in 0..3 {
            predicted[k] += p[k] / n;
            let target = if k == s.outcome.index() { 1.0 } else { 0.0 };
            brier += (p[k] - target).powi(2) / n;
        }
    }
    Ok(WdlFitReport {
        model,
        samples: samples.len(),
        log_loss: current,
        baseline_log_loss,
        brier,
        observed,
        predicted,
        steps,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wdl::Outcome;
    use xiangqi_core::Score;

    #[test]
    fn losses_of_a_known_model() {
        let model = WinRateModel::FITTED;
        let sample = WdlSample {
            score_cp: 0,
            ply: 0,
            outcome: Outcome::Draw,
        };
        let [_, draw, _] = model.probabilities(0.0, 0);
        assert!((log_loss(&model, &[sample]) + draw.ln()).abs() < 1e-12);
        // A draw against an expected score of one half: ln 2.
        let even = expected_score_log_loss(&[sample], |cp, ply| {
            model.expected_score(Score::Cp(cp), ply)
        });
        assert!((even - std::f64::consts::LN_2).abs() < 1e-12);
    }

    #[test]
    fn too_little_or_one_sided_data_is_an_error() {
        let sample = WdlSample {
            score_cp: 10,
            ply: 20,
            outcome: Outcome::Draw,
        };
        assert!(matches!(
            fit(&[sample; 5]),
            Err(WdlFitError::TooFewSamples { found: 5 })
        ));
        assert!(matches!(
            fit(&[sample; 500]),
            Err(WdlFitError::OneSided { draws: 500, .. })
        ));
    }
}
