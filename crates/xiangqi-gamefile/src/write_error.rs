//! Why a game cannot be written: one error for the PGN, WXF and XQF writers.

use std::io;

use xiangqi_core::{Color, FenError, PieceKind};
use xiangqi_notation::MoveTextError;

/// Why a game cannot be written as PGN, WXF or XQF.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WriteError {
    /// The output failed.
    #[error("write error: {0}")]
    Io(io::Error),
    /// The `FEN` tag is invalid, so the moves have no start.
    #[error("cannot write the game: FEN tag: {0}")]
    Fen(FenError),
    /// A move is illegal where it stands.
    #[error("cannot write the game: {0}")]
    Move(MoveTextError),
    /// PGN: a comment holds both `}` and a line break, which PGN cannot express.
    #[error("comment {0:?} contains both '}}' and a line break: PGN cannot hold it")]
    Comment(String),
    /// WXF: a comment holds `}`, which ends comments in WXF files.
    #[error("comment {0:?} contains '}}', which WXF game files cannot hold")]
    CommentBrace(String),
    /// WXF: the game has variations (at this 1-based ply of the main line).
    #[error("ply {0} has variations, which WXF game files cannot hold (drop them with `drop_variations`)")]
    Variations(usize),
    /// WXF: a move carries NAGs other than one of `$1`-`$6`.
    #[error("ply {ply}: annotations {nags:?} cannot be written as one of ! ? !! ?? !? ?! (drop them with `drop_variations`)")]
    Nags {
        /// 1-based ply of the main line.
        ply: usize,
        /// The NAGs.
        nags: Vec<u8>,
    },
    /// WXF: a tag cannot be a header line.
    #[error("tag {name:?} cannot be written as a WXF header: {reason}")]
    Tag {
        /// The tag name.
        name: String,
        /// Why.
        reason: &'static str,
    },
    /// XQF: more pieces of a kind than XQF has places for.
    #[error("more than {max} {color} {kind} pieces: XQF has places for {max}")]
    TooManyPieces {
        /// The side.
        color: Color,
        /// The kind.
        kind: PieceKind,
        /// Places in the format.
        max: usize,
    },
}

impl From<io::Error> for WriteError {
    fn from(error: io::Error) -> Self {
        WriteError::Io(error)
    }
}

impl From<FenError> for WriteError {
    fn from(error: FenError) -> Self {
        WriteError::Fen(error)
    }
}

impl From<MoveTextError> for WriteError {
    fn from(error: MoveTextError) -> Self {
        WriteError::Move(error)
    }
}
