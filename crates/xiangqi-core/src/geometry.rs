//! Board geometry for evaluation and analysis: the palaces, the points
//! advisors and elephants can ever stand on, the river, horse jumps with
//! their legs, the points between two squares, and what a piece reaches
//! from where it stands (R-BOARD-*, R-MOVE-*).
//!
//! The same compile-time tables drive move generation, so an evaluation
//! built on this module cannot disagree with the rules.
//!
//! ```
//! use xiangqi_core::{geometry, Color, Position, Square};
//!
//! assert_eq!(geometry::palace(Color::Red).len(), 9);
//! assert_eq!(geometry::elephant_points(Color::Black).len(), 7);
//! // A horse in the corner has two jumps; its legs are b0's and a1's neighbours.
//! let jumps: Vec<_> = geometry::horse_jumps(Square::A0).collect();
//! assert_eq!(jumps.len(), 2);
//! let pos = Position::startpos();
//! // The red cannon on b2 reaches b1, a2, c2..g2, b3..b6 and attacks b9 behind b7.
//! assert!(pos.reach(Square::B2).contains(Square::B9));
//! assert!(pos.screen_attacks(Square::B2).contains(Square::B9));
//! ```

use crate::masks::{pattern, screen_attacks, slider_dests, ADVISOR_DESTS, BIT, ELEPHANT};
use crate::masks::{GENERAL_DESTS, HORSE, SOLDIER_DESTS};
use crate::tables::{ADVISOR_SQUARES, ELEPHANT_SQUARES, HORSE_STEPS};
use crate::{Color, PieceKind, Position, Square, SquareSet};

const fn palace_mask(black: bool) -> u128 {
    let mut m = 0u128;
    let mut r = 0;
    while r < 3 {
        let mut f = 3;
        while f <= 5 {
            let rank = if black { 9 - r } else { r };
            m |= 1u128 << (rank * 9 + f);
            f += 1;
        }
        r += 1;
    }
    m
}

static PALACES: [u128; 2] = [palace_mask(false), palace_mask(true)];

/// The nine points of `color`'s palace (R-BOARD-PALACE).
pub fn palace(color: Color) -> SquareSet {
    SquareSet(PALACES[color.index()])
}

/// The five points an advisor of `color` can ever stand on (R-MOVE-ADVISOR).
pub fn advisor_points(color: Color) -> SquareSet {
    SquareSet(ADVISOR_SQUARES[color.index()])
}

/// The seven points an elephant of `color` can ever stand on (R-MOVE-ELEPHANT).
pub fn elephant_points(color: Color) -> SquareSet {
    SquareSet(ELEPHANT_SQUARES[color.index()])
}

/// True when `sq` is on the far side of the river for `color`: a soldier
/// there may also step sideways (R-MOVE-SOLDIER).
pub fn has_crossed_river(color: Color, sq: Square) -> bool {
    !sq.rank().is_own_half(color)
}

/// One horse jump: the leg point that must be empty, and the target (R-MOVE-HORSE).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct HorseJump {
    /// The point next to the horse that blocks the jump when occupied.
    pub leg: Square,
    /// Where the horse lands.
    pub to: Square,
}

/// The horse jumps from `from` on an empty board (2 to 8 of them).
pub fn horse_jumps(from: Square) -> impl ExactSizeIterator<Item = HorseJump> {
    let steps = &HORSE_STEPS[from.index()];
    (0..steps.len as usize).map(move |i| HorseJump {
        leg: square(steps.via[i]),
        to: square(steps.to[i]),
    })
}

/// The points strictly between `a` and `b` when they share a rank or a file;
/// empty otherwise (and for neighbours).
pub fn between(a: Square, b: Square) -> SquareSet {
    let (lo, hi) = (a.index().min(b.index()), a.index().max(b.index()));
    let step = if a.file() == b.file() {
        9
    } else if a.rank() == b.rank() {
        1
    } else {
        return SquareSet::EMPTY;
    };
    let mut set = 0u128;
    let mut i = lo + step;
    while i < hi {
        set |= BIT[i];
        i += step;
    }
    SquareSet(set)
}

fn square(index: u8) -> Square {
    Square::from_index(index).unwrap_or(Square::A0)
}

impl Position {
    /// The points the piece on `sq` may move to by its movement rules in this
    /// position, points holding pieces of its own side included (they are
    /// the points it defends); empty when `sq` is empty. A horse's blocked
    /// legs and an elephant's blocked eyes count; a cannon reaches the empty
    /// points before its screen and the piece right behind it. Checks are ignored.
    pub fn reach(&self, sq: Square) -> SquareSet {
        let Some(piece) = self.piece_at(sq) else {
            return SquareSet::EMPTY;
        };
        let from = sq.index();
        let occ = self.occupied().0;
        SquareSet(match piece.kind {
            PieceKind::General => GENERAL_DESTS[from],
            PieceKind::Advisor => ADVISOR_DESTS[from],
            PieceKind::Elephant => ELEPHANT.dests[from][pattern(&ELEPHANT, from, occ)],
            PieceKind::Horse => HORSE.dests[from][pattern(&HORSE, from, occ)],
            PieceKind::Chariot => slider_dests(from, occ, self.occ_files, 0),
            PieceKind::Cannon => slider_dests(from, occ, self.occ_files, 1),
            PieceKind::Soldier => SOLDIER_DESTS[piece.color.index()][from],
        })
    }

    /// The points behind the first piece on each line from `sq` up to and
    /// including the next piece: the points a cannon on `sq` bears on
    /// through its screens, whatever stands on `sq` (R-MOVE-CANNON).
    pub fn screen_attacks(&self, sq: Square) -> SquareSet {
        SquareSet(screen_attacks(
            sq.index(),
            self.occupied().0,
            self.occ_files,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn palaces_and_points_follow_the_rules() {
        for color in Color::ALL {
            let p = palace(color);
            assert_eq!(p.len(), 9);
            for sq in Square::all() {
                assert_eq!(p.contains(sq), sq.in_palace(color), "{sq}");
            }
            assert_eq!((advisor_points(color).0 & !p.0), 0);
            assert_eq!(elephant_points(color).len(), 7);
        }
        assert!(has_crossed_river(Color::Red, Square::E5));
        assert!(!has_crossed_river(Color::Red, Square::E4));
        assert!(has_crossed_river(Color::Black, Square::E4));
    }

    #[test]
    fn horse_jumps_agree_with_move_generation() {
        // On the start position, horse moves are exactly the jumps with an
        // empty leg onto a point without an own piece.
        let pos = Position::startpos();
        let mut list = crate::MoveList::new();
        for sq in [Square::B0, Square::H0] {
            pos.legal_moves_from(sq, &mut list);
            let mut by_jumps: Vec<Square> = horse_jumps(sq)
                .filter(|j| pos.piece_at(j.leg).is_none())
                .filter(|j| pos.piece_at(j.to).is_none_or(|p| p.color != Color::Red))
                .map(|j| j.to)
                .collect();
            let mut by_moves: Vec<Square> = list.iter().map(|m| m.to()).collect();
            by_jumps.sort();
            by_moves.sort();
            assert_eq!(by_jumps, by_moves);
            assert_eq!(
                pos.reach(sq).0 & !pos.pieces_of(Color::Red).0,
                by_moves.iter().fold(0, |m, s| m | s.bit())
            );
        }
        assert_eq!(horse_jumps(Square::E4).len(), 8);
    }

    #[test]
    fn between_lines_and_screens() {
        assert_eq!(between(Square::E0, Square::E9).len(), 8);
        assert_eq!(between(Square::A3, Square::I3).len(), 7);
        assert!(between(Square::A0, Square::B1).is_empty());
        assert!(between(Square::E0, Square::E1).is_empty());
        let pos = Position::startpos();
        // The cannon on h2: up the file the black cannon on h7 is the screen,
        // behind it h8 (empty) and the horse on h9; west the cannon on b2 is
        // the screen, behind it a2; east and south nothing is behind a screen.
        let s = pos.screen_attacks(Square::H2);
        let expected = [Square::H8, Square::H9, Square::A2];
        assert_eq!(s, expected.into_iter().collect::<SquareSet>());
        // Reach of every piece never leaves the board and is empty on empty points.
        assert!(pos.reach(Square::E4).is_empty());
        for sq in Square::all() {
            assert_eq!(pos.reach(sq).0 & !SquareSet::FULL.0, 0);
        }
    }
}
