//! One position of the training data as a fixed 56-byte record (the byte
//! table is in `docs/engine.md`, "NNUE: training data and training").

use xiangqi_core::{Color, Move, Piece, PieceKind, Position, Score, Square};
use xiangqi_search::wdl::Outcome;

/// Bytes of one record.
pub const RECORD_SIZE: usize = 56;

/// Bytes of the packed board: 90 points, 4 bits each.
const BOARD_BYTES: usize = 45;

/// Centipawn scores are kept within this bound; beyond it the `i16` field
/// holds mates.
pub const MAX_STORED_CP: i32 = 30_000;

/// A mate in `n` is stored as `MATE_BASE - n`, being mated in `n` as
/// `-MATE_BASE + n`.
const MATE_BASE: i32 = 32_000;

/// Mate distances kept in the field (longer ones are cut to it).
const MAX_MATE_DISTANCE: i32 = 1_000;

const FLAG_BLACK_TO_MOVE: u8 = 1;
const RESULT_SHIFT: u32 = 1;
const RESULT_MASK: u8 = 0b110;
const FLAG_LAST_OF_GAME: u8 = 1 << 3;
const FLAG_IN_CHECK: u8 = 1 << 4;
const UNUSED_FLAGS: u8 = 0b1110_0000;

/// The pieces of a position, 4 bits per point in square order (a0, b0, …
/// i9; even squares in the low half of a byte): 0 empty, 1 + kind for
/// Red's pieces, 9 + kind for Black's (kind: `PieceKind::index`, General 0
/// to Soldier 6).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PackedBoard([u8; BOARD_BYTES]);

impl PackedBoard {
    /// The board of `position`.
    pub fn of(position: &Position) -> PackedBoard {
        let mut bytes = [0u8; BOARD_BYTES];
        for (square, piece) in position.pieces() {
            let code = 1 + piece.kind.index() as u8 + 8 * u8::from(piece.color == Color::Black);
            let i = square.index();
            bytes[i / 2] |= code << (4 * (i % 2));
        }
        PackedBoard(bytes)
    }

    /// The 4-bit code of a square.
    fn code(&self, index: usize) -> u8 {
        (self.0[index / 2] >> (4 * (index % 2))) & 0xf
    }

    /// The pieces on the board with their squares, in square order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::all().filter_map(|square| {
            let code = self.code(square.index());
            let piece = decode_piece(code)?;
            Some((square, piece))
        })
    }

    /// The piece on `square`.
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        decode_piece(self.code(square.index()))
    }

    /// The board as the placement field of a FEN.
    pub fn fen_placement(&self) -> String {
        let mut text = String::new();
        for rank in (0..10u8).rev() {
            let mut empty = 0;
            for file in 0..9u8 {
                let square = Square::from_coords(file, rank).expect("on the board");
                match self.piece_at(square) {
                    Some(piece) => {
                        if empty > 0 {
                            text.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        text.push(piece.fen_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                text.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                text.push('/');
            }
        }
        text
    }

    /// A code no piece has (8 or a kind past Soldier), if any.
    fn bad_code(&self) -> Option<(Square, u8)> {
        Square::all().find_map(|square| {
            let code = self.code(square.index());
            (code != 0 && decode_piece(code).is_none()).then_some((square, code))
        })
    }
}

fn decode_piece(code: u8) -> Option<Piece> {
    let color = if code & 8 == 0 {
        Color::Red
    } else {
        Color::Black
    };
    let kind = (code & 7).checked_sub(1)?;
    let kind = *PieceKind::ALL.get(usize::from(kind))?;
    Some(Piece::new(color, kind))
}

/// One scored position of a self-play game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The pieces.
    pub board: PackedBoard,
    /// The side to move.
    pub side_to_move: Color,
    /// The search's score, for the side to move (centipawns within
    /// ±[`MAX_STORED_CP`], or a mate).
    pub score: Score,
    /// How the game ended for the side to move.
    pub result: Outcome,
    /// Plies played in the game before the position (the win-rate model's ply).
    pub ply: u16,
    /// The move the search chose, if any.
    pub best_move: Option<Move>,
    /// The game's number in its file (from 0, in order).
    pub game: u32,
    /// True for the last position of its game: a game is whole when its last
    /// record says so, which lets a resumed file drop an unfinished game.
    pub last_of_game: bool,
    /// True when the side to move is in check.
    pub in_check: bool,
}

/// What is wrong with a record's bytes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// A square holds a code no piece has.
    #[error("square {square} holds piece code {code}, which names no piece")]
    BadPiece {
        /// The square.
        square: Square,
        /// Its 4-bit code.
        code: u8,
    },
    /// The result bits hold 3.
    #[error("the result field holds 3 (0 loss, 1 draw, 2 win)")]
    BadResult,
    /// Flag bits that must be zero are set.
    #[error("unused flag bits are set ({flags:#04x})")]
    UnusedFlags {
        /// The flags byte.
        flags: u8,
    },
    /// The best-move field names no squares.
    #[error("the best move field {raw:#06x} names no move")]
    BadMove {
        /// The field.
        raw: u16,
    },
}

impl Record {
    /// The record's 56 bytes.
    pub fn to_bytes(&self) -> [u8; RECORD_SIZE] {
        let mut out = [0u8; RECORD_SIZE];
        out[..BOARD_BYTES].copy_from_slice(&self.board.0);
        let result = match self.result {
            Outcome::Loss => 0,
            Outcome::Draw => 1,
            Outcome::Win => 2,
        };
        let mut flags = result << RESULT_SHIFT;
        if self.side_to_move == Color::Black {
            flags |= FLAG_BLACK_TO_MOVE;
        }
        if self.last_of_game {
            flags |= FLAG_LAST_OF_GAME;
        }
        if self.in_check {
            flags |= FLAG_IN_CHECK;
        }
        out[45] = flags;
        out[46..48].copy_from_slice(&encode_score(self.score).to_le_bytes());
        out[48..50].copy_from_slice(&self.ply.to_le_bytes());
        let mv = self.best_move.map_or(u16::MAX, Move::to_u16);
        out[50..52].copy_from_slice(&mv.to_le_bytes());
        out[52..56].copy_from_slice(&self.game.to_le_bytes());
        out
    }

    /// Reads a record from its 56 bytes.
    pub fn from_bytes(bytes: &[u8; RECORD_SIZE]) -> Result<Record, RecordError> {
        let mut board = [0u8; BOARD_BYTES];
        board.copy_from_slice(&bytes[..BOARD_BYTES]);
        let board = PackedBoard(board);
        if let Some((square, code)) = board.bad_code() {
            return Err(RecordError::BadPiece { square, code });
        }
        let flags = bytes[45];
        if flags & UNUSED_FLAGS != 0 {
            return Err(RecordError::UnusedFlags { flags });
        }
        let result = match (flags & RESULT_MASK) >> RESULT_SHIFT {
            0 => Outcome::Loss,
            1 => Outcome::Draw,
            2 => Outcome::Win,
            _ => return Err(RecordError::BadResult),
        };
        let raw_move = u16::from_le_bytes([bytes[50], bytes[51]]);
        let best_move = match raw_move {
            u16::MAX => None,
            raw => Some(Move::from_u16(raw).ok_or(RecordError::BadMove { raw })?),
        };
        Ok(Record {
            board,
            side_to_move: if flags & FLAG_BLACK_TO_MOVE != 0 {
                Color::Black
            } else {
                Color::Red
            },
            score: decode_score(i16::from_le_bytes([bytes[46], bytes[47]])),
            result,
            ply: u16::from_le_bytes([bytes[48], bytes[49]]),
            best_move,
            game: u32::from_le_bytes([bytes[52], bytes[53], bytes[54], bytes[55]]),
            last_of_game: flags & FLAG_LAST_OF_GAME != 0,
            in_check: flags & FLAG_IN_CHECK != 0,
        })
    }

    /// True when the search's move takes a piece: such positions are not
    /// quiet, and the trainer leaves them out by default.
    pub fn best_move_captures(&self) -> bool {
        self.best_move
            .is_some_and(|mv| self.board.piece_at(mv.to()).is_some())
    }

    /// The position, as a FEN with the ply's move number (no-capture count 0).
    pub fn fen(&self) -> String {
        let side = match self.side_to_move {
            Color::Red => 'w',
            Color::Black => 'b',
        };
        let fullmove = u32::from(self.ply) / 2 + 1;
        format!("{} {side} - - 0 {fullmove}", self.board.fen_placement())
    }
}

/// The score in the record's `i16` field.
pub fn encode_score(score: Score) -> i16 {
    let stored = match score {
        Score::Cp(cp) => cp.clamp(-MAX_STORED_CP, MAX_STORED_CP),
        Score::Mate(n) if n > 0 => MATE_BASE - n.min(MAX_MATE_DISTANCE),
        Score::Mate(n) => -MATE_BASE - n.max(-MAX_MATE_DISTANCE),
    };
    stored as i16
}

/// The score an `i16` field holds.
pub fn decode_score(stored: i16) -> Score {
    let v = i32::from(stored);
    if v > MAX_STORED_CP {
        Score::Mate(MATE_BASE - v)
    } else if v < -MAX_STORED_CP {
        Score::Mate(-MATE_BASE - v)
    } else {
        Score::Cp(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_round_trip_with_mates_beyond_the_centipawns() {
        for score in [
            Score::Cp(0),
            Score::Cp(-35),
            Score::Cp(MAX_STORED_CP),
            Score::Cp(-MAX_STORED_CP),
            Score::Mate(1),
            Score::Mate(17),
            Score::Mate(0),
            Score::Mate(-4),
        ] {
            assert_eq!(decode_score(encode_score(score)), score);
        }
        assert_eq!(
            decode_score(encode_score(Score::Cp(99_999))),
            Score::Cp(30_000)
        );
        assert_eq!(
            decode_score(encode_score(Score::Mate(5_000))),
            Score::Mate(MAX_MATE_DISTANCE)
        );
    }

    #[test]
    fn a_record_round_trips_and_rebuilds_its_position() {
        let fen = "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 0 3";
        let position = Position::from_fen(fen).unwrap();
        let record = Record {
            board: PackedBoard::of(&position),
            side_to_move: position.side_to_move(),
            score: Score::Cp(-42),
            result: Outcome::Draw,
            ply: 5,
            best_move: Some("a9a8".parse().unwrap()),
            game: 123_456,
            last_of_game: true,
            in_check: false,
        };
        let bytes = record.to_bytes();
        assert_eq!(Record::from_bytes(&bytes).unwrap(), record);
        assert_eq!(record.fen(), fen);
        assert_eq!(
            record.board.pieces().collect::<Vec<_>>(),
            position.pieces().collect::<Vec<_>>()
        );
        assert!(!record.best_move_captures());
        let capture = Record {
            best_move: Some("b7b0".parse().unwrap()),
            ..record
        };
        assert!(capture.best_move_captures());
    }

    #[test]
    fn damaged_bytes_are_named() {
        let record = Record {
            board: PackedBoard::of(&Position::startpos()),
            side_to_move: Color::Red,
            score: Score::Cp(0),
            result: Outcome::Win,
            ply: 0,
            best_move: None,
            game: 0,
            last_of_game: false,
            in_check: false,
        };
        let mut bytes = record.to_bytes();
        bytes[45] |= RESULT_MASK;
        assert_eq!(Record::from_bytes(&bytes), Err(RecordError::BadResult));
        let mut bytes = record.to_bytes();
        bytes[22] = 0x88;
        assert!(matches!(
            Record::from_bytes(&bytes),
            Err(RecordError::BadPiece { code: 8, .. })
        ));
        let mut bytes = record.to_bytes();
        bytes[45] |= 0x80;
        assert!(matches!(
            Record::from_bytes(&bytes),
            Err(RecordError::UnusedFlags { .. })
        ));
    }
}
