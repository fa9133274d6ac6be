//! Game results counted one game at a time (win, draw, loss).

use super::elo::{elo_half_width, elo_of_score};

/// Wins, draws and losses from one engine's side.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win 1, a draw ½.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// The score fraction, `None` before any game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / n as f64)
    }

    /// The logistic Elo difference; infinite for a 100% or 0% score.
    pub fn elo(&self) -> Option<f64> {
        self.score().map(elo_of_score)
    }

    /// Half the width of the 95% confidence interval of [`Tally::elo`]: each
    /// game a trinomial draw (1, ½, 0) whose variance is estimated from the
    /// observed frequencies, the interval of the mean score mapped through
    /// the logistic curve (as cutechess-cli does); infinite when the
    /// interval reaches a 0% or 100% score.
    pub fn elo_error(&self) -> Option<f64> {
        let n = self.games() as f64;
        let p = self.score()?;
        let variance = (self.wins as f64 * (1.0 - p).powi(2)
            + self.draws as f64 * (0.5 - p).powi(2)
            + self.losses as f64 * p.powi(2))
            / n;
        Some(elo_half_width(p, (variance / n).sqrt()))
    }
}

#[cfg(test)]
mod tests {
    use super::super::Z_95;
    use super::*;

    fn tally(wins: u32, draws: u32, losses: u32) -> Tally {
        Tally {
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn even_score_is_zero_elo() {
        let t = tally(30, 40, 30);
        assert_eq!(t.score(), Some(0.5));
        assert!(t.elo().unwrap().abs() < 1e-9);
        // Variance: 60 games at ±½ → 0.15 per game; se = sqrt(0.15/100).
        let se = (0.15f64 / 100.0).sqrt();
        let expected = (elo_of_score(0.5 + Z_95 * se) - elo_of_score(0.5 - Z_95 * se)) / 2.0;
        assert!((t.elo_error().unwrap() - expected).abs() < 1e-9);
        assert!((expected - 53.16).abs() < 0.01, "{expected}");
    }

    #[test]
    fn worked_example() {
        // 60 wins, 10 draws, 30 losses: p = 0.65, Elo = 400 log10(0.65/0.35).
        let t = tally(60, 10, 30);
        assert!((t.elo().unwrap() - 107.54).abs() < 0.01, "{:?}", t.elo());
        // Variance (60·0.35² + 10·0.15² + 30·0.65²)/100 = 0.2025, se = 0.045,
        // interval 0.65 ± 0.0882 → Elo 43.2 .. 180.1, half width 68.5.
        assert!(
            (t.elo_error().unwrap() - 68.45).abs() < 0.05,
            "{:?}",
            t.elo_error()
        );
    }

    #[test]
    fn draws_narrow_the_error_bar() {
        let decisive = tally(55, 0, 45);
        let drawish = tally(10, 90, 0);
        assert_eq!(decisive.score(), drawish.score());
        assert!(drawish.elo_error().unwrap() < decisive.elo_error().unwrap());
    }

    #[test]
    fn extremes() {
        assert_eq!(Tally::default().score(), None);
        assert_eq!(Tally::default().elo_error(), None);
        let all = tally(10, 0, 0);
        assert_eq!(all.elo(), Some(f64::INFINITY));
        assert_eq!(all.elo_error(), Some(f64::INFINITY));
        assert_eq!(tally(0, 0, 3).elo(), Some(f64::NEG_INFINITY));
        let lost = tally(1, 2, 7);
        assert!(lost.elo().unwrap() < -190.0);
    }
}
