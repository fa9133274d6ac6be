//! The most likely pentanomial distribution under a hypothesis: the
//! distribution `p` closest to the observed frequencies `f` (largest
//! `Σ fᵢ ln pᵢ`) whose mean score is `s` (the logistic model), or whose
//! t-value `(μ - ½)/σ` is `t` (the normalised model).
//!
//! Lagrange's condition for maximising `Σ fᵢ ln pᵢ` under `Σ pᵢ = 1` and a
//! constraint `g(p) = 0` is `fᵢ/pᵢ = ν + λ ∂g/∂pᵢ`. Writing the gradient
//! as `hᵢ` shifted by a constant (which `ν` absorbs) so that `Σ pᵢ hᵢ = g(p)`,
//! multiplying by `pᵢ` and summing gives `ν = 1`, so
//!
//! ```text
//! pᵢ = fᵢ / (1 + λ hᵢ),   with λ the root of   Σ fᵢ hᵢ / (1 + λ hᵢ) = 0
//! ```
//!
//! (that root makes `Σ pᵢ = 1` and `Σ pᵢ hᵢ = 0`, the constraint). For a
//! mean, `hᵢ = aᵢ - s` (`aᵢ` the pair scores 0, ¼, ½, ¾, 1). For a t-value,
//! `g = μ - ½ - tσ` and `hᵢ = aᵢ - ½ - tσ (1 + ((aᵢ - μ)/σ)²) / 2`, which
//! depends on `p` through μ and σ: it is solved by iterating from the
//! uniform distribution (the method of M. Van den Bergh's notes for
//! Fishtest).

use super::pentanomial::{moments, PAIR_SCORES};

/// The root λ of `Σ fᵢ hᵢ / (1 + λ hᵢ) = 0` where every `1 + λ hᵢ` is
/// positive: the function falls from +∞ to -∞ between `-1/max h` and
/// `-1/min h`. Newton's steps, kept inside a shrinking bracket by bisection.
/// `None` when the `hᵢ` do not take both signs (no such distribution).
fn secular(f: &[f64; 5], h: &[f64; 5]) -> Option<f64> {
    let (min, max) = h
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
            (lo.min(x), hi.max(x))
        });
    if !(min < 0.0 && max > 0.0) {
        return None;
    }
    let (mut low, mut high) = (-1.0 / max, -1.0 / min);
    let mut x = 0.0;
    for _ in 0..200 {
        let (mut value, mut slope) = (0.0, 0.0);
        for i in 0..5 {
            let d = 1.0 + x * h[i];
            value += f[i] * h[i] / d;
            slope -= f[i] * h[i] * h[i] / (d * d);
        }
        if value == 0.0 {
            return Some(x);
        } else if value > 0.0 {
            low = x;
        } else {
            high = x;
        }
        let newton = x - value / slope;
        let next = if newton > low && newton < high && slope < 0.0 {
            newton
        } else {
            (low + high) / 2.0
        };
        // Newton's steps converge quadratically: one below 1e-12 leaves an
        // error far below that.
        if (next - x).abs() <= 1e-12 * (1.0 + x.abs()) {
            return Some(next);
        }
        x = next;
    }
    Some(x)
}

fn reweighted(f: &[f64; 5], h: &[f64; 5], lambda: f64) -> [f64; 5] {
    std::array::from_fn(|i| f[i] / (1.0 + lambda * h[i]))
}

/// The most likely distribution with mean score `s`.
pub(super) fn with_mean(f: &[f64; 5], s: f64) -> Option<[f64; 5]> {
    let h = PAIR_SCORES.map(|a| a - s);
    Some(reweighted(f, &h, secular(f, &h)?))
}

/// The most likely distribution with `(μ - ½)/σ = t` (σ a pair's standard
/// deviation).
pub(super) fn with_t_value(f: &[f64; 5], t: f64) -> Option<[f64; 5]> {
    let mut p = [0.2; 5];
    for _ in 0..100 {
        let (mean, variance) = moments(&p);
        let sd = variance.sqrt();
        let h = PAIR_SCORES.map(|a| a - 0.5 - t * sd * (1.0 + ((a - mean) / sd).powi(2)) / 2.0);
        let next = reweighted(f, &h, secular(f, &h)?);
        let change = (0..5).map(|i| (next[i] - p[i]).abs()).fold(0.0, f64::max);
        p = next;
        if change < 1e-10 {
            break;
        }
    }
    Some(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts [1, 1, 4, 3, 1] as frequencies: mean 0.55.
    const F: [f64; 5] = [0.1, 0.1, 0.4, 0.3, 0.1];

    #[test]
    fn the_observed_mean_leaves_the_frequencies_as_they_are() {
        // s = the observed mean: λ = 0 solves Σ fᵢ (aᵢ - s) = 0, so p = f.
        let p = with_mean(&F, 0.55).unwrap();
        for i in 0..5 {
            assert!((p[i] - F[i]).abs() < 1e-12, "{p:?}");
        }
    }

    #[test]
    fn the_constraints_hold() {
        let p = with_mean(&F, 0.5).unwrap();
        let (mean, _) = moments(&p);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!((mean - 0.5).abs() < 1e-12);
        let p = with_t_value(&F, 0.1).unwrap();
        let (mean, variance) = moments(&p);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!(((mean - 0.5) / variance.sqrt() - 0.1).abs() < 1e-9);
        // A t-value of 0 is a mean of ½.
        let (a, b) = (with_t_value(&F, 0.0).unwrap(), with_mean(&F, 0.5).unwrap());
        for i in 0..5 {
            assert!((a[i] - b[i]).abs() < 1e-9);
        }
    }

    #[test]
    fn no_distribution_without_both_signs() {
        assert_eq!(secular(&F, &[0.1; 5]), None);
        assert_eq!(with_mean(&F, 1.0), None);
    }
}
