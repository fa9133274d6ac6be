//! Reading a search's arguments from Python: one limit (`time`, `depth` or
//! `nodes`), seconds, line counts and the built-in engine's sizes, each a
//! `ValueError` naming the argument when out of range.

use std::time::Duration;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use xiangqi_engine_client::Limit;

use crate::errors::int_arg;

/// Most lines one search may ask for (an external engine may give fewer;
/// the built-in one gives at most `xiangqi_search::MAX_MULTI_PV`).
const MAX_MULTIPV: i64 = 500;

/// A positive number of seconds.
pub fn secs(value: f64, what: &str) -> PyResult<Duration> {
    if value.is_finite() && value > 0.0 && value <= 1.0e6 {
        Ok(Duration::from_secs_f64(value))
    } else {
        Err(PyValueError::new_err(format!(
            "{what} {value} must be a positive number of seconds"
        )))
    }
}

/// The one limit among `time` (seconds), `depth` and `nodes`.
pub fn read_limit(
    time: Option<f64>,
    depth: Option<&Bound<'_, PyAny>>,
    nodes: Option<&Bound<'_, PyAny>>,
) -> PyResult<Limit> {
    let mut limits = Vec::new();
    if let Some(t) = time {
        limits.push(Limit::MoveTime(secs(t, "time")?));
    }
    if let Some(d) = depth {
        limits.push(Limit::Depth(
            in_range(d, "depth", i64::from(xiangqi_search::MAX_DEPTH))? as u32,
        ));
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

/// The lines asked for, 1 when not given.
pub fn read_multipv(multipv: Option<&Bound<'_, PyAny>>) -> PyResult<u32> {
    multipv.map_or(Ok(1), |k| Ok(in_range(k, "multipv", MAX_MULTIPV)? as u32))
}

/// The built-in engine's hash table in MiB, `DEFAULT_HASH_MB` when not given.
pub fn read_hash_mb(hash_mb: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    hash_mb.map_or(Ok(xiangqi_search::DEFAULT_HASH_MB), |mb| {
        Ok(in_range(mb, "hash_mb", xiangqi_search::MAX_HASH_MB as i64)? as usize)
    })
}

/// The built-in engine's search threads, 1 when not given.
pub fn read_threads(threads: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    threads.map_or(Ok(1), |n| {
        Ok(in_range(n, "threads", xiangqi_search::MAX_THREADS as i64)? as usize)
    })
}

/// An integer argument in `1..=max`.
fn in_range(value: &Bound<'_, PyAny>, what: &str, max: i64) -> PyResult<i64> {
    let n = int_arg(value, what)?;
    if !(1..=max).contains(&n) {
        return Err(PyValueError::new_err(format!(
            "{what} {n} is not in 1 to {max}"
        )));
    }
    Ok(n)
}
