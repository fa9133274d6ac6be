//! The protocol's time controls as text, `MIN+INC`: base minutes
//! (fractional as in `0.5+0`) and increment seconds, read into
//! milliseconds. Here, not in the server, because every client reads them
//! too: a bot checks a challenge's clock against its policy and tells its
//! engine the increment. The server turns [`TimeControlMs`] into the
//! adjudication crate's clock (`xiangqi_server::time_control`).

use crate::echo::quoted;

/// The longest base time the protocol allows, in minutes.
pub const MAX_BASE_MINUTES: f64 = 180.0;
/// The largest increment the protocol allows, in seconds.
pub const MAX_INCREMENT_SECONDS: f64 = 60.0;

/// The shortest game a seek may offer: base + 40 × increment must be at
/// least 15 s (a 60 ms game is no game, and its clocks would run out
/// between two frames).
pub const MIN_GAME_MS: u64 = 15_000;
/// The moves the increment counts for in that sum.
pub const MIN_GAME_MOVES: u64 = 40;

/// A time control in milliseconds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TimeControlMs {
    /// Each side's time at the start.
    pub base_ms: u64,
    /// Added to the mover's clock after each of its moves.
    pub increment_ms: u64,
}

/// Text that is not a protocol time control, or one too short to offer
/// (the text quoted and cut to a few dozen characters).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseTimeControlError {
    /// Not `MIN+INC` within the limits.
    #[error(
        "bad time control {0}: expected MIN+INC, base minutes (0 < MIN <= 180, may be fractional \
         as in 0.5) and increment seconds (0 <= INC <= 60), e.g. 5+3"
    )]
    Bad(String),
    /// Under [`MIN_GAME_MS`].
    #[error(
        "time control {0} is too short: base + 40 x increment must be at least 15 s \
         (0.25+0 is the shortest without increment)"
    )]
    TooShort(String),
}

/// Reads `MIN+INC` (base in minutes, possibly fractional as in `0.5+0`;
/// increment in seconds) as milliseconds.
///
/// ```
/// use xiangqi_server_protocol::time_control::parse_time_control;
/// let tc = parse_time_control("5+3").unwrap();
/// assert_eq!((tc.base_ms, tc.increment_ms), (300_000, 3_000));
/// assert_eq!(parse_time_control("0.5+0").unwrap().base_ms, 30_000);
/// assert!(parse_time_control("0+5").is_err());
/// ```
pub fn parse_time_control(text: &str) -> Result<TimeControlMs, ParseTimeControlError> {
    let bad = || ParseTimeControlError::Bad(quoted(text));
    let (base, increment) = text.split_once('+').ok_or_else(bad)?;
    let number = |s: &str| -> Result<f64, ParseTimeControlError> {
        // Plain decimals only: no signs, exponents, "inf" or "NaN".
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
            return Err(bad());
        }
        s.parse::<f64>().map_err(|_| bad())
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
    Ok(TimeControlMs {
        base_ms,
        increment_ms: (seconds * 1_000.0).round() as u64,
    })
}

/// A time control a seek, a challenge or an engine game may offer: one
/// [`parse_time_control`] reads, lasting at least [`MIN_GAME_MS`] counted
/// as base + 40 × increment. (Stored games are read with
/// `parse_time_control` alone: one from before the minimum still loads.)
///
/// ```
/// use xiangqi_server_protocol::time_control::offered_time_control;
/// assert!(offered_time_control("0.25+0").is_ok()); // 15 s
/// assert!(offered_time_control("0.05+0.3").is_ok()); // 3 s + 40 × 0.3 s
/// assert!(offered_time_control("0.001+0").is_err()); // 60 ms
/// ```
pub fn offered_time_control(text: &str) -> Result<TimeControlMs, ParseTimeControlError> {
    let tc = parse_time_control(text)?;
    if tc.base_ms + MIN_GAME_MOVES * tc.increment_ms < MIN_GAME_MS {
        return Err(ParseTimeControlError::TooShort(quoted(text)));
    }
    Ok(tc)
}

/// The protocol text of a time control (`5+3`, `0.5+0`).
pub fn format_time_control(tc: TimeControlMs) -> String {
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
        assert_eq!(format_time_control(tc), "5+3");
        let tc = parse_time_control("0.5+0").unwrap();
        assert_eq!(format_time_control(tc), "0.5+0");
        for bad in [
            "", "5", "0+3", "181+0", "5+61", "-1+0", "x+1", "NaN+0", "1e2+0",
        ] {
            assert!(parse_time_control(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_new_game_lasts_at_least_15_seconds() {
        for short in ["0.001+0", "0.2+0", "0.1+0.2", "0.01+0.3"] {
            assert!(
                matches!(
                    offered_time_control(short),
                    Err(ParseTimeControlError::TooShort(_))
                ),
                "{short}"
            );
            assert!(
                parse_time_control(short).is_ok(),
                "a stored {short} still reads"
            );
        }
        for enough in ["0.25+0", "0.05+0.3", "0.1+0.25", "5+3"] {
            assert!(offered_time_control(enough).is_ok(), "{enough}");
        }
        let long = "9".repeat(10_000);
        assert!(offered_time_control(&long).unwrap_err().to_string().len() < 300);
    }
}
