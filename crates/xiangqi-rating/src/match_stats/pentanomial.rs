//! Game pairs counted as pairs: two games of one opening with colours
//! swapped, scored together (0, ½, 1, 1½ or 2 points). Counting pairs keeps
//! what the opening and the colour decide out of the variance: a pair's two
//! games are not independent (a lopsided opening wins one and loses the
//! other), and the trinomial model, which treats them as independent,
//! overstates the spread.

use super::elo::{elo_half_width, elo_of_score, normalized_elo_of_t, Z_95};

/// A pair's score as a fraction of its 2 points, by count index: 0 (two
/// losses), ¼ (a loss and a draw), ½ (a win and a loss, or two draws),
/// ¾ (a win and a draw), 1 (two wins).
pub const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// How often a count of zero is taken to have happened when the SPRT
/// estimates the spread: an outcome never seen yet is possible, and
/// without it a run of identical pairs would have no variance (Fishtest's
/// regularisation).
const UNSEEN: f64 = 1e-3;

/// The mean score per game and the variance of a pair's score (both as
/// fractions) of a distribution given by `weights` per outcome.
pub(super) fn moments(weights: &[f64; 5]) -> (f64, f64) {
    let total: f64 = weights.iter().sum();
    let mean = (0..5).map(|i| weights[i] * PAIR_SCORES[i]).sum::<f64>() / total;
    let variance = (0..5)
        .map(|i| weights[i] * (PAIR_SCORES[i] - mean).powi(2))
        .sum::<f64>()
        / total;
    (mean, variance)
}

/// Pair counts from one engine's side, indexed by the points it took from
/// the pair in half points: `[LL, LD, WL+DD, WD, WW]`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    pub counts: [u32; 5],
}

impl Pentanomial {
    /// Counts the pair whose two games ended `first` and `second` for the
    /// engine (+1 a win, 0 a draw, -1 a loss; only the sign is read).
    pub fn add_pair(&mut self, first: i8, second: i8) {
        let half_points = (first.signum() + 1 + second.signum() + 1) as usize;
        self.counts[half_points] += 1;
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    fn observed(&self) -> Option<(f64, f64)> {
        (self.pairs() > 0).then(|| moments(&self.counts.map(f64::from)))
    }

    /// The frequency of each outcome with every unseen one counted as
    /// [`UNSEEN`] pairs, for the SPRT; `None` before the first pair.
    pub(super) fn regularized_frequencies(&self) -> Option<[f64; 5]> {
        (self.pairs() > 0).then(|| {
            let weights = self
                .counts
                .map(|c| if c == 0 { UNSEEN } else { f64::from(c) });
            let total: f64 = weights.iter().sum();
            weights.map(|w| w / total)
        })
    }

    /// The score fraction over all games of the pairs; `None` before any.
    pub fn score(&self) -> Option<f64> {
        self.observed().map(|(mean, _)| mean)
    }

    /// The logistic Elo difference of [`Pentanomial::score`].
    pub fn elo(&self) -> Option<f64> {
        self.score().map(elo_of_score)
    }

    /// Half the width of the 95% interval of [`Pentanomial::elo`]: the mean
    /// pair score `± 1.96 σ/√N` (σ the pairs' standard deviation, N pairs)
    /// mapped through the logistic curve; infinite when it reaches 0% or 100%.
    pub fn elo_error(&self) -> Option<f64> {
        let (mean, variance) = self.observed()?;
        Some(elo_half_width(
            mean,
            (variance / f64::from(self.pairs())).sqrt(),
        ))
    }

    /// Normalised Elo: the t-value `(score - ½) / (√2 σ)` (√2 σ is one game's
    /// standard deviation when a pair averages two games) times `800 / ln 10`.
    /// `None` before the first pair or while every pair scored the same.
    pub fn normalized_elo(&self) -> Option<f64> {
        let (mean, variance) = self.observed()?;
        (variance > 0.0).then(|| normalized_elo_of_t((mean - 0.5) / (2.0 * variance).sqrt()))
    }

    /// Half the width of the 95% interval of [`Pentanomial::normalized_elo`]:
    /// `1.96 σ/√N` on the score is `1.96 / √(2N)` on the t-value.
    pub fn normalized_elo_error(&self) -> Option<f64> {
        self.normalized_elo()?;
        Some(normalized_elo_of_t(
            Z_95 / (2.0 * f64::from(self.pairs())).sqrt(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_are_counted_by_their_points() {
        let mut p = Pentanomial::default();
        p.add_pair(-1, -1);
        p.add_pair(0, -1);
        p.add_pair(-1, 0);
        p.add_pair(1, -1);
        p.add_pair(0, 0);
        p.add_pair(1, 0);
        p.add_pair(1, 1);
        assert_eq!(p.counts, [1, 2, 2, 1, 1]);
        assert_eq!(p.pairs(), 7);
    }

    #[test]
    fn worked_example() {
        // Counts [1, 1, 4, 3, 1] over 10 pairs: mean (0.25 + 2 + 2.25 + 1)/10
        // = 0.55; variance (0.55² + 0.3² + 4·0.05² + 3·0.2² + 0.45²)/10 = 0.0725.
        let p = Pentanomial {
            counts: [1, 1, 4, 3, 1],
        };
        assert!((p.score().unwrap() - 0.55).abs() < 1e-12);
        // 400 log10(0.55/0.45) = 34.86.
        assert!((p.elo().unwrap() - 34.860_070).abs() < 1e-5);
        // se = sqrt(0.0725/10) = 0.085147; 0.55 ± 0.166884 → Elo -82.75 ..
        // +161.39 by the logistic curve, half width 122.07.
        let se = (0.0725f64 / 10.0).sqrt();
        let expected = (elo_of_score(0.55 + Z_95 * se) - elo_of_score(0.55 - Z_95 * se)) / 2.0;
        assert!((p.elo_error().unwrap() - expected).abs() < 1e-9);
        assert!((expected - 122.07).abs() < 0.01, "{expected}");
        // t = 0.05 / sqrt(2·0.0725) = 0.131306; × 347.44 = 45.62.
        assert!((p.normalized_elo().unwrap() - 45.621).abs() < 0.01);
        // 1.96 / sqrt(20) × 347.44 = 152.27.
        assert!((p.normalized_elo_error().unwrap() - 152.27).abs() < 0.01);
    }

    #[test]
    fn no_pairs_and_no_spread() {
        let none = Pentanomial::default();
        assert_eq!(none.score(), None);
        assert_eq!(none.elo_error(), None);
        assert_eq!(none.normalized_elo(), None);
        let draws = Pentanomial {
            counts: [0, 0, 5, 0, 0],
        };
        assert_eq!(draws.elo(), Some(0.0));
        assert_eq!(draws.elo_error(), Some(0.0));
        assert_eq!(draws.normalized_elo(), None);
        let (mean, variance) = moments(&draws.regularized_frequencies().unwrap());
        assert!((mean - 0.5).abs() < 1e-12 && variance > 0.0);
        let wins = Pentanomial {
            counts: [0, 0, 0, 0, 3],
        };
        assert_eq!(wins.elo(), Some(f64::INFINITY));
        assert_eq!(wins.elo_error(), Some(f64::INFINITY));
    }
}
