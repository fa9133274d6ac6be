//! Coordinates with ranks numbered 1-10 (N-ICCS-RANKS10), as Fairy-Stockfish,
//! pyffish and pychess write them: their `h3e3` is ICCS `h2e2`.
//!
//! The two numberings share most texts (`h3e3` is legal in both), so this
//! module never guesses: [`parse_ranks10`] and [`format_ranks10`] convert when
//! the caller knows the text is 1-10, and [`rank_numbering`] says which
//! numbering a text must be in, or `None` when it could be either.
//!
//! ```
//! use xiangqi_notation::{format_ranks10, parse_ranks10, rank_numbering, RankNumbering};
//!
//! let mv = parse_ranks10("h3e3").unwrap();
//! assert_eq!(mv.to_string(), "h2e2");
//! assert_eq!(format_ranks10(mv), "h3e3");
//! assert_eq!(parse_ranks10("a10a9").unwrap().to_string(), "a9a8");
//! assert_eq!(rank_numbering("a10a9"), Some(RankNumbering::Ranks10));
//! assert_eq!(rank_numbering("a0a1"), Some(RankNumbering::Iccs));
//! assert_eq!(rank_numbering("h3e3"), None); // both: the caller decides
//! ```

use xiangqi_core::{Move, Square};

use crate::error::{ParseMoveError, SyntaxErrorKind};
use crate::Notation;

/// How a coordinate text numbers the ranks.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum RankNumbering {
    /// `0`-`9` from Red's side (N-ICCS).
    Iccs,
    /// `1`-`10` from Red's side (N-ICCS-RANKS10).
    Ranks10,
}

/// The squares of a coordinate text with ranks as written (0-10), each as
/// (file 0-8, rank), or the byte offset of the first wrong character and
/// what is wrong. Accepts either case and a `-` between the squares.
fn squares(text: &str) -> Result<[(u8, u8); 2], (usize, SyntaxErrorKind)> {
    let expected = |at| (at, SyntaxErrorKind::ExpectedFile);
    let b = text.as_bytes();
    let mut at = 0;
    let mut out = [(0, 0); 2];
    for (k, square) in out.iter_mut().enumerate() {
        if k == 1 && b.get(at) == Some(&b'-') {
            at += 1;
        }
        let file = match b.get(at).map(|c| c.to_ascii_lowercase()) {
            Some(f @ b'a'..=b'i') => f - b'a',
            _ => return Err(expected(at)),
        };
        at += 1;
        let rank = match (b.get(at), b.get(at + 1)) {
            (Some(b'1'), Some(b'0')) => 10,
            (Some(&d @ b'0'..=b'9'), _) => d - b'0',
            _ => return Err(expected(at)),
        };
        at += if rank == 10 { 2 } else { 1 };
        *square = (file, rank);
    }
    if at != b.len() {
        return Err((at, SyntaxErrorKind::TrailingText));
    }
    Ok(out)
}

/// Whether `text` has the shape of coordinates with ranks 0-10 (either numbering).
pub fn is_ranks10_text(text: &str) -> bool {
    squares(text.trim()).is_ok()
}

/// Whether a PGN `[Variant]` tag value says the moves use ranks 1-10
/// (pychess, Fairy-Stockfish: `[Variant "xiangqi"]`).
pub fn is_ranks10_variant(value: &str) -> bool {
    value.trim().eq_ignore_ascii_case("xiangqi")
}

/// Reads a move written with ranks 1-10 (`h3e3`, `a10a9`, `H3-E3`) as the
/// ICCS move it is. Rank 0 is an error: that text is ICCS.
pub fn parse_ranks10(text: &str) -> Result<Move, ParseMoveError> {
    let t = text.trim();
    let lead = text[..text.len() - text.trim_start().len()].chars().count();
    let err = |at: usize, kind| {
        // `at` is a byte of ASCII text read so far, so also its character count.
        let position = lead + t.get(..at).map_or(at, |s| s.chars().count()) + 1;
        ParseMoveError::new(Some(Notation::Iccs), text, position, kind)
    };
    if t.is_empty() {
        return Err(err(0, SyntaxErrorKind::Empty));
    }
    let [(f1, r1), (f2, r2)] = squares(t).map_err(|(at, kind)| err(at, kind))?;
    let square = |f: u8, r: u8| r.checked_sub(1).and_then(|r| Square::from_coords(f, r));
    match (square(f1, r1), square(f2, r2)) {
        (Some(from), Some(to)) if from != to => Ok(Move::new(from, to)),
        _ => Err(err(0, SyntaxErrorKind::ExpectedFile)),
    }
}

/// Writes `mv` with ranks 1-10, lower case, no separator (`h3e3`).
pub fn format_ranks10(mv: Move) -> String {
    let mut out = String::with_capacity(6);
    for sq in [mv.from(), mv.to()] {
        out.push(sq.file().char());
        out.push_str(&(sq.rank().index() + 1).to_string());
    }
    out
}

/// Which numbering a coordinate text must be in: a rank `10` only exists in
/// the 1-10 form, a rank `0` only in ICCS. `None` when the text fits both
/// (or is no coordinate text at all).
pub fn rank_numbering(text: &str) -> Option<RankNumbering> {
    let [(_, r1), (_, r2)] = squares(text.trim()).ok()?;
    if r1 == 10 || r2 == 10 {
        (r1 != 0 && r2 != 0).then_some(RankNumbering::Ranks10)
    } else if r1 == 0 || r2 == 0 {
        Some(RankNumbering::Iccs)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every move converts to the 1-10 form and back, and the 1-10 text
    /// differs from the ICCS one by one on each rank.
    #[test]
    fn every_square_pair_round_trips() {
        for from in Square::all() {
            for to in Square::all().filter(|&s| s != from) {
                let mv = Move::new(from, to);
                let text = format_ranks10(mv);
                assert_eq!(parse_ranks10(&text), Ok(mv), "{text}");
                assert_eq!(parse_ranks10(&text.to_uppercase()), Ok(mv), "{text}");
                let iccs = mv.to_string();
                let expected = match (from.rank().index(), to.rank().index()) {
                    (9, _) | (_, 9) => Some(RankNumbering::Ranks10),
                    _ => None,
                };
                assert_eq!(rank_numbering(&text), expected, "{text}");
                if from.rank().index() == 0 || to.rank().index() == 0 {
                    assert_eq!(rank_numbering(&iccs), Some(RankNumbering::Iccs), "{iccs}");
                }
            }
        }
    }

    #[test]
    fn bad_texts_are_errors() {
        for text in [
            "", "h0e3", "h3e0", "h11e3", "j3e3", "h3e3x", "h3", "a10a10", "a10-",
        ] {
            assert!(parse_ranks10(text).is_err(), "{text:?}");
        }
        assert_eq!(parse_ranks10(" h3-e3 ").unwrap().to_string(), "h2e2");
        assert_eq!(rank_numbering("a0a10"), None, "contradictory: no numbering");
        assert_eq!(rank_numbering("hello"), None);
    }
}
