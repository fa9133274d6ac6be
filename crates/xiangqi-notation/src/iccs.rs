//! ICCS coordinates (N-ICCS): `h2e2`; also `h2-e2` and `H2-E2` on input.
//!
//! ```
//! use xiangqi_core::Position;
//! use xiangqi_notation::{parse, Notation};
//!
//! let pos = Position::startpos();
//! assert_eq!(parse(&pos, "H2-E2", Notation::Iccs).unwrap().to_string(), "h2e2");
//! ```

use xiangqi_core::{Move, Square};

use crate::error::{ParseMoveError, SyntaxErrorKind};
use crate::Notation;

/// Reads coordinates, pointing at the first offending character on error.
pub(crate) fn read(text: &str) -> Result<Move, ParseMoveError> {
    match read_plain(text.as_bytes()) {
        Some(mv) => Ok(mv),
        None => read_in_full(text),
    }
}

/// [`read`] character by character, every form and error.
fn read_in_full(text: &str) -> Result<Move, ParseMoveError> {
    let t = text.trim();
    let lead = text[..text.len() - text.trim_start().len()].chars().count();
    let err = |i: usize, kind| ParseMoveError::new(Some(Notation::Iccs), text, lead + i + 1, kind);
    if t.is_empty() {
        return Err(err(0, SyntaxErrorKind::Empty));
    }
    let mut b = [' '; 6];
    let mut len = 0;
    for c in t.chars().take(6) {
        b[len] = c;
        len += 1;
    }
    let b = &b[..len];
    let dash = usize::from(b.get(2) == Some(&'-'));
    let is_file = |c: char| matches!(c.to_ascii_lowercase(), 'a'..='i');
    // File, rank, file, rank (the second square after the optional dash).
    for i in 0..4 {
        let at = if i >= 2 { i + dash } else { i };
        let ok = match b.get(at) {
            Some(&c) if i % 2 == 0 => is_file(c),
            Some(c) => c.is_ascii_digit(),
            None => false,
        };
        if !ok {
            return Err(err(at, SyntaxErrorKind::ExpectedFile));
        }
    }
    if b.len() > 4 + dash {
        return Err(err(4 + dash, SyntaxErrorKind::TrailingText));
    }
    // The shape is checked above, so the squares exist.
    let square =
        |f: char, r: char| Square::from_coords(f.to_ascii_lowercase() as u8 - b'a', r as u8 - b'0');
    match (square(b[0], b[1]), square(b[2 + dash], b[3 + dash])) {
        (Some(from), Some(to)) if from != to => Ok(Move::new(from, to)),
        _ => Err(err(2 + dash, SyntaxErrorKind::ExpectedFile)),
    }
}

/// The common form, four bytes such as `h2e2` (either case), without
/// looking at characters; `None` for anything else, which [`read`] then
/// reads (or rejects) character by character.
pub(crate) fn read_plain(bytes: &[u8]) -> Option<Move> {
    let &[f1, r1, f2, r2] = bytes else {
        return None;
    };
    let file = |b: u8| match b | 0x20 {
        f @ b'a'..=b'i' => Some(f - b'a'),
        _ => None,
    };
    let rank = |b: u8| b.is_ascii_digit().then(|| b - b'0');
    let from = Square::from_coords(file(f1)?, rank(r1)?)?;
    let to = Square::from_coords(file(f2)?, rank(r2)?)?;
    (from != to).then(|| Move::new(from, to))
}

/// Whether `text` has the shape of ICCS coordinates.
pub(crate) fn looks_like(text: &str) -> bool {
    let b = text.trim().as_bytes();
    let sq = |f: u8, r: u8| matches!(f.to_ascii_lowercase(), b'a'..=b'i') && r.is_ascii_digit();
    match b.len() {
        4 => sq(b[0], b[1]) && sq(b[2], b[3]),
        5 => sq(b[0], b[1]) && b[2] == b'-' && sq(b[3], b[4]),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The four-byte shortcut reads what the full reader reads.
    #[test]
    fn plain_form_agrees_with_the_full_reader() {
        let alphabet = b"aeiAIjJ`@0459-x ";
        let mut plain = 0;
        for bytes in crate::test_support::four_byte_texts(alphabet) {
            let text = std::str::from_utf8(&bytes).unwrap();
            if let Some(mv) = read_plain(&bytes) {
                plain += 1;
                assert_eq!(read_in_full(text), Ok(mv), "{text:?}");
            } else if let Ok(mv) = read_in_full(text) {
                panic!("{text:?} is {mv} but the shortcut refused it");
            }
        }
        assert!(plain > 300, "{plain}");
    }
}
