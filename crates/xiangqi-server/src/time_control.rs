//! The protocol's time controls, `MIN+INC`: base minutes (fractional as in
//! `0.5+0`) and increment seconds, and their clock form. The adjudication
//! crate's own `TimeControl::from_str` reads milliseconds (`300000+3000`);
//! this is the one for the protocol's text.

use std::str::FromStr;

use xiangqi_adjudication::TimeControl;

/// The longest base time the protocol allows, in minutes.
pub const MAX_BASE_MINUTES: f64 = 180.0;
/// The largest increment the protocol allows, in seconds.
pub const MAX_INCREMENT_SECONDS: f64 = 60.0;

/// Text that is not a protocol time control.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "bad time control {0:?}: expected MIN+INC, base minutes (0 < MIN <= 180, may be fractional \
     as in 0.5) and increment seconds (0 <= INC <= 60), e.g. 5+3"
)]
pub struct ParseTimeControlError(pub String);

/// The protocol's `MIN+INC` (base in minutes, possibly fractional as in
/// `0.5+0`; increment in seconds) as milliseconds. Note that the
/// adjudication crate's own `TimeControl::from_str` reads milliseconds
/// (`300000+3000`): this is the one for the protocol's text.
///
/// ```
/// use xiangqi_server::time_control::parse_time_control;
/// let tc = parse_time_control("5+3").unwrap();
/// assert_eq!((tc.base_ms, tc.increment_ms), (300_000, 3_000));
/// assert_eq!(parse_time_control("0.5+0").unwrap().base_ms, 30_000);
/// assert!(parse_time_control("0+5").is_err());
/// ```
pub fn parse_time_control(text: &str) -> Result<TimeControl, ParseTimeControlError> {
    let bad = || ParseTimeControlError(text.to_string());
    let (base, increment) = text.split_once('+').ok_or_else(bad)?;
    let number = |s: &str| -> Result<f64, ParseTimeControlError> {
        // Plain decimals only: no signs, exponents, "inf" or "NaN".
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
            return Err(bad());
        }
        f64::from_str(s).map_err(|_| bad())
    };
    let minutes = number(base)?;
    let seconds = number(increment)?;
    if !(minutes > 0.0 && minutes <= MAX_BASE_MINUTES && seconds <= MAX_INCREMENT_SECONDS) {
        return Err(bad());
    }
    let base_ms = (minutes * 60_000.0).round() as u64;
    if base_ms == 0 {
        return Err(bad());
    }
    Ok(TimeControl {
        base_ms,
        increment_ms: (seconds * 1_000.0).round() as u64,
    })
}

/// The protocol text of a time control (`5+3`, `0.5+0`).
pub fn format_time_control(tc: &TimeControl) -> String {
    let minutes = tc.base_ms as f64 / 60_000.0;
    let seconds = tc.increment_ms as f64 / 1_000.0;
    format!("{minutes}+{seconds}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_time_controls() {
        let tc = parse_time_control("5+3").unwrap();
        assert_eq!(format_time_control(&tc), "5+3");
        let tc = parse_time_control("0.5+0").unwrap();
        assert_eq!(format_time_control(&tc), "0.5+0");
        for bad in [
            "", "5", "0+3", "181+0", "5+61", "-1+0", "x+1", "NaN+0", "1e2+0",
        ] {
            assert!(parse_time_control(bad).is_err(), "{bad}");
        }
    }
}
