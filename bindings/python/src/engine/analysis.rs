//! `engine.analysis(board, limit)`: a search running on its own thread
//! whose lines arrive while it runs, as python-chess's `AnalysisResult`:
//! iterate it for each `EngineInfo`, read `info` (the best line so far),
//! `stop()` it, `wait()` for the result. The built-in search reports every
//! completed iteration; an external engine's lines come when its search
//! ends (the client reads them as one answer).

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use xiangqi_core::{Color, Move, Position};
use xiangqi_engine_client::{Analysis, EngineError, Info, SearchOptions};
use xiangqi_search::SearchRemote;

use super::client::{game_of, Backend, PyEngineClient};
use super::info::{PyEngineInfo, PyEngineResult};
use super::limit::{read_limit, read_multipv};
use crate::board::PyBoard;
use crate::errors::to_py;

/// How long a wait sleeps between two looks at Python's signals.
const POLL: Duration = Duration::from_millis(20);

/// What the search thread hands over.
#[derive(Default)]
struct Progress {
    /// Lines not yet taken by iteration.
    queue: VecDeque<Info>,
    /// The latest report of each line, by line number.
    latest: BTreeMap<u32, Info>,
    /// The search's end: its answer, or why it failed (taken by the
    /// first `wait`, which leaves the error's text for a later one).
    done: Option<Result<Analysis, EngineError>>,
    /// The failure's text once its error was raised.
    failed: Option<String>,
}

type Shared = Arc<(Mutex<Progress>, Condvar)>;

fn progress(shared: &Shared) -> PyResult<MutexGuard<'_, Progress>> {
    shared
        .0
        .lock()
        .map_err(|_| PyRuntimeError::new_err("the analysis thread failed"))
}

/// A running analysis (python-chess's `AnalysisResult`).
#[pyclass(module = "xiangqi.engine", name = "AnalysisResult", frozen)]
pub struct PyAnalysis {
    shared: Shared,
    stop: Option<SearchRemote>,
    turn: Color,
    ply: u32,
    here: Position,
    thread: Mutex<Option<JoinHandle<()>>>,
}

/// Runs the search on `backend`, reporting each line into `shared`.
fn run(
    backend: &mut Backend,
    start: &Position,
    moves: &[Move],
    options: SearchOptions,
    shared: &Shared,
) -> Result<Analysis, EngineError> {
    let report = |info: &Info| {
        if let Ok(mut p) = shared.0.lock() {
            p.queue.push_back(info.clone());
            p.latest.insert(info.multipv, info.clone());
            shared.1.notify_all();
        }
    };
    let result = match backend {
        Backend::Builtin(engine) => engine.search_reporting(start, moves, options, report),
        Backend::External(engine) => engine.search(start, moves, options).inspect(|analysis| {
            analysis.lines.iter().for_each(report);
        }),
        Backend::Closed => Err(EngineError::Stopped),
    };
    result
}

impl PyAnalysis {
    /// Waits (GIL released, Ctrl-C answered) until `ready` holds.
    fn wait_until(
        &self,
        py: Python<'_>,
        ready: impl Fn(&Progress) -> bool + Send + Sync,
    ) -> PyResult<()> {
        loop {
            let is_ready = py.detach(|| -> PyResult<bool> {
                let guard = progress(&self.shared)?;
                let (guard, _) = self
                    .shared
                    .1
                    .wait_timeout_while(guard, POLL, |p| !ready(p))
                    .map_err(|_| PyRuntimeError::new_err("the analysis thread failed"))?;
                Ok(ready(&guard))
            })?;
            if is_ready {
                return Ok(());
            }
            if let Err(interrupt) = py.check_signals() {
                if let Some(stop) = &self.stop {
                    stop.stop();
                }
                return Err(interrupt);
            }
        }
    }

    fn line(&self, info: Info) -> PyEngineInfo {
        PyEngineInfo::new(info, self.turn, Some(self.ply))
    }
}

#[pymethods]
impl PyAnalysis {
    /// Starts searching the board's position on `client` (see
    /// `SimpleEngine.analysis`); the client is busy until the search ends.
    #[staticmethod]
    #[pyo3(signature = (client, board, *, multipv = None, timeout = None, **limit))]
    #[allow(clippy::too_many_arguments)]
    fn start(
        py: Python<'_>,
        client: Py<PyEngineClient>,
        board: PyRef<'_, PyBoard>,
        multipv: Option<&Bound<'_, PyAny>>,
        timeout: Option<f64>,
        limit: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyAnalysis> {
        let options = SearchOptions {
            limit: read_limit(limit)?,
            multipv: read_multipv(multipv)?,
            timeout: timeout
                .map(|t| super::limit::secs(t, "timeout"))
                .transpose()?,
        };
        let (start, moves) = game_of(&board)?;
        let here = board.position()?.clone();
        drop(board);
        // Refuse at once when the engine is closed or busy.
        drop(client.get().lock()?);
        let shared: Shared = Arc::default();
        let thread_shared = Arc::clone(&shared);
        let engine = client.clone_ref(py);
        let handle = std::thread::spawn(move || {
            let outcome = match engine.get().lock() {
                Ok(mut backend) => run(&mut backend, &start, &moves, options, &thread_shared),
                Err(_) => Err(EngineError::Unsupported(
                    "this engine is busy (used from another thread)".to_owned(),
                )),
            };
            if let Ok(mut p) = thread_shared.0.lock() {
                p.done = Some(outcome);
                thread_shared.1.notify_all();
            }
        });
        Ok(PyAnalysis {
            shared,
            stop: client.get().stop.clone(),
            turn: here.side_to_move(),
            ply: xiangqi_core::winrate::game_ply(&here),
            here,
            thread: Mutex::new(Some(handle)),
        })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next line reported (waiting for it); `StopIteration` once the
    /// search has ended and every line was taken.
    fn __next__(&self, py: Python<'_>) -> PyResult<Option<PyEngineInfo>> {
        self.wait_until(py, |p| {
            !p.queue.is_empty() || p.done.is_some() || p.failed.is_some()
        })?;
        Ok(progress(&self.shared)?
            .queue
            .pop_front()
            .map(|i| self.line(i)))
    }

    /// The best line's latest report (`None` before the first).
    #[getter]
    fn info(&self) -> PyResult<Option<PyEngineInfo>> {
        let p = progress(&self.shared)?;
        Ok(p.latest.values().next().cloned().map(|i| self.line(i)))
    }

    /// The latest report of every line, best first.
    #[getter]
    fn multipv(&self) -> PyResult<Vec<PyEngineInfo>> {
        let p = progress(&self.shared)?;
        Ok(p.latest.values().cloned().map(|i| self.line(i)).collect())
    }

    /// Whether the search has ended.
    fn done(&self) -> PyResult<bool> {
        let p = progress(&self.shared)?;
        Ok(p.done.is_some() || p.failed.is_some())
    }

    /// Ends the built-in search now (it answers with its best move so far).
    /// An external engine cannot be stopped mid-search by this client: its
    /// search ends at its limit (or its `timeout`).
    fn stop(&self) {
        if let Some(stop) = &self.stop {
            stop.stop();
        }
    }

    /// Waits for the end of the search and returns its `EngineResult`.
    /// Raises the engine's error if it failed.
    fn wait(&self, py: Python<'_>) -> PyResult<PyEngineResult> {
        self.wait_until(py, |p| p.done.is_some() || p.failed.is_some())?;
        if let Some(handle) = self
            .thread
            .lock()
            .map_err(|_| PyRuntimeError::new_err("the analysis thread failed"))?
            .take()
        {
            py.detach(|| handle.join())
                .map_err(|_| PyRuntimeError::new_err("the analysis thread panicked"))?;
        }
        let mut p = progress(&self.shared)?;
        match p.done.take() {
            Some(Ok(analysis)) => {
                p.done = Some(Ok(analysis.clone()));
                Ok(PyEngineResult::of_position(analysis, &self.here))
            }
            Some(Err(error)) => {
                p.failed = Some(error.to_string());
                Err(to_py(error))
            }
            None => Err(crate::errors::EngineError::new_err(
                p.failed
                    .clone()
                    .unwrap_or_else(|| "the analysis has not ended".to_owned()),
            )),
        }
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// Leaving a `with` block stops the search and waits for its end.
    fn __exit__(
        &self,
        py: Python<'_>,
        _exc_type: &Bound<'_, PyAny>,
        _exc: &Bound<'_, PyAny>,
        _traceback: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        self.stop();
        self.wait(py).map(|_| false).or_else(|e| {
            if e.is_instance_of::<crate::errors::EngineError>(py) {
                Ok(false)
            } else {
                Err(e)
            }
        })
    }
}
