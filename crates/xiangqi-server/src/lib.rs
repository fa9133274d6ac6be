//! # xiangqi-server
//!
//! The game server behind `xiangqi serve`: a lobby of seeks and games, one
//! task per game that owns its clock and verdicts (through
//! `xiangqi-adjudication`'s `OnlineGame`), accounts and guests, Elo for
//! rated games, storage on SQLite or PostgreSQL, and the web client,
//! embedded. The protocol is written down in `docs/server.md`.
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! use std::sync::Arc;
//! use xiangqi_server::{clock::SystemClock, sqlite_in, store::Store, Server};
//! let store = Store::open(&sqlite_in("data".as_ref())?).await?;
//! let server = Server::bind("127.0.0.1:8080".parse()?, store, Arc::new(SystemClock::new()), 1).await?;
//! println!("open {}", server.url());
//! server.run_until(std::future::pending()).await?;
//! # Ok(()) }
//! ```

pub mod bots;
pub mod clock;
pub mod cluster;
pub mod engine_player;
pub mod engine_slots;
pub mod error;
pub mod export;
pub mod game;
pub mod http;
pub mod ids;
pub mod notation_setting;
pub mod puzzles;
pub mod review;
pub mod rules;
pub mod security;
mod server;
pub mod social;
pub mod state;
pub mod store;
pub mod time_control;
pub mod ws;

pub use server::{default_data_dir, sqlite_in, ServeError, Server};
