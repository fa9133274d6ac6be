//! The public engine: [`Engine`], its inputs ([`Limits`], game history) and
//! outputs ([`SearchInfo`] per iteration, [`SearchResult`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use xiangqi_core::{Move, MoveList, PlayError, Position};

use crate::eval::EvalParams;
use crate::ordering::{Heuristics, MAX_PLY};
use crate::repetition::{AdjudicationJudge, RepetitionJudge};
use crate::score::{Score, INFINITY, MATE, MATE_BOUND};
use crate::search::{PathEntry, Searcher, EVAL_CACHE_SIZE};
use crate::time::TimeBudget;
use crate::tt::TranspositionTable;
use crate::Limits;

/// Deepest nominal depth an iteration may reach.
pub const MAX_DEPTH: u32 = (MAX_PLY as u32) - 28;
/// Default transposition-table size in MiB.
pub const DEFAULT_HASH_MB: usize = 16;
/// Largest transposition table accepted, in MiB.
pub const MAX_HASH_MB: usize = 32 * 1024;

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
    /// Score for the side to move.
    pub score: Score,
    /// Nodes searched so far in this search.
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
}

/// A position that a move list could not reach.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {number} ({mv}) cannot be played: {source}")]
pub struct ReplayError {
    /// 1-based index of the offending move.
    pub number: usize,
    /// The move.
    pub mv: Move,
    /// Why it is illegal.
    #[source]
    pub source: PlayError,
}

/// Plays `moves` from `start`, returning the final position and the
/// positions before it (oldest first): the `history` argument of [`Engine::search`].
///
/// ```
/// use xiangqi_core::Position;
/// let moves = ["h2e2".parse().unwrap(), "h9g7".parse().unwrap()];
/// let (pos, history) = xiangqi_search::replay(&Position::startpos(), &moves).unwrap();
/// assert_eq!(history.len(), 2);
/// assert_eq!(history[0], Position::startpos());
/// assert!(xiangqi_search::replay(&pos, &moves).is_err()); // h2 is empty now
/// ```
pub fn replay(start: &Position, moves: &[Move]) -> Result<(Position, Vec<Position>), ReplayError> {
    let mut pos = start.clone();
    let mut history = Vec::with_capacity(moves.len());
    for (i, &mv) in moves.iter().enumerate() {
        let before = pos.clone();
        pos.play(mv).map_err(|source| ReplayError {
            number: i + 1,
            mv,
            source,
        })?;
        history.push(before);
    }
    Ok((pos, history))
}

/// A single-threaded alpha-beta engine with its transposition table.
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
    stop: Arc<AtomicBool>,
    judge: Box<dyn RepetitionJudge>,
    params: EvalParams,
    eval_cache: Vec<(u64, i32)>,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("hash_mb", &self.hash_mb)
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
            stop: Arc::new(AtomicBool::new(false)),
            judge: Box::new(AdjudicationJudge::default()),
            params: EvalParams::default(),
            eval_cache: vec![(0, 0); EVAL_CACHE_SIZE],
        }
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
    }

    /// Same as [`new_game`](Engine::new_game).
    pub fn clear_hash(&mut self) {
        self.new_game();
    }

    /// A handle that stops the running search from another thread.
    pub fn stop_handle(&self) -> StopHandle {
        StopHandle(Arc::clone(&self.stop))
    }

    /// Replaces how repetitions inside the search are scored (default:
    /// [`AdjudicationJudge`], the full rules of section 5 including perpetual chase).
    pub fn set_repetition_judge(&mut self, judge: Box<dyn RepetitionJudge>) {
        self.judge = judge;
    }

    /// Replaces the evaluation parameters (for tuning and ablation runs).
    pub fn set_eval_params(&mut self, params: EvalParams) {
        self.params = params;
        self.eval_cache.fill((0, 0));
    }

    /// Searches `root` within `limits`, calling `on_info` after each completed iteration.
    ///
    /// `history` holds the positions of the game before `root`, oldest first
    /// (see [`replay`]); it is used only to recognise repetitions. Pass `&[]`
    /// when there is none. With a fixed depth or node limit the result,
    /// including the node count, depends only on the inputs and on what the
    /// hash table holds (call [`new_game`](Engine::new_game) for a clean start).
    pub fn search(
        &mut self,
        root: &Position,
        history: &[Position],
        limits: &Limits,
        mut on_info: impl FnMut(&SearchInfo),
    ) -> SearchResult {
        let start = Instant::now();
        let budget = TimeBudget::new(limits, start);
        let timed = budget.is_limited();

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
            };
        }

        let (path, positions) = self.build_path(root, history);
        self.tt.new_search();
        self.heuristics.new_search();
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let single_reply = root_moves.len() == 1;
        let mut searcher = Searcher::new(
            root.clone(),
            &mut self.eval_cache,
            &mut self.tt,
            &mut self.heuristics,
            self.judge.as_ref(),
            &self.params,
            &self.stop,
            budget.clone(),
            limits.nodes,
            path,
            positions,
            root_moves.clone(),
        );

        let mut best_move = root_moves[0];
        let mut pv = vec![best_move];
        let mut score: i32 = 0;
        let mut completed = 0;
        let mut seldepth = 0;
        for depth in 1..=max_depth {
            searcher.iteration_best = None;
            searcher.seldepth = 0;
            let mut delta = 25;
            let (mut alpha, mut beta) = if depth >= 5 && score.abs() < MATE_BOUND {
                (score - delta, score + delta)
            } else {
                (-INFINITY, INFINITY)
            };
            let value = loop {
                let v = searcher.search(depth as i32, 0, alpha, beta, true);
                if searcher.stopped {
                    break v;
                }
                if v <= alpha {
                    beta = (alpha + beta) / 2;
                    alpha = (v - delta).max(-INFINITY);
                } else if v >= beta {
                    beta = (v + delta).min(INFINITY);
                } else {
                    break v;
                }
                delta += delta;
                if delta > 600 {
                    alpha = -INFINITY;
                    beta = INFINITY;
                }
            };
            if searcher.stopped {
                // Keep a move of the unfinished iteration only if it beat the window.
                if let Some((mv, v)) = searcher.iteration_best {
                    best_move = mv;
                    score = v;
                    pv = searcher.root_pv();
                }
                break;
            }
            searcher.can_stop = true;
            score = value;
            completed = depth;
            seldepth = searcher.seldepth as u32;
            pv = searcher.root_pv();
            if let Some(&first) = pv.first() {
                best_move = first;
            } else if let Some((mv, _)) = searcher.iteration_best {
                best_move = mv;
                pv = vec![mv];
            }
            let elapsed = searcher.budget.elapsed();
            on_info(&SearchInfo {
                depth,
                seldepth,
                score: Score::from_internal(score),
                nodes: searcher.nodes,
                time: elapsed,
                nps: nps(searcher.nodes, elapsed),
                pv: legal_prefix(root, &pv),
                hashfull: searcher.tt.hashfull(),
            });
            if timed {
                if searcher.budget.soft_exceeded(0.5) || (single_reply && depth >= 4) {
                    break;
                }
                // A proven mate within the searched depth will not get shorter.
                if score.abs() >= MATE_BOUND && (MATE - score.abs()) as u32 <= depth {
                    break;
                }
            }
        }
        let nodes = searcher.nodes;
        drop(searcher);
        self.stop.store(false, Ordering::Relaxed);
        let pv = legal_prefix(root, &pv);
        SearchResult {
            best_move: Some(best_move),
            ponder: pv.get(1).copied(),
            score: Score::from_internal(score),
            depth: completed,
            seldepth,
            nodes,
            pv: if pv.first() == Some(&best_move) {
                pv
            } else {
                vec![best_move]
            },
            time: start.elapsed(),
        }
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
