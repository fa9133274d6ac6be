//! # xiangqi-bot
//!
//! Connects a UCI or UCCI engine (ours, Pikafish, Fairy-Stockfish) to
//! `xiangqi serve` as a bot, through the bot API (docs/server.md, "Bots";
//! docs/bots.md): the event stream kept open and reopened with backoff
//! after network trouble, challenges accepted or declined by a
//! [`Policy`], one task per game that reads the game's stream and asks its
//! own engine process for a move with the game's real clocks (`go wtime
//! btime winc binc` through `xiangqi-engine-client`, which also writes the
//! Fairy-Stockfish dialect's ranks 1-10), draw and takeback offers
//! answered by the policy, games in progress resumed after a restart (the
//! server names them on connect), and the bot's own challenges
//! ([`Outgoing`]) so that two bots play each other.
//!
//! The bodies and stream lines are `xiangqi_server_protocol::bot`'s types,
//! the server's own. Every wait is bounded; hostile or garbled lines, HTTP
//! errors and engine failures are [`BotError`]s or [`Report::Warning`]s,
//! never a panic. The library prints nothing: it hands each [`Report`] to
//! the caller's [`Reporter`].

use std::sync::Arc;

mod api;
mod backoff;
mod bot;
mod error;
mod game;
mod ndjson;
mod policy;
mod report;
mod seat;

pub use api::Api;
pub use backoff::Backoff;
pub use bot::{run, BotConfig, Outgoing, Summary};
pub use error::BotError;
pub use ndjson::{LineStream, MAX_LINE_BYTES};
pub use policy::{DrawPolicy, Policy};
pub use report::Report;
pub use seat::BotEngine;

/// Where the bot's reports go (the CLI prints them).
pub type Reporter = Arc<dyn Fn(Report) + Send + Sync>;
