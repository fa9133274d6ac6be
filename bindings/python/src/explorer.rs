//! `xiangqi.explorer`: open an opening explorer file built by
//! `xiangqi explore build` (or `xiangqi.explorer.build`) and query it with
//! a board, by `xiangqi-explorer` (see docs/explorer.md). Queries and builds
//! run with the GIL released; answers are plain dicts and lists.

use std::path::PathBuf;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use xiangqi_adjudication::{Preset, RuleSet, UnknownPresetError};
use xiangqi_explorer::{
    build as build_explorer, BuildOptions, ExampleGame, Explorer, MoveStats, Results,
};

use crate::board::PyBoard;
use crate::errors::{to_py, ToPyErr};
use crate::types::PyMove;

pyo3::create_exception!(
    xiangqi,
    ExplorerError,
    PyValueError,
    "An opening explorer file that cannot be built or read: missing, not an explorer, of \
     another format version, truncated or corrupt. The message names the file."
);

impl ToPyErr for xiangqi_explorer::ExplorerError {
    fn to_py_err(&self) -> PyErr {
        ExplorerError::new_err(self.to_string())
    }
}

/// An explorer file open for queries.
#[pyclass(module = "xiangqi", name = "Explorer", frozen)]
pub struct PyExplorer(pub(crate) Explorer);

#[pymethods]
impl PyExplorer {
    /// The file's path.
    #[getter]
    fn path(&self) -> String {
        self.0.path().display().to_string()
    }

    /// Games indexed.
    #[getter]
    fn games(&self) -> u64 {
        self.0.info().games
    }

    /// Positions before each of a game's first `max_plies` moves are indexed.
    #[getter]
    fn max_plies(&self) -> u32 {
        self.0.info().max_plies
    }

    /// The moves played from `board`'s position, most played first: a dict
    /// with `games`, `red_wins`, `draws`, `black_wins`, `score` (percent
    /// for the side to move) and `moves`, a list of dicts with `move` (a
    /// `Move`), the same counts, `mean_rating` and `examples` (dicts of the
    /// example games' headers, `file` and `index` in the file).
    fn query<'py>(&self, py: Python<'py>, board: &PyBoard) -> PyResult<Bound<'py, PyDict>> {
        let position = board.position()?.clone();
        let side = position.side_to_move();
        let stats = py.detach(|| self.0.query(&position)).map_err(to_py)?;
        let answer = results_dict(py, &stats.total, side)?;
        let moves = PyList::empty(py);
        for m in &stats.moves {
            moves.append(move_dict(py, m, side)?)?;
        }
        answer.set_item("moves", moves)?;
        Ok(answer)
    }

    fn __repr__(&self) -> String {
        format!(
            "Explorer(path={:?}, games={})",
            self.0.path().display().to_string(),
            self.0.info().games
        )
    }
}

fn results_dict<'py>(
    py: Python<'py>,
    results: &Results,
    side: xiangqi_core::Color,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("games", results.games)?;
    dict.set_item("red_wins", results.red_wins)?;
    dict.set_item("draws", results.draws)?;
    dict.set_item("black_wins", results.black_wins)?;
    dict.set_item("score", results.score(side))?;
    Ok(dict)
}

fn move_dict<'py>(
    py: Python<'py>,
    m: &MoveStats,
    side: xiangqi_core::Color,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("move", PyMove(m.mv))?;
    for (key, value) in results_dict(py, &m.results, side)?.iter() {
        dict.set_item(key, value)?;
    }
    dict.set_item("mean_rating", m.mean_rating)?;
    let examples = PyList::empty(py);
    for game in &m.examples {
        examples.append(example_dict(py, game)?)?;
    }
    dict.set_item("examples", examples)?;
    Ok(dict)
}

fn example_dict<'py>(py: Python<'py>, game: &ExampleGame) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("id", game.id)?;
    dict.set_item("file", &game.file)?;
    dict.set_item("index", game.index)?;
    dict.set_item("red", &game.red)?;
    dict.set_item("black", &game.black)?;
    dict.set_item("red_elo", game.red_elo)?;
    dict.set_item("black_elo", game.black_elo)?;
    dict.set_item("event", &game.event)?;
    dict.set_item("date", &game.date)?;
    dict.set_item("result", game.result.map(|r| r.as_str()))?;
    Ok(dict)
}

/// Opens the explorer file at `path`.
#[pyfunction]
pub fn open_explorer(py: Python<'_>, path: PathBuf) -> PyResult<PyExplorer> {
    let explorer = py.detach(|| Explorer::open(&path)).map_err(to_py)?;
    Ok(PyExplorer(explorer))
}

/// Builds the explorer of the game files, directories and patterns
/// `inputs` into `output` (replaced once the build succeeds), indexing the
/// positions before each game's first `plies` moves on `jobs` threads (0:
/// one per core); games without a result are decided by `rules`;
/// `encoding` forces the files' text encoding (`None`: detected once per
/// file, as `read_games` does). Returns the build's report as a dict.
#[pyfunction]
#[pyo3(signature = (inputs, output, *, plies = 30, jobs = 0, rules = "online", encoding = None))]
pub fn build_explorer_file<'py>(
    py: Python<'py>,
    inputs: Vec<PathBuf>,
    output: PathBuf,
    plies: usize,
    jobs: usize,
    rules: &str,
    encoding: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let preset: Preset = rules
        .parse()
        .map_err(|e: UnknownPresetError| PyValueError::new_err(e.to_string()))?;
    let options = BuildOptions {
        max_plies: plies,
        jobs,
        rules: RuleSet::preset(preset),
        encoding: crate::pgn::args::encoding_arg(encoding)?,
        ..BuildOptions::default()
    };
    let report = py
        .detach(|| build_explorer(&inputs, &output, &options, |_| {}))
        .map_err(to_py)?;
    let dict = PyDict::new(py);
    dict.set_item("files", report.files)?;
    dict.set_item("games", report.games)?;
    dict.set_item("indexed", report.indexed)?;
    dict.set_item("skipped", report.skipped)?;
    dict.set_item("partial", report.partial)?;
    dict.set_item("unreadable", report.unreadable)?;
    dict.set_item("entries", report.entries)?;
    let problems: Vec<String> = report.problems.iter().map(ToString::to_string).collect();
    dict.set_item("problems", problems)?;
    Ok(dict)
}
