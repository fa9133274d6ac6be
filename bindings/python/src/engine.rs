//! `xiangqi.Engine`: the search crate's engine, driven from Python.
//!
//! A search runs on a helper thread with the GIL released, so other Python
//! threads and notebook kernels stay responsive. The calling thread wakes
//! every few milliseconds to run Python's signal handlers: a
//! `KeyboardInterrupt` (or any exception a handler raises) stops the search
//! and is re-raised once the search has stopped. `stop()` from another
//! thread ends a search early with the best result so far.

use std::sync::mpsc;
use std::sync::Mutex;
use std::time::Duration;

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use xiangqi_core::Move;
use xiangqi_search::{Engine, Limits, PvLine, Score, SearchResult, StopHandle};

use crate::board::PyBoard;
use crate::errors::{int_arg, to_py};
use crate::pickle::{self, DurationState, ScoreState};
use crate::types::{PyColor, PyMove};

/// How often the waiting thread checks for signals.
const SIGNAL_POLL: Duration = Duration::from_millis(20);

/// An evaluation: centipawns or a mate distance, from one side's point of view.
#[pyclass(module = "xiangqi", name = "Score", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyScore(pub Score);

#[pymethods]
impl PyScore {
    /// Centipawns, or `None` for a mate score.
    #[getter]
    fn cp(&self) -> Option<i32> {
        match self.0 {
            Score::Cp(v) => Some(v),
            Score::Mate(_) => None,
        }
    }

    /// Moves to mate (positive: this side mates; negative: it is mated), or `None`.
    #[getter]
    fn mate(&self) -> Option<i32> {
        match self.0 {
            Score::Mate(n) => Some(n),
            Score::Cp(_) => None,
        }
    }

    /// True for a mate score.
    fn is_mate(&self) -> bool {
        self.0.is_mate()
    }

    /// A number for plotting: the centipawns, or +/-`mate_score` minus the
    /// distance for mates (so a nearer mate is a larger magnitude).
    #[pyo3(signature = (*, mate_score = 10_000))]
    fn score(&self, mate_score: i32) -> i32 {
        match self.0 {
            Score::Cp(v) => v,
            Score::Mate(n) if n >= 0 => mate_score.saturating_sub(n),
            Score::Mate(n) => -mate_score.saturating_add(n),
        }
    }

    /// The same evaluation from the other side's point of view.
    fn __neg__(&self) -> PyScore {
        PyScore(match self.0 {
            Score::Cp(v) => Score::Cp(-v),
            Score::Mate(n) => Score::Mate(-n),
        })
    }

    /// `"cp 35"` or `"mate 3"`, as UCI writes it.
    fn __str__(&self) -> String {
        self.0.to_string()
    }

    /// `Score(cp=31)` or `Score(mate=-2)`; the engine client's scores print the same.
    pub(crate) fn __repr__(&self) -> String {
        match self.0 {
            Score::Cp(v) => format!("Score(cp={v})"),
            Score::Mate(n) => format!("Score(mate={n})"),
        }
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        pickle::reduce::<PyScore>(py, pickle::score_state(self.0))
    }

    #[staticmethod]
    fn _restore(state: ScoreState) -> PyScore {
        PyScore(pickle::score(state))
    }
}

/// What pickles an [`PyAnalysis`]: best move, ponder, score, depth,
/// seldepth, nodes, PV, time, the lines (score and PV each), turn.
type AnalysisState = (
    Option<String>,
    Option<String>,
    ScoreState,
    u32,
    u32,
    u64,
    String,
    DurationState,
    Vec<(ScoreState, String)>,
    String,
);

/// What a search found.
#[pyclass(module = "xiangqi", name = "Analysis", frozen)]
pub struct PyAnalysis {
    result: SearchResult,
    turn: xiangqi_core::Color,
}

impl PyAnalysis {
    /// The analysis of one of the lines of a MultiPV search: that line's
    /// move, score and PV with the search's depth, nodes and time.
    fn of_line(result: &SearchResult, line: &PvLine, turn: xiangqi_core::Color) -> PyAnalysis {
        PyAnalysis {
            result: SearchResult {
                best_move: line.pv.first().copied(),
                ponder: line.pv.get(1).copied(),
                score: line.score,
                pv: line.pv.clone(),
                lines: vec![line.clone()],
                ..result.clone()
            },
            turn,
        }
    }
}

/// `analyse` gives one `Analysis`, or a list of them when `multipv` is given.
#[derive(IntoPyObject)]
enum AnalyseOutput {
    One(PyAnalysis),
    Lines(Vec<PyAnalysis>),
}

#[pymethods]
impl PyAnalysis {
    /// The best move, or `None` when the side to move has no legal move.
    #[getter]
    fn best_move(&self) -> Option<PyMove> {
        self.result.best_move.map(PyMove)
    }

    /// The expected reply to the best move, if known.
    #[getter]
    fn ponder(&self) -> Option<PyMove> {
        self.result.ponder.map(PyMove)
    }

    /// The score from the point of view of the side to move.
    #[getter]
    fn score(&self) -> PyScore {
        PyScore(self.result.score)
    }

    /// The score from Red's point of view (handy for evaluation curves).
    #[getter]
    fn red_score(&self) -> PyScore {
        let s = PyScore(self.result.score);
        match self.turn {
            xiangqi_core::Color::Red => s,
            xiangqi_core::Color::Black => s.__neg__(),
        }
    }

    /// The side to move in the analysed position.
    #[getter]
    fn turn(&self) -> PyColor {
        self.turn.into()
    }

    /// The principal variation, starting with the best move.
    #[getter]
    fn pv(&self) -> Vec<PyMove> {
        self.result.pv.iter().copied().map(PyMove).collect()
    }

    /// The deepest completed iteration.
    #[getter]
    fn depth(&self) -> u32 {
        self.result.depth
    }

    /// The deepest ply reached, extensions and quiescence included.
    #[getter]
    fn seldepth(&self) -> u32 {
        self.result.seldepth
    }

    /// Nodes searched.
    #[getter]
    fn nodes(&self) -> u64 {
        self.result.nodes
    }

    /// Seconds spent.
    #[getter]
    fn time(&self) -> f64 {
        self.result.time.as_secs_f64()
    }

    /// Nodes per second.
    #[getter]
    fn nps(&self) -> u64 {
        let secs = self.result.time.as_secs_f64();
        if secs > 0.0 {
            (self.result.nodes as f64 / secs) as u64
        } else {
            0
        }
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let r = &self.result;
        let state: AnalysisState = (
            r.best_move.map(|m| m.to_string()),
            r.ponder.map(|m| m.to_string()),
            pickle::score_state(r.score),
            r.depth,
            r.seldepth,
            r.nodes,
            pickle::moves_state(&r.pv),
            pickle::duration_state(r.time),
            r.lines
                .iter()
                .map(|l| (pickle::score_state(l.score), pickle::moves_state(&l.pv)))
                .collect(),
            pickle::color_state(self.turn).to_owned(),
        );
        pickle::reduce::<PyAnalysis>(py, state)
    }

    #[staticmethod]
    fn _restore(state: AnalysisState) -> PyResult<PyAnalysis> {
        const WHAT: &str = "an Analysis";
        let (best, ponder, score, depth, seldepth, nodes, pv, time, lines, turn) = state;
        let one = |m: Option<String>| m.map(|m| pickle::one_move(&m, WHAT)).transpose();
        let lines = lines
            .into_iter()
            .map(|(score, pv)| {
                Ok(PvLine {
                    score: pickle::score(score),
                    pv: pickle::moves(&pv, WHAT)?,
                })
            })
            .collect::<PyResult<_>>()?;
        Ok(PyAnalysis {
            result: SearchResult {
                best_move: one(best)?,
                ponder: one(ponder)?,
                score: pickle::score(score),
                depth,
                seldepth,
                nodes,
                pv: pickle::moves(&pv, WHAT)?,
                time: pickle::duration(time, WHAT)?,
                lines,
            },
            turn: pickle::color(&turn, WHAT)?,
        })
    }

    fn __repr__(&self) -> String {
        let best = self
            .result
            .best_move
            .map_or("None".to_owned(), |m| format!("'{m}'"));
        let pv: Vec<String> = self.result.pv.iter().map(Move::to_string).collect();
        format!(
            "Analysis(best_move={best}, score={}, depth={}, nodes={}, pv='{}')",
            PyScore(self.result.score).__repr__(),
            self.result.depth,
            self.result.nodes,
            pv.join(" ")
        )
    }
}

/// The built-in engine: alpha-beta with a transposition table of `hash_mb`
/// MiB, searching with `threads` threads that share it (Lazy SMP).
#[pyclass(module = "xiangqi", name = "Engine", frozen)]
pub struct PyEngine {
    engine: Mutex<Engine>,
    stop: StopHandle,
}

/// An integer argument in `1..=max`.
fn count_arg(value: &Bound<'_, PyAny>, name: &str, max: usize) -> PyResult<usize> {
    let n = int_arg(value, name)?;
    if !(1..=max as i64).contains(&n) {
        return Err(PyValueError::new_err(format!(
            "{name} {n} is not in 1..={max}"
        )));
    }
    Ok(n as usize)
}

fn limits(
    depth: Option<&Bound<'_, PyAny>>,
    movetime: Option<f64>,
    nodes: Option<&Bound<'_, PyAny>>,
) -> PyResult<Limits> {
    let mut limits = Limits::default();
    if let Some(depth) = depth {
        let d = int_arg(depth, "depth")?;
        let max = i64::from(xiangqi_search::MAX_DEPTH);
        if !(1..=max).contains(&d) {
            return Err(PyValueError::new_err(format!(
                "depth {d} is not in 1..={max}"
            )));
        }
        limits.depth = Some(d as u32);
    }
    if let Some(secs) = movetime {
        if !(secs.is_finite() && secs > 0.0 && secs <= 1.0e6) {
            return Err(PyValueError::new_err(format!(
                "movetime {secs} must be a positive number of seconds"
            )));
        }
        limits.move_time = Some(Duration::from_secs_f64(secs));
    }
    if let Some(nodes) = nodes {
        let n = int_arg(nodes, "nodes")?;
        if n < 1 {
            return Err(PyValueError::new_err(format!("nodes {n} must be positive")));
        }
        limits.nodes = Some(n as u64);
    }
    if limits.depth.is_none() && limits.move_time.is_none() && limits.nodes.is_none() {
        return Err(PyValueError::new_err(
            "give a limit: depth=..., movetime=... (seconds) or nodes=...",
        ));
    }
    Ok(limits)
}

impl PyEngine {
    fn run(&self, py: Python<'_>, board: &PyBoard, limits: Limits) -> PyResult<PyAnalysis> {
        let (result, turn) = self.search(py, board, limits)?;
        Ok(PyAnalysis { result, turn })
    }

    fn search(
        &self,
        py: Python<'_>,
        board: &PyBoard,
        limits: Limits,
    ) -> PyResult<(SearchResult, xiangqi_core::Color)> {
        let moves: Vec<Move> = board.moves().collect();
        let (root, history) = board
            .root_position()
            .replay(&moves)
            .map_err(|e| to_py(e.error))?;
        let turn = root.side_to_move();
        let mut engine = self
            .engine
            .try_lock()
            .map_err(|_| PyRuntimeError::new_err("this engine is already searching"))?;
        self.stop.reset();
        let (tx, rx) = mpsc::channel();
        // A Mutex makes the receiver shareable with the GIL-free closure below.
        let rx = Mutex::new(rx);
        let mut interrupted = None;
        std::thread::scope(|scope| {
            let engine = &mut *engine;
            let (root, history, limits) = (&root, &history, &limits);
            scope.spawn(move || {
                let result = engine.search(root, history, limits, |_| {});
                // The receiver outlives the scope; a send cannot fail.
                let _ = tx.send(result);
            });
            loop {
                let received = py.detach(|| {
                    rx.lock()
                        .unwrap_or_else(|poisoned| poisoned.into_inner())
                        .recv_timeout(SIGNAL_POLL)
                });
                match received {
                    Ok(result) => return Some(result),
                    Err(mpsc::RecvTimeoutError::Disconnected) => return None,
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        if let Err(e) = py.check_signals() {
                            if interrupted.is_none() {
                                self.stop.stop();
                                interrupted = Some(e);
                            }
                        }
                    }
                }
            }
        })
        .map_or_else(
            || {
                Err(PyRuntimeError::new_err(
                    "the search thread ended without a result",
                ))
            },
            |result| match interrupted.take() {
                Some(e) => Err(e),
                None => Ok((result, turn)),
            },
        )
    }
}

#[pymethods]
impl PyEngine {
    #[new]
    #[pyo3(signature = (hash_mb = None, *, threads = None))]
    fn new(
        hash_mb: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let mb = match hash_mb {
            Some(mb) => int_arg(mb, "hash_mb")?,
            None => xiangqi_search::DEFAULT_HASH_MB as i64,
        };
        let max = xiangqi_search::MAX_HASH_MB as i64;
        if !(1..=max).contains(&mb) {
            return Err(PyValueError::new_err(format!(
                "hash_mb {mb} is not in 1..={max}"
            )));
        }
        let mut engine = Engine::new(mb as usize);
        if let Some(threads) = threads {
            engine.set_threads(count_arg(threads, "threads", xiangqi_search::MAX_THREADS)?);
        }
        let stop = engine.stop_handle();
        Ok(PyEngine {
            engine: Mutex::new(engine),
            stop,
        })
    }

    /// Searches the board's position (its move stack counts for
    /// repetitions) within the limits: `depth` (plies), `movetime`
    /// (seconds) and/or `nodes`; the first reached ends the search.
    /// With `multipv=K` it returns a list of up to K analyses, one per
    /// line with a distinct first move, best first.
    #[pyo3(signature = (board, *, depth = None, movetime = None, nodes = None, multipv = None))]
    fn analyse(
        &self,
        py: Python<'_>,
        board: PyRef<'_, PyBoard>,
        depth: Option<&Bound<'_, PyAny>>,
        movetime: Option<f64>,
        nodes: Option<&Bound<'_, PyAny>>,
        multipv: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<AnalyseOutput> {
        let mut limits = limits(depth, movetime, nodes)?;
        let board = board.clone();
        let Some(multipv) = multipv else {
            return Ok(AnalyseOutput::One(self.run(py, &board, limits)?));
        };
        limits.multi_pv = count_arg(multipv, "multipv", xiangqi_search::MAX_MULTI_PV)?;
        let (result, turn) = self.search(py, &board, limits)?;
        if result.lines.is_empty() {
            // No legal move: one analysis that says so.
            return Ok(AnalyseOutput::Lines(vec![PyAnalysis { result, turn }]));
        }
        Ok(AnalyseOutput::Lines(
            result
                .lines
                .iter()
                .map(|line| PyAnalysis::of_line(&result, line, turn))
                .collect(),
        ))
    }

    /// The move the engine would play (`None` when there is no legal move).
    #[pyo3(signature = (board, *, depth = None, movetime = None, nodes = None))]
    fn play(
        &self,
        py: Python<'_>,
        board: PyRef<'_, PyBoard>,
        depth: Option<&Bound<'_, PyAny>>,
        movetime: Option<f64>,
        nodes: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<PyMove>> {
        let limits = limits(depth, movetime, nodes)?;
        let board = board.clone();
        Ok(self.run(py, &board, limits)?.best_move())
    }

    /// Stops a running search (from another thread); it returns what it has.
    fn stop(&self) {
        self.stop.stop();
    }

    /// Forgets the hash table and move-ordering history (call between games).
    fn new_game(&self) -> PyResult<()> {
        self.engine
            .try_lock()
            .map_err(|_| PyRuntimeError::new_err("this engine is searching"))?
            .new_game();
        Ok(())
    }

    /// The number of search threads.
    #[getter]
    fn threads(&self) -> PyResult<usize> {
        Ok(self
            .engine
            .try_lock()
            .map_err(|_| PyRuntimeError::new_err("this engine is searching"))?
            .threads())
    }

    /// The transposition-table size in MiB.
    #[getter]
    fn hash_mb(&self) -> PyResult<usize> {
        Ok(self
            .engine
            .try_lock()
            .map_err(|_| PyRuntimeError::new_err("this engine is searching"))?
            .hash_size())
    }

    fn __repr__(&self) -> String {
        match self.engine.try_lock() {
            Ok(e) => format!("Engine(hash_mb={}, threads={})", e.hash_size(), e.threads()),
            Err(_) => "Engine(searching)".to_owned(),
        }
    }
}
