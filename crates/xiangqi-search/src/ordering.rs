//! Move-ordering heuristics kept between nodes: killer moves and the history table.

use xiangqi_core::{Color, Move, Position};

use crate::eval::piece_value;
use crate::see::see_below;

pub(crate) const MAX_PLY: usize = 128;
const HISTORY_MAX: i32 = 1 << 14;

/// Order classes; larger sorts first.
const HASH_MOVE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 28;
const KILLER_1: i32 = 1 << 27;
const KILLER_2: i32 = KILLER_1 - 1;
const BAD_CAPTURE: i32 = -(1 << 27);

pub(crate) struct Heuristics {
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    /// `history[color][from][to]`, a gravity-bounded success counter.
    history: Vec<i32>,
}

impl Heuristics {
    pub(crate) fn new() -> Heuristics {
        Heuristics {
            killers: [[None; 2]; MAX_PLY + 1],
            history: vec![0; 2 * 90 * 90],
        }
    }

    pub(crate) fn clear(&mut self) {
        self.killers = [[None; 2]; MAX_PLY + 1];
        self.history.fill(0);
    }

    /// Called at the start of every search: killers are path-specific.
    pub(crate) fn new_search(&mut self) {
        self.killers = [[None; 2]; MAX_PLY + 1];
        for h in &mut self.history {
            *h /= 2;
        }
    }

    fn index(color: Color, mv: Move) -> usize {
        (color.index() * 90 + mv.from().index()) * 90 + mv.to().index()
    }

    pub(crate) fn is_killer(&self, ply: usize, mv: Move) -> bool {
        self.killers[ply].contains(&Some(mv))
    }

    /// A quiet move caused a cutoff: reward it and punish the quiet moves tried before it.
    pub(crate) fn reward(
        &mut self,
        color: Color,
        ply: usize,
        depth: i32,
        mv: Move,
        tried: &[Move],
    ) {
        if self.killers[ply][0] != Some(mv) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(mv);
        }
        let bonus = (depth * depth).min(400) * 4;
        self.update(color, mv, bonus);
        for &m in tried {
            if m != mv {
                self.update(color, m, -bonus);
            }
        }
    }

    /// The history score of a quiet move of `color` (about ±16 000).
    pub(crate) fn history_of(&self, color: Color, mv: Move) -> i32 {
        self.history[Heuristics::index(color, mv)]
    }

    fn update(&mut self, color: Color, mv: Move, bonus: i32) {
        let h = &mut self.history[Heuristics::index(color, mv)];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }

    /// Fills `scores` for `moves` in `pos` (side to move `pos.side_to_move()`).
    pub(crate) fn score_moves(
        &self,
        pos: &Position,
        moves: &[Move],
        hash_move: Option<Move>,
        ply: usize,
        scores: &mut [i32],
    ) {
        let us = pos.side_to_move();
        for (s, &mv) in scores.iter_mut().zip(moves) {
            *s = if Some(mv) == hash_move {
                HASH_MOVE
            } else if let Some(victim) = pos.piece_at(mv.to()) {
                let attacker = pos.piece_at(mv.from()).map_or(0, |p| piece_value(p.kind));
                let gain = piece_value(victim.kind) * 16 - attacker / 16;
                // A capture of a cheaper piece goes after the quiet moves
                // when it loses material by static exchange.
                if see_below(pos, mv, 0) {
                    BAD_CAPTURE + gain
                } else {
                    GOOD_CAPTURE + gain
                }
            } else if self.killers[ply][0] == Some(mv) {
                KILLER_1
            } else if self.killers[ply][1] == Some(mv) {
                KILLER_2
            } else {
                self.history[Heuristics::index(us, mv)]
            };
        }
    }
}

/// Moves the best-scored remaining move to index `i` (selection sort step).
#[inline]
pub(crate) fn pick(moves: &mut [Move], scores: &mut [i32], i: usize) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    moves.swap(i, best);
    scores.swap(i, best);
}

/// Ordering score of captures in quiescence: most valuable victim, least valuable attacker.
pub(crate) fn mvv_lva(pos: &Position, mv: Move) -> i32 {
    let victim = pos.piece_at(mv.to()).map_or(0, |p| piece_value(p.kind));
    let attacker = pos.piece_at(mv.from()).map_or(0, |p| piece_value(p.kind));
    victim * 16 - attacker / 16
}
