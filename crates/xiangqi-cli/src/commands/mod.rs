//! One module per subcommand.

pub mod adjudicate;
pub mod analyze;
mod analyze_pgn;
pub mod bench;
pub mod bot;
pub mod convert;
pub mod engine;
/// The engine side of UCI and UCCI: shared by `uci` and `ucci`.
mod engine_protocol;
/// `explore build` and `explore query`: the opening explorer.
pub mod explore;
pub mod game;
mod game_ecco;
mod game_view;
pub mod matches;
pub mod moves;
/// `nnue gen`, `nnue merge` and `nnue train`: the NNUE evaluation's data and training.
pub mod nnue;
pub mod perft;
pub mod play;
/// `puzzles build`: a puzzle set verified by the engine.
pub mod puzzles;
pub mod rate;
pub mod serve;
pub mod tune;
pub mod ucci;
pub mod uci;
