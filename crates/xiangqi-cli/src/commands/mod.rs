//! One module per subcommand.

pub mod adjudicate;
pub mod analyze;
mod analyze_pgn;
pub mod bench;
pub mod convert;
pub mod game;
pub mod matches;
pub mod moves;
pub mod perft;
pub mod play;
pub mod rate;
pub mod tune;
pub mod ucci;
pub mod uci;
