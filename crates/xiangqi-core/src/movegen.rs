//! Legal move generation (R-MOVE-*, R-LEGAL-*).
//!
//! Each piece's destinations are computed as a set of points (a `u128`), from
//! compile-time tables for the stepping pieces and from bit scans of the
//! occupancy for chariots and cannons. Legality is settled without playing
//! most moves: before generating, [`Safety`] finds every piece of the side to
//! move that shields its general — from a chariot or the facing general (the
//! lone blocker), from a cannon (either of the two pieces between), or from a
//! horse (a piece on the horse's leg) — and the points where a new piece would
//! become a cannon's screen. A shielding piece may only move along its line
//! (or capture the attacker), and nothing may land on a screen point, so a
//! piece's legal destinations are its pseudo-legal set masked once. Only
//! general moves and check evasions are tested one by one, against the
//! occupancy as it would be after the move.

use crate::attacks::{attackers, first_blocker, RAY_MASKS};
use crate::masks::BIT;
use crate::masks::{
    pattern, slider_dests, ADVISOR_DESTS, ELEPHANT, FILE_LINES, GENERAL_DESTS, HORSE, RANK_LINES,
    SOLDIER_DESTS,
};
use crate::position::code;
use crate::tables::{horse_leg, HORSE_ATTACKERS, SQUARE_FILE, SQUARE_RANK};
use crate::{Color, Move, MoveList, PieceKind, Position, Square};

/// Most pieces that can shield the general at once: two per ray, four horse legs.
const MAX_PINS: usize = 12;

/// What the legality filter precomputes once per position.
#[derive(Copy, Clone)]
struct Safety {
    general: u8,
    in_check: bool,
    /// Points where landing would give an enemy cannon its screen.
    forbidden_to: u128,
    /// Pieces that shield the general; their allowed destinations are in `pin_masks`.
    pinned: u128,
    pin_squares: [u8; MAX_PINS],
    pin_masks: [u128; MAX_PINS],
    pins: u8,
}

impl Safety {
    fn pin(&mut self, sq: usize, allowed: u128) {
        if self.pinned & BIT[sq] != 0 {
            for i in 0..self.pins as usize {
                if self.pin_squares[i] as usize == sq {
                    self.pin_masks[i] &= allowed;
                }
            }
        } else if (self.pins as usize) < MAX_PINS {
            self.pinned |= 1u128 << sq;
            self.pin_squares[self.pins as usize] = sq as u8;
            self.pin_masks[self.pins as usize] = allowed;
            self.pins += 1;
        }
    }

    /// Destinations the piece on `from` may reach without exposing the general
    /// (the general itself and all moves in check are tested separately).
    #[inline(always)]
    fn allowed(&self, from: usize) -> u128 {
        if self.in_check || from == self.general as usize {
            return u128::MAX;
        }
        let mut mask = !self.forbidden_to;
        if self.pinned & BIT[from] != 0 {
            for i in 0..self.pins as usize {
                if self.pin_squares[i] as usize == from {
                    mask &= self.pin_masks[i];
                }
            }
        }
        mask
    }

    /// True when moves of `from` need the one-by-one test.
    #[inline(always)]
    fn needs_full_test(&self, from: usize) -> bool {
        self.in_check || from == self.general as usize
    }
}

/// Points strictly between `sq` and `b`, `b` lying on ray `dir` of `sq`.
#[inline(always)]
fn between(sq: usize, b: usize, dir: usize) -> u128 {
    RAY_MASKS[sq][dir] & !RAY_MASKS[b][dir] & !BIT[b]
}

impl Position {
    fn safety(&self) -> Safety {
        let us = self.side;
        let them = us.opposite();
        let k = self.generals[us.index()] as usize;
        let mut safety = Safety {
            general: k as u8,
            in_check: false,
            forbidden_to: 0,
            pinned: 0,
            pin_squares: [0; MAX_PINS],
            pin_masks: [0; MAX_PINS],
            pins: 0,
        };
        let occ = self.occupancy();
        let sets = self.attack_sets(them);
        if attackers::<true>(&sets, occ, k, true) != 0 {
            safety.in_check = true;
            return safety;
        }
        let chariot = code(them, PieceKind::Chariot);
        let cannon = code(them, PieceKind::Cannon);
        let general = code(them, PieceKind::General);
        let mine = self.occ[us.index()];
        let line_threats = sets.chariots | sets.cannons | sets.general;
        for d in 0..4 {
            if RAY_MASKS[k][d] & line_threats == 0 {
                continue;
            }
            let Some(b1) = first_blocker(occ, k, d) else {
                continue;
            };
            let p1 = self.board[b1];
            if p1 == cannon {
                // Any piece landing between the general and this cannon becomes its screen.
                safety.forbidden_to |= between(k, b1, d);
            }
            let Some(b2) = first_blocker(occ, b1, d) else {
                continue;
            };
            let p1_mine = mine & BIT[b1] != 0;
            let p2 = self.board[b2];
            if p1_mine && (p2 == chariot || (p2 == general && d < 2)) {
                // R-LEGAL-FACING included: the lone blocker stays on the line,
                // and may capture a chariot but never a general.
                let mut line = between(k, b2, d);
                if p2 == chariot {
                    line |= 1u128 << b2;
                }
                safety.pin(b1, line);
            }
            if let Some(b3) = first_blocker(occ, b2, d) {
                if self.board[b3] == cannon {
                    // Two pieces between general and cannon: neither may leave the
                    // line, nor capture the other screen (which would leave one).
                    let line = (between(k, b3, d) | BIT[b3]) & !BIT[b1] & !BIT[b2];
                    if p1_mine {
                        safety.pin(b1, line);
                    }
                    if mine & BIT[b2] != 0 {
                        safety.pin(b2, line);
                    }
                }
            }
        }
        let h = &HORSE_ATTACKERS[k];
        for j in 0..h.len as usize {
            let leg = h.via[j] as usize;
            if sets.horses & BIT[h.to[j] as usize] != 0 && mine & BIT[leg] != 0 {
                // Leaving the leg unblocks the horse; only capturing it is safe.
                safety.pin(leg, 1u128 << h.to[j]);
            }
        }
        safety
    }

    /// One-by-one test: after moving `from`-`to`, is the mover's general safe?
    #[inline]
    fn leaves_general_safe(&self, from: usize, to: usize) -> bool {
        let general = self.generals[self.side.index()];
        let general = if from == general as usize {
            to as u8
        } else {
            general
        };
        match self.side {
            Color::Red => self.general_safe_after::<false>(from, to, general),
            Color::Black => self.general_safe_after::<true>(from, to, general),
        }
    }

    /// The reference for [`Position::general_safe_after`]: the general attack
    /// test of [`attackers`] run on the occupancy after the move.
    #[cfg(test)]
    fn leaves_general_safe_by_attack_sets(&self, from: usize, to: usize) -> bool {
        let occ = (self.occupancy() & !BIT[from]) | BIT[to];
        let us = self.side;
        let k = if from == self.generals[us.index()] as usize {
            to
        } else {
            self.generals[us.index()] as usize
        };
        let sets = self.attack_sets(us.opposite()).without(BIT[to]);
        attackers::<true>(&sets, occ, k, true) == 0
    }

    /// True when the piece of `kind` (of the side to move) on `from` reaches
    /// `to` by its movement rules (R-MOVE-*), `to` not holding one of its own;
    /// false for a `kind` of 7 or more (no piece of the side to move).
    /// Tested directly on the geometry of the one move, not via the piece's
    /// destination set.
    #[inline(always)]
    fn moves_by_rule(&self, kind: u8, from: usize, to: usize) -> bool {
        match kind {
            0 => contains(GENERAL_DESTS[from], to),
            1 => contains(ADVISOR_DESTS[from], to),
            // The eye is the midpoint; the table keeps the elephant on its side of the river.
            2 => contains(ELEPHANT.dests[from][0], to) && self.board[(from + to) / 2] == 0,
            3 => contains(HORSE.dests[from][0], to) && self.board[horse_leg(from, to)] == 0,
            4 | 5 => self.slides_to(from, to, kind as usize - 4),
            6 => contains(SOLDIER_DESTS[self.side.index()][from], to),
            // Not a piece of the side to move.
            _ => false,
        }
    }

    /// True when a chariot (`which = 0`) or cannon (`which = 1`) on `from`
    /// reaches `to` along a rank or file: the line table of `from`'s line holds
    /// the reachable points, capture rules included.
    #[inline(always)]
    fn slides_to(&self, from: usize, to: usize, which: usize) -> bool {
        let (rank, file) = (SQUARE_RANK[from] as usize, SQUARE_FILE[from] as usize);
        let (to_rank, to_file) = (SQUARE_RANK[to] as usize, SQUARE_FILE[to] as usize);
        let reach = if rank == to_rank {
            let line = (self.occupancy() >> (rank * 9)) as usize & 0x1ff;
            RANK_LINES[file][line][which] >> to_file
        } else if file == to_file {
            let line = (self.occ_files >> (file * 10)) as usize & 0x3ff;
            FILE_LINES[rank][line][which] >> to_rank
        } else {
            0
        };
        reach & 1 != 0
    }

    /// The kind index (`PieceKind as u8`) of the piece on `from` for the side
    /// to move, 7 or more when it is no piece of that side (empty points and
    /// enemy pieces wrap around); `None` when `to` holds one of its pieces.
    #[inline(always)]
    fn own_move_kind(&self, from: usize, to: usize) -> Option<u8> {
        let base = code(self.side, PieceKind::General);
        let kind = self.board[from].wrapping_sub(base);
        (self.board[to].wrapping_sub(base) >= 7).then_some(kind)
    }

    /// Pseudo-legal destinations of the piece on `from` (may include own pieces;
    /// the caller masks those out).
    #[inline(always)]
    fn destinations<const KIND: u8>(&self, from: usize, occ: u128) -> u128 {
        match KIND {
            0 => GENERAL_DESTS[from],
            1 => ADVISOR_DESTS[from],
            2 => ELEPHANT.dests[from][pattern(&ELEPHANT, from, occ)],
            3 => HORSE.dests[from][pattern(&HORSE, from, occ)],
            4 => slider_dests(from, occ, self.occ_files, 0),
            5 => slider_dests(from, occ, self.occ_files, 1),
            _ => SOLDIER_DESTS[self.side.index()][from],
        }
    }

    /// Calls `emit(from, destinations)` for each piece of the side to move
    /// (restricted to `pieces`), with destinations masked by `targets` and `allowed`.
    /// Pieces come kind by kind (general first, soldiers last), each kind in square order.
    #[inline(always)]
    fn for_each_piece(
        &self,
        pieces: u128,
        targets: u128,
        allowed: impl Fn(usize) -> u128,
        mut emit: impl FnMut(usize, u128),
    ) {
        let occ = self.occupancy();
        let base = code(self.side, PieceKind::General) as usize;
        macro_rules! kind {
            ($k:expr) => {{
                let mut rest = pieces & self.bb[base + $k as usize];
                while rest != 0 {
                    let from = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    let dests = self.destinations::<{ $k }>(from, occ) & targets & allowed(from);
                    if dests != 0 {
                        emit(from, dests);
                    }
                }
            }};
        }
        kind!(0);
        kind!(1);
        kind!(2);
        kind!(3);
        kind!(4);
        kind!(5);
        kind!(6);
    }

    /// Calls `emit(from, dests)` with each piece's legal destinations.
    #[inline(always)]
    fn for_each_legal_set(&self, pieces: u128, targets: u128, mut emit: impl FnMut(usize, u128)) {
        let safety = self.safety();
        self.for_each_piece(
            pieces,
            targets,
            |from| safety.allowed(from),
            |from, mut dests| {
                if safety.needs_full_test(from) {
                    let mut rest = dests;
                    while rest != 0 {
                        let to = rest.trailing_zeros() as usize;
                        rest &= rest - 1;
                        if !self.leaves_general_safe(from, to) {
                            dests &= !BIT[to];
                        }
                    }
                }
                if dests != 0 {
                    emit(from, dests);
                }
            },
        );
    }

    fn quiet_or_capture_targets(&self) -> u128 {
        !self.occ[self.side.index()] & SQUARES
    }

    /// All legal moves of the side to move, into a caller-provided buffer (no allocation).
    ///
    /// ```
    /// use xiangqi_core::{MoveList, Position};
    /// let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1").unwrap();
    /// let mut moves = MoveList::new();
    /// pos.legal_moves(&mut moves);
    /// // EX-LEGAL-FACING-1: the advisor is pinned by the facing generals.
    /// let mut text: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    /// text.sort();
    /// assert_eq!(text, ["e0d0", "e0f0"]);
    /// ```
    pub fn legal_moves(&self, list: &mut MoveList) {
        list.clear();
        self.for_each_legal_set(u128::MAX, self.quiet_or_capture_targets(), |from, dests| {
            push_all(list, from, dests)
        });
    }

    /// The legal moves as a freshly allocated vector (convenience for non-hot paths).
    pub fn legal_move_vec(&self) -> Vec<Move> {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        list.as_slice().to_vec()
    }

    /// Legal captures only (for quiescence search).
    pub fn legal_captures(&self, list: &mut MoveList) {
        list.clear();
        let theirs = self.occ[self.side.opposite().index()];
        self.for_each_legal_set(u128::MAX, theirs, |from, dests| push_all(list, from, dests));
    }

    /// Legal moves of the piece on `from` (empty when no piece of the side to move is there).
    pub fn legal_moves_from(&self, from: Square, list: &mut MoveList) {
        list.clear();
        self.for_each_legal_set(from.bit(), self.quiet_or_capture_targets(), |f, dests| {
            push_all(list, f, dests)
        });
    }

    /// Moves of the piece on `from` by its movement rules alone, ignoring checks.
    pub fn pseudo_legal_moves_from(&self, from: Square, list: &mut MoveList) {
        list.clear();
        let targets = self.quiet_or_capture_targets();
        self.for_each_piece(from.bit(), targets, all, |f, dests| {
            push_all(list, f, dests)
        });
    }

    /// All pseudo-legal moves of the side to move (movement rules only).
    pub fn pseudo_legal_moves(&self, list: &mut MoveList) {
        list.clear();
        let targets = self.quiet_or_capture_targets();
        self.for_each_piece(u128::MAX, targets, all, |f, dests| push_all(list, f, dests));
    }

    /// Number of legal moves, without storing them (perft's bulk count).
    pub fn count_legal_moves(&self) -> usize {
        let mut n = 0;
        self.for_each_legal_set(u128::MAX, self.quiet_or_capture_targets(), |_, dests| {
            n += dests.count_ones() as usize
        });
        n
    }

    /// True when the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        // One generation pass is cheap; an early exit is not worth a second generator.
        self.count_legal_moves() != 0
    }

    /// True when the piece on `mv`'s origin belongs to the side to move and its
    /// movement rules take it to the destination (checks ignored).
    pub fn is_pseudo_legal(&self, mv: Move) -> bool {
        let (from, to) = (mv.from().index(), mv.to().index());
        self.own_move_kind(from, to)
            .is_some_and(|kind| self.moves_by_rule(kind, from, to))
    }

    /// True when `mv` is legal in this position: a test of the one move's
    /// geometry and one attack test on the general.
    // Always inlined: the PGN reader, which tests every move it reads, saved
    // 10-12 of ~600 instructions a ply; the search's count fell by 0.04 %.
    #[inline(always)]
    pub fn is_legal(&self, mv: Move) -> bool {
        match self.side {
            Color::Red => self.is_legal_for::<false>(mv),
            Color::Black => self.is_legal_for::<true>(mv),
        }
    }

    /// [`Position::is_legal`] with the side to move (`BLACK`) known at compile time.
    #[inline(always)]
    fn is_legal_for<const BLACK: bool>(&self, mv: Move) -> bool {
        let (from, to) = (mv.from().index(), mv.to().index());
        let Some(kind) = self.own_move_kind(from, to) else {
            return false;
        };
        if !self.moves_by_rule(kind, from, to) {
            return false;
        }
        let general = if kind == PieceKind::General as u8 {
            to as u8
        } else {
            self.generals[BLACK as usize]
        };
        self.general_safe_after::<BLACK>(from, to, general)
    }

    /// True when `mv` (assumed legal) gives check.
    pub fn gives_check(&self, mv: Move) -> bool {
        let (from, to) = (mv.from().index(), mv.to().index());
        let occ = (self.occupancy() & !BIT[from]) | BIT[to];
        let mut sets = self.attack_sets(self.side);
        let step = BIT[from] | BIT[to];
        for set in [
            &mut sets.chariots,
            &mut sets.cannons,
            &mut sets.horses,
            &mut sets.soldiers,
        ] {
            if *set & BIT[from] != 0 {
                *set ^= step;
            }
        }
        let them = self.side.opposite();
        attackers::<true>(&sets, occ, self.generals[them.index()] as usize, true) != 0
    }
}

/// True when `set` holds point `sq` (one word's bit test, not a 128-bit shift).
#[inline(always)]
fn contains(set: u128, sq: usize) -> bool {
    let word = if sq < 64 {
        set as u64
    } else {
        (set >> 64) as u64
    };
    (word >> (sq & 63)) & 1 != 0
}

/// All 90 points.
const SQUARES: u128 = (1u128 << 90) - 1;

#[inline(always)]
fn push_all(list: &mut MoveList, from: usize, mut dests: u128) {
    let from = Square::from_index_unchecked(from as u8);
    while dests != 0 {
        let to = dests.trailing_zeros() as u8;
        dests &= dests - 1;
        list.push(Move::new(from, Square::from_index_unchecked(to)));
    }
}

#[inline(always)]
fn all(_: usize) -> u128 {
    u128::MAX
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pin-based filter must agree with playing every pseudo-legal move and testing.
    fn check_tree(pos: &mut Position, depth: u32) {
        let mut pseudo = MoveList::new();
        pos.pseudo_legal_moves(&mut pseudo);
        for m in pseudo.iter() {
            let (from, to) = (m.from().index(), m.to().index());
            assert_eq!(
                pos.leaves_general_safe(from, to),
                pos.leaves_general_safe_by_attack_sets(from, to),
                "{m} in {}",
                pos.to_fen()
            );
        }
        let mut slow: Vec<Move> = pseudo
            .iter()
            .copied()
            .filter(|m| pos.leaves_general_safe(m.from().index(), m.to().index()))
            .collect();
        let mut fast = pos.legal_move_vec();
        slow.sort();
        fast.sort();
        assert_eq!(fast, slow, "{}", pos.to_fen());
        if depth > 1 {
            for mv in fast {
                let undo = pos.make_move(mv);
                check_tree(pos, depth - 1);
                pos.unmake_move(mv, undo);
            }
        }
    }

    #[test]
    fn pin_filter_matches_brute_force() {
        for fen in [
            crate::START_FEN,
            "1nba1abn1/4k4/2r2c3/p5P2/8p/3p1p2P/P1P1P4/R1c3Nr1/2C2K2R/1NBA1AB2 w - - 5 20",
            "1r1a1a3/3k5/b8/2N1p1n2/6r1p/pn2P4/9/4B4/4AK1RC/2B2A3 b - - 0 33",
            "9/6R2/4k4/1P7/4P3P/2P6/9/3A5/9/4K4 w - - 5 41",
            "2b3b1P/P2ka4/1R6C/p5p2/C8/9/1n7/4KNp1R/9/2c5N w - - 0 1",
            // A cannon as the first piece on the general's file and a soldier as
            // the second screen of the cannon behind it.
            "1nba1abn1/4k4/2r2c3/p4P3/8p/3pp3P/P1P1P4/5cNr1/2C2K2R/RNBA1AB2 w - - 9 22",
        ] {
            let mut pos = Position::from_fen(fen).unwrap();
            check_tree(&mut pos, if cfg!(debug_assertions) { 3 } else { 4 });
        }
    }
}
