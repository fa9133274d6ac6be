//! Reading one XQF file.

use crate::{Game, GameResult, Limits};
use xiangqi_core::{Diagram, FenError, Move, Position, Square, Validation};
use xiangqi_notation::Notation;

use super::keys::Keys;
use super::layout;
use crate::bytes::{gb18030, ByteCursor, ByteError};
use crate::error::ErrorKind;
use crate::tree::{build_line, MoveRecord, Tree};
use crate::Format;

/// Flags of a move record, after decoding.
struct Flags {
    has_next: bool,
    has_alternative: bool,
    has_comment: bool,
}

/// The file's version, keys and layout-dependent decoding.
struct Decoder<'a> {
    version: u8,
    keys: Keys,
    limits: &'a Limits,
}

impl Decoder<'_> {
    fn plain(&self) -> bool {
        self.version <= layout::PLAIN_VERSION
    }

    /// Reads `n` bytes of the move area at the cursor, decrypted.
    fn decrypted(
        &self,
        cursor: &mut ByteCursor<'_>,
        n: usize,
        what: &'static str,
    ) -> Result<Vec<u8>, ByteError> {
        let start = cursor.offset();
        let raw = cursor.take(n, what)?;
        Ok(raw
            .iter()
            .enumerate()
            .map(|(i, &b)| b.wrapping_sub(self.keys.stream[(start as usize + i) % 32]))
            .collect())
    }

    fn flags(&self, tag: u8) -> Flags {
        if self.plain() {
            Flags {
                has_next: tag & 0xF0 != 0,
                has_alternative: tag & 0x0F != 0,
                has_comment: true,
            }
        } else {
            Flags {
                has_next: tag & 0x80 != 0,
                has_alternative: tag & 0x40 != 0,
                has_comment: tag & 0x20 != 0,
            }
        }
    }

    /// One record: the 4 bytes, then the comment if any.
    fn record(
        &self,
        cursor: &mut ByteCursor<'_>,
    ) -> Result<(u64, [u8; 4], Flags, Option<String>), ByteError> {
        let offset = cursor.offset();
        let raw = self.decrypted(cursor, 4, "a move record")?;
        let bytes = [raw[0], raw[1], raw[2], raw[3]];
        let flags = self.flags(bytes[2]);
        let comment = if flags.has_comment {
            self.comment(cursor)?
        } else {
            None
        };
        Ok((offset, bytes, flags, comment))
    }

    fn comment(&self, cursor: &mut ByteCursor<'_>) -> Result<Option<String>, ByteError> {
        let at = cursor.offset();
        let raw = self.decrypted(cursor, 4, "a comment length")?;
        let stored = u32::from_le_bytes([raw[0], raw[1], raw[2], raw[3]]);
        let length = i64::from(stored) - i64::from(self.keys.comment_len);
        if length == 0 {
            return Ok(None);
        }
        if length < 0 || length as u64 > cursor.remaining() as u64 {
            return Err((
                at,
                ErrorKind::BadLength {
                    what: "a comment",
                    length,
                },
            ));
        }
        if length as u64 > self.limits.max_comment_len as u64 {
            return Err((at, ErrorKind::CommentTooLong(self.limits.max_comment_len)));
        }
        let text = self.decrypted(cursor, length as usize, "a comment")?;
        let text = gb18030(&text);
        let text = text.trim_matches(|c: char| c.is_whitespace() || c == '\0');
        Ok((!text.is_empty()).then(|| text.to_owned()))
    }

    fn square(&self, code: u8, offset: u64) -> Result<Square, ByteError> {
        let square = (code < 90)
            .then(|| Square::from_coords(code / 10, code % 10))
            .flatten();
        square.ok_or((offset, ErrorKind::BadSquare(code)))
    }

    fn mv(&self, bytes: [u8; 4], offset: u64) -> Result<Move, ByteError> {
        let from = bytes[0].wrapping_sub(0x18).wrapping_sub(self.keys.from);
        let to = bytes[1].wrapping_sub(0x20).wrapping_sub(self.keys.to);
        Ok(Move::new(
            self.square(from, offset)?,
            self.square(to, offset + 1)?,
        ))
    }
}

/// The board of the header: 90 squares of FEN letters.
fn board(header: &[u8], version: u8, keys: &Keys) -> Result<[Option<u8>; 90], ByteError> {
    let stored = &header[layout::PIECES..layout::PIECES + 32];
    let mut squares = [0u8; 32];
    for (i, &code) in stored.iter().enumerate() {
        // Version 1.2 and later also rotate the order of the pieces.
        let slot = if version >= 12 {
            (usize::from(keys.squares) + i + 1) % 32
        } else {
            i
        };
        squares[slot] = code.wrapping_sub(keys.squares);
    }
    let mut board = [None; 90];
    for (i, &code) in squares.iter().enumerate() {
        // Above 89: a captured piece.
        let square = (code < 90).then(|| Square::from_coords(code / 10, code % 10));
        let Some(sq) = square.flatten() else {
            continue;
        };
        let letter = layout::PIECE_LETTERS[i % 16];
        let letter = if i < 16 {
            letter
        } else {
            letter.to_ascii_lowercase()
        };
        if board[sq.index()].is_some() {
            return Err(((layout::PIECES + i) as u64, ErrorKind::BadSquare(code)));
        }
        board[sq.index()] = Some(letter);
    }
    Ok(board)
}

/// The FEN of a board (indexed like `Square::index`, rank 0 at Red's side).
pub(crate) fn board_fen(board: &[Option<u8>; 90], red_to_move: bool) -> String {
    let mut fen = String::new();
    for rank in (0..10).rev() {
        let mut empty = 0;
        for file in 0..9 {
            match board[rank * 9 + file] {
                Some(letter) => {
                    if empty > 0 {
                        fen.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    fen.push(char::from(letter));
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen.push_str(if red_to_move {
        " w - - 0 1"
    } else {
        " b - - 0 1"
    });
    fen
}

/// Where a binary record's game starts: a position, or a diagram that is
/// none (shown, never played).
pub(crate) enum Start {
    Position(Box<Position>),
    Diagram(Diagram),
}

impl Start {
    /// The game's tree from `records`: none from a diagram.
    pub(crate) fn tree(
        &self,
        root_has_next: bool,
        records: impl FnMut() -> Result<Option<MoveRecord>, ByteError>,
        limits: &Limits,
    ) -> Result<Tree, ByteError> {
        match self {
            Start::Position(start) => build_line(start, root_has_next, records, limits),
            Start::Diagram(_) => Ok(Tree::default()),
        }
    }

    pub(crate) fn to_fen(&self) -> String {
        match self {
            Start::Position(start) => start.to_fen(),
            Start::Diagram(diagram) => diagram.to_fen(),
        }
    }
}

/// The start of a binary record's board, `offset` being where the board is
/// in the file. A diagram (a record without moves) whose side not to move
/// is in check shows a mate after the mating move, with the side to move
/// left as it was (示意图 in manuals): it is read with the side in check to
/// move, and `notes` gets a `DiagramSideToMove` error saying so. A board
/// that is no position either way (both generals in check, a piece where
/// none can stand, …) is a diagram to show: `notes` gets an
/// `InvalidDiagram` error saying what is wrong, and whether the record's
/// moves, which cannot be played from it, are left unread.
pub(crate) fn start_position(
    board: &[Option<u8>; 90],
    red_to_move: bool,
    has_moves: bool,
    offset: u64,
    notes: &mut Vec<ByteError>,
) -> Result<Start, ByteError> {
    let fen = board_fen(board, red_to_move);
    let error = match Position::from_fen(&fen) {
        Ok(start) => return Ok(Start::Position(Box::new(start))),
        Err(FenError::OpponentInCheck(in_check)) if !has_moves => {
            match Position::from_fen(&board_fen(board, !red_to_move)) {
                Ok(start) => {
                    notes.push((offset, ErrorKind::DiagramSideToMove { in_check }));
                    return Ok(Start::Position(Box::new(start)));
                }
                Err(e) => e,
            }
        }
        Err(e) => e,
    };
    let Ok(diagram) = Diagram::from_fen(&fen) else {
        return Err((offset, ErrorKind::BadPosition(Box::new(error))));
    };
    // What is wrong, as the diagram's problems say it (both generals in
    // check rather than one side's).
    let problem = diagram
        .problems(Validation::Strict)
        .into_iter()
        .next()
        .unwrap_or(error);
    notes.push((
        offset,
        ErrorKind::InvalidDiagram {
            error: Box::new(problem),
            moves_skipped: has_moves,
        },
    ));
    Ok(Start::Diagram(diagram))
}

/// Sets the tags every binary format shares: the start position when it is
/// not the standard one, and the result.
pub(crate) fn finish_game(game: &mut Game, start_fen: &str, result: GameResult) {
    if start_fen != Position::startpos().to_fen() {
        game.set_tag("FEN", start_fen);
    }
    game.set_tag("Result", result.as_str());
    game.result = Some(result);
    game.notation = Notation::Iccs;
}

/// Reads a whole XQF file.
pub(crate) fn read_xqf(data: &[u8], limits: &Limits) -> Result<Game, ByteError> {
    let mut cursor = ByteCursor::new(data, 0);
    let header = cursor.take(layout::HEADER_LEN, "the XQF header")?;
    if &header[..2] != layout::MAGIC {
        return Err((0, ErrorKind::BadMagic(Format::Xqf)));
    }
    let version = header[layout::VERSION];
    if !(layout::PLAIN_VERSION..=layout::NEWEST_VERSION).contains(&version) {
        return Err((
            layout::VERSION as u64,
            ErrorKind::UnsupportedVersion {
                format: Format::Xqf,
                version: version.into(),
            },
        ));
    }
    let keys = if version <= layout::PLAIN_VERSION {
        Keys::plain()
    } else {
        let mut key_bytes = [0; 13];
        key_bytes.copy_from_slice(&header[layout::KEYS..layout::KEYS + 13]);
        Keys::from_header(&key_bytes)
    };
    let board = board(header, version, &keys)?;
    let decoder = Decoder {
        version,
        keys,
        limits,
    };

    let mut game = Game::default();
    for (tag, at, room) in layout::STRINGS {
        let len = usize::from(header[at]).min(room);
        let text = gb18030(&header[at + 1..at + 1 + len]);
        let text = text.trim_matches(|c: char| c.is_whitespace() || c == '\0');
        if !text.is_empty() {
            game.set_tag(tag, text);
        }
    }
    let result = match header[layout::RESULT] {
        1 => GameResult::RedWins,
        2 => GameResult::BlackWins,
        3 | 4 => GameResult::Draw,
        _ => GameResult::Unknown,
    };

    let (_, _, root_flags, root_comment) = decoder.record(&mut cursor)?;
    // Read the records first: the side to move is the colour of the first
    // move's piece (the header's own field is unreliable; it is used only
    // for a game without moves).
    let mut records = Vec::new();
    let mut expected = usize::from(root_flags.has_next);
    while expected > 0 && cursor.remaining() > 0 {
        let (offset, bytes, flags, comment) = decoder.record(&mut cursor)?;
        expected = expected - 1 + usize::from(flags.has_next) + usize::from(flags.has_alternative);
        if records.len() >= limits.max_moves_per_game {
            return Err((offset, ErrorKind::TooManyMoves(limits.max_moves_per_game)));
        }
        records.push(MoveRecord {
            offset,
            mv: decoder.mv(bytes, offset)?,
            has_next: flags.has_next,
            has_alternative: flags.has_alternative,
            comment,
        });
    }
    if expected > 0 {
        return Err((
            cursor.offset(),
            ErrorKind::Truncated {
                what: "the move records",
                needed: 4,
            },
        ));
    }
    let red_to_move = records
        .first()
        .and_then(|r| board[r.mv.from().index()])
        .map_or(header[layout::BLACK_TO_MOVE] != 1, |letter| {
            letter.is_ascii_uppercase()
        });
    let mut notes = Vec::new();
    let start = start_position(
        &board,
        red_to_move,
        !records.is_empty(),
        layout::PIECES as u64,
        &mut notes,
    )?;
    let mut records = records.into_iter();
    let tree = start.tree(root_flags.has_next, || Ok(records.next()), limits)?;
    if let Some(comment) = root_comment {
        game.mainline.comments.push(comment);
    }
    tree.into_game(&mut game, notes);
    finish_game(&mut game, &start.to_fen(), result);
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An encrypted file whose comment length, less its key, is below zero:
    /// an error at the field, not a comment nor a silently empty one.
    #[test]
    fn a_comment_length_below_its_key_is_an_error() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/testdata/corpus/games/030-黄松轩先胜冯敬如.XQF");
        let Ok(mut file) = std::fs::read(&path) else {
            assert!(std::env::var("CI").as_deref() != Ok("true"));
            return;
        };
        assert!(read_xqf(&file, &Limits::default()).is_ok());
        assert!(
            file[layout::VERSION] > layout::PLAIN_VERSION,
            "an encrypted file"
        );
        let keys = Keys::from_header(file[layout::KEYS..layout::KEYS + 13].try_into().unwrap());
        let encrypt = |at: usize, plain: u8| plain.wrapping_add(keys.stream[at % 32]);
        let decrypt = |at: usize, raw: u8| raw.wrapping_sub(keys.stream[at % 32]);
        // The root record at 1024: say it has a comment, whose length at
        // 1028 is one less than the key.
        let tag = 1024 + 2;
        file[tag] = encrypt(tag, decrypt(tag, file[tag]) | 0x20);
        for (i, b) in (keys.comment_len - 1).to_le_bytes().into_iter().enumerate() {
            file[1028 + i] = encrypt(1028 + i, b);
        }
        assert_eq!(
            read_xqf(&file, &Limits::default()).unwrap_err(),
            (
                1028,
                ErrorKind::BadLength {
                    what: "a comment",
                    length: -1
                }
            )
        );
    }
}
