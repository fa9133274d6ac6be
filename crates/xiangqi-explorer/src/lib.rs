//! # xiangqi-explorer
//!
//! An opening explorer over your own games: [`build`] reads a corpus (game
//! files, directories, patterns; every format `xiangqi-gamefile` reads) on
//! every core and stores, for every position before each of a game's first
//! N moves, the moves played from it with the number of games, how they
//! ended (the recorded result, else the rules' verdict on the moves), the
//! players' mean rating when the records have ratings, and the first
//! example games. [`Explorer::query`] answers for a position.
//!
//! * Positions are keyed by their Zobrist hash, so transpositions merge; a
//!   position met twice in one game counts once (with the move the game
//!   left it by the last time).
//! * The store is one SQLite file (`docs/explorer.md` says why), written
//!   once in key order from sorted runs: a build streams under a fixed
//!   memory bound ([`BuildOptions::batch_entries`]) whatever the corpus' size.
//! * The same inputs give the same content, whatever the thread count: games
//!   are numbered in input order and a move's examples are its first games.
//! * The file carries a format version; a file of another version, not an
//!   explorer, cut short or damaged is an [`ExplorerError`] naming it.
//!
//! ```
//! use xiangqi_core::Position;
//! use xiangqi_explorer::{build, BuildOptions, Explorer};
//!
//! let dir = std::env::temp_dir().join(format!("explorer-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let games = dir.join("games.pgn");
//! std::fs::write(
//!     &games,
//!     "[Red \"A\"]\n[Black \"B\"]\n1. h2e2 h9g7 1-0\n\n[Red \"C\"]\n[Black \"D\"]\n1. h2e2 b9c7 1/2-1/2\n",
//! )
//! .unwrap();
//! let db = dir.join("openings.db");
//! let report = build(&[games], &db, &BuildOptions::default(), |_| {}).unwrap();
//! assert_eq!(report.indexed, 2);
//!
//! let explorer = Explorer::open(&db).unwrap();
//! let start = explorer.query(&Position::startpos()).unwrap();
//! assert_eq!(start.moves.len(), 1);
//! assert_eq!(start.moves[0].mv.to_string(), "h2e2");
//! assert_eq!(start.moves[0].results.games, 2);
//! assert_eq!(start.moves[0].results.score(xiangqi_core::Color::Red), Some(75.0));
//! assert_eq!(start.moves[0].examples[0].red.as_deref(), Some("A"));
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```

mod batch;
mod build;
mod error;
mod explorer;
mod indexed_game;
mod runs;
mod schema;
mod stats;
mod tally;
mod writer;

pub use build::{build, BuildOptions, BuildProgress, BuildReport, DEFAULT_BATCH_ENTRIES};
pub use error::ExplorerError;
pub use explorer::{Explorer, ExplorerInfo};
pub use schema::FORMAT_VERSION;
pub use stats::{ExampleGame, GameOutcome, MoveStats, PositionStats, Results};
pub use tally::EXAMPLES_PER_MOVE;
