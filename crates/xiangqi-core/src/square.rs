//! Files, ranks, the 90 squares and sets of squares (N-ICCS coordinates).

use std::fmt;
use std::str::FromStr;

use crate::Color;

/// A file (column), `a` to `i` from Red's left (N-ICCS).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(u8)]
#[allow(missing_docs)]
pub enum File {
    A,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
    I,
}

impl File {
    /// All files from `a` to `i`.
    pub const ALL: [File; 9] = [
        File::A,
        File::B,
        File::C,
        File::D,
        File::E,
        File::F,
        File::G,
        File::H,
        File::I,
    ];

    /// The file with index 0 (`a`) to 8 (`i`).
    pub const fn new(index: u8) -> Option<File> {
        if index < 9 {
            Some(File::ALL[index as usize])
        } else {
            None
        }
    }

    /// Index 0 (`a`) to 8 (`i`).
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The ICCS letter, `'a'` to `'i'`.
    pub const fn char(self) -> char {
        (b'a' + self as u8) as char
    }

    /// Parses `'a'..='i'` (either case).
    pub fn from_char(c: char) -> Option<File> {
        let c = c.to_ascii_lowercase();
        if ('a'..='i').contains(&c) {
            File::new(c as u8 - b'a')
        } else {
            None
        }
    }

    /// The file number 1-9 as `color` counts it, from its own right (N-FILE-NUM).
    pub const fn number_for(self, color: Color) -> u8 {
        match color {
            Color::Red => 9 - self as u8,
            Color::Black => self as u8 + 1,
        }
    }

    /// The file that `color` calls number `number` (1-9).
    pub const fn from_number(number: u8, color: Color) -> Option<File> {
        if number == 0 || number > 9 {
            return None;
        }
        match color {
            Color::Red => File::new(9 - number),
            Color::Black => File::new(number - 1),
        }
    }
}

/// A rank (row), `0` to `9` counted from Red's side (N-ICCS).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Rank(u8);

impl Rank {
    /// The rank with index `0..=9`.
    pub const fn new(index: u8) -> Option<Rank> {
        if index < 10 {
            Some(Rank(index))
        } else {
            None
        }
    }

    /// Index `0..=9`.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// All ranks from 0 to 9.
    pub fn all() -> impl DoubleEndedIterator<Item = Rank> {
        (0..10).map(Rank)
    }

    /// The ICCS digit.
    pub const fn char(self) -> char {
        (b'0' + self.0) as char
    }

    /// True when the rank lies on `color`'s own half of the board (R-BOARD-RIVER).
    pub const fn is_own_half(self, color: Color) -> bool {
        match color {
            Color::Red => self.0 <= 4,
            Color::Black => self.0 >= 5,
        }
    }
}

/// One of the 90 points of the board. The index is `rank * 9 + file`.
///
/// ```
/// use xiangqi_core::{Square, File};
/// let sq: Square = "h2".parse().unwrap();
/// assert_eq!(sq.file(), File::H);
/// assert_eq!(sq.rank().index(), 2);
/// assert_eq!(sq.to_string(), "h2");
/// assert_eq!(Square::E0.index(), 4);
/// ```
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

macro_rules! square_consts {
    ($($name:ident = $idx:expr),* $(,)?) => {
        impl Square {
            $(
                #[allow(missing_docs)]
                pub const $name: Square = Square($idx);
            )*
        }
    };
}

square_consts! {
    A0 = 0, B0 = 1, C0 = 2, D0 = 3, E0 = 4, F0 = 5, G0 = 6, H0 = 7, I0 = 8,
    A1 = 9, B1 = 10, C1 = 11, D1 = 12, E1 = 13, F1 = 14, G1 = 15, H1 = 16, I1 = 17,
    A2 = 18, B2 = 19, C2 = 20, D2 = 21, E2 = 22, F2 = 23, G2 = 24, H2 = 25, I2 = 26,
    A3 = 27, B3 = 28, C3 = 29, D3 = 30, E3 = 31, F3 = 32, G3 = 33, H3 = 34, I3 = 35,
    A4 = 36, B4 = 37, C4 = 38, D4 = 39, E4 = 40, F4 = 41, G4 = 42, H4 = 43, I4 = 44,
    A5 = 45, B5 = 46, C5 = 47, D5 = 48, E5 = 49, F5 = 50, G5 = 51, H5 = 52, I5 = 53,
    A6 = 54, B6 = 55, C6 = 56, D6 = 57, E6 = 58, F6 = 59, G6 = 60, H6 = 61, I6 = 62,
    A7 = 63, B7 = 64, C7 = 65, D7 = 66, E7 = 67, F7 = 68, G7 = 69, H7 = 70, I7 = 71,
    A8 = 72, B8 = 73, C8 = 74, D8 = 75, E8 = 76, F8 = 77, G8 = 78, H8 = 79, I8 = 80,
    A9 = 81, B9 = 82, C9 = 83, D9 = 84, E9 = 85, F9 = 86, G9 = 87, H9 = 88, I9 = 89,
}

impl Square {
    /// Number of squares on the board.
    pub const COUNT: usize = 90;

    /// The square on `file` and `rank`.
    pub const fn new(file: File, rank: Rank) -> Square {
        Square(rank.0 * 9 + file as u8)
    }

    /// The square at file index `file` (0-8) and rank `rank` (0-9), if on the board.
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < 9 && rank < 10 {
            Some(Square(rank * 9 + file))
        } else {
            None
        }
    }

    /// The square with index `0..90`.
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 90 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// Caller guarantees `index < 90` (used by tables and generators).
    #[inline(always)]
    pub(crate) const fn from_index_unchecked(index: u8) -> Square {
        debug_assert!(index < 90);
        Square(index)
    }

    /// Index `rank * 9 + file`, in `0..90`.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file.
    pub const fn file(self) -> File {
        File::ALL[(self.0 % 9) as usize]
    }

    /// The rank.
    pub const fn rank(self) -> Rank {
        Rank(self.0 / 9)
    }

    /// The square mirrored across the river (rank `r` becomes `9 - r`).
    pub const fn flip_ranks(self) -> Square {
        Square((9 - self.0 / 9) * 9 + self.0 % 9)
    }

    /// The square mirrored left-right (file `a` becomes `i`).
    pub const fn flip_files(self) -> Square {
        Square((self.0 / 9) * 9 + 8 - self.0 % 9)
    }

    /// All 90 squares in index order (a0, b0, … i9).
    pub fn all() -> impl DoubleEndedIterator<Item = Square> + ExactSizeIterator {
        (0..90u8).map(Square)
    }

    /// True when the square lies in `color`'s palace (R-BOARD-PALACE).
    pub const fn in_palace(self, color: Color) -> bool {
        let f = self.0 % 9;
        let r = self.0 / 9;
        f >= 3
            && f <= 5
            && match color {
                Color::Red => r <= 2,
                Color::Black => r >= 7,
            }
    }

    /// The single-bit set holding this square.
    #[inline(always)]
    pub const fn bit(self) -> u128 {
        1u128 << self.0
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Error for a square name that is not `a0`..`i9`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid square {0:?}: expected a file a-i followed by a rank 0-9")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let mut chars = s.chars();
        let (Some(f), Some(r), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(ParseSquareError(s.to_owned()));
        };
        let file = File::from_char(f).ok_or_else(|| ParseSquareError(s.to_owned()))?;
        let rank = r
            .to_digit(10)
            .and_then(|d| Rank::new(d as u8))
            .ok_or_else(|| ParseSquareError(s.to_owned()))?;
        Ok(Square::new(file, rank))
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Square {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Square {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Square, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// A set of squares, one bit per square (bit `i` is [`Square`] index `i`).
///
/// ```
/// use xiangqi_core::{Square, SquareSet};
/// let set: SquareSet = [Square::E0, Square::A9].into_iter().collect();
/// assert_eq!(set.len(), 2);
/// assert!(set.contains(Square::A9));
/// assert_eq!(set.iter().collect::<Vec<_>>(), vec![Square::E0, Square::A9]);
/// ```
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash)]
pub struct SquareSet(pub u128);

impl SquareSet {
    /// The empty set.
    pub const EMPTY: SquareSet = SquareSet(0);
    /// All 90 squares.
    pub const FULL: SquareSet = SquareSet((1u128 << 90) - 1);

    /// True when no square is in the set.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of squares in the set.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Membership test.
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & sq.bit() != 0
    }

    /// Adds a square.
    pub fn insert(&mut self, sq: Square) {
        self.0 |= sq.bit();
    }

    /// Removes a square.
    pub fn remove(&mut self, sq: Square) {
        self.0 &= !sq.bit();
    }

    /// The lowest-indexed square, if any.
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square(self.0.trailing_zeros() as u8))
        }
    }

    /// Iterates in index order.
    pub fn iter(self) -> SquareSetIter {
        SquareSetIter(self.0)
    }
}

impl fmt::Debug for SquareSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<T: IntoIterator<Item = Square>>(iter: T) -> Self {
        let mut set = SquareSet::EMPTY;
        for sq in iter {
            set.insert(sq);
        }
        set
    }
}

impl IntoIterator for SquareSet {
    type Item = Square;
    type IntoIter = SquareSetIter;
    fn into_iter(self) -> SquareSetIter {
        self.iter()
    }
}

/// Iterator over a [`SquareSet`].
#[derive(Clone, Debug)]
pub struct SquareSetIter(u128);

impl Iterator for SquareSetIter {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let idx = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Square(idx))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for SquareSetIter {}

impl std::ops::BitOr for SquareSet {
    type Output = SquareSet;
    fn bitor(self, rhs: SquareSet) -> SquareSet {
        SquareSet(self.0 | rhs.0)
    }
}

impl std::ops::BitAnd for SquareSet {
    type Output = SquareSet;
    fn bitand(self, rhs: SquareSet) -> SquareSet {
        SquareSet(self.0 & rhs.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_round_trips_through_text() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>().unwrap(), sq);
        }
        assert!("j0".parse::<Square>().is_err());
        assert!("a10".parse::<Square>().is_err());
        assert!("".parse::<Square>().is_err());
    }

    #[test]
    fn file_numbers_count_from_each_owners_right() {
        assert_eq!(File::I.number_for(Color::Red), 1);
        assert_eq!(File::A.number_for(Color::Red), 9);
        assert_eq!(File::A.number_for(Color::Black), 1);
        assert_eq!(File::from_number(2, Color::Red), Some(File::H));
        assert_eq!(File::from_number(2, Color::Black), Some(File::B));
    }

    #[test]
    fn palace_membership() {
        assert!(Square::E0.in_palace(Color::Red));
        assert!(Square::F2.in_palace(Color::Red));
        assert!(!Square::F3.in_palace(Color::Red));
        assert!(Square::D7.in_palace(Color::Black));
        assert!(!Square::C8.in_palace(Color::Black));
    }
}
