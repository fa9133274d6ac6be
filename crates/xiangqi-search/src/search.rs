//! The alpha-beta search proper: principal-variation search with a
//! transposition table, null-move pruning, late-move reductions, futility
//! pruning, razoring, check and singular extensions and a quiescence search.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use xiangqi_core::{Color, Move, MoveList, PieceKind, Position};

use crate::eval::{evaluate_with, piece_value, Weights};
use crate::ordering::{mvv_lva, pick, Heuristics, MAX_PLY};
use crate::repetition::{CyclePly, RepetitionJudge, RepetitionOutcome};
use crate::score::{from_tt, to_tt, INFINITY, MATE, MATE_BOUND};
use crate::see::see_below;
use crate::time::TimeBudget;
use crate::tt::{Bound, TranspositionTable};

/// Plies without capture after which the game is drawn (R-DRAW-NOCAPTURE).
pub(crate) const NO_CAPTURE_LIMIT: u32 = 120;
/// Remaining depth from which the hash move is tested for a singular extension.
const SINGULAR_DEPTH: i32 = 8;

/// Entries of the evaluation cache of the main search thread (a power of two).
pub(crate) const EVAL_CACHE_SIZE: usize = 1 << 16;
/// Entries of the evaluation cache of each helper thread (smaller: up to 255 of them).
pub(crate) const HELPER_EVAL_CACHE_SIZE: usize = 1 << 14;

/// One entry per position on the game + search path.
#[derive(Copy, Clone)]
pub(crate) struct PathEntry {
    pub hash: u64,
    /// The ply that led here gave check.
    pub gave_check: bool,
    /// Plies since the last capture or null move on the path, capped by the FEN counter.
    pub reversible: u32,
    /// The move that led here (None for the first entry and null moves).
    pub mv: Option<Move>,
}

/// A search thread's per-ply buffers: move lists, ordering scores and PV
/// rows. Kept by the engine between searches: allocating them anew on every
/// search (a few hundred KiB) costs more than a short search itself where
/// the allocator hands freed memory back to the system (Dask's workers).
pub(crate) struct SearchStack {
    lists: Vec<MoveList>,
    scores: Vec<[i32; xiangqi_core::MAX_MOVES]>,
    pv: Vec<[Move; MAX_PLY + 1]>,
}

impl SearchStack {
    pub(crate) fn new() -> SearchStack {
        let filler = Move::from_u16(0).unwrap_or_else(|| "a0a1".parse().expect("valid move"));
        SearchStack {
            lists: vec![MoveList::new(); MAX_PLY + 1],
            scores: vec![[0; xiangqi_core::MAX_MOVES]; MAX_PLY + 1],
            pv: vec![[filler; MAX_PLY + 1]; MAX_PLY + 1],
        }
    }
}

pub(crate) struct Searcher<'a> {
    pub pos: Position,
    /// (hash, static evaluation) of recently evaluated positions; the length is a power of two.
    pub eval_cache: &'a mut [(u64, i32)],
    pub tt: &'a TranspositionTable,
    pub heur: &'a mut Heuristics,
    pub judge: &'a dyn RepetitionJudge,
    pub params: &'a Weights,
    pub stop: &'a AtomicBool,
    pub budget: TimeBudget,
    pub node_limit: Option<u64>,
    /// Where a helper thread publishes its node count (every 1024 nodes) for the info lines.
    pub node_counter: Option<&'a AtomicU64>,
    pub path: Vec<PathEntry>,
    /// The game positions (history and root) at the start of `path`, kept
    /// only for judges that need positions; search-path positions are rebuilt
    /// from the moves when a cycle is judged.
    pub positions: Option<Vec<Position>>,
    pub nodes: u64,
    pub seldepth: usize,
    pub stopped: bool,
    /// The stop flag and the clock are honoured only once an iteration of
    /// depth 1 is complete (the node limit always is).
    pub can_stop: bool,
    pub root_moves: Vec<Move>,
    /// Best root move and score found so far in the running iteration.
    pub iteration_best: Option<(Move, i32)>,
    /// Per-ply move, ordering-score and PV buffers (no zeroing per node).
    stack: &'a mut SearchStack,
    pv_len: [usize; MAX_PLY + 1],
    /// Static evaluation per ply of the current path (-INFINITY when in check).
    evals: [i32; MAX_PLY + 1],
    /// The move left out at each ply by a singular-extension test (None: none).
    excluded: [Option<Move>; MAX_PLY + 1],
    lmr: [[u8; 64]; 64],
}

impl<'a> Searcher<'a> {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        pos: Position,
        eval_cache: &'a mut [(u64, i32)],
        tt: &'a TranspositionTable,
        heur: &'a mut Heuristics,
        stack: &'a mut SearchStack,
        judge: &'a dyn RepetitionJudge,
        params: &'a Weights,
        stop: &'a AtomicBool,
        budget: TimeBudget,
        node_limit: Option<u64>,
        path: Vec<PathEntry>,
        positions: Option<Vec<Position>>,
        root_moves: Vec<Move>,
    ) -> Searcher<'a> {
        let mut lmr = [[0u8; 64]; 64];
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (1.0 + (d as f64).ln() * (m as f64).ln() / 2.0) as u8;
            }
        }
        Searcher {
            pos,
            eval_cache,
            tt,
            heur,
            judge,
            params,
            stop,
            budget,
            node_limit,
            node_counter: None,
            path,
            positions,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            can_stop: false,
            root_moves,
            iteration_best: None,
            stack,
            pv_len: [0; MAX_PLY + 1],
            evals: [-INFINITY; MAX_PLY + 1],
            excluded: [None; MAX_PLY + 1],
            lmr,
        }
    }

    /// The principal variation found by the last call at the root.
    pub(crate) fn root_pv(&self) -> Vec<Move> {
        self.stack.pv[0][..self.pv_len[0]].to_vec()
    }

    fn check_limits(&mut self) {
        // The node limit is a hard cap, even inside the first iteration (the
        // engine then falls back on the best root move found so far).
        if self.node_limit.is_some_and(|n| self.nodes >= n) {
            self.stopped = true;
            return;
        }
        if !self.can_stop {
            return;
        }
        if self.nodes & 1023 == 0 {
            if let Some(counter) = self.node_counter {
                counter.store(self.nodes, Ordering::Relaxed);
            }
            if self.stop.load(Ordering::Relaxed) || self.budget.hard_exceeded() {
                self.stopped = true;
            }
        }
    }

    fn evaluate(&mut self) -> i32 {
        let key = self.pos.hash();
        let mask = self.eval_cache.len() - 1;
        let slot = &mut self.eval_cache[(key as usize) & mask];
        if slot.0 == key {
            return slot.1;
        }
        let v = evaluate_with(&self.pos, self.params);
        *slot = (key, v);
        v
    }

    /// Enters the position after `mv` (None: a null move), which `gave_check`.
    fn push(&mut self, mv: Option<Move>, capture: bool, gave_check: bool) {
        let last = self.path.last().map_or(0, |e| e.reversible);
        let reversible = if capture || mv.is_none() { 0 } else { last + 1 };
        self.path.push(PathEntry {
            hash: self.pos.hash(),
            gave_check,
            reversible,
            mv,
        });
    }

    fn pop(&mut self) {
        self.path.pop();
    }

    /// The score of the current node if it repeats an earlier position.
    fn repetition_score(&self, ply: usize) -> Option<i32> {
        let n = self.path.len();
        let cur = self.path[n - 1];
        let limit = cur.reversible as usize;
        let mut back = 4;
        while back <= limit && back < n {
            let j = n - 1 - back;
            if self.path[j].hash == cur.hash {
                return Some(self.judge_cycle(j, ply));
            }
            back += 2;
        }
        None
    }

    fn judge_cycle(&self, first: usize, ply: usize) -> i32 {
        let n = self.path.len();
        let us = self.pos.side_to_move();
        let cycle_positions = self.cycle_positions(first);
        let position = |k: usize| cycle_positions.as_ref().map(|c| &c[k - first]);
        // Plies first+1 ..= n-1; the mover of the last one is the opponent.
        let mut plies: Vec<CyclePly<'_>> = Vec::with_capacity(n - 1 - first);
        for k in first + 1..n {
            let back_from_end = n - 1 - k;
            let mover = if back_from_end % 2 == 0 { !us } else { us };
            plies.push(CyclePly {
                mover,
                gave_check: self.path[k].gave_check,
                mv: self.path[k].mv,
                before: position(k - 1),
                after: position(k),
            });
        }
        match self.judge.judge(&plies) {
            RepetitionOutcome::Draw => 0,
            RepetitionOutcome::Loses(c) if c == us => -MATE + ply as i32,
            RepetitionOutcome::Loses(_) => MATE - ply as i32,
        }
    }

    /// The positions at path indices `first..`, for judges that need them.
    /// The position at `first` equals the current one (that is the repetition).
    fn cycle_positions(&self, first: usize) -> Option<Vec<Position>> {
        let stored = self.positions.as_ref()?;
        let n = self.path.len();
        let mut cur = stored.get(first).unwrap_or(&self.pos).clone();
        let mut out = Vec::with_capacity(n - first);
        out.push(cur.clone());
        for k in first + 1..n {
            match stored.get(k) {
                Some(p) => cur = p.clone(),
                None => {
                    // Search plies always carry their move; a null move cannot be inside a cycle.
                    let mv = self.path[k].mv?;
                    cur.make_move(mv);
                }
            }
            out.push(cur.clone());
        }
        Some(out)
    }

    fn has_pieces_for_null(&self, side: Color) -> bool {
        let pos = &self.pos;
        let count = |k| pos.squares_of(xiangqi_core::Piece::new(side, k)).len();
        let majors = count(PieceKind::Chariot);
        let minors = count(PieceKind::Horse) + count(PieceKind::Cannon);
        majors >= 1 || minors >= 2
    }

    fn dead_material(&self) -> bool {
        // Only generals, advisors and elephants: at most ten pieces.
        self.pos.occupied().len() <= 10
            && self.pos.pieces().all(|(_, p)| {
                matches!(
                    p.kind,
                    PieceKind::General | PieceKind::Advisor | PieceKind::Elephant
                )
            })
    }

    /// Selection-sort step on the buffers of `ply`: the best remaining move goes to `i`.
    #[inline]
    fn pick(&mut self, ply: usize, i: usize, n: usize) -> Move {
        let moves = &mut self.stack.lists[ply].as_mut_slice()[..n];
        pick(moves, &mut self.stack.scores[ply][..n], i);
        moves[i]
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.stack.pv[ply][ply] = mv;
        for i in ply + 1..child_len {
            self.stack.pv[ply][i] = self.stack.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

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
            let undo = self.pos.make_move(mv);
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
            self.pos.unmake_move(mv, undo);
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

    /// Quiescence search: captures, and all evasions when in check.
    fn qsearch(&mut self, ply: usize, mut alpha: i32, beta: i32) -> i32 {
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
            let undo = self.pos.make_move(mv);
            let score = -self.qsearch(ply + 1, -beta, -alpha);
            self.pos.unmake_move(mv, undo);
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
