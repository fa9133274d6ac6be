//! PGN game records (N-PGN): a streaming [`Reader`], the [`Game`] tree and a
//! [`write_game`] writer, in any notation.
//!
//! ```
//! use xiangqi_notation::pgn::{read_str, write_game, WriteOptions};
//! use xiangqi_notation::Notation;
//!
//! let text = "[Event \"Demo\"]\n1. h2e2 {central cannon} h9g7 (1... b7e7) 2. h0g2 *\n";
//! let game = read_str(text).next().unwrap().unwrap();
//! let chinese = write_game(&game, &WriteOptions::new(Notation::Chinese)).unwrap();
//! assert!(chinese.contains("1. 炮二平五 {central cannon} 1... 马8进7 (1... 炮2平5) 2. 马二进三 *"));
//! let again = read_str(&chinese).next().unwrap().unwrap();
//! assert_eq!(again.mainline, game.mainline); // round trip, variations and comments included
//! ```

mod game;
mod lines;
mod reader;
mod scan;
mod text;
mod writer;
pub mod wxf_file;

pub use game::{Game, GameResult, Line, Node, ReplayError, UnknownResult};
pub use reader::{Limits, PgnError, PgnErrorKind, Reader, ReaderOptions};
pub use text::TextEncoding;
pub use writer::{write_game, write_game_to, WriteError, WriteOptions};
pub use wxf_file::{
    read_wxf_str, write_wxf, write_wxf_to, WxfError, WxfErrorKind, WxfReader, WxfWriteError,
    WxfWriteOptions,
};

/// A reader over an in-memory string.
pub fn read_str(text: &str) -> Reader<&[u8]> {
    Reader::new(text.as_bytes())
}
