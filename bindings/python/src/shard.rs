//! `xiangqi.pgn.shards(path, n)`: byte ranges of a game file aligned to
//! game starts (`xiangqi-gamefile`'s `shards`), for reading one file from
//! several processes or machines with `read_games(path, start=, end=)`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::errors::{int_arg, ToPyErr};
use crate::pgn::args::{format_arg, offset_arg};

/// Bytes `start` to `end` (exclusive) of a game file, starting where a game
/// starts: read its games with `read_games(path, start=shard.start, end=shard.end)`.
#[pyclass(module = "xiangqi.pgn", name = "Shard", frozen, eq, hash)]
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct PyShard(pub xiangqi_gamefile::Shard);

#[pymethods]
impl PyShard {
    #[new]
    fn new(start: &Bound<'_, PyAny>, end: &Bound<'_, PyAny>) -> PyResult<PyShard> {
        let (start, end) = (offset_arg(start, "start")?, offset_arg(end, "end")?);
        if end < start {
            return Err(PyValueError::new_err(format!(
                "end {end} is before start {start}"
            )));
        }
        Ok(PyShard(xiangqi_gamefile::Shard { start, end }))
    }

    /// Offset of the first byte.
    #[getter]
    fn start(&self) -> u64 {
        self.0.start
    }

    /// Offset one past the last byte.
    #[getter]
    fn end(&self) -> u64 {
        self.0.end
    }

    /// Bytes in the range.
    fn __len__(&self) -> usize {
        // A range of a file this process has read fits in memory's addresses.
        usize::try_from(self.0.len()).unwrap_or(usize::MAX)
    }

    fn __repr__(&self) -> String {
        format!("Shard(start={}, end={})", self.0.start, self.0.end)
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
        (py.get_type::<PyShard>(), (self.0.start, self.0.end)).into_pyobject(py)
    }
}

/// At most `n` shards of the game file at `path`, in file order, that
/// together cover it: fewer when the file has fewer games (every shard but
/// a lone first one holds a game). PGN and WXF game files are split at game
/// starts; a binary or XML file (XQF, CBF, CBR, CBL) is one shard.
#[pyfunction]
#[pyo3(signature = (path, n, *, format = "auto"))]
pub fn shards(
    py: Python<'_>,
    path: std::path::PathBuf,
    n: &Bound<'_, PyAny>,
    format: &str,
) -> PyResult<Vec<PyShard>> {
    let n = int_arg(n, "n")?;
    if n < 1 {
        return Err(PyValueError::new_err(format!("n {n} must be at least 1")));
    }
    let n = usize::try_from(n).map_err(|_| PyValueError::new_err(format!("n {n} is too large")))?;
    let format = format_arg(format)?;
    let all = py
        .detach(|| {
            // More shards than bytes hold no more games: the bound keeps a
            // huge `n` from costing memory.
            let len = std::fs::metadata(&path).map_or(1, |m| m.len().max(1));
            let n = u64::try_from(n).map_or(len, |n| n.min(len));
            xiangqi_gamefile::shards(&path, format, usize::try_from(n).unwrap_or(usize::MAX))
        })
        .map_err(|e| e.to_py_err())?;
    // Only trailing shards are empty (n above the number of games).
    Ok(all
        .into_iter()
        .enumerate()
        .filter(|(i, shard)| *i == 0 || !shard.is_empty())
        .map(|(_, shard)| PyShard(shard))
        .collect())
}
