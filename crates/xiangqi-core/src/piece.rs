//! Colours, piece kinds and pieces.

use std::fmt;

/// The two sides. Red moves first (R-BOARD-FIRST).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[repr(u8)]
pub enum Color {
    /// Red (upper-case FEN letters), starts at ranks 0-3.
    Red = 0,
    /// Black (lower-case FEN letters), starts at ranks 6-9.
    Black = 1,
}

impl Color {
    /// Both colours, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    /// The other side.
    #[inline(always)]
    pub const fn opposite(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// 0 for Red, 1 for Black.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `"red"` or `"black"`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Black => "black",
        }
    }

    /// The FEN side-to-move letter: `w` for Red (N-FEN), `b` for Black.
    pub const fn fen_char(self) -> char {
        match self {
            Color::Red => 'w',
            Color::Black => 'b',
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        self.opposite()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The seven kinds of piece (R-MOVE-*).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[repr(u8)]
pub enum PieceKind {
    /// 帥/將, also called king.
    General = 0,
    /// 仕/士, also called guard.
    Advisor = 1,
    /// 相/象, also called minister or bishop.
    Elephant = 2,
    /// 傌/馬, also called knight.
    Horse = 3,
    /// 俥/車, also called rook.
    Chariot = 4,
    /// 炮/砲.
    Cannon = 5,
    /// 兵/卒, also called pawn.
    Soldier = 6,
}

impl PieceKind {
    /// All kinds in declaration order.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::General,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Chariot,
        PieceKind::Cannon,
        PieceKind::Soldier,
    ];

    /// Index 0-6 in declaration order.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The upper-case FEN letter: `K A B N R C P` (N-FEN).
    pub const fn fen_char(self) -> char {
        match self {
            PieceKind::General => 'K',
            PieceKind::Advisor => 'A',
            PieceKind::Elephant => 'B',
            PieceKind::Horse => 'N',
            PieceKind::Chariot => 'R',
            PieceKind::Cannon => 'C',
            PieceKind::Soldier => 'P',
        }
    }

    /// The WXF letter: `K A E H R C P` (N-WXF). FEN and WXF differ for elephant and horse.
    pub const fn wxf_char(self) -> char {
        match self {
            PieceKind::Elephant => 'E',
            PieceKind::Horse => 'H',
            other => other.fen_char(),
        }
    }

    /// Reads a FEN or WXF letter, either case (`B`/`E` elephant, `N`/`H` horse).
    pub const fn from_letter(c: char) -> Option<PieceKind> {
        Some(match c.to_ascii_uppercase() {
            'K' => PieceKind::General,
            'A' => PieceKind::Advisor,
            'B' | 'E' => PieceKind::Elephant,
            'N' | 'H' => PieceKind::Horse,
            'R' => PieceKind::Chariot,
            'C' => PieceKind::Cannon,
            'P' => PieceKind::Soldier,
            _ => return None,
        })
    }

    /// How many of this kind a side starts with, the most it may ever have.
    pub const fn max_count(self) -> u8 {
        match self {
            PieceKind::General => 1,
            PieceKind::Soldier => 5,
            _ => 2,
        }
    }

    /// English name in lower case.
    pub const fn name(self) -> &'static str {
        match self {
            PieceKind::General => "general",
            PieceKind::Advisor => "advisor",
            PieceKind::Elephant => "elephant",
            PieceKind::Horse => "horse",
            PieceKind::Chariot => "chariot",
            PieceKind::Cannon => "cannon",
            PieceKind::Soldier => "soldier",
        }
    }

    /// True for the pieces that can cross the river and so can ever give mate (R-DRAW-MATERIAL).
    pub const fn can_cross_river(self) -> bool {
        matches!(
            self,
            PieceKind::Horse | PieceKind::Chariot | PieceKind::Cannon | PieceKind::Soldier
        )
    }
}

impl fmt::Display for PieceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece: a kind and a colour.
///
/// ```
/// use xiangqi_core::{Color, Piece, PieceKind};
/// let p = Piece::from_fen_char('n').unwrap();
/// assert_eq!(p, Piece::new(Color::Black, PieceKind::Horse));
/// assert_eq!(p.fen_char(), 'n');
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What kind it is.
    pub kind: PieceKind,
}

impl Piece {
    /// A piece of `color` and `kind`.
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }

    /// The FEN letter: upper case for Red, lower case for Black.
    pub const fn fen_char(self) -> char {
        let c = self.kind.fen_char();
        match self.color {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// Reads a FEN letter (also `E`/`H`, N-FEN); case gives the colour.
    pub fn from_fen_char(c: char) -> Option<Piece> {
        let kind = PieceKind::from_letter(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        Some(Piece { color, kind })
    }

    /// Dense code used by the board array: `1..=14`, 0 being an empty point.
    #[inline(always)]
    pub(crate) const fn code(self) -> u8 {
        1 + self.color as u8 * 7 + self.kind as u8
    }

    /// Inverse of [`Piece::code`]; `code` must be `1..=14`.
    #[inline(always)]
    pub(crate) const fn from_code(code: u8) -> Piece {
        let c = code - 1;
        Piece {
            color: if c >= 7 { Color::Black } else { Color::Red },
            kind: PieceKind::ALL[(c % 7) as usize],
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.color, self.kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let p = Piece::new(color, kind);
                assert_eq!(Piece::from_code(p.code()), p);
                assert_eq!(Piece::from_fen_char(p.fen_char()), Some(p));
            }
        }
    }

    #[test]
    fn wxf_and_fen_letters_differ_only_for_elephant_and_horse() {
        assert_eq!(PieceKind::Elephant.fen_char(), 'B');
        assert_eq!(PieceKind::Elephant.wxf_char(), 'E');
        assert_eq!(PieceKind::Horse.wxf_char(), 'H');
        assert_eq!(PieceKind::from_letter('e'), Some(PieceKind::Elephant));
        assert_eq!(PieceKind::from_letter('x'), None);
    }
}
