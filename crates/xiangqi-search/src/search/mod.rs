//! The search's state on one thread ([`Searcher`]: the position, the game
//! and search path, the limits, the PV and move buffers) and its parts:
//! the alpha-beta search proper ([`alphabeta`]), the quiescence search
//! ([`quiescence`]), and the positions that end by rule inside the tree
//! ([`draws`]: repetitions, dead material).

mod alphabeta;
mod draws;
mod quiescence;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use xiangqi_core::{Color, Move, MoveList, PieceKind, Position, Undo};
use xiangqi_nnue::{AccumulatorStack, MoveDelta, Network, Simd};

use crate::eval::{evaluate_with, Weights};
use crate::ordering::{pick, Heuristics, MAX_PLY};
use crate::repetition::RepetitionJudge;
use crate::score::INFINITY;
use crate::time::TimeBudget;
use crate::tt::TranspositionTable;

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
    /// The NNUE accumulators along the path (used only with a network).
    accumulators: AccumulatorStack,
}

impl SearchStack {
    pub(crate) fn new() -> SearchStack {
        let filler = Move::from_u16(0).unwrap_or_else(|| "a0a1".parse().expect("valid move"));
        SearchStack {
            lists: vec![MoveList::new(); MAX_PLY + 1],
            scores: vec![[0; xiangqi_core::MAX_MOVES]; MAX_PLY + 1],
            pv: vec![[filler; MAX_PLY + 1]; MAX_PLY + 1],
            accumulators: AccumulatorStack::new(Simd::detect()),
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
    /// The network evaluating positions instead of `params`, when NNUE is on.
    pub nnue: Option<&'a Network>,
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
        nnue: Option<&'a Network>,
        stop: &'a AtomicBool,
        budget: TimeBudget,
        node_limit: Option<u64>,
        path: Vec<PathEntry>,
        positions: Option<Vec<Position>>,
        root_moves: Vec<Move>,
    ) -> Searcher<'a> {
        if let Some(network) = nnue {
            stack.accumulators.reset(network, &pos);
        }
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
            nnue,
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
        let v = match self.nnue {
            Some(network) => self
                .stack
                .accumulators
                .evaluate(network, self.pos.side_to_move()),
            None => evaluate_with(&self.pos, self.params),
        };
        *slot = (key, v);
        v
    }

    /// Plays `mv` on the search's position, keeping the NNUE accumulators in step.
    #[inline(always)]
    fn make(&mut self, mv: Move) -> Undo {
        if let Some(network) = self.nnue {
            let delta = MoveDelta::of_move(&self.pos, mv)
                .expect("the search plays only legal moves, which start on a piece");
            self.stack.accumulators.push(network, delta);
        }
        self.pos.make_move(mv)
    }

    /// Takes back `mv` played by [`Searcher::make`].
    #[inline(always)]
    fn unmake(&mut self, mv: Move, undo: Undo) {
        self.pos.unmake_move(mv, undo);
        if self.nnue.is_some() {
            self.stack.accumulators.pop();
        }
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

    fn has_pieces_for_null(&self, side: Color) -> bool {
        let pos = &self.pos;
        let count = |k| pos.squares_of(xiangqi_core::Piece::new(side, k)).len();
        let majors = count(PieceKind::Chariot);
        let minors = count(PieceKind::Horse) + count(PieceKind::Cannon);
        majors >= 1 || minors >= 2
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
}
