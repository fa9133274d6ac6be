//! Writing XQF version 1.0 (unencrypted), the version every XQF reader
//! knows. NAGs have no place in the format and are left out; the comments
//! before a variation's first move are joined to that move's comment.

use crate::{Game, GameResult, Line, WriteError};
use xiangqi_core::{Color, PieceKind, Position};

use super::layout;

/// The header slots of each kind (Red's; Black's are 16 higher).
fn slots(kind: PieceKind) -> &'static [usize] {
    match kind {
        PieceKind::Chariot => &[0, 8],
        PieceKind::Horse => &[1, 7],
        PieceKind::Elephant => &[2, 6],
        PieceKind::Advisor => &[3, 5],
        PieceKind::General => &[4],
        PieceKind::Cannon => &[9, 10],
        PieceKind::Soldier => &[11, 12, 13, 14, 15],
    }
}

fn square_code(sq: xiangqi_core::Square) -> u8 {
    sq.file().index() * 10 + sq.rank().index()
}

/// A length byte and GB18030 text, cut at a character boundary to fit.
fn put_string(header: &mut [u8], at: usize, room: usize, text: &str) {
    let mut bytes = Vec::new();
    for c in text.chars() {
        let mut buf = [0; 4];
        let (encoded, _, _) = encoding_rs::GB18030.encode(c.encode_utf8(&mut buf));
        if bytes.len() + encoded.len() > room {
            break;
        }
        bytes.extend_from_slice(&encoded);
    }
    header[at] = bytes.len() as u8;
    header[at + 1..at + 1 + bytes.len()].copy_from_slice(&bytes);
}

fn header(game: &Game, start: &Position) -> Result<Vec<u8>, WriteError> {
    let mut header = vec![0u8; layout::HEADER_LEN];
    header[..2].copy_from_slice(layout::MAGIC);
    header[layout::VERSION] = layout::PLAIN_VERSION;
    let pieces = &mut header[layout::PIECES..layout::PIECES + 32];
    pieces.fill(0xFF);
    let mut used = [[0usize; 7]; 2];
    for (sq, piece) in start.pieces() {
        let kind_slots = slots(piece.kind);
        let n = &mut used[piece.color.index()][piece.kind.index()];
        let slot = *kind_slots.get(*n).ok_or(WriteError::TooManyPieces {
            color: piece.color,
            kind: piece.kind,
            max: kind_slots.len(),
        })?;
        *n += 1;
        let base = if piece.color == Color::Red { 0 } else { 16 };
        pieces[base + slot] = square_code(sq);
    }
    header[layout::BLACK_TO_MOVE] = u8::from(start.side_to_move() == Color::Black);
    header[layout::RESULT] = match game.outcome() {
        GameResult::Unknown => 0,
        GameResult::RedWins => 1,
        GameResult::BlackWins => 2,
        GameResult::Draw => 3,
    };
    for (tag, at, room) in layout::STRINGS {
        if let Some(value) = game.tag(tag) {
            put_string(&mut header, at, room, value);
        }
    }
    Ok(header)
}

/// A record of version 1.0: squares, flags, spare byte, comment length and text.
fn record(
    out: &mut Vec<u8>,
    squares: Option<(u8, u8)>,
    has_next: bool,
    has_alternative: bool,
    comments: &[&String],
) {
    let (from, to) = squares.unwrap_or((0, 0));
    let flags = if has_next { 0xF0 } else { 0 } | if has_alternative { 0x0F } else { 0 };
    out.extend_from_slice(&[from + 0x18, to + 0x20, flags, 0]);
    let text = comments
        .iter()
        .map(|c| c.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    let (encoded, _, _) = encoding_rs::GB18030.encode(&text);
    out.extend_from_slice(&(encoded.len() as u32).to_le_bytes());
    out.extend_from_slice(&encoded);
}

/// The move at `index` of `line` and, after it, the alternatives to it in
/// file order: each variation's first move, then that move's own variations.
fn alternatives<'a>(line: &'a Line, index: usize, out: &mut Vec<(&'a Line, usize)>) {
    out.push((line, index));
    for variation in line.moves[index].variations() {
        if !variation.moves.is_empty() {
            alternatives(variation, 0, out);
        }
    }
}

/// The game as an XQF 1.0 file.
pub fn write_xqf(game: &Game) -> Result<Vec<u8>, WriteError> {
    let start = game.start_position()?;
    let mut out = header(game, &start)?;
    let main = &game.mainline;
    let root_comments: Vec<&String> = main.comments.iter().collect();
    record(
        &mut out,
        None,
        !main.moves.is_empty(),
        false,
        &root_comments,
    );
    // Pre-order: a move, then its replies' subtree, then its alternatives.
    let mut chains: Vec<(Vec<(&Line, usize)>, usize)> = Vec::new();
    if !main.moves.is_empty() {
        let mut chain = Vec::new();
        alternatives(main, 0, &mut chain);
        chains.push((chain, 0));
    }
    while let Some((chain, next)) = chains.last_mut() {
        let Some(&(line, index)) = chain.get(*next) else {
            chains.pop();
            continue;
        };
        *next += 1;
        let has_alternative = *next < chain.len();
        let node = &line.moves[index];
        let mut comments: Vec<&String> = Vec::new();
        if index == 0 && !std::ptr::eq(line, main) {
            comments.extend(&line.comments);
        }
        comments.extend(node.comments());
        let has_next = index + 1 < line.moves.len();
        let squares = (square_code(node.mv.from()), square_code(node.mv.to()));
        record(
            &mut out,
            Some(squares),
            has_next,
            has_alternative,
            &comments,
        );
        if has_next {
            let mut reply = Vec::new();
            alternatives(line, index + 1, &mut reply);
            chains.push((reply, 0));
        }
    }
    Ok(out)
}
