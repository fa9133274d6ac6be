//! `xiangqi.pgn`: game files and game records. One job per module:
//! [`read`] reads games (`read_games`), [`game`] is the record (`Game`),
//! [`args`] the arguments the readers share.

pub mod args;
pub mod game;
pub mod read;

pub use game::PyGame;
pub use read::{read_games, PyGameIterator};
