//! Embedded commands of PGN comments (`[%clk …]`), as chess servers write
//! them, so exports from this project read in the usual viewers.

/// `[%clk H:MM:SS]` for a clock showing `ms` milliseconds (whole seconds,
/// rounded down as a clock display does).
///
/// ```
/// assert_eq!(xiangqi_gamefile::pgn::clock_comment(299_999), "[%clk 0:04:59]");
/// assert_eq!(xiangqi_gamefile::pgn::clock_comment(3_723_000), "[%clk 1:02:03]");
/// ```
pub fn clock_comment(ms: u64) -> String {
    let seconds = ms / 1_000;
    format!(
        "[%clk {}:{:02}:{:02}]",
        seconds / 3_600,
        seconds / 60 % 60,
        seconds % 60
    )
}
