//! What stands between the open internet and the server (the threat model
//! is in `docs/server.md`, "Security"): who the client is (`client`), rates
//! per address and per account (`throttle`, on `governor`), the bounded
//! pool that hashes passwords (`hashing`), which names and passwords an
//! account may have (`names`, `passwords`), the sweep of idle guests
//! (`sweep`), and the options that set them,
//! `Security`, with defaults safe for a public server.

pub mod client;
pub mod hashing;
pub mod names;
pub mod passwords;
pub mod rate;
pub mod sweep;
pub mod throttle;

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

pub use client::{AddressKey, Client};
pub use rate::Rate;

use hashing::HashPool;
use throttle::Throttle;

/// The limits and trust settings of `xiangqi serve` (its `--limit-…`,
/// `--hash-…`, `--allowed-origin`, `--trusted-proxy` and `--behind-tls`
/// options).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Security {
    /// Origins besides the server's own whose pages may open `/ws` and send
    /// `POST`/`PUT`/`DELETE` (`https://xiangqi.example`), for a proxy that
    /// changes the `Host`.
    pub allowed_origins: Vec<String>,
    /// The server is reached over HTTPS (a TLS proxy in front): cookies are
    /// `Secure` and the own origin is `https://`.
    pub behind_tls: bool,
    /// Peers whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed.
    pub trusted_proxies: Vec<IpAddr>,
    /// New guests per address.
    pub guests: Rate,
    /// Sign-in attempts (login and registration) per address.
    pub sign_ins: Rate,
    /// Login attempts per account name.
    pub account_sign_ins: Rate,
    /// Open seeks per address (each player has at most
    /// [`crate::game::lobby::MAX_SEEKS_PER_PLAYER`] besides).
    pub seeks_per_address: usize,
    /// Password hashes computed at once.
    pub hash_workers: usize,
    /// Sign-ins waiting for a hashing worker at most; more get 503.
    pub hash_queue: usize,
}

const fn per_hour(count: u32) -> Rate {
    match NonZeroU32::new(count) {
        Some(count) => Rate::new(count, Duration::from_secs(3_600)),
        None => panic!("a rate of zero"),
    }
}

impl Security {
    /// 30 new guests an hour per address.
    pub const GUESTS: Rate = per_hour(30);
    /// 30 sign-in attempts an hour per address.
    pub const SIGN_INS: Rate = per_hour(30);
    /// 10 login attempts an hour per account.
    pub const ACCOUNT_SIGN_INS: Rate = per_hour(10);
    /// 10 open seeks per address.
    pub const SEEKS_PER_ADDRESS: usize = 10;
    /// 2 password hashes at once (each holds Argon2's 19 MiB).
    pub const HASH_WORKERS: usize = 2;
    /// 16 sign-ins waiting for a hash at most.
    pub const HASH_QUEUE: usize = 16;
}

impl Default for Security {
    fn default() -> Security {
        Security {
            allowed_origins: Vec::new(),
            behind_tls: false,
            trusted_proxies: Vec::new(),
            guests: Security::GUESTS,
            sign_ins: Security::SIGN_INS,
            account_sign_ins: Security::ACCOUNT_SIGN_INS,
            seeks_per_address: Security::SEEKS_PER_ADDRESS,
            hash_workers: Security::HASH_WORKERS,
            hash_queue: Security::HASH_QUEUE,
        }
    }
}

/// The running guards: the settings, the limiters and the hashing pool.
pub struct Guards {
    /// The settings.
    pub security: Security,
    /// New guests per address.
    pub guests: Throttle<AddressKey>,
    /// Sign-in attempts per address.
    pub sign_ins: Throttle<AddressKey>,
    /// Login attempts per account (the name's key, known or not).
    pub account_sign_ins: Throttle<String>,
    /// Password hashing.
    pub hashing: HashPool,
}

impl Guards {
    /// Guards with `security`'s settings.
    pub fn new(security: Security) -> Guards {
        Guards {
            guests: Throttle::new(security.guests),
            sign_ins: Throttle::new(security.sign_ins),
            account_sign_ins: Throttle::new(security.account_sign_ins),
            hashing: HashPool::new(security.hash_workers, security.hash_queue),
            security,
        }
    }

    /// Forgets the limiters' keys that are back to a full burst (run
    /// periodically, so their memory follows recent traffic only).
    pub fn forget_idle(&self) {
        self.guests.forget_idle();
        self.sign_ins.forget_idle();
        self.account_sign_ins.forget_idle();
    }
}

impl Default for Guards {
    fn default() -> Guards {
        Guards::new(Security::default())
    }
}
