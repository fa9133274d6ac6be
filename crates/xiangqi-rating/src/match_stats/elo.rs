//! Elo from a score: the logistic curve, its 95% interval, and the
//! normalised Elo of a t-value.

/// Two-sided 95% quantile of the normal distribution.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// Normalised Elo per unit of t-value, `800 / ln 10`: the factor that makes
/// normalised and logistic Elo agree near 0 for games without draws (the
/// logistic curve's slope at a 50% score is `1600 / ln 10` per unit of score,
/// and a drawless game's standard deviation is ½).
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// The logistic Elo difference of a score fraction,
/// `-400 log10(1/p - 1)`; infinite at 0 and 1.
pub fn elo_of_score(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

/// The expected score of a logistic Elo difference, `1 / (1 + 10^(-elo/400))`.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Normalised Elo of a t-value (the score's distance from ½ in standard
/// deviations of one game).
pub fn normalized_elo_of_t(t: f64) -> f64 {
    t * NELO_PER_T
}

/// Half the width of the Elo interval of a mean score `p` with standard
/// error `se` (`p ± 1.96 se` mapped through the logistic curve); infinite
/// when the interval reaches a 0% or 100% score.
pub(super) fn elo_half_width(p: f64, se: f64) -> f64 {
    let margin = Z_95 * se;
    let (low, high) = (p - margin, p + margin);
    if low <= 0.0 || high >= 1.0 {
        return f64::INFINITY;
    }
    (elo_of_score(high) - elo_of_score(low)) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_and_elo_are_inverse() {
        for elo in [-300.0, -5.0, 0.0, 5.0, 107.5, 400.0] {
            assert!((elo_of_score(score_of_elo(elo)) - elo).abs() < 1e-9);
        }
        assert_eq!(score_of_elo(0.0), 0.5);
        // 400 Elo is odds of 10 to 1.
        assert!((score_of_elo(400.0) - 10.0 / 11.0).abs() < 1e-12);
    }

    #[test]
    fn normalized_and_logistic_elo_agree_near_zero_without_draws() {
        // A drawless game at score p has standard deviation sqrt(p(1-p)).
        let p: f64 = 0.501;
        let t = (p - 0.5) / (p * (1.0 - p)).sqrt();
        let (nelo, elo) = (normalized_elo_of_t(t), elo_of_score(p));
        assert!((nelo - elo).abs() < 0.001 * elo.abs(), "{nelo} {elo}");
    }
}
