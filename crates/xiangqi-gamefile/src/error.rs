//! The one error type of every game-file reader: which file, which game,
//! where in it, and what is wrong. The kinds are one set for every format:
//! the text formats (PGN, WXF) share theirs (lines, comments, tags, move
//! text), the binary ones theirs (lengths, codes, truncation), and the
//! limits are the same kinds everywhere.

use std::fmt;
use std::path::PathBuf;

use xiangqi_core::{Color, FenError, PlayError};
use xiangqi_notation::MoveTextError;

use crate::{Format, TextEncoding};

/// Where in the file an error is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// A text format: 1-based line and character column.
    Text {
        /// 1-based line.
        line: usize,
        /// 1-based column (characters).
        column: usize,
    },
    /// A binary format: the byte offset from the start of the file.
    Byte(u64),
    /// The file as a whole (it could not be opened or read).
    File,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Text { line, column } => write!(f, "line {line}, column {column}"),
            Location::Byte(offset) => write!(f, "byte {offset}"),
            Location::File => f.write_str("file"),
        }
    }
}

/// What went wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The file could not be opened or read (the reader stops).
    #[error("read error: {0}")]
    Io(String),
    /// Bytes not valid in the file's encoding (detected or forced): they
    /// are read as U+FFFD and the game is kept, with this warning in
    /// [`Game::errors`](crate::Game::errors) at the first of them (`count`
    /// lines, or fields and comments of a binary file, hold such bytes).
    #[error("bytes that are not valid {encoding} were read as U+FFFD (here and in {more} more lines or fields)", more = count.saturating_sub(1))]
    Undecodable {
        /// The encoding the file was read in.
        encoding: TextEncoding,
        /// How many lines (text formats) or fields and comments (XQF)
        /// hold such bytes (at least 1).
        count: usize,
    },
    /// A line is longer than [`Limits::max_line_len`](crate::Limits::max_line_len).
    #[error("line longer than {0} bytes")]
    LineTooLong(usize),
    /// Text after the last game that is no game (a line of `=` signs): a
    /// warning on the file, what reading it as a game found.
    #[error("text after the last game, not read: {0}")]
    AfterLastGame(Box<ErrorKind>),
    /// The file does not start with the magic bytes of its format.
    #[error("not {} {} file: no {} signature", article(*.0), .0, .0)]
    BadMagic(Format),
    /// The format's version is one this reader does not know.
    #[error("unsupported {format} version {version}")]
    UnsupportedVersion {
        /// The format.
        format: Format,
        /// The version number found.
        version: u32,
    },
    /// The file ends inside a structure.
    #[error("the file ends inside {what}: {needed} more bytes needed")]
    Truncated {
        /// What was being read.
        what: &'static str,
        /// How many bytes are missing.
        needed: u64,
    },
    /// A length field says more than the file or the limits allow.
    #[error("bad length {length} for {what}")]
    BadLength {
        /// What the length is of.
        what: &'static str,
        /// The length read.
        length: i64,
    },
    /// A CBL library's index lists a record the slots do not hold as the
    /// entry says (`entry`: the 1-based place of the entry in the index,
    /// the library's table of contents). Reported, never guessed around.
    #[error("library index entry {entry}: {problem}")]
    LibraryIndex {
        /// 1-based place of the entry in the index.
        entry: usize,
        /// What disagrees.
        problem: String,
    },
    /// A slot of a CBL library holding a record that no entry of the index
    /// lists: old data (a deleted or replaced game) left in the file. Not a
    /// game; a library's warning ([`Games::library_warnings`](crate::Games::library_warnings)).
    #[error("slot {slot} holds a record the index does not list ({title:?}): old data, not read as a game")]
    UnlistedRecord {
        /// 0-based slot number.
        slot: usize,
        /// The record's own title.
        title: String,
    },
    /// A CBL library whose index cannot be read: its games were found by
    /// scanning the slots, in slot order, without the index's titles or
    /// order, and each game so read carries this error.
    #[error(
        "the library's index is unreadable ({problem}): read by scanning its slots, in slot order"
    )]
    LibraryScanned {
        /// Why the index cannot be read.
        problem: String,
    },
    /// A CBL library ends before records its index lists.
    #[error("the library's index lists {listed} records, but the file ends before record {record}: {missing} missing")]
    MissingRecords {
        /// 1-based number of the first record missing.
        record: usize,
        /// Records the index lists (headings included).
        listed: usize,
        /// Records listed that the file does not hold.
        missing: usize,
    },
    /// A square code that is not on the board.
    #[error("square code {0} is not on the board")]
    BadSquare(u8),
    /// A piece code that names no piece.
    #[error("piece code {0:#04x} names no piece")]
    BadPiece(u8),
    /// The start position is not a legal position (R-LEGAL-POSITION).
    #[error("invalid start position: {0}")]
    BadPosition(Box<FenError>),
    /// A move is not legal in its position.
    #[error("ply {ply}: {error}")]
    IllegalMove {
        /// 1-based ply from the start position along its line.
        ply: usize,
        /// Why.
        error: PlayError,
    },
    /// A move's origin square is empty.
    #[error("ply {ply}: no piece on {square}")]
    EmptySquare {
        /// 1-based ply from the start position along its line.
        ply: usize,
        /// The origin square in ICCS.
        square: String,
    },
    /// A diagram (a record without moves) whose side not to move is in
    /// check: read with the side in check to move (a game's error, not a
    /// broken game).
    #[error(
        "the side not to move, {in_check}, is in check: read as a diagram with {in_check} to move"
    )]
    DiagramSideToMove {
        /// The side in check, now the side to move.
        in_check: Color,
    },
    /// A start position the rules cannot play from (both generals in check,
    /// a piece where none can stand, …): the game is a diagram, shown and
    /// never played, and this error on it says what is wrong. Its moves,
    /// which cannot be played from it, are not read (`moves_skipped`).
    #[error("the start position is a diagram no game can reach ({error}): shown, not played{}", if *moves_skipped { "; its moves cannot be played from it and are not read" } else { "" })]
    InvalidDiagram {
        /// What is wrong with the position.
        error: Box<FenError>,
        /// Whether the record had moves, left unread.
        moves_skipped: bool,
    },
    /// Variations nest deeper than [`Limits::max_variation_depth`](crate::Limits::max_variation_depth).
    #[error("variations nested deeper than {0}")]
    VariationTooDeep(usize),
    /// More moves than [`Limits::max_moves_per_game`](crate::Limits::max_moves_per_game).
    #[error("more than {0} moves in one game")]
    TooManyMoves(usize),
    /// A comment longer than [`Limits::max_comment_len`](crate::Limits::max_comment_len).
    #[error("comment longer than {0} bytes")]
    CommentTooLong(usize),
    /// More tags or header lines than [`Limits::max_tags_per_game`](crate::Limits::max_tags_per_game).
    #[error("more than {0} tags in one game")]
    TooManyTags(usize),
    /// A `{` comment is not closed (before the end of the file or the next game).
    #[error("comment opened at line {0} is not closed")]
    UnterminatedComment(usize),
    /// A PGN tag pair that is not `[Name "value"]`.
    #[error("malformed tag pair: {0}")]
    BadTag(&'static str),
    /// A WXF header line that is not `KEY value`.
    #[error("malformed header line: {0}")]
    BadHeader(&'static str),
    /// A FEN tag (PGN) or header (WXF) that is invalid.
    #[error("FEN {field}: {error}")]
    BadFen {
        /// `tag` or `header`.
        field: &'static str,
        /// Why.
        error: Box<FenError>,
    },
    /// A WXF `FORMAT` other than WXF, AXF or ICCS.
    #[error("unsupported move format {0:?}: expected WXF, AXF or ICCS")]
    UnsupportedMoveFormat(String),
    /// The input, or the WXF game's header, ended before `START{`.
    #[error("expected START{{ before the end of the game's header")]
    MissingStart,
    /// The input ended, or the next WXF game's `FORMAT` line came, before `}END`.
    #[error("expected }}END to close the moves opened by START{{ at line {0}")]
    MissingEnd(usize),
    /// `(` before any move of the line.
    #[error("a variation must follow a move")]
    VariationWithoutMove,
    /// `)` without `(`.
    #[error("')' without '('")]
    UnmatchedClose,
    /// The game ended inside a variation.
    #[error("variation opened at line {0} is not closed")]
    UnterminatedVariation(usize),
    /// A NAG before any move or not `$0`-`$255`, or a move suffix other
    /// than `!` `?` `!!` `??` `!?` `?!`.
    #[error("bad annotation {0:?}")]
    BadAnnotation(String),
    /// Move text that is neither a move, a number, a comment nor the end of the moves.
    #[error("unexpected {0:?} in the moves")]
    Unexpected(String),
    /// A move text that is not a legal move here.
    #[error("move {ply_name}: {error}")]
    MoveText {
        /// 1-based ply from the start position along its line.
        ply: usize,
        /// Move number and side, e.g. `12.` or `12...`.
        ply_name: String,
        /// Why (a syntax error, no such piece, illegal with the core's
        /// reason…); boxed to keep every result of the readers small.
        error: Box<MoveTextError>,
    },
    /// The XML of a CBF file is malformed or lacks a part.
    #[error("XML: {0}")]
    Xml(String),
    /// A CBF move value that is not `XY-XY`.
    #[error("bad move value {0:?}")]
    BadMoveValue(String),
}

impl ErrorKind {
    /// Whether this error cuts a line rather than breaking the game: move
    /// text, or a move record, that names a move which cannot be played
    /// here (no such piece, an impossible, illegal or ambiguous move). The
    /// game keeps the moves before it ([`Game::errors`](crate::Game::errors));
    /// text that is no move at all still breaks the game.
    pub fn cuts_the_line(&self) -> bool {
        match self {
            ErrorKind::IllegalMove { .. } | ErrorKind::EmptySquare { .. } => true,
            ErrorKind::MoveText { error, .. } => !matches!(**error, MoveTextError::Syntax(_)),
            _ => false,
        }
    }
}

/// An error in a game file: the file, the game, the place and the kind.
///
/// Readers go on with the next game after an error where the format allows
/// it (PGN, WXF, the slots of a CBL library); a broken single-game file
/// (XQF, CBR, CBF) gives one error and ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameFileError {
    /// The file, when read from a path.
    pub file: Option<PathBuf>,
    /// 1-based index of the game in the file (0: before any game, e.g. the
    /// file header).
    pub game: usize,
    /// Where in the file.
    pub location: Location,
    /// What is wrong.
    pub kind: ErrorKind,
}

impl GameFileError {
    pub(crate) fn new(game: usize, location: Location, kind: ErrorKind) -> GameFileError {
        GameFileError {
            file: None,
            game,
            location,
            kind,
        }
    }

    pub(crate) fn at_byte(game: usize, offset: u64, kind: ErrorKind) -> GameFileError {
        GameFileError::new(game, Location::Byte(offset), kind)
    }

    pub(crate) fn at_text(
        game: usize,
        line: usize,
        column: usize,
        kind: ErrorKind,
    ) -> GameFileError {
        GameFileError::new(game, Location::Text { line, column }, kind)
    }

    /// Whether the file could not be read at all (as opposed to a broken game).
    pub fn is_io(&self) -> bool {
        matches!(self.kind, ErrorKind::Io(_))
    }

    /// The 1-based line and character column, for an error in a text format.
    pub fn line_column(&self) -> Option<(usize, usize)> {
        match self.location {
            Location::Text { line, column } => Some((line, column)),
            _ => None,
        }
    }
}

/// "an XQF", "a PGN": the article as the format's name is spoken.
fn article(format: Format) -> &'static str {
    match format {
        Format::Xqf => "an",
        _ => "a",
    }
}

/// The longest message an error prints: a junk "move" quoted whole
/// could run to thousands of characters.
const MAX_MESSAGE_CHARS: usize = 240;

impl GameFileError {
    /// What is wrong, fit for a terminal: control characters of the input
    /// quoted in it written as escapes (`\u{0}`), never raw, and a message
    /// longer than 240 characters cut with `…`.
    pub fn message(&self) -> String {
        printable(&self.kind.to_string(), MAX_MESSAGE_CHARS)
    }
}

/// `text` with control characters escaped, at most `max` characters.
fn printable(text: &str, max: usize) -> String {
    let mut out = String::new();
    for (count, c) in text.chars().enumerate() {
        if count == max {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

impl fmt::Display for GameFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{}: ", file.display())?;
        }
        if self.game > 0 {
            write!(f, "game {}, ", self.game)?;
        }
        write!(f, "{}: {}", self.location, self.message())
    }
}

impl std::error::Error for GameFileError {}
