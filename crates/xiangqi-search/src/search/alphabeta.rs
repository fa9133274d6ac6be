//! The alpha-beta search proper: principal-variation search with a
//! transposition table in an aspiration window, null-move pruning,
//! late-move reductions, futility pruning, razoring, check and singular
//! extensions.

use xiangqi_core::Move;

use super::{Searcher, NO_CAPTURE_LIMIT, SINGULAR_DEPTH};
use crate::ordering::MAX_PLY;
use crate::score::{from_tt, to_tt, INFINITY, MATE, MATE_BOUND};
use crate::tt::Bound;

impl Searcher<'_> {
    /// One root search of `depth` in an aspiration window around `previous`
    /// (from depth 5 on: ±25, widened by doubling on each fail, full window past ±600).
    /// The value is meaningless when `stopped` is set afterwards.
    pub(crate) fn aspiration(&mut self, depth: i32, previous: i32) -> i32 {
        let mut delta = 25;
        let (mut alpha, mut beta) = if depth >= 5 && previous.abs() < MATE_BOUND {
            (previous - delta, previous + delta)
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let v = self.search(depth, 0, alpha, beta, true);
            if self.stopped {
                return v;
            }
            if v <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (v - delta).max(-INFINITY);
            } else if v >= beta {
                beta = (v + delta).min(INFINITY);
            } else {
                return v;
            }
            delta += delta;
            if delta > 600 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// Negamax alpha-beta with principal-variation search. `ply` 0 is the root.
    pub(crate) fn search(
        &mut self,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        allow_null: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
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
        if ply >= MAX_PLY - 1 {
            return self.evaluate();
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check =
            self.path.last().is_some_and(|e| e.gave_check) || (ply == 0 && self.pos.is_check());

        if ply > 0 {
            if let Some(v) = self.repetition_score(ply) {
                return v;
            }
            if self.pos.halfmove_clock() >= NO_CAPTURE_LIMIT && !in_check {
                return 0;
            }
            if self.dead_material() {
                return 0;
            }
            // Mate-distance pruning.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        if depth <= 0 {
            return self.qsearch(ply, alpha, beta);
        }

        let key = self.pos.hash();
        let hit = self.tt.probe(key);
        let mut hash_move = hit.and_then(|h| h.mv);
        // A singular-extension test searches this node without one move: the
        // table's result for the node (with that move) does not answer it.
        let excluded = self.excluded[ply];
        if let Some(h) = hit.filter(|_| excluded.is_none()) {
            let score = from_tt(h.score, ply);
            if !pv_node && ply > 0 && h.depth >= depth {
                let usable = match h.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if usable {
                    return score;
                }
            }
        }

        let static_eval = if in_check {
            -INFINITY
        } else {
            hit.map_or_else(|| self.evaluate(), |h| h.eval)
        };
        self.evals[ply] = static_eval;
        let improving = improving(&self.evals, ply, static_eval);

        if !pv_node && !in_check && ply > 0 && excluded.is_none() {
            // Reverse futility: far above beta at low depth.
            if depth <= 6 && static_eval - 90 * depth >= beta && beta.abs() < MATE_BOUND {
                return static_eval;
            }
            // Razoring: far below alpha, look at captures only.
            if depth <= 2 && static_eval + 250 * depth < alpha {
                let v = self.qsearch(ply, alpha, alpha + 1);
                if v <= alpha {
                    return v;
                }
            }
            // Null move, not when the side to move has too little to avoid zugzwang.
            if allow_null
                && depth >= 3
                && static_eval >= beta
                && beta.abs() < MATE_BOUND
                && self.has_pieces_for_null(self.pos.side_to_move())
            {
                let r = 3 + depth / 4 + ((static_eval - beta) / 200).min(2);
                // A null move changes no NNUE input: the accumulators stay.
                let undo = self.pos.make_null_move();
                self.push(None, false, false);
                let v = -self.search(depth - 1 - r, ply + 1, -beta, -beta + 1, false);
                self.pop();
                self.pos.unmake_null_move(undo);
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    return if v >= MATE_BOUND { beta } else { v };
                }
            }
        }

        // Internal iterative deepening when a PV node has no hash move.
        if pv_node && hash_move.is_none() && depth >= 6 {
            self.search(depth - 4, ply, alpha, beta, allow_null);
            if self.stopped {
                return 0;
            }
            hash_move = self.tt.probe(key).and_then(|h| h.mv);
        }

        // Singular extension: when the hash move's stored lower bound stands
        // far above every other move (a search at half depth without it
        // fails low against that bound minus 2·depth), the hash move is
        // searched one ply deeper; when even the others reach beta, the node
        // is cut (multi-cut). Runs before this ply's move list is built: the
        // test reuses the ply's buffers.
        let mut singular_move = None;
        if let (Some(h), Some(hm)) = (hit, hash_move) {
            let tt_score = from_tt(h.score, ply);
            if ply > 0
                && depth >= SINGULAR_DEPTH
                && excluded.is_none()
                && h.mv == Some(hm)
                && matches!(h.bound, Bound::Lower | Bound::Exact)
                && h.depth >= depth - 3
                && tt_score.abs() < MATE_BOUND
            {
                let singular_beta = tt_score - 2 * depth;
                self.excluded[ply] = Some(hm);
                let v = self.search(
                    (depth - 1) / 2,
                    ply,
                    singular_beta - 1,
                    singular_beta,
                    false,
                );
                self.excluded[ply] = None;
                if self.stopped {
                    return 0;
                }
                if v < singular_beta {
                    singular_move = Some(hm);
                } else if singular_beta >= beta {
                    return singular_beta;
                }
            }
        }

        let list = &mut self.stack.lists[ply];
        if ply == 0 {
            list.clear();
            for &m in &self.root_moves {
                list.push(m);
            }
        } else {
            self.pos.legal_moves(list);
        }
        let n = list.len();
        if n == 0 {
            // Checkmate and stalemate both lose (R-END-MATE, R-END-STALEMATE).
            return -MATE + ply as i32;
        }
        self.heur.score_moves(
            &self.pos,
            list.as_slice(),
            hash_move,
            ply,
            &mut self.stack.scores[ply][..n],
        );

        let us = self.pos.side_to_move();
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move: Option<Move> = None;
        let mut quiets_tried: [Move; 64] = [self.stack.lists[ply][0]; 64];
        let mut quiet_count = 0usize;
        let mut searched = 0usize;

        for i in 0..n {
            let mv = self.pick(ply, i, n);
            if excluded == Some(mv) {
                continue;
            }
            let capture = self.pos.piece_at(mv.to()).is_some();
            let gives_check = self.pos.gives_check(mv);
            let killer = self.heur.is_killer(ply, mv);
            // The late-move reduction of this move, before its adjustments.
            let base_reduction = self.lmr[(depth as usize).min(63)][searched.min(63)] as i32;

            if !capture && !in_check && ply > 0 && searched > 0 && best > -MATE_BOUND {
                // Late-move pruning, and futility pruning at the depth the
                // move would be reduced to; never a check. Decided before the
                // move is made: a pruned move costs one check test, not a
                // make and unmake.
                let full_limit = 3 + (depth * depth) as usize * 2;
                let lmp_limit = if improving {
                    full_limit
                } else {
                    full_limit / 2 + 1
                };
                let lmr_depth = depth - 1 - base_reduction;
                if !gives_check
                    && ((depth <= 6 && quiet_count >= lmp_limit)
                        || (lmr_depth <= 5 && static_eval + 100 + 110 * lmr_depth.max(0) <= alpha))
                {
                    continue;
                }
            }

            // Check extension, sacrifices included (most mating attacks
            // give up a piece with check), and the single-reply extension:
            // a forced reply to check costs no depth, so a ladder of checks
            // is seen to its end. Measured on the manual's mates and in
            // play (docs/engine-experiments.md, "checks and forced replies").
            let extension = i32::from(
                (gives_check || (in_check && n == 1) || singular_move == Some(mv))
                    && ply < 2 * MAX_PLY / 3,
            );
            let undo = self.make(mv);
            self.push(Some(mv), capture, gives_check);
            let quiet = !capture && !gives_check;

            let new_depth = depth - 1 + extension;
            let mut score;
            if searched == 0 {
                score = -self.search(new_depth, ply + 1, -beta, -alpha, true);
            } else {
                let mut r = 0;
                if depth >= 3 && searched >= 2 && quiet && !in_check && ply > 0 {
                    r = base_reduction;
                    if pv_node {
                        r -= 1;
                    }
                    if killer {
                        r -= 1;
                    }
                    r -= self.heur.history_of(us, mv) / 6000;
                    r = r.clamp(0, new_depth - 1);
                }
                score = -self.search(new_depth - r, ply + 1, -alpha - 1, -alpha, true);
                if score > alpha && r > 0 {
                    score = -self.search(new_depth, ply + 1, -alpha - 1, -alpha, true);
                }
                if score > alpha && score < beta {
                    score = -self.search(new_depth, ply + 1, -beta, -alpha, true);
                }
            }
            self.pop();
            self.unmake(mv, undo);
            if self.stopped {
                return 0;
            }
            searched += 1;

            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    if pv_node || ply == 0 {
                        self.update_pv(ply, mv);
                    }
                    if ply == 0 {
                        self.iteration_best = Some((mv, score));
                    }
                    if score >= beta {
                        if !capture {
                            self.heur
                                .reward(us, ply, depth, mv, &quiets_tried[..quiet_count]);
                        }
                        break;
                    }
                }
            }
            if !capture && quiet_count < quiets_tried.len() {
                quiets_tried[quiet_count] = mv;
                quiet_count += 1;
            }
        }

        if excluded.is_some() {
            // Only the left-out move was legal (it is singular), or every
            // other move fell below alpha; the table keeps the full node's result.
            return if searched == 0 { alpha } else { best };
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let eval_to_store = if in_check { 0 } else { static_eval };
        self.tt.store(
            key,
            best_move,
            to_tt(best, ply),
            eval_to_store,
            depth,
            bound,
        );
        best
    }
}

/// The static evaluation `static_eval` at `ply` rose since the side's previous
/// move: above `evals[ply - 2]`, or `evals[ply - 4]` when the position two
/// plies up was in check (`-INFINITY`, no evaluation); true when neither is
/// known, false when in check now. Pruning is bolder where the side's
/// position is getting worse.
fn improving(evals: &[i32], ply: usize, static_eval: i32) -> bool {
    if static_eval == -INFINITY {
        return false;
    }
    let earlier = [2, 4]
        .into_iter()
        .filter(|&back| back <= ply)
        .map(|back| evals[ply - back])
        .find(|&e| e != -INFINITY);
    earlier.map_or(true, |e| static_eval > e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn improving_compares_with_the_same_side_two_or_four_plies_up() {
        let evals = [10, -5, 30, -INFINITY, -INFINITY, 7];
        // Two plies up (ply 2: 30).
        assert!(improving(&evals, 4, 31));
        assert!(!improving(&evals, 4, 30));
        // Two plies up was in check: four plies up (ply 1: -5).
        assert!(improving(&evals, 5, 0));
        assert!(!improving(&evals, 5, -6));
        // Nothing known before: improving; in check now: not.
        assert!(improving(&evals, 1, -100));
        assert!(improving(&[-INFINITY; 4], 3, 0));
        assert!(!improving(&evals, 2, -INFINITY));
    }
}
