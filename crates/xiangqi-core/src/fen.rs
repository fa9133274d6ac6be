//! FEN reading and writing (N-FEN, N-FEN-VALID).

use std::fmt::Write as _;
use std::str::FromStr;

use crate::tables::{ADVISOR_SQUARES, ELEPHANT_SQUARES};
use crate::{Color, Diagram, Piece, PieceKind, Position, Square};

/// The start position (R-BOARD-START).
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Largest half-move clock or full-move number accepted in a FEN. Playing
/// moves never takes a counter past it (both stop there), so every position
/// reached from a readable FEN writes a readable FEN.
pub const MAX_COUNTER: u32 = 1_000_000;

/// Longest FEN text accepted; anything longer is rejected before parsing.
pub const MAX_FEN_LEN: usize = 256;

/// Why a FEN string was rejected. Ranks are named as in ICCS (9 = Black's back rank).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FenError {
    /// The text is empty.
    #[error("invalid FEN: empty text")]
    Empty,
    /// The text is longer than [`MAX_FEN_LEN`].
    #[error("invalid FEN: {len} characters, more than the {MAX_FEN_LEN} allowed")]
    TooLong {
        /// Length in bytes.
        len: usize,
    },
    /// The placement does not have 10 ranks.
    #[error("invalid FEN: the placement has {found} ranks separated by '/', expected 10")]
    WrongRankCount {
        /// Ranks found.
        found: usize,
    },
    /// A rank does not add up to 9 points.
    #[error("invalid FEN: rank {rank} covers {width} points, expected 9")]
    WrongRankWidth {
        /// The rank (0-9).
        rank: u8,
        /// Points it covers.
        width: usize,
    },
    /// A character that is neither a piece letter nor a digit 1-9.
    #[error("invalid FEN: unknown piece letter {ch:?} on rank {rank}")]
    UnknownPiece {
        /// The character.
        ch: char,
        /// The rank (0-9).
        rank: u8,
    },
    /// The side-to-move field is not `w`, `r` or `b`.
    #[error("invalid FEN: side to move {0:?}, expected w, r or b")]
    BadSideToMove(String),
    /// A counter field is not a non-negative number.
    #[error("invalid FEN: {field} {value:?} is not a number from 0 to {MAX_COUNTER}")]
    BadCounter {
        /// Which field: "half-move clock" or "full-move number".
        field: &'static str,
        /// Its text.
        value: String,
    },
    /// More than six fields.
    #[error("invalid FEN: {0} fields, at most 6 expected")]
    TooManyFields(usize),
    /// More pieces of one kind than a side starts with.
    #[error("invalid FEN: {count} {color} {kind}s, at most {max} allowed")]
    TooManyPieces {
        /// The side.
        color: Color,
        /// The kind.
        kind: PieceKind,
        /// How many were found.
        count: u8,
        /// The most a side can have.
        max: u8,
    },
    /// A side has no general.
    #[error("invalid FEN: {0} has no general")]
    MissingGeneral(Color),
    /// A general stands outside its palace.
    #[error("invalid FEN: the {color} general on {square} is outside its palace")]
    GeneralOutsidePalace {
        /// The side.
        color: Color,
        /// Where it stands.
        square: Square,
    },
    /// An advisor, elephant or soldier on a point it can never reach.
    #[error("invalid FEN: a {} {} can never stand on {square}", piece.color, piece.kind)]
    UnreachableSquare {
        /// The piece.
        piece: Piece,
        /// Where it stands.
        square: Square,
    },
    /// Even the lenient reading refuses an advisor outside its own palace or
    /// an elephant across the river: from there it could attack the other
    /// general, which no rule provides for.
    #[error("invalid FEN: a {} {} on {square} is {}, which even a lenient reading refuses", piece.color, piece.kind, if piece.kind == PieceKind::Advisor { "outside its palace" } else { "across the river" })]
    OutsideItsArea {
        /// The piece.
        piece: Piece,
        /// Where it stands.
        square: Square,
    },
    /// The generals face each other on an open file (R-LEGAL-FACING).
    #[error("invalid FEN: the generals face each other on an open file (R-LEGAL-POSITION)")]
    GeneralsFacing,
    /// The side that is not to move is in check (R-LEGAL-POSITION).
    #[error("invalid FEN: {0}, the side not to move, is in check (R-LEGAL-POSITION)")]
    OpponentInCheck(Color),
    /// Both generals are in check: a diagram of a finished mate that leaves
    /// the mating side's general attacked too (R-LEGAL-POSITION). Said by
    /// [`Diagram::problems`](crate::Diagram::problems); the FEN reader
    /// reports such a FEN as [`FenError::OpponentInCheck`].
    #[error("invalid FEN: both generals are in check (R-LEGAL-POSITION)")]
    BothInCheck,
}

impl FenError {
    /// A stable machine-readable name of the error class.
    pub fn kind_name(&self) -> &'static str {
        match self {
            FenError::Empty => "empty",
            FenError::TooLong { .. } => "too_long",
            FenError::WrongRankCount { .. } => "wrong_rank_count",
            FenError::WrongRankWidth { .. } => "wrong_rank_width",
            FenError::UnknownPiece { .. } => "unknown_piece",
            FenError::BadSideToMove(_) => "bad_side_to_move",
            FenError::BadCounter { .. } => "bad_counter",
            FenError::TooManyFields(_) => "too_many_fields",
            FenError::TooManyPieces { .. } => "too_many_pieces",
            FenError::MissingGeneral(_) => "missing_general",
            FenError::GeneralOutsidePalace { .. } => "general_outside_palace",
            FenError::UnreachableSquare { .. } => "unreachable_square",
            FenError::OutsideItsArea { .. } => "outside_its_area",
            FenError::GeneralsFacing => "generals_facing",
            FenError::OpponentInCheck(_) => "opponent_in_check",
            FenError::BothInCheck => "both_in_check",
        }
    }
}

/// How strictly [`Position::from_fen_with`] checks where pieces stand.
///
/// Both readings refuse what the rules cannot handle: a missing general or a
/// second one, a general outside its palace, more pieces of a kind than a
/// side starts with (so never more than 16 a side), generals facing each
/// other, and a side not to move that is in check.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Validation {
    /// N-FEN-VALID: every advisor, elephant and soldier on a point it can
    /// reach in play.
    #[default]
    Strict,
    /// For composed diagrams and other programs' positions (as Pikafish and
    /// Fairy-Stockfish read them): soldiers anywhere, advisors anywhere in
    /// their own palace, elephants anywhere on their own half. The pieces
    /// then move by their ordinary rules from where they stand.
    Lenient,
}

pub(crate) fn parse_counter(field: &'static str, value: &str) -> Result<u32, FenError> {
    let bad = || FenError::BadCounter {
        field,
        value: value.to_owned(),
    };
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    // Bounded so that playing on from any accepted FEN can never overflow a counter.
    value
        .parse()
        .ok()
        .filter(|&n| n <= MAX_COUNTER)
        .ok_or_else(bad)
}

pub(crate) fn soldier_square_ok(color: Color, sq: Square) -> bool {
    let (f, r) = (sq.file().index(), sq.rank().index());
    match color {
        Color::Red => r >= 5 || (r >= 3 && f % 2 == 0),
        Color::Black => r <= 4 || (r <= 6 && f % 2 == 0),
    }
}

impl Position {
    /// Reads a FEN (N-FEN) and validates it (N-FEN-VALID).
    ///
    /// Accepts `w` or `r` for Red and `b` for Black, the letters `E`/`H` for
    /// elephant/horse, and missing trailing fields (defaults `w - - 0 1`).
    ///
    /// ```
    /// use xiangqi_core::{FenError, Position};
    /// let pos = Position::from_fen("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r").unwrap();
    /// assert_eq!(pos, Position::startpos());
    /// let err = Position::from_fen("9/9/9/9/9/9/9/9/9/4K4 w").unwrap_err();
    /// assert!(matches!(err, FenError::MissingGeneral(_)));
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Position::from_fen_with(fen, Validation::Strict)
    }

    /// Reads a FEN with the placement checked as `validation` says.
    ///
    /// ```
    /// use xiangqi_core::{FenError, Position, Validation};
    /// // A black soldier on i7, behind its starting rank: only a composed
    /// // diagram has one.
    /// let fen = "3a2b1r/4ak3/8p/7P1/9/9/9/B2NN3B/3K5/4p4 w";
    /// assert!(matches!(Position::from_fen(fen), Err(FenError::UnreachableSquare { .. })));
    /// let pos = Position::from_fen_with(fen, Validation::Lenient).unwrap();
    /// assert_eq!(pos.legal_move_vec().len(), Position::from_fen_lenient(fen).unwrap().legal_move_vec().len());
    /// // A missing general is refused either way.
    /// assert!(Position::from_fen_lenient("9/9/9/9/9/9/9/9/9/4K4 w").is_err());
    /// ```
    pub fn from_fen_with(fen: &str, validation: Validation) -> Result<Position, FenError> {
        Diagram::from_fen(fen)?.to_position(validation)
    }

    /// A placement built point by point, checked as `validation` says, with
    /// its hash computed.
    pub(crate) fn validated(mut self, validation: Validation) -> Result<Position, FenError> {
        self.validate_placement(validation)?;
        self.hash = self.compute_hash();
        Ok(self)
    }

    /// [`Position::from_fen_with`] with [`Validation::Lenient`].
    pub fn from_fen_lenient(fen: &str) -> Result<Position, FenError> {
        Position::from_fen_with(fen, Validation::Lenient)
    }

    fn validate_placement(&self, validation: Validation) -> Result<(), FenError> {
        match self.placement_problems(validation).into_iter().next() {
            Some(first) => Err(first),
            None => Ok(()),
        }
    }

    /// What in this placement the rules do not allow, `validation` saying
    /// where pieces may stand: each piece off its area; on a board without
    /// those, generals facing, else a side not to move in check.
    pub(crate) fn placement_problems(&self, validation: Validation) -> Vec<FenError> {
        let mut problems = Vec::new();
        for (square, piece) in self.pieces() {
            let bit = square.bit();
            let ok = match piece.kind {
                PieceKind::General => {
                    if !square.in_palace(piece.color) {
                        problems.push(FenError::GeneralOutsidePalace {
                            color: piece.color,
                            square,
                        });
                    }
                    true
                }
                _ if validation == Validation::Lenient => {
                    let inside = match piece.kind {
                        PieceKind::Advisor => square.in_palace(piece.color),
                        PieceKind::Elephant => square.rank().is_own_half(piece.color),
                        _ => true,
                    };
                    if !inside {
                        problems.push(FenError::OutsideItsArea { piece, square });
                    }
                    true
                }
                PieceKind::Advisor => ADVISOR_SQUARES[piece.color.index()] & bit != 0,
                PieceKind::Elephant => ELEPHANT_SQUARES[piece.color.index()] & bit != 0,
                PieceKind::Soldier => soldier_square_ok(piece.color, square),
                _ => true,
            };
            if !ok {
                problems.push(FenError::UnreachableSquare { piece, square });
            }
        }
        if !problems.is_empty() {
            // Attacks are only computed on pieces where the rules put them.
            return problems;
        }
        let (red, black) = (self.general(Color::Red), self.general(Color::Black));
        if red.file() == black.file() {
            let between = (red.index() + 9..black.index())
                .step_by(9)
                .any(|i| self.board[i] != 0);
            if !between {
                problems.push(FenError::GeneralsFacing);
                return problems;
            }
        }
        let waiting = self.side.opposite();
        if self.attacked_by(self.generals[waiting.index()] as usize, self.side) {
            problems.push(FenError::OpponentInCheck(waiting));
        }
        problems
    }

    /// Writes the FEN (N-FEN): `placement w|b - - halfmove fullmove`.
    pub fn to_fen(&self) -> String {
        write_fen(
            |sq| self.piece_at(sq),
            self.side,
            self.halfmove,
            self.fullmove,
        )
    }
}

impl FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s)
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Position {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_fen())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Position {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Position, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        // Lenient: every position a `Position` can hold reads back.
        Position::from_fen_lenient(&s).map_err(serde::de::Error::custom)
    }
}

/// The FEN (N-FEN) of a board given by `piece_at`, for a position and for
/// a diagram alike: `placement w|b - - halfmove fullmove`.
pub(crate) fn write_fen(
    piece_at: impl Fn(Square) -> Option<Piece>,
    side: Color,
    halfmove: u32,
    fullmove: u32,
) -> String {
    let mut s = String::with_capacity(80);
    for rank in (0..10u8).rev() {
        let mut empty = 0;
        for file in 0..9u8 {
            let sq = Square::from_coords(file, rank).expect("on board");
            match piece_at(sq) {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        s.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    s.push(p.fen_char());
                }
            }
        }
        if empty > 0 {
            s.push((b'0' + empty) as char);
        }
        if rank > 0 {
            s.push('/');
        }
    }
    let _ = write!(s, " {} - - {} {}", side.fen_char(), halfmove, fullmove);
    s
}
