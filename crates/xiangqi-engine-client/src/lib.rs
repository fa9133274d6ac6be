//! # xiangqi-engine-client
//!
//! Drives external xiangqi engines: starts the program, talks UCI
//! (including the Pikafish and Fairy-Stockfish dialects: `UCI_Variant
//! xiangqi`, ranks 1-10), UCCI or xboard/CECP ([`protocol`], one module per
//! protocol behind [`protocol::Dialect`]), and returns typed answers:
//! [`Analysis`] with [`Score`]s and [`Bound`]s, or an [`EngineError`] that
//! says whether the engine died, was silent past its deadline, or wrote an
//! unreadable or illegal move. Every wait has a deadline.
//!
//! [`builtin`] drives our own search (`xiangqi-search`) through the same
//! interface, in process: [`builtin::BuiltinEngine`].
//!
//! [`annotate`] reviews a game: evaluations, `?!`/`?`/`??` by the drop in
//! winning chance, the best line where a move was a mistake.
//!
//! [`game`] plays one engine game judged by `xiangqi-adjudication`, its end
//! a [`GameEnd`]: a rule verdict or an engine's forfeit, never mixed.
//!
//! ```no_run
//! use std::time::Duration;
//! use xiangqi_core::Position;
//! use xiangqi_engine_client::{Engine, Limit, SearchOptions};
//!
//! let spec = "/usr/games/fairy-stockfish".parse().unwrap();
//! let mut engine = Engine::start(&spec, None).unwrap();
//! let limit = Limit::move_time(Duration::from_millis(100));
//! let analysis = engine
//!     .search(&Position::startpos(), &[], SearchOptions::new(limit))
//!     .unwrap();
//! println!("{} {:?}", analysis.best_move, analysis.evaluation());
//! engine.quit();
//! ```

pub mod annotate;
pub mod builtin;
mod engine;
mod error;
pub mod game;
mod move_text;
mod process;
pub mod protocol;
mod score;
mod spec;

pub use engine::{Analysis, Engine, Info, SearchOptions, DEFAULT_MARGIN, DEFAULT_SEARCH_TIMEOUT};
pub use error::{EngineError, SpecError};
pub use game::GameEnd;
pub use move_text::MoveText;
pub use process::{TrafficLog, MAX_LINE_BYTES};
pub use score::{Bound, Evaluation, Score};
pub use spec::{split_command, Clock, EngineSpec, Limit, Protocol, DEFAULT_HANDSHAKE_TIMEOUT};
