//! Reading a search's arguments from Python: a limit, any combination of
//! `time`, `depth`, `nodes`, `mate` and the clocks (`red_clock`,
//! `black_clock`, `red_inc`, `black_inc`, `remaining_moves`), given as
//! keywords; seconds, line counts and the built-in engine's sizes, each a
//! `ValueError` naming the argument when out of range.

use std::time::Duration;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use xiangqi_engine_client::{Clock, Limit};

use crate::errors::{int_arg, type_name};

/// Most lines one search may ask for (an external engine may give fewer;
/// the built-in one gives at most `xiangqi_search::MAX_MULTI_PV`).
const MAX_MULTIPV: i64 = 500;

/// Most seconds a time, clock or increment may be (about 11 days).
const MAX_SECONDS: f64 = 1.0e6;

/// The keywords of a limit, as `xiangqi.engine.Limit` passes them.
const LIMIT_KEYWORDS: [&str; 9] = [
    "time",
    "depth",
    "nodes",
    "mate",
    "red_clock",
    "black_clock",
    "red_inc",
    "black_inc",
    "remaining_moves",
];

/// A positive number of seconds.
pub fn secs(value: f64, what: &str) -> PyResult<Duration> {
    if value.is_finite() && value > 0.0 && value <= MAX_SECONDS {
        Ok(Duration::from_secs_f64(value))
    } else {
        Err(PyValueError::new_err(format!(
            "{what} {value} must be a positive number of seconds"
        )))
    }
}

/// A number given for seconds.
fn seconds_arg(value: &Bound<'_, PyAny>, what: &str) -> PyResult<f64> {
    value.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "{what} must be a number of seconds, not {}",
            type_name(value)
        ))
    })
}

/// A number of seconds, 0 allowed (a clock that ran out, no increment).
fn clock_secs(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Duration> {
    let seconds = seconds_arg(value, what)?;
    if seconds.is_finite() && (0.0..=MAX_SECONDS).contains(&seconds) {
        Ok(Duration::from_secs_f64(seconds))
    } else {
        Err(PyValueError::new_err(format!(
            "{what} {seconds} must be a number of seconds from 0 to {MAX_SECONDS}"
        )))
    }
}

/// The limit given as keywords (`None` values are absent): every part
/// given applies, the search stops at the first reached. A clock given for
/// one side only stands for both; an increment or `remaining_moves` needs a
/// clock. No limit at all is an error.
pub fn read_limit(keywords: Option<&Bound<'_, PyDict>>) -> PyResult<Limit> {
    let mut given = std::collections::HashMap::new();
    if let Some(keywords) = keywords {
        for (key, value) in keywords.iter() {
            let key: String = key.extract()?;
            if !LIMIT_KEYWORDS.contains(&key.as_str()) {
                return Err(PyTypeError::new_err(format!(
                    "unexpected keyword {key:?}: a limit takes {}",
                    LIMIT_KEYWORDS.join(", ")
                )));
            }
            if !value.is_none() {
                given.insert(key, value);
            }
        }
    }
    let get = |key: &str| given.get(key);
    let mut limit = Limit::default();
    if let Some(t) = get("time") {
        limit.move_time = Some(secs(seconds_arg(t, "time")?, "time")?);
    }
    if let Some(d) = get("depth") {
        limit.depth = Some(in_range(d, "depth", i64::from(xiangqi_search::MAX_DEPTH))? as u32);
    }
    if let Some(n) = get("nodes") {
        let n = int_arg(n, "nodes")?;
        if n < 1 {
            return Err(PyValueError::new_err(format!("nodes {n} must be positive")));
        }
        limit.nodes = Some(n as u64);
    }
    if let Some(m) = get("mate") {
        // A mate deeper than the search's depth cannot be looked for.
        let most = (i64::from(xiangqi_search::MAX_DEPTH) + 1) / 2;
        limit.mate = Some(in_range(m, "mate", most)? as u32);
    }
    let red = get("red_clock")
        .map(|v| clock_secs(v, "red_clock"))
        .transpose()?;
    let black = get("black_clock")
        .map(|v| clock_secs(v, "black_clock"))
        .transpose()?;
    let red_inc = get("red_inc")
        .map(|v| clock_secs(v, "red_inc"))
        .transpose()?;
    let black_inc = get("black_inc")
        .map(|v| clock_secs(v, "black_inc"))
        .transpose()?;
    let moves_to_go = get("remaining_moves")
        .map(|v| in_range(v, "remaining_moves", 10_000))
        .transpose()?;
    match red.or(black) {
        Some(either) => {
            limit.clock = Some(Clock {
                red: red.unwrap_or(either),
                black: black.unwrap_or(either),
                red_increment: red_inc.unwrap_or_default(),
                black_increment: black_inc.unwrap_or_default(),
                moves_to_go: moves_to_go.map(|m| m as u32),
            })
        }
        None => {
            for (key, value) in [
                ("red_inc", red_inc.is_some()),
                ("black_inc", black_inc.is_some()),
                ("remaining_moves", moves_to_go.is_some()),
            ] {
                if value {
                    return Err(PyValueError::new_err(format!(
                        "{key} needs a clock: give red_clock and black_clock too"
                    )));
                }
            }
        }
    }
    if limit.is_empty() {
        return Err(PyValueError::new_err(
            "give a limit: time, depth, nodes, mate or clocks (red_clock, black_clock), \
             e.g. Limit(depth=10) or Limit(time=0.5, depth=20)",
        ));
    }
    Ok(limit)
}

/// Checks a limit's keywords without searching (`xiangqi.engine.Limit`
/// refuses a bad limit when it is made, not when it is used).
#[pyfunction]
#[pyo3(name = "_check_limit", signature = (**limit))]
pub fn check_limit(limit: Option<&Bound<'_, PyDict>>) -> PyResult<()> {
    read_limit(limit).map(|_| ())
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
