//! PGN files (N-PGN): a streaming [`PgnReader`] into the [`Game`](crate::Game)
//! tree and a [`write_game`] writer, in any notation.
//!
//! ```
//! use xiangqi_gamefile::pgn::{read_str, write_game, WriteOptions};
//! use xiangqi_notation::Notation;
//!
//! let text = "[Event \"Demo\"]\n1. h2e2 {central cannon} h9g7 (1... b7e7) 2. h0g2 *\n";
//! let game = read_str(text).next().unwrap().unwrap();
//! let chinese = write_game(&game, &WriteOptions::new(Notation::Chinese)).unwrap();
//! assert!(chinese.contains("1. 炮二平五 {central cannon} 1... 马8进7 (1... 炮2平5) 2. 马二进三 *"));
//! let again = read_str(&chinese).next().unwrap().unwrap();
//! assert_eq!(again.mainline, game.mainline); // round trip, variations and comments included
//! ```

mod commands;
mod reader;
mod writer;

pub use crate::WriteError;
pub use commands::clock_comment;
pub use reader::PgnReader;
pub use writer::{write_game, write_game_to, WriteOptions};

/// A reader over an in-memory string.
pub fn read_str(text: &str) -> PgnReader<&[u8]> {
    PgnReader::new(text.as_bytes())
}
