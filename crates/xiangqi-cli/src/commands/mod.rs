//! One module per subcommand.

pub mod adjudicate;
pub mod analyze;
pub mod bench;
pub mod convert;
pub mod game;
pub mod matches;
pub mod moves;
pub mod perft;
pub mod play;
pub mod ucci;
pub mod uci;
