//! Legal move generation (R-MOVE-*, R-LEGAL-*).
//!
//! Moves are generated pseudo-legally from compile-time tables, then filtered.
//! The filter avoids a full "is my general attacked afterwards" test for most
//! moves: before generating, [`Safety`] marks the points where a change could
//! possibly expose the general (its file and rank when an enemy chariot,
//! cannon or general stands on them, and horse legs an enemy horse is
//! waiting behind). A move touching none of those points, by a piece other
//! than the general and while not in check, is legal without further work;
//! only the rest are played on a scratch board and tested.

use crate::position::{attacked, code, Board};
use crate::tables::{
    ADVISOR_STEPS, ELEPHANT_STEPS, GENERAL_STEPS, HORSE_ATTACKERS, HORSE_STEPS, RAYS, SOLDIER_STEPS,
};
use crate::{Color, Move, MoveList, PieceKind, Position, Square};

/// Masks of the king's rays, per square and direction.
static RAY_MASKS: [[u128; 4]; 90] = {
    let mut t = [[0u128; 4]; 90];
    let mut s = 0;
    while s < 90 {
        let mut d = 0;
        while d < 4 {
            let ray = RAYS[s][d];
            let mut i = 0;
            while i < ray.len as usize {
                t[s][d] |= 1u128 << ray.sq[i];
                i += 1;
            }
            d += 1;
        }
        s += 1;
    }
    t
};

/// What the legality filter precomputes once per position.
#[derive(Copy, Clone)]
struct Safety {
    general: u8,
    /// Points whose change may expose the general; all points when in check.
    risky: u128,
}

impl Position {
    fn safety(&self) -> Safety {
        let us = self.side;
        let them = us.opposite();
        let k = self.generals[us.index()] as usize;
        if attacked(&self.board, k, them) {
            return Safety {
                general: k as u8,
                risky: u128::MAX,
            };
        }
        let chariot = code(them, PieceKind::Chariot);
        let cannon = code(them, PieceKind::Cannon);
        let general = code(them, PieceKind::General);
        let horse = code(them, PieceKind::Horse);
        let mut risky = 1u128 << k;
        let theirs = self.occ[them.index()];
        for d in 0..4 {
            let mask = RAY_MASKS[k][d];
            if mask & theirs == 0 {
                continue;
            }
            let ray = &RAYS[k][d];
            for &s in &ray.sq[..ray.len as usize] {
                let c = self.board[s as usize];
                if c == chariot || c == cannon || (c == general && d < 2) {
                    risky |= mask;
                    break;
                }
            }
        }
        let h = &HORSE_ATTACKERS[k];
        for j in 0..h.len as usize {
            if self.board[h.to[j] as usize] == horse {
                risky |= 1u128 << h.via[j];
            }
        }
        Safety {
            general: k as u8,
            risky,
        }
    }

    /// Full test: after moving `from`-`to`, is the mover's general safe?
    #[inline]
    fn leaves_general_safe(&self, safety: &Safety, from: u8, to: u8) -> bool {
        let mut board: Board = self.board;
        board[to as usize] = board[from as usize];
        board[from as usize] = 0;
        let k = if from == safety.general {
            to
        } else {
            safety.general
        };
        !attacked(&board, k as usize, self.side.opposite())
    }

    #[inline(always)]
    fn filter_legal(&self, safety: &Safety, from: u8, to: u8) -> bool {
        let touched = (1u128 << from) | (1u128 << to);
        safety.risky & touched == 0 || self.leaves_general_safe(safety, from, to)
    }

    /// Calls `emit(from, to)` for every pseudo-legal move of the side to move
    /// (captures only when `CAPTURES`), in a fixed order.
    #[inline(always)]
    fn for_each_pseudo<const CAPTURES: bool>(
        &self,
        only_from: Option<u8>,
        mut emit: impl FnMut(u8, u8),
    ) {
        let us = self.side;
        let board = &self.board;
        let mine = self.occ[us.index()];
        let theirs = self.occ[us.opposite().index()];
        let first_code = code(us, PieceKind::General);
        let mut pieces = mine;
        if let Some(f) = only_from {
            pieces &= 1u128 << f;
        }
        // Can the destination take this point? Empty points only for quiet moves.
        let target_ok = |to: u8| -> bool {
            let bit = 1u128 << to;
            if CAPTURES {
                theirs & bit != 0
            } else {
                mine & bit == 0
            }
        };
        while pieces != 0 {
            let from = pieces.trailing_zeros() as u8;
            pieces &= pieces - 1;
            let kind = board[from as usize] - first_code;
            match kind {
                0 => {
                    let st = &GENERAL_STEPS[from as usize];
                    for &to in &st.to[..st.len as usize] {
                        if target_ok(to) {
                            emit(from, to);
                        }
                    }
                }
                1 => {
                    let st = &ADVISOR_STEPS[from as usize];
                    for &to in &st.to[..st.len as usize] {
                        if target_ok(to) {
                            emit(from, to);
                        }
                    }
                }
                2 => {
                    let st = &ELEPHANT_STEPS[from as usize];
                    for j in 0..st.len as usize {
                        let to = st.to[j];
                        if board[st.via[j] as usize] == 0 && target_ok(to) {
                            emit(from, to);
                        }
                    }
                }
                3 => {
                    let st = &HORSE_STEPS[from as usize];
                    for j in 0..st.len as usize {
                        let to = st.to[j];
                        if board[st.via[j] as usize] == 0 && target_ok(to) {
                            emit(from, to);
                        }
                    }
                }
                4 => {
                    for ray in &RAYS[from as usize] {
                        for &to in &ray.sq[..ray.len as usize] {
                            let c = board[to as usize];
                            if c == 0 {
                                if !CAPTURES {
                                    emit(from, to);
                                }
                            } else {
                                if theirs & (1u128 << to) != 0 {
                                    emit(from, to);
                                }
                                break;
                            }
                        }
                    }
                }
                5 => {
                    for ray in &RAYS[from as usize] {
                        let squares = &ray.sq[..ray.len as usize];
                        let mut i = 0;
                        while i < squares.len() && board[squares[i] as usize] == 0 {
                            if !CAPTURES {
                                emit(from, squares[i]);
                            }
                            i += 1;
                        }
                        // squares[i] is the screen; find the next piece behind it.
                        i += 1;
                        while i < squares.len() && board[squares[i] as usize] == 0 {
                            i += 1;
                        }
                        if i < squares.len() && theirs & (1u128 << squares[i]) != 0 {
                            emit(from, squares[i]);
                        }
                    }
                }
                _ => {
                    let st = &SOLDIER_STEPS[us.index()][from as usize];
                    for &to in &st.to[..st.len as usize] {
                        if target_ok(to) {
                            emit(from, to);
                        }
                    }
                }
            }
        }
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
        let safety = self.safety();
        self.for_each_pseudo::<false>(None, |from, to| {
            if self.filter_legal(&safety, from, to) {
                list.push(Move::new(
                    Square::from_index_unchecked(from),
                    Square::from_index_unchecked(to),
                ));
            }
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
        let safety = self.safety();
        self.for_each_pseudo::<true>(None, |from, to| {
            if self.filter_legal(&safety, from, to) {
                list.push(Move::new(
                    Square::from_index_unchecked(from),
                    Square::from_index_unchecked(to),
                ));
            }
        });
    }

    /// Legal moves of the piece on `from` (empty when no piece of the side to move is there).
    pub fn legal_moves_from(&self, from: Square, list: &mut MoveList) {
        list.clear();
        let safety = self.safety();
        self.for_each_pseudo::<false>(Some(from.index() as u8), |f, to| {
            if self.filter_legal(&safety, f, to) {
                list.push(Move::new(
                    Square::from_index_unchecked(f),
                    Square::from_index_unchecked(to),
                ));
            }
        });
    }

    /// Moves of the piece on `from` by its movement rules alone, ignoring checks.
    pub fn pseudo_legal_moves_from(&self, from: Square, list: &mut MoveList) {
        list.clear();
        self.for_each_pseudo::<false>(Some(from.index() as u8), |f, to| {
            list.push(Move::new(
                Square::from_index_unchecked(f),
                Square::from_index_unchecked(to),
            ));
        });
    }

    /// All pseudo-legal moves of the side to move (movement rules only).
    pub fn pseudo_legal_moves(&self, list: &mut MoveList) {
        list.clear();
        self.for_each_pseudo::<false>(None, |f, to| {
            list.push(Move::new(
                Square::from_index_unchecked(f),
                Square::from_index_unchecked(to),
            ));
        });
    }

    /// Number of legal moves, without storing them (perft's bulk count).
    pub fn count_legal_moves(&self) -> usize {
        let safety = self.safety();
        let mut n = 0;
        self.for_each_pseudo::<false>(None, |from, to| {
            n += self.filter_legal(&safety, from, to) as usize;
        });
        n
    }

    /// True when the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        // Generation is cheap; the count short-cuts nothing but stays simple and exact.
        let safety = self.safety();
        let mut found = false;
        self.for_each_pseudo::<false>(None, |from, to| {
            if !found && self.filter_legal(&safety, from, to) {
                found = true;
            }
        });
        found
    }

    /// True when `mv` is legal in this position.
    pub fn is_legal(&self, mv: Move) -> bool {
        let from = mv.from().index() as u8;
        let to = mv.to().index() as u8;
        let mut pseudo = false;
        self.for_each_pseudo::<false>(Some(from), |_, t| pseudo |= t == to);
        pseudo && self.leaves_general_safe(&self.safety(), from, to)
    }

    /// True when `mv` (assumed legal) gives check.
    pub fn gives_check(&self, mv: Move) -> bool {
        let mut board: Board = self.board;
        let (from, to) = (mv.from().index(), mv.to().index());
        board[to] = board[from];
        board[from] = 0;
        let them: Color = self.side.opposite();
        let their_general = if board[to] == code(them, PieceKind::General) {
            to
        } else {
            self.generals[them.index()] as usize
        };
        attacked(&board, their_general, self.side)
    }
}
