//! Xiangqi game files behind one API: PGN, WXF game files, XQF (象棋演播室,
//! versions 1.0-1.8, encrypted ones included) and CCBridge's CBF, CBR and
//! CBL. [`Games::open`] sniffs the format from the file's first bytes (or
//! takes it as given) and yields the games one by one as [`Game`] records:
//! the start position, the move tree with variations and comments, the
//! header fields as PGN tags. The crate also owns that record ([`Game`],
//! [`Line`], [`Node`]) and the writers: PGN ([`pgn`]), WXF ([`wxf`]) and XQF
//! ([`write_xqf`]). Move text itself (ICCS, WXF, Chinese, Vietnamese) is
//! `xiangqi-notation`'s. Every move is checked for legality; one error
//! type, [`GameFileError`], names the file, the game, the line and column or
//! byte offset, and what is wrong.
//!
//! ```
//! use xiangqi_gamefile::{lines, write_xqf, Format, Games};
//! use xiangqi_gamefile::pgn::read_str;
//!
//! let pgn = "[Red \"A\"]\n1. h2e2 h9g7 (1... b9c7 2. h0g2) 2. h0g2 *\n";
//! let game = read_str(pgn).next().unwrap().unwrap();
//! let xqf = write_xqf(&game).unwrap();
//! assert_eq!(Format::sniff(&xqf), Format::Xqf);
//! let again = Games::from_bytes(&xqf, None).next().unwrap().unwrap();
//! assert_eq!(again.tag("Red"), Some("A"));
//! let lines: Vec<Vec<String>> = lines(&again.mainline)
//!     .iter()
//!     .map(|l| l.iter().map(|m| m.to_string()).collect())
//!     .collect();
//! assert_eq!(lines, [vec!["h2e2", "h9g7", "h0g2"], vec!["h2e2", "b9c7", "h0g2"]]);
//! ```

#![warn(missing_docs)]

mod bytes;
mod ccbridge;
pub mod collection;
pub mod corpus;
mod encoding;
mod error;
mod format;
mod game;
mod games;
mod node_path;
mod options;
pub mod pgn;
mod shard_reader;
mod shards;
mod text;
mod tree;
mod write_error;
pub mod wxf;
mod xqf;

pub use encoding::{detect as detect_encoding, TextEncoding, Unencodable, UnknownEncoding};
pub use error::{ErrorKind, GameFileError, Location};
pub use format::{Format, UnknownFormat};
pub use game::{Game, GameResult, Line, MainLineError, Node, UnknownResult, ACCURACY_TAGS};
pub use games::{Games, MAX_WHOLE_FILE_LEN};
pub use node_path::{ChildrenRemap, NodePath};
pub use options::{Limits, ReaderOptions};
pub use shard_reader::{ShardGames, ShardReader};
pub use shards::{count_lines, shards, RangeOrigin, Shard};
pub use tree::lines;
pub use write_error::WriteError;
pub use xqf::write_xqf;
