//! Each player's library of imported games (docs/server.md, "Library"):
//! files read through `xiangqi-gamefile` (`read`), stored a whole import
//! at a time (`import`), and the limits that keep one player from filling
//! the server: the upload's size, games per import and per library,
//! imports per hour and at once.

pub mod import;
pub mod read;

use std::num::NonZeroU32;
use std::time::Duration;

use tokio::sync::Semaphore;

use crate::security::throttle::Throttle;
use crate::security::Rate;

/// The largest upload: 8 MiB. The biggest real single files are a few
/// hundred KiB (a CCBridge library of 93 games is 472 KiB) and a PGN of
/// [`MAX_GAMES_PER_IMPORT`] long games is about 1 MiB; 8 MiB leaves room for
/// a real library of a few hundred games while a request stays bounded.
/// Every other route keeps the server's 16 KiB.
pub const MAX_IMPORT_BYTES: usize = 8 << 20;
/// Games kept from one import; the file's later games are reported as not
/// imported.
pub const MAX_GAMES_PER_IMPORT: usize = 1_000;
/// Games in one player's library.
pub const MAX_LIBRARY_GAMES: usize = 5_000;
/// Imports per player: 20 an hour.
pub const IMPORTS: Rate = Rate::new(
    match NonZeroU32::new(20) {
        Some(n) => n,
        None => panic!("a rate of zero"),
    },
    Duration::from_secs(3_600),
);
/// Imports read at once on the whole server (each on a blocking thread).
pub const MAX_RUNNING_IMPORTS: usize = 2;
/// Games a library page lists.
pub const GAMES_PER_PAGE: usize = 50;

/// The running limits of imports.
pub struct Library {
    /// Imports per player.
    pub throttle: Throttle<String>,
    /// Imports being read now.
    pub running: Semaphore,
}

impl Library {
    /// Imports limited to `rate` per player.
    pub fn new(rate: Rate) -> Library {
        Library {
            throttle: Throttle::new(rate),
            running: Semaphore::new(MAX_RUNNING_IMPORTS),
        }
    }
}

impl Default for Library {
    fn default() -> Library {
        Library::new(IMPORTS)
    }
}
