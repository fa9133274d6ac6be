//! The [`Position`]: board, side to move, counters, hash; make/unmake and attack tests.

use std::fmt;

use crate::attacks::{attackers, Attackers};
use crate::masks::{pattern, ADVISOR_DESTS, BIT, ELEPHANT, FILE_MAJOR};
use crate::zobrist::{PIECE_KEYS, SIDE_KEY};
use crate::{Color, Move, Piece, PieceKind, Square, SquareSet, MAX_COUNTER};

/// The board array: one byte per point, 0 empty, otherwise a piece code.
pub(crate) type Board = [u8; 90];

pub(crate) const fn code(color: Color, kind: PieceKind) -> u8 {
    Piece::new(color, kind).code()
}

/// A legal xiangqi position: the placement of all pieces, the side to move,
/// the no-capture counter (N-FEN-COUNT), the full-move number and the Zobrist hash.
///
/// Positions are built from FEN ([`Position::from_fen`]) or
/// [`Position::startpos`], and changed only by moves, so a `Position` always
/// satisfies R-LEGAL-POSITION.
///
/// ```
/// use xiangqi_core::{Move, Position};
/// let mut pos = Position::startpos();
/// let mv: Move = "h2e2".parse().unwrap();
/// let undo = pos.play(mv).unwrap();
/// assert_eq!(pos.to_fen(), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1");
/// pos.unmake_move(mv, undo);
/// assert_eq!(pos, Position::startpos());
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    pub(crate) board: Board,
    /// Occupancy per colour, one bit per square.
    pub(crate) occ: [u128; 2],
    /// Squares of each piece code (index 0 unused).
    pub(crate) bb: [u128; 15],
    /// Both colours' occupancy in file-major order (`file * 10 + rank`), for file lookups.
    pub(crate) occ_files: u128,
    pub(crate) generals: [u8; 2],
    pub(crate) side: Color,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) hash: u64,
}

/// What [`Position::unmake_move`] needs to take a move back.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Undo {
    captured: u8,
    /// The full-move number was raised (false when it stood at `MAX_COUNTER`).
    fullmove_raised: bool,
    halfmove: u32,
    hash: u64,
}

impl Undo {
    /// The piece the move captured, if any.
    pub fn captured(&self) -> Option<Piece> {
        (self.captured != 0).then(|| Piece::from_code(self.captured))
    }
}

/// Error for a move that is not legal in the position it was played in.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// No piece of the side to move stands on the origin square.
    #[error("illegal move {mv}: no {side} piece on {}", mv.from())]
    NoPiece {
        /// The move.
        mv: Move,
        /// The side to move.
        side: Color,
    },
    /// The piece cannot move that way (R-MOVE-*).
    #[error("illegal move {mv}: the {kind} on {} cannot move to {}", mv.from(), mv.to())]
    BadMovement {
        /// The move.
        mv: Move,
        /// The moving piece's kind.
        kind: PieceKind,
    },
    /// The move would leave the mover's general in check or facing the other general
    /// (R-LEGAL-SELFCHECK, R-LEGAL-FACING).
    #[error("illegal move {mv}: it leaves the {side} general in check (R-LEGAL-SELFCHECK/R-LEGAL-FACING)")]
    LeavesGeneralInCheck {
        /// The move.
        mv: Move,
        /// The side to move.
        side: Color,
    },
}

/// Whether the side to move can still move (R-END-MATE, R-END-STALEMATE).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum BoardStatus {
    /// The side to move has a legal move.
    Ongoing,
    /// In check with no legal move: the side to move loses.
    Checkmate,
    /// Not in check, no legal move: the side to move loses too (R-END-STALEMATE).
    Stalemate,
}

impl Position {
    /// The standard starting position (R-BOARD-START).
    pub fn startpos() -> Position {
        Position::from_fen(crate::fen::START_FEN).expect("the start FEN is valid")
    }

    /// An empty board, used internally while building from FEN.
    pub(crate) fn empty() -> Position {
        Position {
            board: [0; 90],
            occ: [0; 2],
            bb: [0; 15],
            occ_files: 0,
            generals: [0; 2],
            side: Color::Red,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
        }
    }

    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        let c = piece.code();
        let i = sq.index();
        self.board[i] = c;
        self.occ[piece.color.index()] |= sq.bit();
        self.bb[c as usize] |= sq.bit();
        self.occ_files |= 1u128 << FILE_MAJOR[i];
        if piece.kind == PieceKind::General {
            self.generals[piece.color.index()] = i as u8;
        }
    }

    /// The same position seen from the other side: colours swapped, ranks
    /// mirrored across the river, the other side to move (UCI `flip`). Its
    /// legal moves are this position's, mirrored; evaluation is unchanged.
    ///
    /// ```
    /// use xiangqi_core::Position;
    /// let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1").unwrap();
    /// let flipped = pos.color_flipped();
    /// assert_eq!(flipped.to_fen(), "3ak4/4a4/9/9/9/9/9/9/9/3K5 b - - 0 1");
    /// assert_eq!(flipped.color_flipped(), pos);
    /// ```
    pub fn color_flipped(&self) -> Position {
        let mut flipped = Position::empty();
        for (sq, piece) in self.pieces() {
            let other = Piece {
                color: !piece.color,
                kind: piece.kind,
            };
            flipped.put(sq.flip_ranks(), other);
        }
        flipped.side = !self.side;
        flipped.halfmove = self.halfmove;
        flipped.fullmove = self.fullmove;
        // Every rule the validation checks is symmetric under the flip, so a
        // valid position stays valid; the lenient check only recomputes the hash.
        flipped
            .validated(crate::Validation::Lenient)
            .expect("the colour flip of a valid position is valid")
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let c = self.board[sq.index()];
        (c != 0).then(|| Piece::from_code(c))
    }

    /// All pieces with their squares, in square index order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied()
            .iter()
            .map(move |sq| (sq, Piece::from_code(self.board[sq.index()])))
    }

    /// Squares holding a piece of either colour.
    pub fn occupied(&self) -> SquareSet {
        SquareSet(self.occ[0] | self.occ[1])
    }

    /// Squares holding a piece of `color`.
    pub fn pieces_of(&self, color: Color) -> SquareSet {
        SquareSet(self.occ[color.index()])
    }

    /// Squares holding `piece`.
    #[inline]
    pub fn squares_of(&self, piece: Piece) -> SquareSet {
        // The per-piece bit board, kept in step with `board` by `put` and make/unmake.
        SquareSet(self.bb[piece.code() as usize])
    }

    /// The square of `color`'s general.
    pub fn general(&self, color: Color) -> Square {
        Square::from_index_unchecked(self.generals[color.index()])
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Plies since the last capture (N-FEN-COUNT, the R-DRAW-NOCAPTURE
    /// counter); it stops at [`MAX_COUNTER`].
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The full-move number, starting at 1 and growing after each Black ply
    /// up to [`MAX_COUNTER`].
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// The Zobrist hash of placement and side to move (R-REP-POS), kept incrementally.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The Zobrist hash recomputed from scratch (for tests and validation).
    pub fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for (i, &c) in self.board.iter().enumerate() {
            h ^= PIECE_KEYS[c as usize][i];
        }
        if self.side == Color::Black {
            h ^= SIDE_KEY;
        }
        h
    }

    /// True when the side to move is in check (R-LEGAL-CHECK).
    #[inline]
    pub fn is_check(&self) -> bool {
        let us = self.side;
        self.attacked_by(self.generals[us.index()] as usize, us.opposite())
    }

    /// The enemy pieces giving check to the side to move.
    pub fn checkers(&self) -> SquareSet {
        let us = self.side;
        let k = self.generals[us.index()] as usize;
        SquareSet(attackers::<false>(
            &self.attack_sets(us.opposite()),
            self.occupancy(),
            k,
            true,
        ))
    }

    /// The pieces of `by` that attack `sq` by their normal capturing moves, ignoring
    /// whether such a capture would be legal (pseudo-legal attacks). Every kind
    /// counts: a general attacks the points next to it in its palace, and the
    /// other general along a clear file (R-LEGAL-FACING); an advisor the
    /// diagonal points of its palace; an elephant the points two diagonal
    /// steps away on its own half, when the eye between is empty.
    ///
    /// ```
    /// use xiangqi_core::{Color, Position, Square};
    /// // The black elephant on e7 guards g5 (its eye f6 is empty).
    /// let pos = Position::from_fen("4k4/9/4b4/9/6R2/9/9/9/9/4K4 w").unwrap();
    /// let g5: Square = "g5".parse().unwrap();
    /// let e7: Square = "e7".parse().unwrap();
    /// assert!(pos.attackers(g5, Color::Black).contains(e7));
    /// ```
    pub fn attackers(&self, sq: Square, by: Color) -> SquareSet {
        self.attackers_within(sq, by, self.occupied())
    }

    /// [`Position::attackers`] on a board where only the points of
    /// `occupied` hold pieces: pieces outside it are gone (taken), and the
    /// lines, cannon screens, horse legs and elephant eyes are read from
    /// `occupied`. This is what a static exchange needs: take the pieces that
    /// have captured on `sq` off `occupied`, and the pieces behind them (a
    /// chariot behind a chariot, a cannon whose screen changed) come into view.
    /// Points of `occupied` that hold no piece count as blockers only.
    ///
    /// ```
    /// use xiangqi_core::{Color, Position, Square, SquareSet};
    /// // Two red chariots on the e-file behind each other: the second one
    /// // attacks e5 once the first has gone.
    /// let pos = Position::from_fen("5k3/9/9/9/4p4/9/9/4R4/4R4/3K5 w").unwrap();
    /// let (e5, e2, e1) = (Square::E5, Square::E2, Square::E1);
    /// assert_eq!(pos.attackers(e5, Color::Red), SquareSet::from_iter([e2]));
    /// let mut occupied = pos.occupied();
    /// occupied.remove(e2);
    /// assert_eq!(pos.attackers_within(e5, Color::Red, occupied), SquareSet::from_iter([e1]));
    /// ```
    pub fn attackers_within(&self, sq: Square, by: Color, occupied: SquareSet) -> SquareSet {
        let i = sq.index();
        let occ = occupied.0;
        let general = self.board[i] == code(by.opposite(), PieceKind::General);
        // Pieces taken off need not be taken out of the sets: a slider off
        // `occ` is never a blocker, and the last mask drops the steppers.
        let mut found = attackers::<false>(&self.attack_sets(by), occ, i, general);
        // Advisors and elephants never reach the other general, so the check
        // test leaves them out; their steps are symmetric, so the points they
        // reach from `sq` are the points they attack `sq` from.
        found |= ADVISOR_DESTS[i] & self.bb[code(by, PieceKind::Advisor) as usize];
        found |= ELEPHANT.dests[i][pattern(&ELEPHANT, i, occ)]
            & self.bb[code(by, PieceKind::Elephant) as usize];
        SquareSet(found & occ)
    }

    /// True when `by` attacks `sq` (see [`Position::attackers`]).
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        !self.attackers(sq, by).is_empty()
    }

    /// Both colours' pieces.
    #[inline(always)]
    pub(crate) fn occupancy(&self) -> u128 {
        self.occ[0] | self.occ[1]
    }

    /// `by`'s attacking pieces, one set per kind.
    #[inline(always)]
    pub(crate) fn attack_sets(&self, by: Color) -> Attackers {
        let b = |k: PieceKind| self.bb[code(by, k) as usize];
        Attackers {
            chariots: b(PieceKind::Chariot),
            cannons: b(PieceKind::Cannon),
            horses: b(PieceKind::Horse),
            soldiers: b(PieceKind::Soldier),
            general: b(PieceKind::General),
            color: by.index(),
        }
    }

    /// True when `by` attacks point `i`, the facing rule included when a general stands there.
    #[inline(always)]
    pub(crate) fn attacked_by(&self, i: usize, by: Color) -> bool {
        let general = self.board[i] == code(by.opposite(), PieceKind::General);
        attackers::<true>(&self.attack_sets(by), self.occupancy(), i, general) != 0
    }

    /// Plays `mv`, which must be legal here (from [`Position::legal_moves`]), and
    /// returns what is needed to take it back. Use [`Position::play`] for moves
    /// from untrusted input. An illegal move leaves the position unspecified
    /// (but memory-safe); this is the search and perft hot path.
    // Always inlined: the PGN reader saved 25 of ~600 instructions a ply
    // (call and register saves); the search's count moved by 0.1 %.
    #[inline(always)]
    pub fn make_move(&mut self, mv: Move) -> Undo {
        let from = mv.from().index();
        let to = mv.to().index();
        let moving = self.board[from];
        let captured = self.board[to];
        let fullmove_raised = self.side == Color::Black && self.fullmove < MAX_COUNTER;
        let undo = Undo {
            captured,
            fullmove_raised,
            halfmove: self.halfmove,
            hash: self.hash,
        };
        let us = self.side.index();
        // Table lookups: a variable shift of a u128 costs about eleven instructions.
        let bits = BIT[from] | BIT[to];
        self.occ[us] ^= bits;
        self.bb[moving as usize] ^= bits;
        if captured == 0 {
            self.occ_files ^= BIT[FILE_MAJOR[from] as usize] | BIT[FILE_MAJOR[to] as usize];
        } else {
            self.occ_files ^= BIT[FILE_MAJOR[from] as usize];
        }
        let mut h = self.hash ^ PIECE_KEYS[moving as usize][from] ^ PIECE_KEYS[moving as usize][to];
        if captured != 0 {
            self.occ[us ^ 1] &= !BIT[to];
            self.bb[captured as usize] &= !BIT[to];
            h ^= PIECE_KEYS[captured as usize][to];
            self.halfmove = 0;
        } else if self.halfmove < MAX_COUNTER {
            self.halfmove += 1;
        }
        if moving == code(self.side, PieceKind::General) {
            self.generals[us] = to as u8;
        }
        self.board[to] = moving;
        self.board[from] = 0;
        self.fullmove += u32::from(fullmove_raised);
        self.side = self.side.opposite();
        self.hash = h ^ SIDE_KEY;
        undo
    }

    /// Takes back `mv`, which must be the last move made, with its [`Undo`].
    #[inline]
    pub fn unmake_move(&mut self, mv: Move, undo: Undo) {
        let from = mv.from().index();
        let to = mv.to().index();
        self.side = self.side.opposite();
        self.fullmove -= u32::from(undo.fullmove_raised);
        let us = self.side.index();
        let moving = self.board[to];
        self.board[from] = moving;
        self.board[to] = undo.captured;
        let bits = BIT[from] | BIT[to];
        self.occ[us] ^= bits;
        self.bb[moving as usize] ^= bits;
        if undo.captured == 0 {
            self.occ_files ^= BIT[FILE_MAJOR[from] as usize] | BIT[FILE_MAJOR[to] as usize];
        } else {
            self.occ_files ^= BIT[FILE_MAJOR[from] as usize];
        }
        if undo.captured != 0 {
            self.occ[us ^ 1] |= BIT[to];
            self.bb[undo.captured as usize] |= BIT[to];
        }
        if moving == code(self.side, PieceKind::General) {
            self.generals[us] = from as u8;
        }
        self.halfmove = undo.halfmove;
        self.hash = undo.hash;
    }

    /// Passes the turn without moving (a "null move" for search pruning). Only
    /// meaningful when the side to move is not in check.
    pub fn make_null_move(&mut self) -> Undo {
        let fullmove_raised = self.side == Color::Black && self.fullmove < MAX_COUNTER;
        let undo = Undo {
            captured: 0,
            fullmove_raised,
            halfmove: self.halfmove,
            hash: self.hash,
        };
        self.fullmove += u32::from(fullmove_raised);
        self.side = self.side.opposite();
        self.hash ^= SIDE_KEY;
        undo
    }

    /// Takes back [`Position::make_null_move`].
    pub fn unmake_null_move(&mut self, undo: Undo) {
        self.side = self.side.opposite();
        self.fullmove -= u32::from(undo.fullmove_raised);
        self.halfmove = undo.halfmove;
        self.hash = undo.hash;
    }

    /// Checks `mv` against the rules and plays it, or says why it is illegal.
    pub fn play(&mut self, mv: Move) -> Result<Undo, PlayError> {
        self.check_legal(mv)?;
        Ok(self.make_move(mv))
    }

    /// Why `mv` is illegal here, or `Ok` when it is legal.
    pub fn check_legal(&self, mv: Move) -> Result<(), PlayError> {
        let side = self.side;
        let Some(piece) = self.piece_at(mv.from()).filter(|p| p.color == side) else {
            return Err(PlayError::NoPiece { mv, side });
        };
        if !self.is_pseudo_legal(mv) {
            return Err(PlayError::BadMovement {
                mv,
                kind: piece.kind,
            });
        }
        if !self.is_legal(mv) {
            return Err(PlayError::LeavesGeneralInCheck { mv, side });
        }
        Ok(())
    }

    /// The position after `mv` (copy-make), or why `mv` is illegal.
    pub fn after(&self, mv: Move) -> Result<Position, PlayError> {
        let mut next = self.clone();
        next.play(mv)?;
        Ok(next)
    }

    /// Whether the side to move has a move, and if not, how it lost.
    pub fn status(&self) -> BoardStatus {
        if self.has_legal_move() {
            BoardStatus::Ongoing
        } else if self.is_check() {
            BoardStatus::Checkmate
        } else {
            BoardStatus::Stalemate
        }
    }

    /// True when the side to move is checkmated (R-END-MATE).
    pub fn is_checkmate(&self) -> bool {
        self.status() == BoardStatus::Checkmate
    }

    /// True when the side to move has no move but is not in check (R-END-STALEMATE).
    pub fn is_stalemate(&self) -> bool {
        self.status() == BoardStatus::Stalemate
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

/// A text diagram: rank 9 at the top, Red's pieces in upper case.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_text_diagram(f, |sq| self.piece_at(sq), self.side)
    }
}

/// The text diagram of a position or a [`Diagram`](crate::Diagram).
pub(crate) fn write_text_diagram(
    f: &mut fmt::Formatter<'_>,
    piece_at: impl Fn(Square) -> Option<Piece>,
    side: Color,
) -> fmt::Result {
    writeln!(f, "  a b c d e f g h i")?;
    for rank in (0..10u8).rev() {
        write!(f, "{rank}")?;
        for file in 0..9u8 {
            let sq = Square::from_index_unchecked(rank * 9 + file);
            let c = piece_at(sq).map_or('.', Piece::fen_char);
            write!(f, " {c}")?;
        }
        writeln!(f)?;
        if rank == 5 {
            writeln!(f, "  ~~~~~ river ~~~~~")?;
        }
    }
    write!(f, "{side} to move")
}

impl Default for Position {
    fn default() -> Self {
        Position::startpos()
    }
}
