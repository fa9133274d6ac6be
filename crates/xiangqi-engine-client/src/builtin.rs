//! Our own search (`xiangqi-search`) behind the client's interface: the
//! same [`Limit`], [`SearchOptions`] and [`Analysis`] as an external engine,
//! in process, with no protocol in between, on the search's non-blocking
//! [`SearchThread`] (so a [`SearchRemote`] stops it from anywhere, as `stop`
//! stops every other front end's search). [`BuiltinEngine`] is an
//! [`Analyser`], so a game review ([`crate::annotate`]) runs on it exactly
//! as on an external engine; the Python `SimpleEngine.builtin()` and the
//! server's reviews use it.
//!
//! The mapping is logic, not a rename: a [`Limit`] becomes the search's
//! [`Limits`] from the side to move's clock, `multipv` becomes its line
//! count (at most [`MAX_MULTI_PV`]; like an external engine it may give
//! fewer), each completed iteration becomes an [`Info`], the search's lines
//! the [`Analysis`]'s last report of each line, and a position without a
//! legal move [`EngineError::NoMove`].
//!
//! ```
//! use xiangqi_core::{Position, Score};
//! use xiangqi_engine_client::builtin::BuiltinEngine;
//! use xiangqi_engine_client::{Limit, SearchOptions};
//!
//! let mut engine = BuiltinEngine::new(4);
//! let mate_in_one = Position::from_fen("5k3/9/9/9/8R/9/9/9/9/4K4 w - - 0 1").unwrap();
//! let analysis = engine
//!     .search(&mate_in_one, &[], SearchOptions::new(Limit::depth(3)))
//!     .unwrap();
//! assert_eq!(analysis.best_move.to_string(), "i5f5");
//! assert_eq!(analysis.evaluation().unwrap().score, Score::Mate(1));
//! ```

use xiangqi_core::{Color, Move, Position, Score};
use xiangqi_search::{Limits, SearchInfo, SearchRemote, SearchResult, SearchThread, MAX_MULTI_PV};

use crate::annotate::Analyser;
use crate::engine::{Analysis, Info, SearchOptions};
use crate::error::EngineError;
use crate::score::Evaluation;
use crate::spec::Limit;

/// The built-in search, driven like an external engine.
///
/// A search in process cannot hang, so [`SearchOptions::timeout`] does not
/// apply: a search ends at its limit, or early through
/// [`BuiltinEngine::remote`] with the best move so far.
#[derive(Debug, Default)]
pub struct BuiltinEngine {
    search: SearchThread,
}

impl BuiltinEngine {
    /// Our search with a transposition table of `hash_mb` MiB (clamped to
    /// the search's range), one thread.
    pub fn new(hash_mb: usize) -> BuiltinEngine {
        BuiltinEngine::from_engine(xiangqi_search::Engine::new(hash_mb))
    }

    /// A search already set up (threads, skill, weights).
    pub fn from_engine(engine: xiangqi_search::Engine) -> BuiltinEngine {
        BuiltinEngine {
            search: SearchThread::new(engine),
        }
    }

    /// The engine's name, as external engines give theirs: `xiangqi VERSION`.
    pub fn name() -> String {
        format!("xiangqi {}", env!("CARGO_PKG_VERSION"))
    }

    /// The search, to read or change its settings (threads, hash, skill).
    pub fn engine_mut(&mut self) -> &mut xiangqi_search::Engine {
        self.search.engine()
    }

    /// A handle that ends the running search early from another thread; it
    /// still answers with the best move so far. A stop while no search runs
    /// does nothing.
    pub fn remote(&self) -> SearchRemote {
        self.search.remote()
    }

    /// Forgets the hash table and move-ordering history.
    pub fn new_game(&mut self) {
        self.search.engine().new_game();
    }

    /// Searches the position after `moves` from `start`, as
    /// [`Engine::search`](crate::Engine::search) does for an external engine.
    pub fn search(
        &mut self,
        start: &Position,
        moves: &[Move],
        options: SearchOptions,
    ) -> Result<Analysis, EngineError> {
        self.search_reporting(start, moves, options, |_| {})
    }

    /// [`BuiltinEngine::search`], calling `on_info` with each line of every
    /// completed iteration (best line first), as an engine's `info` lines.
    pub fn search_reporting(
        &mut self,
        start: &Position,
        moves: &[Move],
        options: SearchOptions,
        mut on_info: impl FnMut(&Info),
    ) -> Result<Analysis, EngineError> {
        let (root, history) = start
            .replay(moves)
            .map_err(|e| EngineError::Unsupported(format!("cannot search after the moves: {e}")))?;
        let turn = root.side_to_move();
        if options.limit.is_empty() {
            return Err(EngineError::Unsupported(
                "a search needs a limit (time, depth, nodes, mate or clocks)".into(),
            ));
        }
        let limits = limits_of(options, turn);
        let remote = self.search.remote();
        let mate = options.limit.mate;
        let result = self
            .search
            .search(root, history, limits, |info| {
                if mate_found(info, mate) {
                    remote.stop();
                }
                on_info(&iteration_info(info))
            })
            .map_err(|e| EngineError::Died {
                status: e.to_string(),
            })?;
        analysis_of(result, turn)
    }
}

/// The search's limits for one client search by `turn`'s side.
fn limits_of(options: SearchOptions, turn: Color) -> Limits {
    let mut limits = Limits {
        multi_pv: (options.multipv.max(1) as usize).min(MAX_MULTI_PV),
        ..Limits::default()
    };
    let limit = options.limit;
    limits.move_time = limit.move_time;
    limits.nodes = limit.nodes;
    // The search has no mate mode: a mate in N of the mover's moves lies
    // within 2N-1 plies, and the search stops at the first mate that short
    // (`mate_found`).
    let mate_depth = limit.mate.map(|m| (2 * m).saturating_sub(1).max(1));
    limits.depth = [limit.depth, mate_depth].into_iter().flatten().min();
    if let Some(c) = limit.clock {
        limits.time_left = Some(c.left(turn));
        limits.increment = Some(c.increment(turn));
        limits.moves_to_go = c.moves_to_go;
    }
    limits
}

/// Whether `info` reports a mate for the mover within `moves` of its moves.
fn mate_found(info: &SearchInfo, moves: Option<u32>) -> bool {
    matches!((info.score, moves), (Score::Mate(n), Some(m)) if n > 0 && n.unsigned_abs() <= m)
}

/// One iteration's report of one line.
fn iteration_info(info: &SearchInfo) -> Info {
    Info {
        multipv: info.multipv as u32,
        depth: Some(info.depth),
        seldepth: Some(info.seldepth),
        evaluation: Some(Evaluation::exact(info.score)),
        nodes: Some(info.nodes),
        nps: Some(info.nps),
        time: Some(info.time),
        pv: info.pv.clone(),
    }
}

/// The client's answer from the search's result: every line with the
/// search's depth, nodes and time, best first.
fn analysis_of(result: SearchResult, turn: Color) -> Result<Analysis, EngineError> {
    let best_move = result.best_move.ok_or_else(|| EngineError::NoMove {
        line: "the built-in engine found no move".into(),
    })?;
    let secs = result.time.as_secs_f64();
    let nps = (secs > 0.0).then(|| (result.nodes as f64 / secs) as u64);
    let line = |multipv: u32, score, pv: Vec<Move>| Info {
        multipv,
        depth: Some(result.depth),
        seldepth: Some(result.seldepth),
        evaluation: Some(Evaluation::exact(score)),
        nodes: Some(result.nodes),
        nps,
        time: Some(result.time),
        pv,
    };
    let lines = if result.lines.is_empty() {
        // A search cut before its first line still has its move and PV.
        vec![line(1, result.score, result.pv.clone())]
    } else {
        result
            .lines
            .iter()
            .zip(1..)
            .map(|(l, multipv)| line(multipv, l.score, l.pv.clone()))
            .collect()
    };
    Ok(Analysis {
        best_move,
        best_text: best_move.to_string(),
        ponder: result.ponder,
        lines,
        turn,
        elapsed: result.time,
    })
}

impl Analyser for BuiltinEngine {
    fn new_game(&mut self, _start: &Position, _limit: Limit) -> Result<(), EngineError> {
        BuiltinEngine::new_game(self);
        Ok(())
    }

    fn analyse(
        &mut self,
        start: &Position,
        moves: &[Move],
        options: SearchOptions,
    ) -> Result<Analysis, EngineError> {
        self.search(start, moves, options)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use xiangqi_core::Score;

    use super::*;
    use crate::annotate::{review_moves, Judgement, ReviewOptions};
    use crate::spec::Clock;

    const MATE_IN_ONE: &str = "5k3/9/9/9/8R/9/9/9/9/4K4 w - - 0 1";

    fn moves(text: &str) -> Vec<Move> {
        text.split_whitespace()
            .map(|m| m.parse().unwrap())
            .collect()
    }

    fn options(limit: Limit, multipv: u32) -> SearchOptions {
        SearchOptions {
            limit,
            multipv,
            timeout: None,
        }
    }

    #[test]
    fn finds_the_mate_with_its_line_and_score() {
        let mut engine = BuiltinEngine::new(1);
        let start = Position::from_fen(MATE_IN_ONE).unwrap();
        let analysis = engine
            .search(&start, &[], SearchOptions::new(Limit::depth(3)))
            .unwrap();
        assert_eq!(analysis.best_move, "i5f5".parse().unwrap());
        assert_eq!(analysis.best_text, "i5f5");
        assert_eq!(analysis.turn, Color::Red);
        assert_eq!(analysis.lines.len(), 1);
        let best = &analysis.lines[0];
        assert_eq!(best.multipv, 1);
        assert_eq!(best.depth, Some(3));
        assert_eq!(best.evaluation, Some(Evaluation::exact(Score::Mate(1))));
        assert_eq!(best.pv[0], analysis.best_move);
        assert!(best.nodes.unwrap() > 0 && best.time.is_some());
    }

    #[test]
    fn multipv_gives_distinct_lines_best_first() {
        let mut engine = BuiltinEngine::new(1);
        let start = Position::from_fen(MATE_IN_ONE).unwrap();
        let analysis = engine
            .search(&start, &[], options(Limit::depth(3), 3))
            .unwrap();
        assert_eq!(
            analysis.lines.iter().map(|l| l.multipv).collect::<Vec<_>>(),
            [1, 2, 3]
        );
        let firsts: Vec<String> = analysis.lines.iter().map(|l| l.pv[0].to_string()).collect();
        // i5f5 and i5i8 both mate at once; the third line does not.
        let mut mates = firsts[..2].to_vec();
        mates.sort();
        assert_eq!(mates, ["i5f5", "i5i8"]);
        assert_ne!(firsts[2], firsts[0]);
        assert_ne!(firsts[2], firsts[1]);
        let scores: Vec<Score> = analysis
            .lines
            .iter()
            .map(|l| l.evaluation.unwrap().score)
            .collect();
        assert_eq!(scores[..2], [Score::Mate(1), Score::Mate(1)]);
        assert_ne!(scores[2], Score::Mate(1));
        assert!(analysis
            .lines
            .iter()
            .all(|l| l.depth == Some(3) && l.nodes == analysis.lines[0].nodes));
        assert_eq!(analysis.lines[0].pv[0], analysis.best_move);
    }

    #[test]
    fn multipv_is_capped_by_the_moves_and_the_search() {
        let mut engine = BuiltinEngine::new(1);
        let analysis = engine
            .search(&Position::startpos(), &[], options(Limit::depth(1), 500))
            .unwrap();
        // 44 legal moves at the start, each a line.
        assert_eq!(analysis.lines.len(), 44);
        assert!(analysis.lines.len() <= MAX_MULTI_PV);
    }

    #[test]
    fn searches_after_the_moves_from_the_side_to_move_view() {
        let mut engine = BuiltinEngine::new(1);
        let played = moves("h2e2 h9g7 e2e6");
        let analysis = engine
            .search(&Position::startpos(), &played, options(Limit::depth(3), 1))
            .unwrap();
        assert_eq!(analysis.turn, Color::Black);
        let after = Position::startpos().after_moves(played).unwrap();
        assert!(after.check_legal(analysis.best_move).is_ok());
        if let Some(ponder) = analysis.ponder {
            let next = after.after(analysis.best_move).unwrap();
            assert!(next.check_legal(ponder).is_ok());
        }
    }

    #[test]
    fn node_move_time_and_clock_limits() {
        let mut engine = BuiltinEngine::new(1);
        let start = Position::startpos();
        let by_nodes = engine
            .search(&start, &[], options(Limit::nodes(2_000), 1))
            .unwrap();
        assert!(by_nodes.lines[0].nodes.unwrap() <= 2_100);
        let timed = engine
            .search(
                &start,
                &[],
                options(Limit::move_time(Duration::from_millis(50)), 1),
            )
            .unwrap();
        assert!(timed.elapsed < Duration::from_secs(5));
        let clock = Clock::new(Duration::from_millis(300), Duration::ZERO);
        let on_clock = engine
            .search(&start, &[], options(Limit::clock(clock), 1))
            .unwrap();
        assert!(on_clock.elapsed < Duration::from_millis(300));
    }

    #[test]
    fn combined_limits_stop_at_the_first_reached() {
        let mut engine = BuiltinEngine::new(1);
        let start = Position::startpos();
        // Depth 30 is out of reach in 0.2 s: the time ends the search.
        let deep_but_timed = Limit {
            depth: Some(30),
            move_time: Some(Duration::from_millis(200)),
            ..Limit::default()
        };
        let analysis = engine
            .search(&start, &[], options(deep_but_timed, 1))
            .unwrap();
        assert!(analysis.lines[0].depth.unwrap() < 30);
        // A small clock for Red, a big one for Black: Red's search answers.
        let clock = Clock {
            red: Duration::from_millis(100),
            black: Duration::from_secs(600),
            red_increment: Duration::ZERO,
            black_increment: Duration::from_secs(5),
            moves_to_go: None,
        };
        let shallow_on_clock = Limit {
            depth: Some(2),
            ..Limit::clock(clock)
        };
        let answered = engine
            .search(&start, &[], options(shallow_on_clock, 1))
            .unwrap();
        assert!(start.check_legal(answered.best_move).is_ok());
        assert!(answered.lines[0].depth.unwrap() <= 2);
    }

    #[test]
    fn mate_limits_bound_the_depth_and_stop_at_the_mate() {
        let mut engine = BuiltinEngine::new(1);
        let start = Position::from_fen(MATE_IN_ONE).unwrap();
        let mate = engine
            .search(&start, &[], options(Limit::mate(1), 1))
            .unwrap();
        assert_eq!(mate.best_move.to_string(), "i5f5");
        assert_eq!(mate.evaluation().unwrap().score, Score::Mate(1));
        // No mate in 2 at the start: the search ends at 3 plies.
        let none = engine
            .search(&Position::startpos(), &[], options(Limit::mate(2), 1))
            .unwrap();
        assert!(none.lines[0].depth.unwrap() <= 3);
        let empty = engine.search(&start, &[], options(Limit::default(), 1));
        assert!(
            matches!(empty, Err(EngineError::Unsupported(_))),
            "{empty:?}"
        );
    }

    #[test]
    fn reports_every_iteration() {
        let mut engine = BuiltinEngine::new(1);
        let mut depths = Vec::new();
        let analysis = engine
            .search_reporting(
                &Position::startpos(),
                &[],
                options(Limit::depth(4), 2),
                |info| depths.push((info.depth.unwrap(), info.multipv)),
            )
            .unwrap();
        assert_eq!(depths.last(), Some(&(4, 2)));
        assert!(depths.contains(&(1, 1)) && depths.contains(&(4, 1)));
        assert_eq!(analysis.lines.len(), 2);
    }

    #[test]
    fn no_legal_move_and_illegal_moves_are_errors() {
        let mut engine = BuiltinEngine::new(1);
        let start = Position::from_fen(MATE_IN_ONE).unwrap();
        let mated = engine.search(&start, &moves("i5f5"), SearchOptions::new(Limit::depth(2)));
        assert!(
            matches!(mated, Err(EngineError::NoMove { .. })),
            "{mated:?}"
        );
        let illegal = engine.search(&start, &moves("a0a1"), SearchOptions::new(Limit::depth(2)));
        assert!(
            matches!(illegal, Err(EngineError::Unsupported(_))),
            "{illegal:?}"
        );
    }

    #[test]
    fn a_stop_ends_the_search_with_a_move() {
        let mut engine = BuiltinEngine::new(1);
        let remote = engine.remote();
        // Sent while idle: it does nothing, the search below still runs.
        remote.stop();
        let stopper = std::thread::spawn(move || {
            while !remote.is_searching() {
                std::thread::sleep(Duration::from_millis(5));
            }
            std::thread::sleep(Duration::from_millis(100));
            remote.stop();
        });
        let analysis = engine
            .search(
                &Position::startpos(),
                &[],
                options(Limit::move_time(Duration::from_secs(60)), 1),
            )
            .unwrap();
        stopper.join().unwrap();
        assert!(analysis.elapsed < Duration::from_secs(10));
        assert!(analysis.lines[0].depth.unwrap() >= 1);
        assert!(Position::startpos().check_legal(analysis.best_move).is_ok());
    }

    #[test]
    fn reviews_a_game_as_an_analyser() {
        let mut engine = BuiltinEngine::new(1);
        // a9b9 leaves the horse on g7 to the chariot.
        let played = moves("h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 h0h6 c6c5 h6g6 a9b9");
        let review = review_moves(
            &mut engine,
            &Position::startpos(),
            &played,
            &ReviewOptions::new(SearchOptions::new(Limit::depth(3))),
            |_, _| {},
        )
        .unwrap();
        assert_eq!(review.len(), 10);
        let last = &review[9];
        assert_eq!(last.judgement, Some(Judgement::Blunder));
        assert!(last.best_line.as_ref().is_some_and(|l| !l.is_empty()));
    }
}
