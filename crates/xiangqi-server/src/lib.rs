//! # xiangqi-server
//!
//! The game server behind `xiangqi serve` (skeleton; being built).

pub mod store;
