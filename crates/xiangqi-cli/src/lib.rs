//! The code of the `xiangqi` and `xiangqi-engine` programs (`src/main.rs`,
//! `src/bin/xiangqi-engine.rs`): one module per subcommand in `commands/`,
//! helpers in `common`, the progress bar of reading a big file in
//! `progress`, the
//! collections of game files in `collection`. It only
//! composes the library crates; it is no API of its own.

mod collection;
pub mod commands;
mod common;
pub mod exit;
mod options;
mod progress;
