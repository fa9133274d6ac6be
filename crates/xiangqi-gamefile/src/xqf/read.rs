//! Reading one XQF file.

use crate::encoding::{detect_with, Hint};
use crate::{Game, GameResult, Limits, TextEncoding};
use xiangqi_core::{Diagram, FenError, Move, Position, Square, Validation};
use xiangqi_notation::Notation;

use super::keys::Keys;
use super::layout;
use crate::bytes::{ByteCursor, ByteError};
use crate::error::ErrorKind;
use crate::tree::{build_line, MoveRecord, Tree};
use crate::Format;

/// Flags of a move record, after decoding.
struct Flags {
    has_next: bool,
    has_alternative: bool,
    has_comment: bool,
}

/// A string of the file (a header field, a comment) before it is decoded:
/// the encoding is decided for all of them at once.
struct RawText {
    offset: u64,
    bytes: Vec<u8>,
}

/// The strings of a file, decoded in one encoding: `encoding`, or the one
/// detected over all of them together (an XQF file holds no mark of its
/// encoding; the program that defined it wrote GBK, hence the hint).
/// Strings with bytes not valid in it are read with U+FFFD and counted in
/// one `Undecodable` note at the first of them.
struct TextDecoder {
    encoding: TextEncoding,
    first_undecodable: Option<u64>,
    undecodable: usize,
}

impl TextDecoder {
    fn new<'a>(
        texts: impl Iterator<Item = &'a [u8]>,
        encoding: Option<TextEncoding>,
    ) -> TextDecoder {
        let encoding = encoding.unwrap_or_else(|| {
            // Each after a line feed: no character spans two strings, and
            // no field's bytes are taken for a file's byte-order mark (a
            // GB18030 comment may start with EF BB BF, `锘`).
            let mut sample = Vec::new();
            for text in texts {
                sample.push(b'\n');
                sample.extend_from_slice(text);
            }
            detect_with(&sample, true, Hint::Simplified)
        });
        TextDecoder {
            encoding,
            first_undecodable: None,
            undecodable: 0,
        }
    }

    /// The string, trimmed of spaces and NULs; `None` when that leaves nothing.
    fn decode(&mut self, offset: u64, bytes: &[u8]) -> Option<String> {
        let (text, malformed) = self.encoding.decode(bytes);
        if malformed {
            self.first_undecodable.get_or_insert(offset);
            self.undecodable += 1;
        }
        let text = text.trim_matches(|c: char| c.is_whitespace() || c == '\0');
        (!text.is_empty()).then(|| text.to_owned())
    }

    /// The note saying which strings could not be decoded, if any.
    fn note(&self) -> Option<ByteError> {
        let offset = self.first_undecodable?;
        let kind = ErrorKind::Undecodable {
            encoding: self.encoding,
            count: self.undecodable,
        };
        Some((offset, kind))
    }
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

    /// One record: the 4 bytes, then the comment if any (its offset and
    /// bytes, decoded once the file's encoding is known).
    fn record(
        &self,
        cursor: &mut ByteCursor<'_>,
    ) -> Result<(u64, [u8; 4], Flags, Option<RawText>), ByteError> {
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

    fn comment(&self, cursor: &mut ByteCursor<'_>) -> Result<Option<RawText>, ByteError> {
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
        let offset = cursor.offset();
        let bytes = self.decrypted(cursor, length as usize, "a comment")?;
        Ok(Some(RawText { offset, bytes }))
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

/// Reads a whole XQF file, its strings in `encoding` or the one detected
/// over them; returns the game and the encoding its strings were read in.
pub(crate) fn read_xqf(
    data: &[u8],
    limits: &Limits,
    encoding: Option<TextEncoding>,
) -> Result<(Game, TextEncoding), ByteError> {
    // The signature first: junk is "not an XQF file", however short (a
    // file cut before its signature ends is a truncated one).
    if data.len() >= layout::MAGIC.len() && !data.starts_with(layout::MAGIC) {
        return Err((0, ErrorKind::BadMagic(Format::Xqf)));
    }
    let mut cursor = ByteCursor::new(data, 0);
    let header = cursor.take(layout::HEADER_LEN, "the XQF header")?;
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

    let fields = layout::STRINGS.map(|(tag, at, room)| {
        let len = usize::from(header[at]).min(room);
        (tag, at + 1, &header[at + 1..at + 1 + len])
    });
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
    let mut comments = Vec::new();
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
            comment: None,
        });
        comments.push(comment);
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
    let texts = fields.iter().map(|(_, _, bytes)| *bytes).chain(
        root_comment
            .iter()
            .chain(comments.iter().flatten())
            .map(|t| &t.bytes[..]),
    );
    let mut text = TextDecoder::new(texts, encoding);
    let mut game = Game::default();
    for (tag, at, bytes) in fields {
        if let Some(value) = text.decode(at as u64, bytes) {
            game.set_tag(tag, &value);
        }
    }
    let root_comment = root_comment.and_then(|t| text.decode(t.offset, &t.bytes));
    for (record, comment) in records.iter_mut().zip(comments) {
        record.comment = comment.and_then(|t| text.decode(t.offset, &t.bytes));
    }
    let mut notes = Vec::new();
    notes.extend(text.note());
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
    Ok((game, text.encoding))
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
        assert!(read_xqf(&file, &Limits::default(), None).is_ok());
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
            read_xqf(&file, &Limits::default(), None).unwrap_err(),
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
