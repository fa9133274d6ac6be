//! # xiangqi-core
//!
//! The rules of Xiangqi (Chinese chess) as a fast, allocation-free library:
//! squares and pieces, moves, FEN, legal move generation, make/unmake,
//! Zobrist hashing and perft. Rule IDs (`R-…`, `N-…`) refer to the project's
//! rules reference.
//!
//! This crate owns *the board*: what is on it, what may move where, and
//! whether the side to move is in check or out of moves. Game-level rules
//! (repetition, perpetual check and chase, the no-capture rule, clocks) live
//! in `xiangqi-adjudication`; move text in `xiangqi-notation`.
//!
//! ```
//! use xiangqi_core::{BoardStatus, Move, MoveList, Position};
//!
//! let mut pos = Position::startpos();
//! let mut moves = MoveList::new();
//! pos.legal_moves(&mut moves);
//! assert_eq!(moves.len(), 44);
//!
//! // EX-END-FG: a chariot mates with the help of the facing rule.
//! let mut pos = Position::from_fen("5k3/9/9/9/8R/9/9/9/9/4K4 w - - 0 1").unwrap();
//! pos.play("i5f5".parse::<Move>().unwrap()).unwrap();
//! assert_eq!(pos.status(), BoardStatus::Checkmate);
//! ```
#![warn(missing_docs)]
// Direction and step indices carry meaning (north, south, …) beyond iteration.
#![allow(clippy::needless_range_loop)]

mod attacks;
mod diagram;
mod fen;
pub mod geometry;
mod masks;
mod movegen;
mod moves;
mod perft;
mod piece;
mod position;
mod random;
mod random_game;
mod random_position;
mod replay;
mod score;
mod square;
mod tables;
pub mod winrate;
mod zobrist;

pub use diagram::Diagram;
pub use fen::{FenError, Validation, MAX_COUNTER, MAX_FEN_LEN, START_FEN};
pub use moves::{Move, MoveList, ParseMoveError, MAX_MOVES};
pub use perft::{divide, divide_with_progress, perft};
pub use piece::{Color, Piece, PieceKind};
pub use position::{BoardStatus, PlayError, Position, Undo};
pub use random::SplitMix64;
pub use random_game::random_game;
pub use random_position::random_position;
pub use replay::ReplayError;
pub use score::{Score, REFERENCE_PLY};
pub use square::{File, ParseSquareError, Rank, Square, SquareSet, SquareSetIter};
