//! The search threads of one search (Lazy SMP): the main thread iterates
//! and reports ([`super::iterate`]); helpers search the same root at spread
//! depths and share what they find only through the transposition table.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use xiangqi_core::{Move, Position};

use super::iterate::main_iterate;
use super::{Engine, SearchInfo, SearchResult};
use crate::ordering::Heuristics;
use crate::search::{PathEntry, SearchStack, Searcher, HELPER_EVAL_CACHE_SIZE};
use crate::time::TimeBudget;
use crate::{Limits, MAX_DEPTH};

/// What a helper search thread keeps between searches.
pub(super) struct HelperState {
    pub(super) heuristics: Heuristics,
    pub(super) stack: SearchStack,
    pub(super) eval_cache: Vec<(u64, i32)>,
}

impl HelperState {
    pub(super) fn new() -> HelperState {
        HelperState {
            heuristics: Heuristics::new(),
            stack: SearchStack::new(),
            eval_cache: vec![(0, 0); HELPER_EVAL_CACHE_SIZE],
        }
    }
}

/// Runs the main thread and `engine.threads() - 1` helpers on `root` until
/// the main thread is done; returns its result and the helpers' node count.
#[allow(clippy::too_many_arguments)]
pub(super) fn search_all(
    engine: &mut Engine,
    root: &Position,
    limits: &Limits,
    budget: &TimeBudget,
    path: Vec<PathEntry>,
    positions: Option<Vec<Position>>,
    root_moves: Vec<Move>,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> (SearchResult, u64) {
    let helper_count = engine.threads - 1;
    if engine.helpers.len() < helper_count {
        engine.helpers.resize_with(helper_count, HelperState::new);
    }
    let with_nnue = engine.evaluates_with_nnue();
    let Engine {
        tt,
        heuristics,
        stack,
        stop,
        judge,
        params,
        eval_cache,
        helpers,
        network,
        ..
    } = engine;
    let (tt, judge, params) = (&*tt, judge.as_ref(), &*params);
    let nnue = network.as_deref().filter(|_| with_nnue);
    // Raised when the main thread is done: the helpers then stop at once.
    let helpers_stop = AtomicBool::new(false);
    let counters: Vec<AtomicU64> = (0..helper_count).map(|_| AtomicU64::new(0)).collect();
    std::thread::scope(|scope| {
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
                nnue,
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
            nnue,
            stop,
            budget.clone(),
            limits.nodes,
            path,
            positions,
            root_moves,
        );
        let helper_progress =
            || -> u64 { counters.iter().map(|c| c.load(Ordering::Relaxed)).sum() };
        let outcome = main_iterate(searcher, root, limits, &helper_progress, on_info);
        helpers_stop.store(true, Ordering::Relaxed);
        let nodes: u64 = handles.into_iter().map(|h| h.join().unwrap_or(0)).sum();
        (outcome, nodes)
    })
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
