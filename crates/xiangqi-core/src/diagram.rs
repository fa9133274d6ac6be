//! A board as a diagram shows it, valid or not (the idea of python-chess's
//! `Board.status()`): a manual's diagram of a finished mate may leave both
//! generals in check, a position no game can reach and no rule can play
//! from, and a user still wants to see it. A [`Diagram`] holds any
//! placement a FEN can write; [`Diagram::problems`] says what makes it no
//! [`Position`], and only [`Diagram::to_position`] (the same checks as
//! [`Position::from_fen_with`]) leads to play and search.

use crate::fen::{parse_counter, write_fen, MAX_FEN_LEN};
use crate::{Color, FenError, Piece, PieceKind, Position, Square, Validation};

/// Pieces on points and a side to move, read from a FEN whose shape is
/// right (ten ranks of nine points, piece letters, side, counters), without
/// the rules' checks.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Diagram {
    board: [Option<Piece>; 90],
    side: Color,
    halfmove: u32,
    fullmove: u32,
}

impl Diagram {
    /// Reads a FEN's shape (N-FEN): the errors are those of text that is no
    /// FEN at all; where the pieces stand is not checked.
    ///
    /// ```
    /// use xiangqi_core::{Diagram, FenError, Position, Validation};
    /// // A finished mate: both generals are in check.
    /// let fen = "5ab2/4a4/1R1kb4/2N6/9/6B2/6n2/5K2B/4Ar3/3A5 w";
    /// assert!(matches!(Position::from_fen(fen), Err(FenError::OpponentInCheck(_))));
    /// let diagram = Diagram::from_fen(fen).unwrap();
    /// assert_eq!(diagram.problems(Validation::Strict), [FenError::BothInCheck]);
    /// assert!(diagram.to_position(Validation::Lenient).is_err());
    /// ```
    pub fn from_fen(fen: &str) -> Result<Diagram, FenError> {
        if fen.len() > MAX_FEN_LEN {
            return Err(FenError::TooLong { len: fen.len() });
        }
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::Empty);
        }
        if fields.len() > 6 {
            return Err(FenError::TooManyFields(fields.len()));
        }
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 10 {
            return Err(FenError::WrongRankCount { found: ranks.len() });
        }
        let mut board = [None; 90];
        for (row, text) in ranks.iter().enumerate() {
            let rank = 9 - row as u8;
            let mut file = 0usize;
            for ch in text.chars() {
                if let Some(d) = ch.to_digit(10).filter(|d| (1..=9).contains(d)) {
                    file += d as usize;
                } else if let Some(piece) = Piece::from_fen_char(ch) {
                    if let Some(sq) = Square::from_coords(file as u8, rank).filter(|_| file < 9) {
                        board[sq.index()] = Some(piece);
                    }
                    file += 1;
                } else {
                    return Err(FenError::UnknownPiece { ch, rank });
                }
                if file > 9 {
                    break;
                }
            }
            if file != 9 {
                return Err(FenError::WrongRankWidth { rank, width: file });
            }
        }
        let side = match fields.get(1).copied() {
            None | Some("w") | Some("r") | Some("W") | Some("R") => Color::Red,
            Some("b") | Some("B") => Color::Black,
            Some(other) => return Err(FenError::BadSideToMove(other.to_owned())),
        };
        let halfmove = match fields.get(4) {
            Some(v) => parse_counter("half-move clock", v)?,
            None => 0,
        };
        let fullmove = match fields.get(5) {
            Some(v) => parse_counter("full-move number", v)?.max(1),
            None => 1,
        };
        Ok(Diagram {
            board,
            side,
            halfmove,
            fullmove,
        })
    }

    /// An empty board, Red to move, counters at their start: a diagram to
    /// set pieces on (no position until both generals stand).
    pub fn empty() -> Diagram {
        Diagram {
            board: [None; 90],
            side: Color::Red,
            halfmove: 0,
            fullmove: 1,
        }
    }

    /// Puts `piece` on `sq` (`None` empties it) and returns what stood there.
    pub fn set_piece_at(&mut self, sq: Square, piece: Option<Piece>) -> Option<Piece> {
        std::mem::replace(&mut self.board[sq.index()], piece)
    }

    /// Gives the move to `side`.
    pub fn set_side_to_move(&mut self, side: Color) {
        self.side = side;
    }

    /// The piece on `sq`.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// The side the diagram gives the move to.
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Plies since the last capture (FEN field 5).
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The move number (FEN field 6).
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// Every piece with its point.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.board.iter().enumerate().filter_map(|(i, piece)| {
            let sq = Square::from_index(i as u8).expect("90 points");
            piece.map(|p| (sq, p))
        })
    }

    /// The FEN (N-FEN), as [`Position::to_fen`] writes one.
    pub fn to_fen(&self) -> String {
        write_fen(
            |sq| self.piece_at(sq),
            self.side,
            self.halfmove,
            self.fullmove,
        )
    }

    /// The counts a side may not exceed, and each side's general.
    fn count_problems(&self) -> Vec<FenError> {
        let mut counts = [[0u8; 7]; 2];
        for (_, piece) in self.pieces() {
            counts[piece.color.index()][piece.kind.index()] += 1;
        }
        let mut problems = Vec::new();
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let count = counts[color.index()][kind.index()];
                if count > kind.max_count() {
                    problems.push(FenError::TooManyPieces {
                        color,
                        kind,
                        count,
                        max: kind.max_count(),
                    });
                }
            }
            if counts[color.index()][PieceKind::General.index()] == 0 {
                problems.push(FenError::MissingGeneral(color));
            }
        }
        problems
    }

    /// The board as a position the checks have not yet seen.
    fn unchecked_position(&self) -> Position {
        let mut pos = Position::empty();
        for (sq, piece) in self.pieces() {
            pos.put(sq, piece);
        }
        pos.side = self.side;
        pos.halfmove = self.halfmove;
        pos.fullmove = self.fullmove;
        pos
    }

    /// What makes this diagram no position the rules can play from, under
    /// `validation`; empty when it is one. Counts first (more pieces of a
    /// kind than a side starts with, a missing general), then where pieces
    /// stand; only on a board without those, generals facing, and a side
    /// not to move in check, which is [`FenError::BothInCheck`] when the
    /// side to move is in check too (a finished mate as manuals draw it).
    pub fn problems(&self, validation: Validation) -> Vec<FenError> {
        let problems = self.count_problems();
        if !problems.is_empty() {
            return problems;
        }
        let pos = self.unchecked_position();
        let mut problems = pos.placement_problems(validation);
        if let Some(at) = problems
            .iter()
            .position(|p| matches!(p, FenError::OpponentInCheck(_)))
        {
            if pos.is_check() {
                problems[at] = FenError::BothInCheck;
            }
        }
        problems
    }

    /// Whether the diagram is a position the rules can play from.
    pub fn is_valid(&self, validation: Validation) -> bool {
        self.problems(validation).is_empty()
    }

    /// The position, when the diagram is one: its first problem otherwise,
    /// as [`Position::from_fen_with`] reports it.
    pub fn to_position(&self, validation: Validation) -> Result<Position, FenError> {
        if let Some(first) = self.count_problems().into_iter().next() {
            return Err(first);
        }
        self.unchecked_position().validated(validation)
    }
}

/// A text diagram, as a [`Position`] shows itself.
impl std::fmt::Display for Diagram {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        crate::position::write_text_diagram(f, |sq| self.piece_at(sq), self.side)
    }
}

impl From<&Position> for Diagram {
    fn from(position: &Position) -> Diagram {
        let mut board = [None; 90];
        for (sq, piece) in position.pieces() {
            board[sq.index()] = Some(piece);
        }
        Diagram {
            board,
            side: position.side_to_move(),
            halfmove: position.halfmove_clock(),
            fullmove: position.fullmove_number(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_valid_diagram_is_its_position() {
        let diagram = Diagram::from_fen(crate::START_FEN).unwrap();
        assert!(diagram.is_valid(Validation::Strict));
        assert_eq!(
            diagram.to_position(Validation::Strict).unwrap(),
            Position::startpos()
        );
        assert_eq!(diagram.to_fen(), crate::START_FEN);
        assert_eq!(Diagram::from(&Position::startpos()), diagram);
    }

    #[test]
    fn an_edited_diagram_becomes_a_position_once_it_is_one() {
        let mut diagram = Diagram::empty();
        assert_eq!(
            diagram.problems(Validation::Strict),
            [
                FenError::MissingGeneral(Color::Red),
                FenError::MissingGeneral(Color::Black)
            ]
        );
        let red = Piece::new(Color::Red, PieceKind::General);
        let black = Piece::new(Color::Black, PieceKind::General);
        let e0 = Square::from_coords(4, 0).unwrap();
        assert_eq!(diagram.set_piece_at(e0, Some(red)), None);
        diagram.set_piece_at(Square::from_coords(3, 9).unwrap(), Some(black));
        diagram.set_side_to_move(Color::Black);
        let position = diagram.to_position(Validation::Strict).unwrap();
        assert_eq!(position.to_fen(), "3k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1");
        assert_eq!(diagram.set_piece_at(e0, None), Some(red));
        assert!(!diagram.is_valid(Validation::Lenient));
    }

    #[test]
    fn problems_name_every_rule_a_diagram_breaks() {
        // Only the side not to move in check: the strict reader's error.
        let fen = "4k4/9/9/9/9/9/9/9/4R4/3K5 w";
        let diagram = Diagram::from_fen(fen).unwrap();
        assert_eq!(
            diagram.problems(Validation::Strict),
            [FenError::OpponentInCheck(Color::Black)]
        );
        assert_eq!(
            diagram.to_position(Validation::Strict),
            Position::from_fen(fen)
        );
        // Two missing generals and three chariots: all said, in order.
        let diagram = Diagram::from_fen("9/9/9/9/9/9/9/9/9/RRR6 w").unwrap();
        assert_eq!(diagram.problems(Validation::Strict).len(), 3);
        // Shape errors are no diagram at all.
        assert!(Diagram::from_fen("9/9/9 w").is_err());
    }
}
