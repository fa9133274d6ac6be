//! One module per subcommand.

pub mod adjudicate;
pub mod analyze;
pub mod bench;
pub mod convert;
pub mod matches;
pub mod moves;
pub mod perft;
pub mod pgn;
pub mod play;
pub mod tune;
pub mod ucci;
pub mod uci;
