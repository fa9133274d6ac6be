//! The quiescence search: captures (pruned by static exchange), and every
//! evasion when in check, until the position is quiet.

use super::Searcher;
use crate::eval::piece_value;
use crate::ordering::{mvv_lva, MAX_PLY};
use crate::score::{from_tt, to_tt, INFINITY, MATE};
use crate::see::see_below;
use crate::tt::Bound;

impl Searcher<'_> {
    pub(super) fn qsearch(&mut self, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.pv_len[ply] = ply;
        if self.stopped {
            return 0;
        }
        // Checked before counting this node: a limit of n allows n nodes.
        self.check_limits();
        if self.stopped {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 1 {
            return self.evaluate();
        }
        let in_check = self.pos.is_check();
        let key = self.pos.hash();
        let hit = self.tt.probe(key);
        if let Some(h) = hit {
            let score = from_tt(h.score, ply);
            let usable = match h.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if usable {
                return score;
            }
        }
        let original_alpha = alpha;
        let mut best_move = None;
        let mut best;
        let stand_pat;
        let static_eval = if in_check { 0 } else { self.evaluate() };
        let list = &mut self.stack.lists[ply];
        if in_check {
            self.pos.legal_moves(list);
            if list.is_empty() {
                return -MATE + ply as i32;
            }
            best = -INFINITY;
            stand_pat = -INFINITY;
        } else {
            stand_pat = static_eval;
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
            self.pos.legal_captures(list);
        }
        let n = list.len();
        for i in 0..n {
            self.stack.scores[ply][i] = mvv_lva(&self.pos, list[i]);
        }
        for i in 0..n {
            let mv = self.pick(ply, i, n);
            if !in_check {
                let gain = self
                    .pos
                    .piece_at(mv.to())
                    .map_or(0, |p| piece_value(p.kind));
                // Delta pruning: even winning this piece cannot reach alpha.
                if stand_pat + gain + 200 < alpha {
                    continue;
                }
                // A capture that loses material by static exchange cannot
                // raise the stand-pat score (only a capture of a cheaper
                // piece can lose).
                if see_below(&self.pos, mv, 0) {
                    continue;
                }
            }
            let undo = self.make(mv);
            let score = -self.qsearch(ply + 1, -beta, -alpha);
            self.unmake(mv, undo);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        // Only fill empty slots: a depth-0 result must not replace a real search result.
        if hit.is_none() {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt
                .store(key, best_move, to_tt(best, ply), static_eval, 0, bound);
        }
        best
    }
}
