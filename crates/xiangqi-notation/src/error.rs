//! Errors of move text: syntax ([`ParseMoveError`]) kept apart from what
//! only a position can tell ([`MoveTextError`]).

use std::fmt;

use xiangqi_core::{Color, Move, PieceKind, PlayError};

use crate::Notation;

/// What is wrong with the shape of a move text.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SyntaxErrorKind {
    /// The text is empty.
    Empty,
    /// The text matches no notation (when detecting).
    Unrecognised,
    /// A piece name or letter we do not know.
    UnknownPiece,
    /// Expected a file number (1-9), a front/rear marker or a square.
    ExpectedFile,
    /// Expected a direction: forward, backward or sideways.
    ExpectedDirection,
    /// Expected a number 1-9 (steps or destination file).
    ExpectedNumber,
    /// Something follows a complete move.
    TrailingText,
}

impl fmt::Display for SyntaxErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SyntaxErrorKind::Empty => "empty move text",
            SyntaxErrorKind::Unrecognised => "not a move in any known notation",
            SyntaxErrorKind::UnknownPiece => "unknown piece",
            SyntaxErrorKind::ExpectedFile => "expected a file number or a front/rear marker",
            SyntaxErrorKind::ExpectedDirection => {
                "expected a direction (forward, backward, sideways)"
            }
            SyntaxErrorKind::ExpectedNumber => "expected a number 1-9",
            SyntaxErrorKind::TrailingText => "unexpected text after the move",
        })
    }
}

/// Malformed move text: the text cannot be a move in the notation,
/// whatever the position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid {}move {text:?}: {kind} at character {position}", notation_prefix(*.notation))]
pub struct ParseMoveError {
    /// The notation the text was read as (`None`: detection failed).
    pub notation: Option<Notation>,
    /// The whole text.
    pub text: String,
    /// 1-based character (not byte) position of the offending character;
    /// one past the end when the text stops early.
    pub position: usize,
    /// What is wrong.
    pub kind: SyntaxErrorKind,
}

fn notation_prefix(n: Option<Notation>) -> String {
    n.map_or(String::new(), |n| format!("{n} "))
}

impl ParseMoveError {
    pub(crate) fn new(
        notation: Option<Notation>,
        text: &str,
        position: usize,
        kind: SyntaxErrorKind,
    ) -> ParseMoveError {
        ParseMoveError {
            notation,
            text: text.to_owned(),
            position,
            kind,
        }
    }
}

/// A well-formed move text that does not name exactly one legal move of the
/// position, or a move that cannot be written because it is illegal.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MoveTextError {
    /// The text is malformed.
    #[error(transparent)]
    Syntax(#[from] ParseMoveError),
    /// The side to move has no such piece where the text says.
    #[error("{text:?}: {side} has no {kind} {where_}")]
    NoSuchPiece {
        /// The move text.
        text: String,
        /// The side to move.
        side: Color,
        /// The piece named.
        kind: PieceKind,
        /// Where it was looked for, e.g. "on file 3" or "marked front".
        where_: String,
    },
    /// The named piece cannot make that move on an empty board (wrong shape,
    /// off the board, or no move at all).
    #[error("{text:?}: the {side} {kind} cannot move that way ({reason})")]
    Impossible {
        /// The move text.
        text: String,
        /// The side to move.
        side: Color,
        /// The piece named.
        kind: PieceKind,
        /// Why, briefly.
        reason: &'static str,
    },
    /// The move exists on the board but the rules forbid it here.
    #[error("{text:?} is illegal here: {reason}")]
    Illegal {
        /// The move text.
        text: String,
        /// The move the text names.
        mv: Move,
        /// Why it is illegal.
        reason: PlayError,
    },
    /// The text fits several legal moves.
    #[error("{text:?} is ambiguous: it fits {}", list(.candidates))]
    Ambiguous {
        /// The move text.
        text: String,
        /// The legal moves it fits, in ICCS.
        candidates: Vec<Move>,
    },
}

fn list(moves: &[Move]) -> String {
    moves
        .iter()
        .map(Move::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}
