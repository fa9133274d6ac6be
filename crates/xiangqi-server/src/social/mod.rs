//! What players share besides the board: each game's two chats (`chat`),
//! reports about messages and opponents for a moderator (`reports`), and
//! the accounts deleted while their sockets were open (`closed`). The
//! limits are here, in one place, and documented in `docs/server.md`
//! ("Chat and reports").

pub mod chat;
pub mod closed;
pub mod text;

use std::num::NonZeroU32;
use std::time::Duration;

use crate::security::throttle::Throttle;
use crate::security::Rate;

pub use chat::ChatReaders;
pub use closed::ClosedAccounts;

/// A chat message has at most this many characters.
pub const MAX_CHAT_CHARS: usize = 300;
/// A game's chat keeps at most this many messages per channel; more are
/// refused (`chat_full`).
pub const MAX_CHAT_PER_CHANNEL: i64 = 500;
/// A report's note has at most this many characters.
pub const MAX_NOTE_CHARS: usize = 500;

const fn rate(count: u32, seconds: u64) -> Rate {
    match NonZeroU32::new(count) {
        Some(count) => Rate::new(count, Duration::from_secs(seconds)),
        None => panic!("a rate of zero"),
    }
}

/// Chat messages per player: 5 at once, then one every 2 s.
pub const CHAT_RATE: Rate = rate(5, 10);
/// Reports per player: 10 an hour.
pub const REPORT_RATE: Rate = rate(10, 3_600);

/// The running state of chat and reports.
pub struct Social {
    /// Who reads each game's chat now.
    pub readers: ChatReaders,
    /// Chat messages per player.
    pub chat_rate: Throttle<String>,
    /// Reports per player.
    pub report_rate: Throttle<String>,
    /// Accounts deleted since the server started, whose open sockets are
    /// refused everything.
    pub closed: ClosedAccounts,
}

impl Default for Social {
    fn default() -> Social {
        Social {
            readers: ChatReaders::default(),
            chat_rate: Throttle::new(CHAT_RATE),
            report_rate: Throttle::new(REPORT_RATE),
            closed: ClosedAccounts::default(),
        }
    }
}

impl Social {
    /// Forgets the limiters' quiet keys (with the other guards' sweep).
    pub fn forget_idle(&self) {
        self.chat_rate.forget_idle();
        self.report_rate.forget_idle();
    }
}
