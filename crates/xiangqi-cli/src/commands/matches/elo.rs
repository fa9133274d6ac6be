//! Match statistics: score and Elo difference with a 95% error bar.
//!
//! The logistic model maps a score fraction `p` to an Elo difference
//! `-400 log10(1/p - 1)`. The error bar treats each game as a trinomial
//! draw (win 1, draw ½, loss 0) whose variance is estimated from the
//! observed frequencies; the 95% interval of the mean score is mapped through
//! the same curve and half its width is reported (as cutechess-cli does).

/// Wins, draws and losses from one engine's side.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// Two-sided 95% quantile of the normal distribution.
const Z_95: f64 = 1.959_963_984_540_054;

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

    /// The Elo difference; infinite for a 100% or 0% score.
    pub fn elo(&self) -> Option<f64> {
        self.score().map(elo_of_score)
    }

    /// Half the width of the 95% confidence interval of [`Tally::elo`];
    /// infinite when the interval reaches a 0% or 100% score.
    pub fn elo_error(&self) -> Option<f64> {
        let n = self.games() as f64;
        let p = self.score()?;
        let variance = (self.wins as f64 * (1.0 - p).powi(2)
            + self.draws as f64 * (0.5 - p).powi(2)
            + self.losses as f64 * p.powi(2))
            / n;
        let margin = Z_95 * (variance / n).sqrt();
        let (low, high) = (p - margin, p + margin);
        if low <= 0.0 || high >= 1.0 {
            return Some(f64::INFINITY);
        }
        Some((elo_of_score(high) - elo_of_score(low)) / 2.0)
    }
}

/// The logistic Elo difference of a score fraction.
pub fn elo_of_score(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

/// `+107.5`, `-3.0`, `+inf`.
pub fn format_elo(elo: f64) -> String {
    if elo.is_infinite() {
        if elo > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        // An even score is -400·log10(1) = -0.0, and a tiny negative rounds
        // to -0.0 too: written "+0.0", never "-0.0". Adding +0.0 turns a
        // negative zero positive.
        let tenths = (elo * 10.0).round() / 10.0 + 0.0;
        format!("{tenths:+.1}")
    }
}

/// `70.2`, `inf`.
pub fn format_error(error: f64) -> String {
    if error.is_infinite() {
        "inf".to_string()
    } else {
        format!("{error:.1}")
    }
}

/// A finite number for JSON, `None` (null) for infinities.
pub fn finite(x: Option<f64>) -> Option<f64> {
    x.filter(|v| v.is_finite())
        .map(|v| (v * 10.0).round() / 10.0)
}

#[cfg(test)]
mod tests {
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
    fn an_even_score_is_written_plus_zero() {
        assert_eq!(format_elo(tally(1, 0, 1).elo().unwrap()), "+0.0");
        assert_eq!(format_elo(-0.04), "+0.0");
        assert_eq!(format_elo(-0.05), "-0.1");
        assert_eq!(format_elo(0.04), "+0.0");
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
        assert_eq!(format_elo(t.elo().unwrap()), "+107.5");
        assert_eq!(format_error(t.elo_error().unwrap()), "68.5");
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
        assert_eq!(format_elo(all.elo().unwrap()), "+inf");
        assert_eq!(format_elo(tally(0, 0, 3).elo().unwrap()), "-inf");
        assert_eq!(finite(all.elo()), None);
        let lost = tally(1, 2, 7);
        assert!(lost.elo().unwrap() < -190.0);
    }
}
