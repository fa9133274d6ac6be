//! How match statistics are written: `+107.5`, `68.5`, `inf`, and `null`
//! in JSON for an infinity. The statistics themselves are
//! `xiangqi_rating::match_stats`.

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

/// `+12.3 ± 20.1`, or `n/a` when either is unknown.
pub fn format_elo_and_error(elo: Option<f64>, error: Option<f64>) -> String {
    match (elo, error) {
        (Some(elo), Some(error)) => format!("{} ± {}", format_elo(elo), format_error(error)),
        _ => "n/a".to_string(),
    }
}

/// A finite number for JSON rounded to tenths, `None` (null) for infinities.
pub fn finite(x: Option<f64>) -> Option<f64> {
    x.filter(|v| v.is_finite())
        .map(|v| (v * 10.0).round() / 10.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_rating::match_stats::Tally;

    fn tally(wins: u32, draws: u32, losses: u32) -> Tally {
        Tally {
            wins,
            draws,
            losses,
        }
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
        let t = tally(60, 10, 30);
        assert_eq!(format_elo(t.elo().unwrap()), "+107.5");
        assert_eq!(format_error(t.elo_error().unwrap()), "68.5");
        assert_eq!(
            format_elo_and_error(t.elo(), t.elo_error()),
            "+107.5 ± 68.5"
        );
    }

    #[test]
    fn extremes() {
        let all = tally(10, 0, 0);
        assert_eq!(format_elo(all.elo().unwrap()), "+inf");
        assert_eq!(format_elo(tally(0, 0, 3).elo().unwrap()), "-inf");
        assert_eq!(finite(all.elo()), None);
        assert_eq!(format_elo_and_error(None, Some(1.0)), "n/a");
    }
}
