//! [`PieceIds`]: pieces as individuals that keep their identity as they move
//! (R-REP-CHASE asks for "the same individual piece throughout").

use xiangqi_core::{Move, Position, Square, SquareSet};

/// A board of piece identities. A xiangqi position has at most 32 pieces, so
/// an identity is a number 0..32 and a set of pieces is a `u32` mask.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceIds {
    ids: [u8; 90],
}

const EMPTY: u8 = u8::MAX;

impl PieceIds {
    /// Numbers the pieces of `pos` in square order.
    pub fn new(pos: &Position) -> PieceIds {
        let mut ids = [EMPTY; 90];
        for (n, sq) in pos.occupied().iter().enumerate() {
            ids[sq.index()] = n as u8;
        }
        PieceIds { ids }
    }

    /// The identity of the piece on `sq`.
    pub fn id_at(&self, sq: Square) -> Option<u8> {
        let id = self.ids[sq.index()];
        (id != EMPTY).then_some(id)
    }

    /// Where the piece `id` stands.
    pub fn square_of(&self, id: u8) -> Option<Square> {
        self.ids
            .iter()
            .position(|&x| x == id)
            .and_then(|i| Square::from_index(i as u8))
    }

    /// Moves the identity along with `mv` (a captured piece's identity disappears).
    pub fn apply(&mut self, mv: Move) {
        let (from, to) = (mv.from().index(), mv.to().index());
        self.ids[to] = self.ids[from];
        self.ids[from] = EMPTY;
    }

    /// The identities on `squares`, as a mask.
    pub fn mask(&self, squares: SquareSet) -> u32 {
        squares
            .iter()
            .filter_map(|s| self.id_at(s))
            .fold(0, |m, id| m | 1u32 << id)
    }

    /// The identities on `squares` of the position after `mv` (not yet applied).
    pub fn mask_after(&self, mv: Move, squares: SquareSet) -> u32 {
        squares
            .iter()
            .filter_map(|s| {
                if s == mv.to() {
                    self.id_at(mv.from())
                } else {
                    self.id_at(s)
                }
            })
            .fold(0, |m, id| m | 1u32 << id)
    }

    /// The squares of the identities in `mask`.
    pub fn squares(&self, mask: u32) -> SquareSet {
        (0..32u8)
            .filter(|id| mask & (1 << id) != 0)
            .filter_map(|id| self.square_of(id))
            .collect()
    }
}
