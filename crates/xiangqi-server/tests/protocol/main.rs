//! The protocol over real sockets: a server on 127.0.0.1 with a hand-moved
//! clock and an in-memory SQLite store, and clients that speak HTTP (each
//! with its own cookies) and WebSocket frames. Each test plays one story and
//! checks the frames the players see and what the server stored.

mod abort;
mod analysis;
mod analysis_attacks;
mod assets;
mod display_settings;
mod endings;
mod engine;
mod engine_fairness;
mod harness;
mod lines;
mod opening;
mod rated;
mod refusals;
mod rematch;
mod restart;
mod review;
mod takeback;
mod watching;
