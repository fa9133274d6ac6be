//! The public engine: [`Engine`], its inputs ([`Limits`], game history) and
//! outputs ([`SearchInfo`] per iteration, [`SearchResult`]).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use xiangqi_core::{Move, MoveList, Position, SplitMix64};

use crate::eval::Weights;
use crate::ordering::{Heuristics, MAX_PLY};
use crate::repetition::{AdjudicationJudge, RepetitionJudge};
use crate::score::{from_internal, Score, MATE, MATE_BOUND};
use crate::search::{PathEntry, SearchStack, Searcher, EVAL_CACHE_SIZE, HELPER_EVAL_CACHE_SIZE};
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

/// Raises the stop flag of a running (or the next) search from another thread.
///
/// The flag is an `Arc<AtomicBool>`; [`Engine::search`] lowers it when it returns.
#[derive(Clone, Debug)]
pub struct StopHandle(Arc<AtomicBool>);

impl StopHandle {
    /// Asks the search to stop as soon as possible (within about a thousand nodes).
    /// It still returns the best move found so far.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// True when a stop was requested and not yet consumed by a search.
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// Lowers the flag (done by [`Engine::search`] on return).
    pub fn reset(&self) {
        self.0.store(false, Ordering::Relaxed);
    }

    /// The underlying flag, for callers that share their own.
    pub fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.0)
    }
}

/// Progress report sent to the info callback after every completed iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SearchInfo {
    /// Nominal depth of the iteration.
    pub depth: u32,
    /// Deepest ply reached (extensions and quiescence).
    pub seldepth: u32,
    /// Which line this is, 1 for the best (UCI `multipv`; always 1 unless
    /// [`Limits::multi_pv`] asks for more lines).
    pub multipv: usize,
    /// Score of this line for the side to move.
    pub score: Score,
    /// Nodes searched so far in this search (all threads).
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Nodes per second.
    pub nps: u64,
    /// Principal variation, first move first.
    pub pv: Vec<Move>,
    /// Transposition-table use in permille.
    pub hashfull: u32,
}

/// The outcome of [`Engine::search`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SearchResult {
    /// The move to play; `None` only when the side to move has no legal move
    /// (it has lost: R-END-MATE, R-END-STALEMATE) or every move was excluded.
    pub best_move: Option<Move>,
    /// The expected reply (second move of the PV), for pondering GUIs.
    pub ponder: Option<Move>,
    /// Score for the side to move.
    pub score: Score,
    /// Depth of the last completed iteration (0 when no move was searched).
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Total nodes searched.
    pub nodes: u64,
    /// Principal variation starting with `best_move`.
    pub pv: Vec<Move>,
    /// Wall-clock time used.
    pub time: Duration,
    /// The best lines with distinct first moves, best first, at most
    /// [`Limits::multi_pv`] (at least one when there is a move; the first is
    /// `score` and `pv`). Ordered by score; lines of an iteration cut short may
    /// have been searched one ply less deep than the first.
    pub lines: Vec<PvLine>,
}

/// One line of analysis: a root move's score and principal variation.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PvLine {
    /// Score for the side to move.
    pub score: Score,
    /// The line, first move first (never empty).
    pub pv: Vec<Move>,
}

/// What a helper search thread keeps between searches.
struct HelperState {
    heuristics: Heuristics,
    stack: SearchStack,
    eval_cache: Vec<(u64, i32)>,
}

impl HelperState {
    fn new() -> HelperState {
        HelperState {
            heuristics: Heuristics::new(),
            stack: SearchStack::new(),
            eval_cache: vec![(0, 0); HELPER_EVAL_CACHE_SIZE],
        }
    }
}

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
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("hash_mb", &self.hash_mb)
            .field("threads", &self.threads)
            .field("params", &self.params)
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

    /// A handle that stops the running search from another thread.
    pub fn stop_handle(&self) -> StopHandle {
        StopHandle(Arc::clone(&self.stop))
    }

    /// A handle that turns the running ponder search ([`Limits::ponder`])
    /// into a timed one from another thread (UCI `ponderhit`).
    pub fn ponder_handle(&self) -> PonderHandle {
        self.ponder.clone()
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
        self.eval_cache.fill((0, 0));
        for helper in &mut self.helpers {
            helper.eval_cache.fill((0, 0));
        }
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

    /// Weakens the engine ([`Skill`]); `None` is full strength.
    pub fn set_skill(&mut self, skill: Option<Skill>) {
        self.skill = skill;
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
        let helper_count = self.threads - 1;
        if self.helpers.len() < helper_count {
            self.helpers.resize_with(helper_count, HelperState::new);
        }
        let Engine {
            tt,
            heuristics,
            stack,
            stop,
            judge,
            params,
            eval_cache,
            helpers,
            ..
        } = self;
        let (tt, judge, params) = (&*tt, judge.as_ref(), &*params);
        // Raised when the main thread is done: the helpers then stop at once.
        let helpers_stop = AtomicBool::new(false);
        let counters: Vec<AtomicU64> = (0..helper_count).map(|_| AtomicU64::new(0)).collect();
        let (mut outcome, helper_nodes) = std::thread::scope(|scope| {
            let mut handles = Vec::with_capacity(helper_count);
            for (id, (helper, counter)) in helpers.iter_mut().zip(&counters).enumerate() {
                helper.heuristics.new_search();
                let mut searcher = Searcher::new(
                    root.clone(),
                    &mut helper.eval_cache,
                    tt,
                    &mut helper.heuristics,
                    &mut helper.stack,
                    judge,
                    params,
                    &helpers_stop,
                    budget.clone(),
                    None,
                    path.clone(),
                    positions.clone(),
                    root_moves.clone(),
                );
                searcher.node_counter = Some(counter);
                searcher.can_stop = true;
                let spawned = std::thread::Builder::new()
                    .name(format!("search helper {}", id + 1))
                    .spawn_scoped(scope, move || helper_iterate(&mut searcher, id + 1));
                // A helper that cannot be started is only a lost speed-up.
                if let Ok(handle) = spawned {
                    handles.push(handle);
                }
            }
            let searcher = Searcher::new(
                root.clone(),
                eval_cache,
                tt,
                heuristics,
                stack,
                judge,
                params,
                stop,
                budget,
                limits.nodes,
                path,
                positions,
                root_moves,
            );
            let helper_progress =
                || -> u64 { counters.iter().map(|c| c.load(Ordering::Relaxed)).sum() };
            let outcome = main_iterate(searcher, root, limits, &helper_progress, &mut on_info);
            helpers_stop.store(true, Ordering::Relaxed);
            let nodes: u64 = handles.into_iter().map(|h| h.join().unwrap_or(0)).sum();
            (outcome, nodes)
        });
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

/// One line of a finished iteration.
struct RootLine {
    mv: Move,
    score: i32,
    pv: Vec<Move>,
}

/// Iterative deepening on the main thread: reports, limits and the result.
/// With `multi_pv` > 1 each iteration searches the best line, then the best
/// line among the remaining root moves, and so on.
fn main_iterate(
    mut searcher: Searcher<'_>,
    root: &Position,
    limits: &Limits,
    helper_nodes: &dyn Fn() -> u64,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    let timed = searcher.budget.is_limited();
    let root_moves = std::mem::take(&mut searcher.root_moves);
    let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    let single_reply = root_moves.len() == 1;
    let wanted = limits.multi_pv.clamp(1, root_moves.len());
    // Lines of the last completed iteration, best first.
    let mut lines: Vec<RootLine> = Vec::new();
    let mut completed = 0;
    let mut seldepth = 0;
    for depth in 1..=max_depth {
        searcher.seldepth = 0;
        let mut fresh: Vec<RootLine> = Vec::with_capacity(wanted);
        let mut stopped = false;
        for index in 0..wanted {
            searcher.root_moves = root_moves
                .iter()
                .copied()
                .filter(|m| fresh.iter().all(|l| l.mv != *m))
                .collect();
            searcher.iteration_best = None;
            let previous = lines.get(index).map_or(0, |l| l.score);
            let value = searcher.aspiration(depth as i32, previous);
            if searcher.stopped {
                // Keep a move of the unfinished search only if it beat the window.
                if let Some((mv, v)) = searcher.iteration_best {
                    fresh.push(RootLine {
                        mv,
                        score: v,
                        pv: searcher.root_pv(),
                    });
                }
                stopped = true;
                break;
            }
            let pv = searcher.root_pv();
            let line = match (pv.first(), searcher.iteration_best) {
                (Some(&mv), _) => RootLine {
                    mv,
                    score: value,
                    pv,
                },
                (None, Some((mv, _))) => RootLine {
                    mv,
                    score: value,
                    pv: vec![mv],
                },
                (None, None) => match lines.get(index) {
                    Some(old) => RootLine {
                        mv: old.mv,
                        score: value,
                        pv: old.pv.clone(),
                    },
                    None => RootLine {
                        mv: searcher.root_moves[0],
                        score: value,
                        pv: vec![searcher.root_moves[0]],
                    },
                },
            };
            fresh.push(line);
        }
        if stopped {
            // Lines finished in this iteration first, then the others of the last one.
            for old in lines {
                if fresh.len() < wanted && fresh.iter().all(|l| l.mv != old.mv) {
                    fresh.push(old);
                }
            }
            lines = fresh;
            lines.sort_by_key(|l| std::cmp::Reverse(l.score));
            break;
        }
        searcher.can_stop = true;
        fresh.sort_by_key(|l| std::cmp::Reverse(l.score));
        lines = fresh;
        completed = depth;
        seldepth = searcher.seldepth as u32;
        let elapsed = searcher.budget.elapsed();
        let nodes = searcher.nodes + helper_nodes();
        for (index, line) in lines.iter().enumerate() {
            on_info(&SearchInfo {
                depth,
                seldepth,
                multipv: index + 1,
                score: from_internal(line.score),
                nodes,
                time: elapsed,
                nps: nps(nodes, elapsed),
                pv: legal_prefix(root, &line.pv),
                hashfull: searcher.tt.hashfull(),
            });
        }
        if timed {
            if searcher.budget.soft_exceeded(0.5) || (single_reply && depth >= 4) {
                break;
            }
            // A proven mate within the searched depth will not get shorter.
            let score = lines[0].score;
            if score.abs() >= MATE_BOUND && (MATE - score.abs()) as u32 <= depth {
                break;
            }
        }
    }
    if lines.is_empty() {
        // The node limit cut depth 1 short before any root move was finished.
        lines.push(RootLine {
            mv: root_moves[0],
            score: 0,
            pv: vec![root_moves[0]],
        });
    }
    let lines: Vec<PvLine> = lines
        .iter()
        .map(|l| {
            let pv = legal_prefix(root, &l.pv);
            PvLine {
                score: from_internal(l.score),
                pv: if pv.first() == Some(&l.mv) {
                    pv
                } else {
                    vec![l.mv]
                },
            }
        })
        .collect();
    let best = &lines[0];
    SearchResult {
        best_move: best.pv.first().copied(),
        ponder: best.pv.get(1).copied(),
        score: best.score,
        depth: completed,
        seldepth,
        nodes: searcher.nodes,
        pv: best.pv.clone(),
        time: searcher.budget.elapsed(),
        lines,
    }
}

/// Iterative deepening on a helper thread (Lazy SMP): its results reach the
/// main thread only through the shared transposition table. Odd helpers start
/// one ply deeper so that the threads spread over depths. Returns its node count.
fn helper_iterate(searcher: &mut Searcher<'_>, id: usize) -> u64 {
    let mut score = 0;
    for depth in (1 + (id % 2) as u32)..=MAX_DEPTH {
        searcher.iteration_best = None;
        let value = searcher.aspiration(depth as i32, score);
        if searcher.stopped {
            break;
        }
        score = value;
    }
    searcher.nodes
}

/// A seed that differs between runs, so that a weakened engine does not
/// repeat its games.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

fn nps(nodes: u64, time: Duration) -> u64 {
    let micros = time.as_micros().max(1) as u64;
    nodes.saturating_mul(1_000_000) / micros
}

/// The longest prefix of `pv` that is legal from `root` (a safety net: hash
/// collisions can in principle splice foreign moves into a PV).
fn legal_prefix(root: &Position, pv: &[Move]) -> Vec<Move> {
    let mut pos = root.clone();
    let mut out = Vec::with_capacity(pv.len());
    for &mv in pv {
        if pos.play(mv).is_err() {
            break;
        }
        out.push(mv);
    }
    out
}
