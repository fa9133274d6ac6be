//! Moves (origin and destination, N-ICCS text) and a fixed-capacity move buffer.

use std::fmt;
use std::str::FromStr;

use crate::Square;

/// A move from one square to another, packed in 16 bits.
///
/// Its text form is ICCS (N-ICCS): origin then destination, `h2e2`. Parsing
/// also accepts the hyphenated and upper-case forms `h2-e2` and `H2-E2`.
/// A `Move` says nothing about legality; ask a [`crate::Position`].
///
/// ```
/// use xiangqi_core::{Move, Square};
/// let mv: Move = "h2e2".parse().unwrap();
/// assert_eq!(mv.from(), Square::H2);
/// assert_eq!(mv.to(), Square::E2);
/// assert_eq!("H2-E2".parse::<Move>().unwrap(), mv);
/// assert_eq!(mv.to_string(), "h2e2");
/// ```
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move(u16);

impl Move {
    /// A move from `from` to `to`.
    #[inline(always)]
    pub const fn new(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | ((to.index() as u16) << 7))
    }

    /// The origin square.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index_unchecked((self.0 & 0x7f) as u8)
    }

    /// The destination square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked((self.0 >> 7) as u8)
    }

    /// The packed form: origin index in bits 0-6, destination index in bits 7-13.
    pub const fn to_u16(self) -> u16 {
        self.0
    }

    /// Unpacks [`Move::to_u16`]; `None` for values that name no squares.
    pub const fn from_u16(raw: u16) -> Option<Move> {
        let from = (raw & 0x7f) as u8;
        let to = ((raw >> 7) & 0x7f) as u8;
        if raw >> 14 != 0 || from >= 90 || to >= 90 {
            None
        } else {
            Some(Move(raw))
        }
    }

    /// The ICCS text as a fixed array, without allocating.
    pub fn iccs_bytes(self) -> [u8; 4] {
        let (f, t) = (self.from(), self.to());
        [
            f.file().char() as u8,
            f.rank().char() as u8,
            t.file().char() as u8,
            t.rank().char() as u8,
        ]
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.iccs_bytes();
        // The bytes are ASCII letters and digits by construction.
        f.write_str(std::str::from_utf8(&b).unwrap_or("????"))
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Error for move text that is not ICCS coordinates.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseMoveError {
    /// The text does not have the shape `a0b1` or `a0-b1`.
    #[error(
        "invalid ICCS move {text:?}: expected origin and destination squares like h2e2 or H2-E2"
    )]
    Syntax {
        /// The offending text.
        text: String,
    },
    /// Origin and destination are the same square.
    #[error("invalid ICCS move {text:?}: origin and destination are the same square")]
    NullMove {
        /// The offending text.
        text: String,
    },
}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let syntax = || ParseMoveError::Syntax { text: s.to_owned() };
        if !s.is_ascii() {
            return Err(syntax());
        }
        let b = s.as_bytes();
        let (from, to) = match b.len() {
            4 => (&s[0..2], &s[2..4]),
            5 if b[2] == b'-' => (&s[0..2], &s[3..5]),
            _ => return Err(syntax()),
        };
        let from: Square = from.parse().map_err(|_| syntax())?;
        let to: Square = to.parse().map_err(|_| syntax())?;
        if from == to {
            return Err(ParseMoveError::NullMove { text: s.to_owned() });
        }
        Ok(Move::new(from, to))
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Move {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Move {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Move, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Upper bound on the number of pseudo-legal moves in any position (a safe over-estimate).
pub const MAX_MOVES: usize = 256;

/// A stack-allocated list of moves, filled by the generators without touching the heap.
///
/// ```
/// use xiangqi_core::{MoveList, Position};
/// let mut list = MoveList::new();
/// Position::startpos().legal_moves(&mut list);
/// assert_eq!(list.len(), 44);
/// ```
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move(0); MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move. Generators never exceed [`MAX_MOVES`].
    #[inline(always)]
    pub fn push(&mut self, mv: Move) {
        debug_assert!(self.len < MAX_MOVES);
        if self.len < MAX_MOVES {
            self.moves[self.len] = mv;
            self.len += 1;
        }
    }

    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (for sorting by a search).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// Keeps the moves for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut w = 0;
        for r in 0..self.len {
            let m = self.moves[r];
            if keep(m) {
                self.moves[w] = m;
                w += 1;
            }
        }
        self.len = w;
    }

    /// Iterates over the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    /// True when the list holds `mv`.
    pub fn contains(&self, mv: Move) -> bool {
        self.as_slice().contains(&mv)
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iccs_parse_and_print() {
        let m: Move = "b9c7".parse().unwrap();
        assert_eq!(m.to_string(), "b9c7");
        assert_eq!(Move::from_u16(m.to_u16()), Some(m));
        for bad in [
            "", "h2", "h2e", "h2e2x", "j2e2", "h2e:", "h2h2", "h2_e2", "é2e2",
        ] {
            assert!(bad.parse::<Move>().is_err(), "{bad}");
        }
        assert_eq!(Move::from_u16(0xffff), None);
    }
}
