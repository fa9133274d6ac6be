//! The arguments `xiangqi.pgn`'s functions share (`read_games`, `shards`,
//! `map_games`, the explorer's `build`): a source as a path or a
//! collection, `format=`, `encoding=`, byte offsets.

use std::path::PathBuf;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};
use xiangqi_gamefile::{Format, TextEncoding};

use crate::errors::{int_arg, type_name};

/// `source` as a path, if it is a `str` or an `os.PathLike`.
pub(crate) fn path_of(source: &Bound<'_, PyAny>) -> Option<PathBuf> {
    if source.is_instance_of::<PyString>() || source.hasattr("__fspath__").unwrap_or(false) {
        source.extract().ok()
    } else {
        None
    }
}

/// The paths of `source` when it names a collection: a list or tuple of
/// paths, a directory, or a pattern (a path that does not exist and holds
/// `*`, `?`, `[` or `{`).
pub(crate) fn collection_paths(source: &Bound<'_, PyAny>) -> PyResult<Option<Vec<PathBuf>>> {
    if source.is_instance_of::<PyList>() || source.is_instance_of::<PyTuple>() {
        let mut paths = Vec::new();
        for item in source.try_iter()? {
            let item = item?;
            paths.push(path_of(&item).ok_or_else(|| {
                PyTypeError::new_err(format!(
                    "a list of game files holds paths (str or os.PathLike), not {}",
                    type_name(&item)
                ))
            })?);
        }
        return Ok(Some(paths));
    }
    Ok(path_of(source)
        .filter(|path| {
            let pattern = path.to_string_lossy().contains(['*', '?', '[', '{']);
            path.is_dir() || (pattern && !path.exists())
        })
        .map(|path| vec![path]))
}

/// `format=` of `read_games` and `shards`: `None` for `"auto"`.
pub fn format_arg(format: &str) -> PyResult<Option<Format>> {
    match format {
        "auto" => Ok(None),
        // Exact lower-case names, as for `errors`.
        name => Format::ALL
            .into_iter()
            .find(|f| f.name() == name)
            .map(Some)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "format={name:?}: expected 'auto', 'pgn', 'wxf', 'xqf', 'cbf', 'cbr' or 'cbl'"
                ))
            }),
    }
}

/// `encoding=` of `read_games`: `None` detects it once per file.
pub fn encoding_arg(encoding: Option<&str>) -> PyResult<Option<TextEncoding>> {
    encoding
        .map(|name| {
            name.parse::<TextEncoding>()
                .map_err(|e| PyValueError::new_err(format!("encoding={name:?}: {e}")))
        })
        .transpose()
}

/// A byte offset: a non-negative int.
pub fn offset_arg(value: &Bound<'_, PyAny>, what: &str) -> PyResult<u64> {
    let n = int_arg(value, what)?;
    u64::try_from(n).map_err(|_| PyValueError::new_err(format!("{what} {n} must not be negative")))
}
