//! One CBR record: a 2214-byte header (UTF-16LE strings, the side to move,
//! the board as 90 piece codes row by row from Black's side), the opening
//! comment, then 4-byte move records (flags, spare, origin, destination as
//! `row * 9 + file`, rows from Black's side) with optional comments; four
//! zero bytes end the records.

use crate::{Game, Limits};
use xiangqi_core::{Move, Square};

use crate::bytes::{utf16_field, ByteCursor, ByteError};
use crate::error::ErrorKind;
use crate::tree::MoveRecord;
use crate::xqf::{finish_game, start_position};
use crate::Format;

pub(crate) const MAGIC: &[u8; 16] = b"CCBridge Record\0";
const HEADER_LEN: usize = 2214;
/// UTF-16LE strings: tag, offset, size in bytes.
const STRINGS: [(&str, usize, usize); 4] = [
    ("Title", 180, 128),
    ("Event", 692, 64),
    ("Red", 1076, 64),
    ("Black", 1300, 64),
];
const RESULT: usize = 2076;
const SIDE_TO_MOVE: usize = 2116;
const BOARD: usize = 2120;

/// Flags of a move record.
const NO_NEXT: u8 = 0x01;
const HAS_ALTERNATIVE: u8 = 0x02;
const HAS_COMMENT: u8 = 0x04;

/// The FEN letter of a piece code (0x11-0x17 Red, 0x21-0x27 Black).
fn piece_letter(code: u8) -> Option<u8> {
    let letter = *b"RNBAKCP".get(usize::from(code & 0x0F).checked_sub(1)?)?;
    match code & 0xF0 {
        0x10 => Some(letter),
        0x20 => Some(letter.to_ascii_lowercase()),
        _ => None,
    }
}

/// A square code `row * 9 + file`, rows from Black's side.
fn square(code: u8, offset: u64) -> Result<Square, ByteError> {
    let square = (code < 90)
        .then(|| Square::from_coords(code % 9, 9 - code / 9))
        .flatten();
    square.ok_or((offset, ErrorKind::BadSquare(code)))
}

fn comment(cursor: &mut ByteCursor<'_>, limits: &Limits) -> Result<Option<String>, ByteError> {
    let at = cursor.offset();
    let length = cursor.i32_le("a comment length")?;
    if length < 0 || length as usize > cursor.remaining() {
        return Err((
            at,
            ErrorKind::BadLength {
                what: "a comment",
                length: length.into(),
            },
        ));
    }
    if length as usize > limits.max_comment_len {
        return Err((at, ErrorKind::CommentTooLong(limits.max_comment_len)));
    }
    let text = utf16_field(cursor.take(length as usize, "a comment")?);
    Ok((!text.is_empty()).then_some(text))
}

/// Whether a record is a heading of a library: a complete header whose
/// board is empty (a title and an introduction, no position).
pub(crate) fn is_heading(data: &[u8]) -> bool {
    data.len() >= HEADER_LEN && data[BOARD..BOARD + 90].iter().all(|&b| b == 0)
}

/// Reads one CBR record from `data`, whose first byte is at file offset `base`.
pub(crate) fn read_cbr(data: &[u8], base: u64, limits: &Limits) -> Result<Game, ByteError> {
    let mut cursor = ByteCursor::new(data, base);
    let header = cursor.take(HEADER_LEN, "the CBR header")?;
    if &header[..16] != MAGIC {
        return Err((base, ErrorKind::BadMagic(Format::Cbr)));
    }
    let mut game = Game::default();
    for (tag, at, size) in STRINGS {
        let text = utf16_field(&header[at..at + size]);
        if !text.is_empty() {
            game.set_tag(tag, &text);
        }
    }
    let mut board = [None; 90];
    for (i, &code) in header[BOARD..BOARD + 90].iter().enumerate() {
        if code == 0 {
            continue;
        }
        let letter =
            piece_letter(code).ok_or((base + (BOARD + i) as u64, ErrorKind::BadPiece(code)))?;
        let sq = square(i as u8, base + (BOARD + i) as u64)?;
        board[sq.index()] = Some(letter);
    }
    let red_to_move = u16::from_le_bytes([header[SIDE_TO_MOVE], header[SIDE_TO_MOVE + 1]]) == 1;

    // The opening comment: a flag word, then the comment when it is set.
    let opening = if cursor.i32_le("the opening comment flag")? != 0 {
        comment(&mut cursor, limits)?
    } else {
        None
    };
    // The records end with four zero bytes, which a cut file lacks.
    let first = cursor.peek(4).ok_or_else(|| {
        (
            cursor.offset(),
            ErrorKind::Truncated {
                what: "a move record",
                needed: (4 - cursor.remaining()) as u64,
            },
        )
    })?;
    let first_is_move = first != [0; 4];
    let mut notes = Vec::new();
    let start = start_position(
        &board,
        red_to_move,
        first_is_move,
        base + BOARD as u64,
        &mut notes,
    )?;
    let mut records = || -> Result<Option<MoveRecord>, ByteError> {
        let offset = cursor.offset();
        // Four zero bytes end the records; the file must hold them.
        let [flags, _, from, to] = cursor.array::<4>("a move record")?;
        if [flags, from, to] == [0; 3] {
            return Ok(None);
        }
        let comment = if flags & HAS_COMMENT != 0 {
            comment(&mut cursor, limits)?
        } else {
            None
        };
        Ok(Some(MoveRecord {
            offset,
            mv: Move::new(square(from, offset + 2)?, square(to, offset + 3)?),
            has_next: flags & NO_NEXT == 0,
            has_alternative: flags & HAS_ALTERNATIVE != 0,
            comment,
        }))
    };
    let tree = start.tree(first_is_move, &mut records, limits)?;
    if let Some(comment) = opening {
        game.mainline.comments.push(comment);
    }
    let result = super::result(header[RESULT].into());
    tree.into_game(&mut game, notes);
    finish_game(&mut game, &start.to_fen(), result);
    Ok(game)
}
