//! `xiangqi.engine.EngineClient`, the compiled handle under `SimpleEngine`:
//! an external engine (`xiangqi-engine-client`'s `Engine`) or our own
//! search in process (its `builtin::BuiltinEngine`), one class for both.
//! Searches release the GIL ([`super::wait`]); every wait of an external
//! engine has the client's deadline, so a hung engine raises instead of
//! blocking.

use std::sync::{Mutex, MutexGuard};

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use xiangqi_core::{Move, MoveList, Position};
use xiangqi_engine_client::annotate::Analyser;
use xiangqi_engine_client::builtin::BuiltinEngine;
use xiangqi_engine_client::{
    Analysis, Engine, EngineError, EngineSpec, Limit, Protocol, SearchOptions,
};
use xiangqi_search::SearchRemote;

use super::info::PyEngineResult;
use super::limit::{read_hash_mb, read_limit, read_multipv, read_threads, secs};
use super::wait::interruptible;
use crate::board::PyBoard;
use crate::errors::{int_arg, to_py, type_name, EngineError as PyEngineErrorType};

/// The engine behind a client, until it is quit.
pub(super) enum Backend {
    External(Box<Engine>),
    Builtin(Box<BuiltinEngine>),
    Closed,
}

/// Either engine, as the client's reviews and searches see it.
impl Analyser for Backend {
    fn new_game(&mut self, start: &Position, limit: Limit) -> Result<(), EngineError> {
        match self {
            Backend::External(engine) => engine.new_game(start, limit),
            Backend::Builtin(engine) => Analyser::new_game(engine.as_mut(), start, limit),
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
            Backend::Builtin(engine) => engine.search(start, moves, options),
            Backend::Closed => Err(EngineError::Stopped),
        }
    }
}

/// A running engine: external (`popen`) or the built-in search (`builtin`).
#[pyclass(module = "xiangqi.engine", name = "EngineClient", frozen)]
pub struct PyEngineClient {
    backend: Mutex<Backend>,
    /// Stops the built-in search's running search, usable while a search holds the backend.
    pub(super) stop: Option<SearchRemote>,
    name: String,
    protocol: &'static str,
}

/// The board's start and moves, refusing a position without legal moves.
pub(super) fn game_of(board: &PyBoard) -> PyResult<(Position, Vec<Move>)> {
    board.position()?;
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

fn read_protocol(protocol: &str) -> PyResult<Protocol> {
    match protocol {
        "uci" => Ok(Protocol::Uci),
        "ucci" => Ok(Protocol::Ucci),
        "xboard" => Ok(Protocol::Xboard),
        other => Err(PyValueError::new_err(format!(
            "unknown protocol {other:?} (expected uci, ucci or xboard)"
        ))),
    }
}

fn read_command(command: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
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
    Ok(argv)
}

fn read_ranks(ranks: Option<&Bound<'_, PyAny>>) -> PyResult<Option<bool>> {
    let Some(r) = ranks else { return Ok(None) };
    match int_arg(r, "ranks")? {
        0 => Ok(Some(false)),
        1 => Ok(Some(true)),
        other => Err(PyValueError::new_err(format!(
            "ranks must be 0 (ranks 0-9) or 1 (ranks 1-10), got {other}"
        ))),
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
        let argv = read_command(command)?;
        let protocol = read_protocol(protocol)?;
        let mut spec = EngineSpec::new(argv, protocol);
        spec.options = options.unwrap_or_default();
        spec.handshake_timeout = secs(timeout, "timeout")?;
        spec.ranks_from_one = read_ranks(ranks)?;
        let engine = py.detach(|| Engine::start(&spec, None)).map_err(to_py)?;
        Ok(PyEngineClient {
            name: engine.name().to_string(),
            protocol: protocol.name(),
            stop: None,
            backend: Mutex::new(Backend::External(Box::new(engine))),
        })
    }

    /// The built-in search, in this process: a hash table of `hash_mb` MiB
    /// shared by `threads` search threads (Lazy SMP).
    #[staticmethod]
    #[pyo3(signature = (*, hash_mb = None, threads = None))]
    fn builtin(
        hash_mb: Option<&Bound<'_, PyAny>>,
        threads: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyEngineClient> {
        let mut engine = BuiltinEngine::new(read_hash_mb(hash_mb)?);
        engine.engine_mut().set_threads(read_threads(threads)?);
        Ok(PyEngineClient {
            name: BuiltinEngine::name(),
            protocol: "builtin",
            stop: Some(engine.remote()),
            backend: Mutex::new(Backend::Builtin(Box::new(engine))),
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
                "the built-in engine has no option {name:?} (use hash_mb= and threads=)"
            ))),
            Backend::Closed => Err(closed()),
        }
    }

    /// Searches the board's position within one limit; `timeout` (seconds)
    /// is the whole time an external engine gets (default: the move time
    /// plus 0.5 s, or 60 s for depth and nodes).
    #[pyo3(signature = (board, *, multipv = None, timeout = None, **limit))]
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        py: Python<'_>,
        board: PyRef<'_, PyBoard>,
        multipv: Option<&Bound<'_, PyAny>>,
        timeout: Option<f64>,
        limit: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyEngineResult> {
        let options = SearchOptions {
            limit: read_limit(limit)?,
            multipv: read_multipv(multipv)?,
            timeout: timeout.map(|t| secs(t, "timeout")).transpose()?,
        };
        let (start, moves) = game_of(&board)?;
        let here = board.position()?.clone();
        drop(board);
        let analysis =
            self.with_open_backend(py, |backend| backend.analyse(&start, &moves, options))?;
        Ok(PyEngineResult::of_position(analysis.map_err(to_py)?, &here))
    }

    /// Tells the engine a new game starts (clears its hash tables).
    fn new_game(&self, py: Python<'_>, board: PyRef<'_, PyBoard>) -> PyResult<()> {
        board.position()?;
        let start = board.root_position().clone();
        drop(board);
        let mut backend = self.lock()?;
        if let Backend::Closed = &*backend {
            return Err(closed());
        }
        let backend = &mut *backend;
        py.detach(|| backend.new_game(&start, Limit::depth(1)))
            .map_err(to_py)
    }

    /// Stops the built-in engine's running search (from another thread);
    /// it returns the best move so far. Harmless when nothing runs.
    fn stop(&self) -> PyResult<()> {
        match &self.stop {
            Some(stop) => {
                stop.stop();
                Ok(())
            }
            None => Err(PyEngineErrorType::new_err(
                "only the built-in engine can be stopped; an external engine's \
                 search ends at its limit or timeout",
            )),
        }
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
    pub(super) fn lock(&self) -> PyResult<MutexGuard<'_, Backend>> {
        self.backend
            .try_lock()
            .map_err(|_| PyRuntimeError::new_err("this engine is busy (used from another thread)"))
    }

    /// Runs `job` on the open engine off the GIL, interruptible by signals
    /// ([`interruptible`]). A stop only ever reaches the search running when
    /// it comes, so none is left over from an earlier call.
    pub(super) fn with_open_backend<T: Send>(
        &self,
        py: Python<'_>,
        job: impl FnOnce(&mut Backend) -> T + Send,
    ) -> PyResult<T> {
        let mut backend = self.lock()?;
        if let Backend::Closed = &*backend {
            return Err(closed());
        }
        let backend = &mut *backend;
        interruptible(py, self.stop.as_ref(), || job(backend))
    }
}
