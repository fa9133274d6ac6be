//! The public engine: [`Engine`] (its settings and the state it keeps
//! between searches) and its blocking [`Engine::search`]. The reports it
//! gives are in [`report`], the iterative deepening in [`iterate`], the
//! Lazy SMP threads in [`threads`]; [`crate::SearchThread`] runs it off the
//! caller's thread with `stop` and `ponderhit`.

mod iterate;
mod nnue;
mod report;
mod stop;
mod threads;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use xiangqi_core::{Move, MoveList, Position, SplitMix64};
use xiangqi_nnue::Network;

pub use nnue::NnueError;
pub use report::{PvLine, SearchInfo, SearchResult};
pub(crate) use stop::StopHandle;
use threads::HelperState;

use crate::eval::Weights;
use crate::ordering::{Heuristics, MAX_PLY};
use crate::repetition::{AdjudicationJudge, RepetitionJudge};
use crate::score::Score;
use crate::search::{PathEntry, SearchStack, EVAL_CACHE_SIZE};
use crate::skill::{picked_move, Skill};
use crate::time::{PonderHandle, TimeBudget};
use crate::tt::TranspositionTable;
use crate::Limits;

/// Deepest nominal depth an iteration may reach.
pub const MAX_DEPTH: u32 = (MAX_PLY as u32) - 28;
/// Default transposition-table size in MiB.
pub const DEFAULT_HASH_MB: usize = 16;
/// Largest transposition table accepted, in MiB.
pub const MAX_HASH_MB: usize = 32 * 1024;
/// Most search threads accepted (UCI `Threads`).
pub const MAX_THREADS: usize = 256;
/// Most principal variations one search reports (UCI `MultiPV`).
pub const MAX_MULTI_PV: usize = 128;

/// An alpha-beta engine with its transposition table; with
/// [`set_threads`](Engine::set_threads) > 1 helper threads share the table (Lazy SMP).
///
/// ```
/// use xiangqi_core::Position;
/// use xiangqi_search::{Engine, Limits, Score};
///
/// let mut engine = Engine::new(4);
/// // Red mates at once with the chariot (EX-END-FG).
/// let pos = Position::from_fen("5k3/9/9/9/8R/9/9/9/9/4K4 w - - 0 1").unwrap();
/// let result = engine.search(&pos, &[], &Limits::depth(3), |_info| {});
/// assert_eq!(result.best_move.unwrap().to_string(), "i5f5");
/// assert_eq!(result.score, Score::Mate(1));
/// ```
pub struct Engine {
    tt: TranspositionTable,
    hash_mb: usize,
    heuristics: Heuristics,
    stack: SearchStack,
    stop: Arc<AtomicBool>,
    judge: Box<dyn RepetitionJudge>,
    params: Weights,
    eval_cache: Vec<(u64, i32)>,
    threads: usize,
    helpers: Vec<HelperState>,
    ponder: PonderHandle,
    skill: Option<Skill>,
    skill_rng: SplitMix64,
    /// The NNUE network (loaded from `EvalFile` or embedded), if any.
    network: Option<Arc<Network>>,
    /// Evaluate with `network` rather than the classical evaluation.
    use_nnue: bool,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("hash_mb", &self.hash_mb)
            .field("threads", &self.threads)
            .field("params", &self.params)
            .field("use_nnue", &self.use_nnue)
            .finish_non_exhaustive()
    }
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new(DEFAULT_HASH_MB)
    }
}

impl Engine {
    /// An engine with a transposition table of `hash_mb` MiB (clamped to 1..=[`MAX_HASH_MB`]).
    pub fn new(hash_mb: usize) -> Engine {
        let hash_mb = hash_mb.clamp(1, MAX_HASH_MB);
        // The embedded net is the default evaluation (Engine::nnue_by_default):
        // it beat the classical one by +258 Elo (docs/engine.md, "The second net").
        let network = xiangqi_nnue::embedded().ok();
        Engine {
            tt: TranspositionTable::new(hash_mb),
            hash_mb,
            heuristics: Heuristics::new(),
            stack: SearchStack::new(),
            stop: Arc::new(AtomicBool::new(false)),
            judge: Box::new(AdjudicationJudge::default()),
            params: Weights::default(),
            eval_cache: vec![(0, 0); EVAL_CACHE_SIZE],
            threads: 1,
            helpers: Vec::new(),
            ponder: PonderHandle::new(),
            skill: None,
            skill_rng: SplitMix64::new(clock_seed()),
            use_nnue: network.is_some(),
            network,
        }
    }

    /// An engine that evaluates classically whether or not a net is
    /// embedded: for the tuning of the classical weights and for data whose
    /// labels must not depend on the build's net.
    pub fn classical(hash_mb: usize) -> Engine {
        Engine {
            use_nnue: false,
            ..Engine::new(hash_mb)
        }
    }

    /// Sets the number of search threads (clamped to 1..=[`MAX_THREADS`]):
    /// the main thread plus helpers that search the same root and share the
    /// transposition table (Lazy SMP). One thread is deterministic.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.clamp(1, MAX_THREADS);
        self.helpers.truncate(self.threads - 1);
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Resizes (and clears) the transposition table. When the memory is not
    /// there the table is smaller than asked: [`Engine::hash_size`] tells.
    pub fn set_hash_size(&mut self, hash_mb: usize) {
        let hash_mb = hash_mb.clamp(1, MAX_HASH_MB);
        if hash_mb != self.hash_mb {
            self.tt = TranspositionTable::new(hash_mb);
            self.hash_mb = self.tt.size_mb().min(hash_mb);
        }
    }

    /// The transposition-table size in MiB (as allocated).
    pub fn hash_size(&self) -> usize {
        self.hash_mb
    }

    /// Forgets everything learnt (hash table, move-ordering history): call between games.
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.heuristics.clear();
        self.eval_cache.fill((0, 0));
        for helper in &mut self.helpers {
            helper.heuristics.clear();
            helper.eval_cache.fill((0, 0));
        }
    }

    /// Same as [`new_game`](Engine::new_game).
    pub fn clear_hash(&mut self) {
        self.new_game();
    }

    /// The stop flag the search polls ([`crate::SearchThread`] raises it).
    pub(crate) fn stop_handle(&self) -> StopHandle {
        StopHandle(Arc::clone(&self.stop))
    }

    /// The `ponderhit` signal a ponder search ([`Limits::ponder`]) reads.
    pub(crate) fn ponder_handle(&self) -> PonderHandle {
        self.ponder.clone()
    }

    /// Makes the search poll these flags (those of a [`crate::SearchThread`]).
    pub(crate) fn share_flags(&mut self, stop: &StopHandle, ponder: &PonderHandle) {
        self.stop = stop.flag();
        self.ponder = ponder.clone();
    }

    /// Replaces how repetitions inside the search are scored (default:
    /// [`AdjudicationJudge`], the full rules of section 5 including perpetual chase).
    pub fn set_repetition_judge(&mut self, judge: Box<dyn RepetitionJudge>) {
        self.judge = judge;
    }

    /// Replaces the evaluation weights (for tuning runs, ablations and matches
    /// of fitted against committed weights).
    pub fn set_weights(&mut self, params: Weights) {
        self.params = params;
        self.clear_eval_caches();
    }

    /// Forgets cached evaluations (after a change of weights).
    fn clear_eval_caches(&mut self) {
        self.eval_cache.fill((0, 0));
        for helper in &mut self.helpers {
            helper.eval_cache.fill((0, 0));
        }
    }

    /// Forgets everything the other evaluation left: the cached
    /// evaluations and the hash table, whose static evaluations and scores
    /// are on the other evaluation's scale.
    fn evaluation_changed(&mut self) {
        self.clear_eval_caches();
        self.tt.clear();
    }

    /// Searches `root` within `limits`, calling `on_info` after each completed
    /// iteration (once per line, best first, when `limits.multi_pv` asks for several).
    ///
    /// `history` holds the positions of the game before `root`, oldest first
    /// (see [`Position::replay`]); it is used only to recognise repetitions. Pass `&[]`
    /// when there is none. With one thread and a fixed depth or node limit the
    /// result, including the node count, depends only on the inputs and on what
    /// the hash table holds (call [`new_game`](Engine::new_game) for a clean
    /// start). With more threads ([`set_threads`](Engine::set_threads)) the
    /// helpers make it depend on timing.
    ///
    /// With a [`Skill`] set ([`set_skill`](Engine::set_skill)) the search is
    /// shallower, reports at least [`Skill::lines`] lines, and the result is
    /// the line the skill picks (its move, score and PV first in `lines`).
    pub fn search(
        &mut self,
        root: &Position,
        history: &[Position],
        limits: &Limits,
        on_info: impl FnMut(&SearchInfo),
    ) -> SearchResult {
        let Some(skill) = self.skill else {
            return self.search_lines(root, history, limits, on_info);
        };
        let weakened = Limits {
            multi_pv: limits.multi_pv.max(skill.lines()),
            depth: Some(limits.depth.unwrap_or(MAX_DEPTH).min(skill.depth())),
            ..limits.clone()
        };
        let mut result = self.search_lines(root, history, &weakened, on_info);
        if let Some(index) = skill.pick(&result.lines, &mut self.skill_rng) {
            if let Some(mv) = picked_move(&result.lines, index) {
                let line = result.lines.remove(index);
                result.best_move = Some(mv);
                result.ponder = line.pv.get(1).copied();
                result.score = line.score;
                result.pv = line.pv.clone();
                result.lines.insert(0, line);
            }
        }
        result
    }

    /// Weakens the engine ([`Skill`]); `None` is full strength. Weakened
    /// play evaluates classically ([`Engine::evaluates_with_nnue`]).
    pub fn set_skill(&mut self, skill: Option<Skill>) {
        let before = self.evaluates_with_nnue();
        self.skill = skill;
        if before != self.evaluates_with_nnue() {
            self.evaluation_changed();
        }
    }

    /// The weakening in force.
    pub fn skill(&self) -> Option<Skill> {
        self.skill
    }

    /// Seeds the weakened engine's random choices (seeded from the clock
    /// otherwise), for reproducible games.
    pub fn set_skill_seed(&mut self, seed: u64) {
        self.skill_rng = SplitMix64::new(seed);
    }

    /// [`Engine::search`] at full strength.
    fn search_lines(
        &mut self,
        root: &Position,
        history: &[Position],
        limits: &Limits,
        mut on_info: impl FnMut(&SearchInfo),
    ) -> SearchResult {
        let start = Instant::now();
        let budget = TimeBudget::new(limits, start, self.ponder.clone());

        let mut legal = MoveList::new();
        root.legal_moves(&mut legal);
        let root_moves: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| limits.search_moves.is_empty() || limits.search_moves.contains(m))
            .filter(|m| !limits.ban_moves.contains(m))
            .collect();
        if root_moves.is_empty() {
            self.stop.store(false, Ordering::Relaxed);
            self.ponder.reset();
            return SearchResult {
                best_move: None,
                ponder: None,
                score: if legal.is_empty() {
                    Score::Mate(0)
                } else {
                    Score::Cp(0)
                },
                depth: 0,
                seldepth: 0,
                nodes: 0,
                pv: Vec::new(),
                time: start.elapsed(),
                lines: Vec::new(),
            };
        }

        let (path, positions) = self.build_path(root, history);
        self.tt.new_search();
        self.heuristics.new_search();
        let (mut outcome, helper_nodes) = threads::search_all(
            self,
            root,
            limits,
            &budget,
            path,
            positions,
            root_moves,
            &mut on_info,
        );
        self.stop.store(false, Ordering::Relaxed);
        self.ponder.reset();
        outcome.nodes += helper_nodes;
        outcome.time = start.elapsed();
        outcome
    }

    /// The game path for repetition detection: history positions, then the root.
    fn build_path(
        &self,
        root: &Position,
        history: &[Position],
    ) -> (Vec<PathEntry>, Option<Vec<Position>>) {
        let mut path = Vec::with_capacity(history.len() + MAX_PLY + 2);
        let keep = self.judge.needs_positions();
        let mut positions = keep.then(|| Vec::with_capacity(history.len() + MAX_PLY + 2));
        let mut prev_reversible = 0u32;
        for (i, pos) in history.iter().chain(std::iter::once(root)).enumerate() {
            let reversible = if i == 0 {
                0
            } else {
                (prev_reversible + 1).min(pos.halfmove_clock())
            };
            prev_reversible = reversible;
            path.push(PathEntry {
                hash: pos.hash(),
                gave_check: pos.is_check(),
                reversible,
                mv: None,
            });
            if let Some(ps) = &mut positions {
                ps.push(pos.clone());
            }
        }
        (path, positions)
    }
}

/// A seed that differs between runs, so that a weakened engine does not
/// repeat its games.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}
