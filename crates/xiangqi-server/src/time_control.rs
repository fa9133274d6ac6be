//! The protocol's time controls, `MIN+INC`, as the adjudication crate's
//! clock. The text is read by `xiangqi_server_protocol::time_control`,
//! which clients share; the adjudication crate's own
//! `TimeControl::from_str` reads milliseconds (`300000+3000`).

use xiangqi_adjudication::TimeControl;
use xiangqi_server_protocol::time_control::{self as text, TimeControlMs};

pub use xiangqi_server_protocol::time_control::{
    ParseTimeControlError, MAX_BASE_MINUTES, MAX_INCREMENT_SECONDS, MIN_GAME_MOVES, MIN_GAME_MS,
};

fn clock(tc: TimeControlMs) -> TimeControl {
    TimeControl {
        base_ms: tc.base_ms,
        increment_ms: tc.increment_ms,
    }
}

/// The protocol's `MIN+INC` (base in minutes, possibly fractional as in
/// `0.5+0`; increment in seconds) as milliseconds.
///
/// ```
/// use xiangqi_server::time_control::parse_time_control;
/// let tc = parse_time_control("5+3").unwrap();
/// assert_eq!((tc.base_ms, tc.increment_ms), (300_000, 3_000));
/// ```
pub fn parse_time_control(text: &str) -> Result<TimeControl, ParseTimeControlError> {
    text::parse_time_control(text).map(clock)
}

/// A time control a seek or an engine game may offer: at least
/// [`MIN_GAME_MS`] counted as base + 40 × increment
/// (`xiangqi_server_protocol::time_control::offered_time_control`).
pub fn offered_time_control(text: &str) -> Result<TimeControl, ParseTimeControlError> {
    text::offered_time_control(text).map(clock)
}

/// The protocol text of a time control (`5+3`, `0.5+0`).
pub fn format_time_control(tc: &TimeControl) -> String {
    text::format_time_control(TimeControlMs {
        base_ms: tc.base_ms,
        increment_ms: tc.increment_ms,
    })
}
