//! `xiangqi.pgn.map_games`: our own per-game work (reading, checking,
//! adjudicating) on every game of a game file or a collection of them, on
//! N threads through `xiangqi_gamefile::corpus`, without the GIL. The
//! answers come back in file order, one `GameReport` per game, broken
//! games included: the same whatever `jobs` says.
//!
//! The bindings only translate: reading is the game-file library's, the
//! verdict the adjudication library's (through [`crate::verdict::judge`],
//! the function `Game.adjudicate` calls), the pool `xiangqi-parallel`'s.

use std::cell::RefCell;
use std::path::PathBuf;
use std::sync::Arc;

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use xiangqi_adjudication::{GameError, RuleSet, Verdict};
use xiangqi_core::FenError;
use xiangqi_gamefile::collection::{collect, CollectedFile};
use xiangqi_gamefile::corpus::{
    read_collection, CollectionEntry, CollectionOptions, CollectionProgress, Event, PerGameWork,
    ReadProgress, Summary as CollectionSummary, Unreadable,
};
use xiangqi_gamefile::{Format, Game, GameFileError, ReaderOptions};
use xiangqi_parallel::PoolError;

use crate::errors::{int_arg, type_name, ToPyErr};
use crate::pgn::args::{collection_paths, encoding_arg, format_arg, path_of};
use crate::pgn::PyGame;
use crate::types::Frozen;
use crate::verdict::{judge, preset_arg, PyVerdict};

/// What `map_games` does to every game.
enum Task {
    /// Reads it and keeps the record (`GameReport.game`).
    Read,
    /// Reads it and keeps what a check reports: tags, length, result,
    /// notation, warnings.
    Check,
    /// Reads it and judges its main line under the rule set.
    Adjudicate(RuleSet),
}

impl Task {
    fn parse(task: &str, rules: &str) -> PyResult<Task> {
        // Read before the task, so that a bad rule set is an error whatever the task.
        let rules = RuleSet::preset(preset_arg(rules)?);
        match task {
            "read" => Ok(Task::Read),
            "check" => Ok(Task::Check),
            "adjudicate" => Ok(Task::Adjudicate(rules)),
            other => Err(PyValueError::new_err(format!(
                "task={other:?}: expected 'read', 'check' or 'adjudicate'"
            ))),
        }
    }
}

/// Why a game read could not be judged: what `Game.adjudicate` raises.
enum JudgeError {
    Fen(FenError),
    Rules(GameError),
}

impl ToPyErr for JudgeError {
    fn to_py_err(&self) -> PyErr {
        match self {
            JudgeError::Fen(e) => e.to_py_err(),
            JudgeError::Rules(e) => e.to_py_err(),
        }
    }
}

/// What a check keeps of a game read.
struct Summary {
    tags: Vec<(String, String)>,
    plies: usize,
    result: &'static str,
    notation: &'static str,
    warnings: Vec<GameFileError>,
}

impl Summary {
    /// What a check keeps of `game`, copied: the record is kept too.
    fn of(game: &Game) -> Summary {
        Summary {
            tags: game.tags.clone(),
            plies: game.plies(),
            result: game.outcome().as_str(),
            notation: game.notation.name(),
            warnings: game.errors.clone(),
        }
    }

    /// What a check keeps of `game`, taken from it: the record is dropped.
    fn taken(game: Game) -> Summary {
        Summary {
            plies: game.plies(),
            result: game.outcome().as_str(),
            notation: game.notation.name(),
            tags: game.tags,
            warnings: game.errors,
        }
    }
}

/// One game's answer, made on a worker: no Python object in it.
struct Outcome {
    index: usize,
    source: Option<Arc<str>>,
    read: Result<Summary, GameFileError>,
    game: Option<Game>,
    verdict: Option<Result<Verdict, JudgeError>>,
}

impl Outcome {
    fn broken(index: usize, source: Option<Arc<str>>, error: GameFileError) -> Outcome {
        Outcome {
            index,
            source,
            read: Err(error),
            game: None,
            verdict: None,
        }
    }

    /// `task` done on game `index` of `source`.
    fn of(
        task: &Task,
        index: usize,
        source: Option<Arc<str>>,
        item: Result<Game, GameFileError>,
    ) -> Outcome {
        let game = match item {
            Ok(game) => game,
            Err(e) => return Outcome::broken(index, source, e),
        };
        let verdict = match task {
            Task::Adjudicate(rules) => Some(match game.start_position() {
                Ok(start) => judge(start, game.moves(), rules.clone()).map_err(JudgeError::Rules),
                Err(e) => Err(JudgeError::Fen(e)),
            }),
            Task::Read | Task::Check => None,
        };
        let (read, game) = match task {
            Task::Read => (Ok(Summary::of(&game)), Some(game)),
            Task::Check | Task::Adjudicate(_) => (Ok(Summary::taken(game)), None),
        };
        Outcome {
            index,
            source,
            read,
            game,
            verdict,
        }
    }
}

/// What `map_games` found for one game: its number in its file, the file,
/// and what the task made of it, or why it could not be read or judged.
#[pyclass(module = "xiangqi.pgn", name = "GameReport", frozen)]
/// The record is made into a `Game` once, on first access, so edits to
/// `report.game` stick as on any game.
pub struct PyGameReport(Outcome, std::sync::OnceLock<Py<PyGame>>);

#[pymethods]
impl PyGameReport {
    /// The game's 1-based number in its file (for a file that stopped
    /// being readable, the game where reading stopped).
    #[getter]
    fn index(&self) -> usize {
        self.0.index
    }

    /// The path of the file the game was read from.
    #[getter]
    fn source(&self) -> Option<&str> {
        self.0.source.as_deref()
    }

    /// True when the game was read (and, with `task="adjudicate"`, judged).
    #[getter]
    fn ok(&self) -> bool {
        self.error().is_none()
    }

    /// Why the game could not be read (`PgnError`, or `OSError` for a file
    /// of a collection that could not be read) or judged (the exception
    /// `Game.adjudicate` raises), as an exception object; else `None`.
    #[getter]
    fn error(&self) -> Option<PyErr> {
        match (&self.0.read, &self.0.verdict) {
            (Err(e), _) => Some(e.to_py_err()),
            (Ok(_), Some(Err(e))) => Some(e.to_py_err()),
            _ => None,
        }
    }

    /// What was wrong with a game read (`Game.errors`: a line cut at a
    /// move that cannot be played, a diagram's side to move corrected).
    #[getter]
    fn warnings(&self) -> Frozen<PyErr> {
        self.0.read.as_ref().map_or_else(
            |_| Frozen(Vec::new()),
            |s| s.warnings.iter().map(ToPyErr::to_py_err).collect(),
        )
    }

    /// The tag pairs, in file order, as a read-only mapping (empty for a
    /// broken game): a report is a snapshot, so an edit raises `TypeError`
    /// instead of vanishing (`report.game.headers` is the live one).
    #[getter]
    fn headers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let dict = PyDict::new(py);
        if let Ok(summary) = &self.0.read {
            for (k, v) in &summary.tags {
                dict.set_item(k, v)?;
            }
        }
        py.import("types")?
            .getattr("MappingProxyType")?
            .call1((dict,))
    }

    /// Main-line moves (0 for a broken game).
    #[getter]
    fn plies(&self) -> usize {
        self.0.read.as_ref().map_or(0, |s| s.plies)
    }

    /// The recorded result, as `Game.result` (`"*"` for a broken game).
    #[getter]
    fn result(&self) -> &'static str {
        self.0.read.as_ref().map_or("*", |s| s.result)
    }

    /// The notation the moves were written in (`None` for a broken game).
    #[getter]
    fn notation(&self) -> Option<&'static str> {
        self.0.read.as_ref().ok().map(|s| s.notation)
    }

    /// The game record, with `task="read"`; else `None`. The same object
    /// on every access.
    #[getter]
    fn game(&self, py: Python<'_>) -> PyResult<Option<Py<PyGame>>> {
        if let Some(game) = self.1.get() {
            return Ok(Some(game.clone_ref(py)));
        }
        let Some(game) = self.0.game.clone() else {
            return Ok(None);
        };
        let source = self.0.source.as_deref().map(str::to_owned);
        let made = Py::new(py, PyGame(game, source))?;
        // Another thread may have made it first: keep the one stored.
        let _ = self.1.set(made);
        Ok(self.1.get().map(|game| game.clone_ref(py)))
    }

    /// The verdict on the main line, with `task="adjudicate"` and a game
    /// judged; else `None`.
    #[getter]
    fn verdict(&self) -> Option<PyVerdict> {
        match &self.0.verdict {
            Some(Ok(verdict)) => Some(PyVerdict(verdict.clone())),
            _ => None,
        }
    }

    fn __repr__(&self) -> String {
        let what = match (&self.0.read, &self.0.verdict) {
            (Err(e), _) => format!("error={:?}", e.to_string()),
            (Ok(_), Some(Err(e))) => format!("error={:?}", e.to_py_err().to_string()),
            (Ok(s), Some(Ok(v))) => format!("plies={}, verdict={:?}", s.plies, v.result()),
            (Ok(s), None) => format!("plies={}, result={:?}", s.plies, s.result),
        };
        format!("<GameReport {} {what}>", self.0.index)
    }
}

/// One input of a run: a file to read, or a folder of a collection that
/// could not be walked.
type Input = CollectionEntry;

/// Why a run stopped before its end.
enum Stop {
    /// The pool lost a worker.
    Pool(PoolError),
    /// The progress callback raised, or a signal (Ctrl-C) arrived.
    Python(PyErr),
}

impl From<PoolError> for Stop {
    fn from(e: PoolError) -> Stop {
        Stop::Pool(e)
    }
}

/// Calls the progress callback (if any) with the GIL, and lets Python
/// handle a signal: a Ctrl-C stops the run.
fn report_progress(
    callback: Option<&Py<PyAny>>,
    games: usize,
    bytes: u64,
    total: u64,
) -> PyResult<()> {
    Python::attach(|py| {
        py.check_signals()?;
        match callback {
            Some(callback) => callback.bind(py).call1((games, bytes, total)).map(drop),
            None => Ok(()),
        }
    })
}

/// The run's progress for the callback: bytes of the files done, and of
/// the big file being read. An exception the callback raises is kept for
/// the sink, which stops the run with it.
struct Progress<'a> {
    callback: Option<&'a Py<PyAny>>,
    total_bytes: u64,
    /// Bytes of the files done, and games then.
    done_bytes: u64,
    done_games: usize,
    stopped: &'a RefCell<Option<PyErr>>,
}

impl Progress<'_> {
    fn report(&mut self, games: usize, bytes: u64) {
        if self.stopped.borrow().is_none() {
            let reported = report_progress(self.callback, games, bytes, self.total_bytes);
            *self.stopped.borrow_mut() = reported.err();
        }
    }
}

impl CollectionProgress for Progress<'_> {
    fn reading(&mut self, at: ReadProgress) {
        self.report(self.done_games + at.games, self.done_bytes + at.bytes);
    }

    fn file_done(&mut self, file: Option<&CollectedFile>, summary: &CollectionSummary) {
        self.done_bytes += file.map_or(0, |f| std::fs::metadata(&f.path).map_or(0, |m| m.len()));
        self.done_games = summary.games + summary.unreadable;
        self.report(self.done_games, self.done_bytes);
    }
}

/// Reads every input in order through the one collection reader, `task`
/// on every game on `jobs` threads; called without the GIL. `single`: one
/// file named alone, which raises when it cannot be opened (as
/// `read_games`) instead of giving a report.
fn run(
    inputs: Vec<Input>,
    single: bool,
    task: &Task,
    format: Option<Format>,
    options: &ReaderOptions,
    jobs: usize,
    callback: Option<&Py<PyAny>>,
) -> PyResult<Vec<Outcome>> {
    let stopped: RefCell<Option<PyErr>> = RefCell::new(None);
    let mut progress = Progress {
        callback,
        total_bytes: inputs
            .iter()
            .flatten()
            .map(|f| std::fs::metadata(&f.path).map_or(0, |m| m.len()))
            .sum(),
        done_bytes: 0,
        done_games: 0,
        stopped: &stopped,
    };
    let reading = CollectionOptions {
        format,
        reader: *options,
        jobs,
        work: PerGameWork::Light,
    };
    let mut outcomes = Vec::new();
    let source_of = |file: &CollectedFile| -> Arc<str> { file.path.display().to_string().into() };
    let read = read_collection(
        &inputs,
        &reading,
        &mut progress,
        |at, item| Outcome::of(task, at.index, Some(source_of(at.file)), item),
        |event| {
            if let Some(e) = stopped.borrow_mut().take() {
                return Err(Stop::Python(e));
            }
            match event {
                Event::Game(outcome) => outcomes.push(outcome),
                Event::Unreadable(Unreadable::File(file, e)) => {
                    if single && outcomes.is_empty() {
                        return Err(Stop::Python(e.to_py_err()));
                    }
                    outcomes.push(Outcome::broken(e.game, Some(source_of(file)), e));
                }
                Event::Unreadable(folder) => {
                    let error = folder.to_file_error();
                    let source = error.file.as_ref().map(|p| p.display().to_string().into());
                    outcomes.push(Outcome::broken(0, source, error));
                }
                // What a file holds besides its games is no game's report.
                Event::File(_) | Event::Warning(..) => {}
            }
            Ok(())
        },
    );
    match read {
        Ok(_) => {}
        Err(Stop::Pool(e)) => return Err(PyRuntimeError::new_err(e.to_string())),
        Err(Stop::Python(e)) => return Err(e),
    }
    match stopped.into_inner() {
        Some(e) => Err(e),
        None => Ok(outcomes),
    }
}

/// The inputs `source` names, and whether it is one file named alone.
fn inputs_of(source: &Bound<'_, PyAny>) -> PyResult<(Vec<Input>, bool)> {
    if let Some(paths) = collection_paths(source)? {
        let files = source
            .py()
            .detach(|| collect(&paths))
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        return Ok((files, false));
    }
    let path: PathBuf = path_of(source).ok_or_else(|| {
        PyTypeError::new_err(format!(
            "map_games reads game files: give a path (str or os.PathLike), a directory, \
             a pattern or a list of paths, not {}",
            type_name(source)
        ))
    })?;
    let name = path.display().to_string();
    Ok((vec![Ok(CollectedFile { path, name })], true))
}

/// Does `task` on every game of `source` on `jobs` threads (0: one per
/// core) and returns one `GameReport` per game, in file order, whatever
/// `jobs` says; the GIL is released while the threads work. `task`:
/// `"read"` (the records, `GameReport.game`), `"check"` (tags, length,
/// result, notation, warnings) or `"adjudicate"` (also the verdict under
/// `rules`, as `Game.adjudicate`). `source` is a path, or a collection as
/// `read_games` takes it (a directory, a pattern, a list of paths), read
/// file after file. A broken game is a report whose `error` says why; a
/// file named alone that cannot be opened raises, in a collection it is a
/// report. `encoding` forces the files' text encoding (`None`: detected
/// once per file, as `read_games` does). `progress`, if given, is called
/// now and then with the GIL, as `progress(games, bytes, total_bytes)`; an
/// exception it raises (or a Ctrl-C) stops the run and is raised.
#[pyfunction]
#[pyo3(signature = (source, task = "check", *, jobs = None, rules = "online", format = "auto", encoding = None, progress = None))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments
pub fn map_games(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    task: &str,
    jobs: Option<&Bound<'_, PyAny>>,
    rules: &str,
    format: &str,
    encoding: Option<&str>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<PyGameReport>> {
    let task = Task::parse(task, rules)?;
    let format = format_arg(format)?;
    let options = ReaderOptions {
        encoding: encoding_arg(encoding)?,
        ..ReaderOptions::default()
    };
    let jobs = match jobs {
        None => 0,
        Some(jobs) => {
            let n = int_arg(jobs, "jobs")?;
            usize::try_from(n)
                .map_err(|_| PyValueError::new_err(format!("jobs {n} must not be negative")))?
        }
    };
    let callback = match progress {
        Some(p) if !p.is_none() && !p.is_callable() => {
            return Err(PyTypeError::new_err(format!(
                "progress must be callable, not {}",
                type_name(p)
            )))
        }
        Some(p) if !p.is_none() => Some(p.clone().unbind()),
        _ => None,
    };
    let (inputs, single) = inputs_of(source)?;
    let outcomes = py.detach(|| {
        run(
            inputs,
            single,
            &task,
            format,
            &options,
            jobs,
            callback.as_ref(),
        )
    })?;
    Ok(outcomes
        .into_iter()
        .map(|outcome| PyGameReport(outcome, std::sync::OnceLock::new()))
        .collect())
}
