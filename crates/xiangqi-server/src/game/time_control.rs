//! The protocol's time controls, `MIN+INC` (minutes may be fractional,
//! the increment is whole seconds), and their clock form.

use xiangqi_adjudication::TimeControl;

/// The longest base time, in minutes.
const MAX_BASE_MINUTES: f64 = 180.0;
/// The largest increment, in seconds.
const MAX_INCREMENT_SECONDS: u64 = 60;

/// Reads `MIN+INC`: 0 < base ≤ 180 min, increment ≤ 60 s. The error is a
/// sentence for the player.
pub fn parse_time_control(text: &str) -> Result<TimeControl, String> {
    let bad = || {
        format!(
            "bad time control {text:?}: write MINUTES+SECONDS such as 5+3 or 0.5+0, \
             with 0 < minutes <= 180 and seconds <= 60"
        )
    };
    let (base, inc) = text.split_once('+').ok_or_else(bad)?;
    let minutes: f64 = base.trim().parse().map_err(|_| bad())?;
    let increment: u64 = inc.trim().parse().map_err(|_| bad())?;
    if !(minutes > 0.0 && minutes <= MAX_BASE_MINUTES) || increment > MAX_INCREMENT_SECONDS {
        return Err(bad());
    }
    let base_ms = (minutes * 60_000.0).round() as u64;
    if base_ms == 0 {
        return Err(bad());
    }
    Ok(TimeControl {
        base_ms,
        increment_ms: increment * 1_000,
    })
}

/// The protocol text of a time control (`5+3`, `0.5+0`).
pub fn format_time_control(tc: &TimeControl) -> String {
    let minutes = tc.base_ms as f64 / 60_000.0;
    format!("{minutes}+{}", tc.increment_ms / 1_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_time_controls() {
        let tc = parse_time_control("5+3").unwrap();
        assert_eq!((tc.base_ms, tc.increment_ms), (300_000, 3_000));
        assert_eq!(format_time_control(&tc), "5+3");
        let tc = parse_time_control("0.5+0").unwrap();
        assert_eq!(tc.base_ms, 30_000);
        assert_eq!(format_time_control(&tc), "0.5+0");
        for bad in ["", "5", "0+3", "181+0", "5+61", "-1+0", "x+1", "NaN+0"] {
            assert!(parse_time_control(bad).is_err(), "{bad}");
        }
    }
}
