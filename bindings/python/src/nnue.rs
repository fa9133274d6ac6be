//! `xiangqi.nnue`: the NNUE training data (`xiangqi-nnue-train`) made from
//! Python, so that a Dask cluster can make it shard by shard: self-play of
//! one seed (`generate`), recorded games relabelled by our search
//! (`relabel`), shards put together (`merge`). Each call runs with the GIL
//! released and returns its report as a dict.

use std::path::PathBuf;

use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use xiangqi_nnue_train::data::DataError;
use xiangqi_nnue_train::{GenConfig, GenError, RelabelConfig, RelabelError};

fn data_error(e: &DataError) -> PyErr {
    match e {
        DataError::Io { .. } => PyOSError::new_err(e.to_string()),
        _ => PyValueError::new_err(e.to_string()),
    }
}

fn gen_error(e: GenError) -> PyErr {
    match &e {
        GenError::Data(d) => data_error(d),
        GenError::Pool(_) => PyRuntimeError::new_err(e.to_string()),
    }
}

fn relabel_error(e: RelabelError) -> PyErr {
    match &e {
        RelabelError::Data(d) => data_error(d),
        RelabelError::Collection(_) => PyValueError::new_err(e.to_string()),
        RelabelError::Pool(_) => PyRuntimeError::new_err(e.to_string()),
    }
}

/// Makes `games` self-play games of seed `seed` in the data file at `path`
/// (created, or resumed with the same settings), as `xiangqi nnue gen`.
#[pyfunction]
#[pyo3(signature = (path, *, games, nodes = 2000, seed = 1, opening_plies = 8, balanced_cp = 200, max_plies = 400, jobs = 1, hash_mb = 4))]
#[allow(clippy::too_many_arguments)]
pub fn nnue_generate<'py>(
    py: Python<'py>,
    path: PathBuf,
    games: u32,
    nodes: u32,
    seed: u64,
    opening_plies: u8,
    balanced_cp: u16,
    max_plies: u16,
    jobs: usize,
    hash_mb: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let config = GenConfig {
        games,
        nodes,
        seed,
        opening_plies,
        balanced_cp,
        max_plies,
        jobs,
        hash_mb,
    };
    let report = py
        .detach(|| xiangqi_nnue_train::generate(&path, &config, |_| {}))
        .map_err(gen_error)?;
    let dict = PyDict::new(py);
    dict.set_item("path", path)?;
    dict.set_item("games_before", report.resumed.map_or(0, |r| r.games))?;
    dict.set_item("games", report.games)?;
    dict.set_item("positions", report.positions)?;
    Ok(dict)
}

/// Relabels the games of `inputs` (files, folders, patterns) into the data
/// file at `path` (created, or resumed over the same games), as
/// `xiangqi nnue relabel`.
#[pyfunction]
#[pyo3(signature = (path, inputs, *, nodes = 2000, jobs = 1, hash_mb = 4))]
pub fn nnue_relabel<'py>(
    py: Python<'py>,
    path: PathBuf,
    inputs: Vec<PathBuf>,
    nodes: u32,
    jobs: usize,
    hash_mb: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let config = RelabelConfig {
        nodes,
        jobs,
        hash_mb,
    };
    let report = py
        .detach(|| xiangqi_nnue_train::relabel(&path, &inputs, &config, |_| {}))
        .map_err(relabel_error)?;
    let dict = PyDict::new(py);
    dict.set_item("path", path)?;
    dict.set_item("games", report.games)?;
    dict.set_item("positions", report.positions)?;
    dict.set_item("passed_over", report.passed_over)?;
    dict.set_item("left_out", report.left_out.total())?;
    dict.set_item("files", report.summary.files)?;
    Ok(dict)
}

/// Puts the whole games of the data files `inputs` in one file at
/// `output`, in the order given, as `xiangqi nnue merge`.
#[pyfunction]
pub fn nnue_merge<'py>(
    py: Python<'py>,
    output: PathBuf,
    inputs: Vec<PathBuf>,
) -> PyResult<Bound<'py, PyDict>> {
    let shards = py
        .detach(|| xiangqi_nnue_train::merge(&output, &inputs))
        .map_err(|e| data_error(&e))?;
    let dict = PyDict::new(py);
    dict.set_item("path", output)?;
    dict.set_item("games", shards.iter().map(|s| s.games).sum::<usize>())?;
    dict.set_item("positions", shards.iter().map(|s| s.records).sum::<usize>())?;
    Ok(dict)
}
