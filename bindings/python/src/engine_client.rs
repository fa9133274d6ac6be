//! The engine behind `xiangqi.engine.SimpleEngine`: an external engine
//! driven by `xiangqi-engine-client`, or the built-in search, behind one
//! class. Waits release the GIL; every wait of an external engine has a
//! deadline (the client's), so a hung engine raises instead of blocking.

use std::sync::Mutex;
use std::time::Duration;

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use xiangqi_core::{Color, Move, MoveList, Position};
use xiangqi_engine_client::annotate::pgn::{annotate_game, AnnotateError};
use xiangqi_engine_client::annotate::{
    Analyser, Judgement, MoveReview, PositionEval, ReviewOptions,
};
use xiangqi_engine_client::{
    Analysis, Bound as ScoreBound, Engine, EngineError, EngineSpec, Info, Limit, Protocol, Score,
    SearchOptions,
};

use crate::board::PyBoard;
use crate::engine::PyScore;
use crate::errors::{int_arg, to_py, type_name, EngineError as PyEngineErrorType};
use crate::pgn::PyGame;
use crate::pickle::{self, DurationState, ScoreState};
use crate::types::{PyColor, PyMove};

/// A score with the side it is seen from: `relative` is the side to move's
/// view, `red()` and `black()` the fixed views.
#[pyclass(module = "xiangqi.engine", name = "PovScore", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PyPovScore {
    relative: Score,
    turn: Color,
}

#[pymethods]
impl PyPovScore {
    /// The side to move's view.
    #[getter]
    fn relative(&self) -> PyScore {
        PyScore(self.relative)
    }

    /// The side the relative score is seen from (the side to move).
    #[getter]
    fn turn(&self) -> PyColor {
        self.turn.into()
    }

    /// Red's view.
    fn red(&self) -> PyScore {
        PyScore(self.relative.for_red(self.turn))
    }

    /// Black's view.
    fn black(&self) -> PyScore {
        PyScore(self.relative.for_red(self.turn).flipped())
    }

    /// `color`'s view.
    fn pov(&self, color: PyColor) -> PyScore {
        match Color::from(color) {
            Color::Red => self.red(),
            Color::Black => self.black(),
        }
    }

    /// True for a mate score.
    fn is_mate(&self) -> bool {
        matches!(self.relative, Score::Mate(_))
    }

    /// The side to move's chance of winning, 0.0 to 1.0 (logistic in the
    /// centipawns, scale in docs/engine-client.md).
    fn winning_chance(&self) -> f64 {
        self.relative.winning_chance()
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let state = (
            pickle::score_state(self.relative),
            pickle::color_state(self.turn),
        );
        pickle::reduce::<PyPovScore>(py, state)
    }

    #[staticmethod]
    fn _restore(state: (ScoreState, String)) -> PyResult<PyPovScore> {
        Ok(PyPovScore {
            relative: pickle::score(state.0),
            turn: pickle::color(&state.1, "a PovScore")?,
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "PovScore({}, {})",
            PyScore(self.relative).__repr__(),
            if self.turn == Color::Red {
                "RED"
            } else {
                "BLACK"
            }
        )
    }
}

/// What pickles an [`Info`]: multipv, depth, seldepth, evaluation (score
/// and bound name), nodes, nps, time, PV.
type InfoState = (
    u32,
    Option<u32>,
    Option<u32>,
    Option<(ScoreState, String)>,
    Option<u64>,
    Option<u64>,
    Option<DurationState>,
    String,
);

fn info_state(info: &Info) -> InfoState {
    (
        info.multipv,
        info.depth,
        info.seldepth,
        info.evaluation
            .map(|e| (pickle::score_state(e.score), e.bound.name().to_owned())),
        info.nodes,
        info.nps,
        info.time.map(pickle::duration_state),
        pickle::moves_state(&info.pv),
    )
}

fn info_of(state: InfoState, what: &str) -> PyResult<Info> {
    let (multipv, depth, seldepth, evaluation, nodes, nps, time, pv) = state;
    let evaluation = match evaluation {
        None => None,
        Some((score, bound)) => Some(xiangqi_engine_client::Evaluation {
            score: pickle::score(score),
            bound: [ScoreBound::Exact, ScoreBound::Lower, ScoreBound::Upper]
                .into_iter()
                .find(|b| b.name() == bound)
                .ok_or_else(|| pickle::bad_state(what, format!("bound {bound:?}")))?,
        }),
    };
    Ok(Info {
        multipv,
        depth,
        seldepth,
        evaluation,
        nodes,
        nps,
        time: time.map(|t| pickle::duration(t, what)).transpose()?,
        pv: pickle::moves(&pv, what)?,
    })
}

/// One line of analysis (python-chess's `InfoDict` as a typed object).
#[pyclass(module = "xiangqi.engine", name = "EngineInfo", frozen)]
#[derive(Clone)]
pub struct PyEngineInfo {
    info: Info,
    turn: Color,
}

#[pymethods]
impl PyEngineInfo {
    /// 1-based line number (1: the best line).
    #[getter]
    fn multipv(&self) -> u32 {
        self.info.multipv
    }
    #[getter]
    fn depth(&self) -> Option<u32> {
        self.info.depth
    }
    #[getter]
    fn seldepth(&self) -> Option<u32> {
        self.info.seldepth
    }
    #[getter]
    fn nodes(&self) -> Option<u64> {
        self.info.nodes
    }
    #[getter]
    fn nps(&self) -> Option<u64> {
        self.info.nps
    }
    /// Seconds the engine reported, if it did.
    #[getter]
    fn time(&self) -> Option<f64> {
        self.info.time.map(|t| t.as_secs_f64())
    }
    /// The principal variation (up to its first unreadable or illegal move).
    #[getter]
    fn pv(&self) -> Vec<PyMove> {
        self.info.pv.iter().copied().map(PyMove).collect()
    }
    /// The score with its point of view, or `None` if the engine gave none.
    #[getter]
    fn score(&self) -> Option<PyPovScore> {
        self.info.evaluation.map(|e| PyPovScore {
            relative: e.score,
            turn: self.turn,
        })
    }
    /// `"exact"`, `"lowerbound"` or `"upperbound"` (side to move's view), `None` without a score.
    #[getter]
    fn bound(&self) -> Option<&'static str> {
        self.info.evaluation.map(|e| e.bound.name())
    }
    /// The side to move in the analysed position.
    #[getter]
    fn turn(&self) -> PyColor {
        self.turn.into()
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let state = (info_state(&self.info), pickle::color_state(self.turn));
        pickle::reduce::<PyEngineInfo>(py, state)
    }

    #[staticmethod]
    fn _restore(state: (InfoState, String)) -> PyResult<PyEngineInfo> {
        const WHAT: &str = "an EngineInfo";
        Ok(PyEngineInfo {
            info: info_of(state.0, WHAT)?,
            turn: pickle::color(&state.1, WHAT)?,
        })
    }

    fn __repr__(&self) -> String {
        let pv: Vec<String> = self.info.pv.iter().map(Move::to_string).collect();
        let score = self
            .info
            .evaluation
            .map_or("None".to_string(), |e| PyScore(e.score).__repr__());
        let depth = self
            .info
            .depth
            .map_or("None".to_string(), |d| d.to_string());
        format!(
            "EngineInfo(multipv={}, depth={depth}, score={score}, pv='{}')",
            self.info.multipv,
            pv.join(" ")
        )
    }
}

/// What pickles an [`Analysis`]: best move, its text, ponder, the lines,
/// turn, elapsed time.
type ResultState = (
    String,
    String,
    Option<String>,
    Vec<InfoState>,
    String,
    DurationState,
);

/// What one search returned: the move and the lines.
#[pyclass(module = "xiangqi.engine", name = "EngineResult", frozen)]
pub struct PyEngineResult {
    analysis: Analysis,
}

#[pymethods]
impl PyEngineResult {
    #[getter]
    fn best_move(&self) -> PyMove {
        PyMove(self.analysis.best_move)
    }
    #[getter]
    fn ponder(&self) -> Option<PyMove> {
        self.analysis.ponder.map(PyMove)
    }
    /// The last report of each line, best first (the engine may give fewer than asked).
    #[getter]
    fn lines(&self) -> Vec<PyEngineInfo> {
        let turn = self.analysis.turn;
        self.analysis
            .lines
            .iter()
            .map(|info| PyEngineInfo {
                info: info.clone(),
                turn,
            })
            .collect()
    }
    /// Wall-clock seconds from the request to the answer.
    #[getter]
    fn elapsed(&self) -> f64 {
        self.analysis.elapsed.as_secs_f64()
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let a = &self.analysis;
        let state: ResultState = (
            a.best_move.to_string(),
            a.best_text.clone(),
            a.ponder.map(|m| m.to_string()),
            a.lines.iter().map(info_state).collect(),
            pickle::color_state(a.turn).to_owned(),
            pickle::duration_state(a.elapsed),
        );
        pickle::reduce::<PyEngineResult>(py, state)
    }

    #[staticmethod]
    fn _restore(state: ResultState) -> PyResult<PyEngineResult> {
        const WHAT: &str = "an EngineResult";
        let (best, best_text, ponder, lines, turn, elapsed) = state;
        Ok(PyEngineResult {
            analysis: Analysis {
                best_move: pickle::one_move(&best, WHAT)?,
                best_text,
                ponder: ponder.map(|m| pickle::one_move(&m, WHAT)).transpose()?,
                lines: lines
                    .into_iter()
                    .map(|l| info_of(l, WHAT))
                    .collect::<PyResult<_>>()?,
                turn: pickle::color(&turn, WHAT)?,
                elapsed: pickle::duration(elapsed, WHAT)?,
            },
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "EngineResult(best_move='{}', lines={}, elapsed={:.3})",
            self.analysis.best_move,
            self.analysis.lines.len(),
            self.analysis.elapsed.as_secs_f64()
        )
    }
}

enum Backend {
    External(Box<Engine>),
    Builtin(Box<xiangqi_search::Engine>),
    Closed,
}

/// A running engine: external (`popen`) or the built-in search (`builtin`).
#[pyclass(module = "xiangqi.engine", name = "EngineClient", frozen)]
pub struct PyEngineClient {
    backend: Mutex<Backend>,
    name: String,
    protocol: &'static str,
}

fn secs(value: f64, what: &str) -> PyResult<Duration> {
    if value.is_finite() && value > 0.0 && value <= 1.0e6 {
        Ok(Duration::from_secs_f64(value))
    } else {
        Err(PyValueError::new_err(format!(
            "{what} {value} must be a positive number of seconds"
        )))
    }
}

fn read_limit(
    time: Option<f64>,
    depth: Option<&Bound<'_, PyAny>>,
    nodes: Option<&Bound<'_, PyAny>>,
) -> PyResult<Limit> {
    let mut limits = Vec::new();
    if let Some(t) = time {
        limits.push(Limit::MoveTime(secs(t, "time")?));
    }
    if let Some(d) = depth {
        let d = int_arg(d, "depth")?;
        if !(1..=i64::from(xiangqi_search::MAX_DEPTH)).contains(&d) {
            return Err(PyValueError::new_err(format!(
                "depth {d} is not in 1..={}",
                xiangqi_search::MAX_DEPTH
            )));
        }
        limits.push(Limit::Depth(d as u32));
    }
    if let Some(n) = nodes {
        let n = int_arg(n, "nodes")?;
        if n < 1 {
            return Err(PyValueError::new_err(format!("nodes {n} must be positive")));
        }
        limits.push(Limit::Nodes(n as u64));
    }
    match limits.as_slice() {
        [one] => Ok(*one),
        [] => Err(PyValueError::new_err(
            "give a limit: Limit(time=...), Limit(depth=...) or Limit(nodes=...)",
        )),
        _ => Err(PyValueError::new_err(
            "give one limit: time, depth or nodes (engines differ in how they combine them)",
        )),
    }
}

/// The board's start and moves, refusing a position without legal moves.
fn game_of(board: &PyBoard) -> PyResult<(Position, Vec<Move>)> {
    let moves: Vec<Move> = board.moves().collect();
    let position = board
        .root_position()
        .after_moves(moves.iter().copied())
        .map_err(|e| to_py(e.error))?;
    let mut legal = MoveList::new();
    position.legal_moves(&mut legal);
    if legal.is_empty() {
        return Err(PyValueError::new_err(
            "the position has no legal moves (the game is over)",
        ));
    }
    Ok((board.root_position().clone(), moves))
}

/// The built-in engine's search in the client's types.
fn builtin_search(
    engine: &mut xiangqi_search::Engine,
    start: &Position,
    moves: &[Move],
    limit: Limit,
) -> Result<Analysis, EngineError> {
    let (root, history) = start
        .replay(moves)
        .map_err(|e| EngineError::Unsupported(format!("cannot search after the moves: {e}")))?;
    let turn = root.side_to_move();
    let mut limits = xiangqi_search::Limits::default();
    match limit {
        Limit::MoveTime(t) => limits.move_time = Some(t),
        Limit::Depth(d) => limits.depth = Some(d),
        Limit::Nodes(n) => limits.nodes = Some(n),
        Limit::Clock(c) => {
            limits.time_left = Some(c.left(turn));
            limits.increment = Some(c.increment);
        }
    }
    let result = engine.search(&root, &history, &limits, |_| {});
    let best_move = result.best_move.ok_or_else(|| EngineError::NoMove {
        line: "the built-in engine found no move".into(),
    })?;
    let secs = result.time.as_secs_f64();
    Ok(Analysis {
        best_move,
        best_text: best_move.to_string(),
        ponder: result.ponder,
        lines: vec![Info {
            multipv: 1,
            depth: Some(result.depth),
            seldepth: Some(result.seldepth),
            evaluation: Some(xiangqi_engine_client::Evaluation::exact(result.score)),
            nodes: Some(result.nodes),
            nps: (secs > 0.0).then(|| (result.nodes as f64 / secs) as u64),
            time: Some(result.time),
            pv: result.pv,
        }],
        turn,
        elapsed: result.time,
    })
}

/// Either engine, as the client's review and search see it.
impl Analyser for Backend {
    fn new_game(&mut self, start: &Position, limit: Limit) -> Result<(), EngineError> {
        match self {
            Backend::External(engine) => engine.new_game(start, limit),
            Backend::Builtin(engine) => {
                engine.new_game();
                Ok(())
            }
            Backend::Closed => Err(EngineError::Stopped),
        }
    }

    fn analyse(
        &mut self,
        start: &Position,
        moves: &[Move],
        options: SearchOptions,
    ) -> Result<Analysis, EngineError> {
        match self {
            Backend::External(engine) => engine.search(start, moves, options),
            Backend::Builtin(engine) => builtin_search(engine, start, moves, options.limit),
            Backend::Closed => Err(EngineError::Stopped),
        }
    }
}

#[pymethods]
impl PyEngineClient {
    /// Starts an external engine: `command` is a command line or a list of
    /// words; `protocol` `"uci"`, `"ucci"` or `"xboard"`; `ranks` 0 or 1
    /// forces the rank numbering (default: detect); `options` are set after
    /// the handshake; `timeout` (seconds) bounds the start and every handshake.
    #[staticmethod]
    #[pyo3(signature = (command, protocol, *, options = None, ranks = None, timeout = 10.0))]
    fn popen(
        py: Python<'_>,
        command: &Bound<'_, PyAny>,
        protocol: &str,
        options: Option<Vec<(String, String)>>,
        ranks: Option<&Bound<'_, PyAny>>,
        timeout: f64,
    ) -> PyResult<PyEngineClient> {
        let argv: Vec<String> = if let Ok(text) = command.extract::<String>() {
            xiangqi_engine_client::split_command(&text).map_err(PyValueError::new_err)?
        } else if let Ok(words) = command.extract::<Vec<String>>() {
            words
        } else {
            return Err(PyTypeError::new_err(format!(
                "command must be a str or a list of str, not {}",
                type_name(command)
            )));
        };
        if argv.is_empty() {
            return Err(PyValueError::new_err("the command is empty"));
        }
        let protocol = match protocol {
            "uci" => Protocol::Uci,
            "ucci" => Protocol::Ucci,
            "xboard" => Protocol::Xboard,
            other => {
                return Err(PyValueError::new_err(format!(
                    "unknown protocol {other:?} (expected uci, ucci or xboard)"
                )))
            }
        };
        let mut spec = EngineSpec::new(argv, protocol);
        spec.options = options.unwrap_or_default();
        spec.handshake_timeout = secs(timeout, "timeout")?;
        spec.ranks_from_one = match ranks {
            None => None,
            Some(r) => match int_arg(r, "ranks")? {
                0 => Some(false),
                1 => Some(true),
                other => {
                    return Err(PyValueError::new_err(format!(
                        "ranks must be 0 (ranks 0-9) or 1 (ranks 1-10), got {other}"
                    )))
                }
            },
        };
        let engine = py.detach(|| Engine::start(&spec, None)).map_err(to_py)?;
        Ok(PyEngineClient {
            name: engine.name().to_string(),
            protocol: protocol.name(),
            backend: Mutex::new(Backend::External(Box::new(engine))),
        })
    }

    /// The built-in search, in this process.
    #[staticmethod]
    #[pyo3(signature = (*, hash_mb = None))]
    fn builtin(hash_mb: Option<&Bound<'_, PyAny>>) -> PyResult<PyEngineClient> {
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
        Ok(PyEngineClient {
            name: format!("xiangqi {}", env!("CARGO_PKG_VERSION")),
            protocol: "builtin",
            backend: Mutex::new(Backend::Builtin(Box::new(xiangqi_search::Engine::new(
                mb as usize,
            )))),
        })
    }

    /// The engine's name (`id name`, `myname`, else the program).
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// `"uci"`, `"ucci"`, `"xboard"` or `"builtin"`.
    #[getter]
    fn protocol(&self) -> &'static str {
        self.protocol
    }

    /// Sets one engine option (`value` empty for a button).
    fn configure(&self, py: Python<'_>, name: &str, value: &str) -> PyResult<()> {
        let mut backend = self.lock()?;
        match &mut *backend {
            Backend::External(engine) => py.detach(|| engine.configure(name, value)).map_err(to_py),
            Backend::Builtin(_) => Err(PyEngineErrorType::new_err(format!(
                "the built-in engine has no option {name:?} (use hash_mb=)"
            ))),
            Backend::Closed => Err(closed()),
        }
    }

    /// Searches the board's position within one limit; `timeout` (seconds)
    /// is the whole time an external engine gets (default: the move time
    /// plus 0.5 s, or 60 s for depth and nodes).
    #[pyo3(signature = (board, *, time = None, depth = None, nodes = None, multipv = None, timeout = None))]
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        py: Python<'_>,
        board: PyRef<'_, PyBoard>,
        time: Option<f64>,
        depth: Option<&Bound<'_, PyAny>>,
        nodes: Option<&Bound<'_, PyAny>>,
        multipv: Option<&Bound<'_, PyAny>>,
        timeout: Option<f64>,
    ) -> PyResult<PyEngineResult> {
        let limit = read_limit(time, depth, nodes)?;
        let multipv = multipv.map_or(Ok(1), |k| int_arg(k, "multipv"))?;
        if !(1..=500).contains(&multipv) {
            return Err(PyValueError::new_err(format!(
                "multipv {multipv} is not in 1..=500"
            )));
        }
        let timeout = timeout.map(|t| secs(t, "timeout")).transpose()?;
        let (start, moves) = game_of(&board)?;
        drop(board);
        let mut backend = self.lock()?;
        if let Backend::Closed = &*backend {
            return Err(closed());
        }
        let options = SearchOptions {
            limit,
            multipv: multipv as u32,
            timeout,
        };
        let backend = &mut *backend;
        let analysis = py
            .detach(|| backend.analyse(&start, &moves, options))
            .map_err(to_py)?;
        Ok(PyEngineResult { analysis })
    }

    /// Tells the engine a new game starts (clears its hash tables).
    fn new_game(&self, py: Python<'_>, board: PyRef<'_, PyBoard>) -> PyResult<()> {
        let start = board.root_position().clone();
        drop(board);
        let mut backend = self.lock()?;
        if let Backend::Closed = &*backend {
            return Err(closed());
        }
        let backend = &mut *backend;
        py.detach(|| backend.new_game(&start, Limit::Depth(1)))
            .map_err(to_py)
    }

    /// Whether the engine can still be used.
    #[getter]
    fn alive(&self) -> bool {
        match self.backend.try_lock() {
            Ok(b) => match &*b {
                Backend::External(e) => e.is_alive(),
                Backend::Builtin(_) => true,
                Backend::Closed => false,
            },
            // Busy searching, so running.
            Err(_) => true,
        }
    }

    /// Ends the engine (an external one is asked to quit, then killed).
    fn quit(&self, py: Python<'_>) -> PyResult<()> {
        let mut backend = self.lock()?;
        if let Backend::External(engine) = std::mem::replace(&mut *backend, Backend::Closed) {
            py.detach(|| engine.quit());
        }
        Ok(())
    }

    fn __repr__(&self) -> String {
        format!(
            "EngineClient(name={:?}, protocol={:?})",
            self.name, self.protocol
        )
    }
}

fn closed() -> PyErr {
    crate::errors::EngineTerminatedError::new_err("the engine was closed (quit)")
}

impl PyEngineClient {
    fn lock(&self) -> PyResult<std::sync::MutexGuard<'_, Backend>> {
        self.backend
            .try_lock()
            .map_err(|_| PyRuntimeError::new_err("this engine is busy (used from another thread)"))
    }
}

/// What pickles a [`PositionEval`]: `("engine", score, depth, None)`,
/// `("over", None, None, winner)` or `("unknown", None, None, None)`.
type EvalState = (String, Option<ScoreState>, Option<u32>, Option<String>);

/// What pickles a [`MoveReview`]: ply, move, mover, evaluation after,
/// drop, judgement name, best line, evaluation before.
type ReviewState = (
    usize,
    String,
    String,
    EvalState,
    Option<f64>,
    Option<String>,
    Option<String>,
    EvalState,
);

fn eval_state(eval: PositionEval) -> EvalState {
    match eval {
        PositionEval::Engine { red, depth } => {
            ("engine".into(), Some(pickle::score_state(red)), depth, None)
        }
        PositionEval::Over { winner } => (
            "over".into(),
            None,
            None,
            Some(pickle::color_state(winner).into()),
        ),
        PositionEval::Unknown => ("unknown".into(), None, None, None),
    }
}

fn eval_of(state: EvalState, what: &str) -> PyResult<PositionEval> {
    match state {
        (kind, Some(score), depth, None) if kind == "engine" => Ok(PositionEval::Engine {
            red: pickle::score(score),
            depth,
        }),
        (kind, None, None, Some(winner)) if kind == "over" => Ok(PositionEval::Over {
            winner: pickle::color(&winner, what)?,
        }),
        (kind, None, None, None) if kind == "unknown" => Ok(PositionEval::Unknown),
        (kind, ..) => Err(pickle::bad_state(what, format!("evaluation {kind:?}"))),
    }
}

/// One reviewed move of [`annotate`].
#[pyclass(module = "xiangqi.engine", name = "MoveReview", frozen)]
pub struct PyMoveReview(MoveReview);

#[pymethods]
impl PyMoveReview {
    /// 1-based ply of the main line.
    #[getter]
    fn ply(&self) -> usize {
        self.0.ply
    }
    #[getter]
    fn r#move(&self) -> PyMove {
        PyMove(self.0.mv)
    }
    #[getter]
    fn mover(&self) -> PyColor {
        self.0.mover.into()
    }
    /// The engine's score after the move, Red's view (`None` when the game is
    /// over there or the engine gave no score).
    #[getter]
    fn red_score(&self) -> Option<PyScore> {
        match self.0.eval_after {
            PositionEval::Engine { red, .. } => Some(PyScore(red)),
            _ => None,
        }
    }
    /// The engine's score before the move (of the best line it found
    /// there), Red's view; `None` like `red_score`. With `red_score` it
    /// gives the centipawns a move lost.
    #[getter]
    fn red_score_before(&self) -> Option<PyScore> {
        match self.0.best_eval {
            PositionEval::Engine { red, .. } => Some(PyScore(red)),
            _ => None,
        }
    }
    /// Red's winning chance after the move, 0.0-1.0 (1.0 or 0.0 when the
    /// game is over), for evaluation plots: the win-rate model's expected
    /// score at the main line's ply.
    #[getter]
    fn red_winning_chance(&self) -> Option<f64> {
        self.0
            .eval_after
            .winning_chance(Color::Red, self.0.ply as u32)
    }
    /// The `[%eval …]` comment written on the move.
    #[getter]
    fn eval_comment(&self) -> Option<String> {
        self.0.eval_after.comment()
    }
    /// The mover's winning chance lost by the move.
    #[getter]
    fn drop(&self) -> Option<f64> {
        self.0.drop
    }
    /// The move's accuracy, 0-100, from its drop (`None` without one).
    #[getter]
    fn accuracy(&self) -> Option<f64> {
        self.0.accuracy()
    }
    /// `"inaccuracy"`, `"mistake"`, `"blunder"` or `None`.
    #[getter]
    fn judgement(&self) -> Option<&'static str> {
        self.0.judgement.map(|j| j.name())
    }
    /// `"?!"`, `"?"`, `"??"` or `None`.
    #[getter]
    fn symbol(&self) -> Option<&'static str> {
        self.0.judgement.map(|j| j.symbol())
    }
    /// The engine's line instead of a mistake or blunder, else `None`.
    #[getter]
    fn best_line(&self) -> Option<Vec<PyMove>> {
        self.0
            .best_line
            .as_ref()
            .map(|l| l.iter().copied().map(PyMove).collect())
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let r = &self.0;
        let state: ReviewState = (
            r.ply,
            r.mv.to_string(),
            pickle::color_state(r.mover).to_owned(),
            eval_state(r.eval_after),
            r.drop,
            r.judgement.map(|j| j.name().to_owned()),
            r.best_line.as_deref().map(pickle::moves_state),
            eval_state(r.best_eval),
        );
        pickle::reduce::<PyMoveReview>(py, state)
    }

    #[staticmethod]
    fn _restore(state: ReviewState) -> PyResult<PyMoveReview> {
        const WHAT: &str = "a MoveReview";
        let (ply, mv, mover, eval_after, drop, judgement, best_line, best_eval) = state;
        let judgement = match judgement {
            None => None,
            Some(name) => Some(
                [
                    Judgement::Inaccuracy,
                    Judgement::Mistake,
                    Judgement::Blunder,
                ]
                .into_iter()
                .find(|j| j.name() == name)
                .ok_or_else(|| pickle::bad_state(WHAT, format!("judgement {name:?}")))?,
            ),
        };
        Ok(PyMoveReview(MoveReview {
            ply,
            mv: pickle::one_move(&mv, WHAT)?,
            mover: pickle::color(&mover, WHAT)?,
            eval_after: eval_of(eval_after, WHAT)?,
            drop,
            judgement,
            best_line: best_line.map(|l| pickle::moves(&l, WHAT)).transpose()?,
            best_eval: eval_of(best_eval, WHAT)?,
        }))
    }

    fn __repr__(&self) -> String {
        format!(
            "MoveReview(ply={}, move='{}', eval={:?}, judgement={:?})",
            self.0.ply,
            self.0.mv,
            self.0.eval_after.comment(),
            self.0.judgement.map(|j| j.name())
        )
    }
}

/// Reviews `game`'s main line with `engine` and writes the review into the
/// game: `[%eval …]` on every move, `?!`/`?`/`??`, the engine's line for
/// mistakes (see docs/engine-client.md). Returns one `MoveReview` per move.
#[pyfunction]
#[pyo3(signature = (game, engine, *, time = None, depth = None, nodes = None, timeout = None))]
#[allow(clippy::too_many_arguments)]
pub fn annotate(
    py: Python<'_>,
    mut game: PyRefMut<'_, PyGame>,
    engine: &PyEngineClient,
    time: Option<f64>,
    depth: Option<&Bound<'_, PyAny>>,
    nodes: Option<&Bound<'_, PyAny>>,
    timeout: Option<f64>,
) -> PyResult<Vec<PyMoveReview>> {
    let limit = read_limit(time, depth, nodes)?;
    let timeout = timeout.map(|t| secs(t, "timeout")).transpose()?;
    let options = ReviewOptions::new(SearchOptions {
        limit,
        multipv: 1,
        timeout,
    });
    let mut backend = engine.lock()?;
    if let Backend::Closed = &*backend {
        return Err(closed());
    }
    let backend = &mut *backend;
    let record = &mut game.0;
    let reviews = py
        .detach(|| annotate_game(backend, record, &options, |_, _| {}))
        .map_err(|e| match e {
            AnnotateError::Game(e) => PyValueError::new_err(e.to_string()),
            AnnotateError::Engine(e) => to_py(e),
        })?;
    Ok(reviews.into_iter().map(PyMoveReview).collect())
}
