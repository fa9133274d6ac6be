//! The PGN reader's errors.

use xiangqi_core::FenError;

use xiangqi_notation::MoveTextError;

#[cfg(doc)]
use crate::Limits;

/// What went wrong in a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PgnErrorKind {
    /// Reading the input failed (the reader stops).
    #[error("read error: {0}")]
    Io(String),
    /// The input is UTF-16, which the reader does not decode.
    #[error("UTF-16 input is not supported: convert it to UTF-8")]
    Utf16,
    /// A line is longer than [`Limits::max_line_len`].
    #[error("line longer than {0} bytes")]
    LineTooLong(usize),
    /// A comment is longer than [`Limits::max_comment_len`].
    #[error("comment longer than {0} bytes")]
    CommentTooLong(usize),
    /// A `{` comment is not closed (before the end of the file or the next game's tags).
    #[error("comment opened at line {0} is not closed")]
    UnterminatedComment(usize),
    /// Variations nest deeper than [`Limits::max_variation_depth`].
    #[error("variations nested deeper than {0}")]
    VariationTooDeep(usize),
    /// More moves than [`Limits::max_moves_per_game`].
    #[error("more than {0} moves in one game")]
    TooManyMoves(usize),
    /// More tags than [`Limits::max_tags_per_game`].
    #[error("more than {0} tags in one game")]
    TooManyTags(usize),
    /// A tag pair that is not `[Name "value"]`.
    #[error("malformed tag pair: {0}")]
    BadTag(&'static str),
    /// The `FEN` tag is invalid.
    #[error("invalid FEN tag: {0}")]
    BadFen(FenError),
    /// `(` before any move of the line.
    #[error("a variation must follow a move")]
    VariationWithoutMove,
    /// `)` without `(`.
    #[error("')' without '('")]
    UnmatchedClose,
    /// The game ended inside a variation.
    #[error("variation opened at line {0} is not closed")]
    UnterminatedVariation(usize),
    /// A NAG before any move or not `$0`-`$255`.
    #[error("bad annotation {0:?}")]
    BadNag(String),
    /// A move text that is not a legal move here.
    #[error("move {ply_name}: {error}")]
    Move {
        /// Move number and side, e.g. `12.` or `12...`.
        ply_name: String,
        /// Why.
        error: MoveTextError,
    },
}

/// An error in one game of a PGN file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("game {game}, line {line}, column {column}: {kind}")]
pub struct PgnError {
    /// 1-based index of the game in the file (broken games count).
    pub game: usize,
    /// 1-based line number.
    pub line: usize,
    /// 1-based character column.
    pub column: usize,
    /// What is wrong.
    pub kind: PgnErrorKind,
}
