//! The code of the `xiangqi` and `xiangqi-engine` programs (`src/main.rs`,
//! `src/bin/xiangqi-engine.rs`): one module per subcommand in `commands/`,
//! helpers in `common`, the corpus reader in `corpus` (its workers on
//! `xiangqi_parallel`'s ordered map), the
//! collections of game files in `collection`. It only
//! composes the library crates; it is no API of its own.

mod collection;
pub mod commands;
mod common;
mod corpus;
