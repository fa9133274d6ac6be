//! The progress bar of reading one big game file: bytes read and games, on
//! stderr, fed by `xiangqi_gamefile::corpus`'s progress calls.

use std::path::Path;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use xiangqi_gamefile::corpus::ReadProgress;

/// Files at least this big get a progress bar (when stderr is a terminal).
const PROGRESS_MIN_BYTES: u64 = 1 << 20;

/// A bar of bytes read from `path` when `show` and the file is big enough,
/// a hidden one otherwise (standard input included).
pub fn file_bar(path: &Path, show: bool) -> ProgressBar {
    let len = show
        .then(|| std::fs::metadata(path).ok().map(|m| m.len()))
        .flatten();
    match len {
        Some(len) if len >= PROGRESS_MIN_BYTES => {
            let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template(
                    "{bar:40} {bytes}/{total_bytes} {bytes_per_sec} {msg}",
                )
                .expect("valid template"),
            );
            bar
        }
        _ => ProgressBar::hidden(),
    }
}

/// Moves `bar` to where the reading is.
pub fn advance(bar: &ProgressBar, progress: ReadProgress) {
    bar.set_position(progress.bytes);
    bar.set_message(format!("{} games", progress.games));
}
