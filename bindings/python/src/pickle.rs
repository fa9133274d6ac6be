//! Pickling, shared by the value classes. Each class's `__reduce__` names
//! its private `_restore` and a state of plain Python values (numbers,
//! strings, tuples; moves as ICCS text), so a pickle holds no Rust layout
//! and loads in any process running the same module: multiprocessing
//! pools, Dask workers. A state that does not decode raises `ValueError`.

use std::time::Duration;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use pyo3::{IntoPyObjectExt, PyTypeInfo};
use xiangqi_core::{Color, Move, Score};

/// `(T._restore, (state,))`, what `__reduce__` returns.
pub fn reduce<'py, T: PyTypeInfo>(
    py: Python<'py>,
    state: impl IntoPyObject<'py>,
) -> PyResult<Bound<'py, PyTuple>> {
    let restore = py.get_type::<T>().getattr("_restore")?;
    let args = PyTuple::new(py, [state.into_bound_py_any(py)?])?;
    PyTuple::new(py, [restore, args.into_any()])
}

pub fn bad_state(what: &str, detail: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(format!("cannot restore {what} from its pickle: {detail}"))
}

/// A score as `(is_mate, value)`.
pub type ScoreState = (bool, i32);

pub fn score_state(score: Score) -> ScoreState {
    match score {
        Score::Cp(v) => (false, v),
        Score::Mate(n) => (true, n),
    }
}

pub fn score((mate, value): ScoreState) -> Score {
    if mate {
        Score::Mate(value)
    } else {
        Score::Cp(value)
    }
}

/// Moves as ICCS text, space separated.
pub fn moves_state(moves: &[Move]) -> String {
    let words: Vec<String> = moves.iter().map(Move::to_string).collect();
    words.join(" ")
}

pub fn moves(text: &str, what: &str) -> PyResult<Vec<Move>> {
    text.split_ascii_whitespace()
        .map(|word| word.parse().map_err(|e| bad_state(what, e)))
        .collect()
}

pub fn one_move(text: &str, what: &str) -> PyResult<Move> {
    text.parse().map_err(|e| bad_state(what, e))
}

pub fn color_state(color: Color) -> &'static str {
    match color {
        Color::Red => "red",
        Color::Black => "black",
    }
}

pub fn color(text: &str, what: &str) -> PyResult<Color> {
    match text {
        "red" => Ok(Color::Red),
        "black" => Ok(Color::Black),
        other => Err(bad_state(what, format!("{other:?} is no side"))),
    }
}

/// A duration as `(seconds, nanoseconds)`, exactly.
pub type DurationState = (u64, u32);

pub fn duration_state(d: Duration) -> DurationState {
    (d.as_secs(), d.subsec_nanos())
}

pub fn duration((secs, nanos): DurationState, what: &str) -> PyResult<Duration> {
    if nanos >= 1_000_000_000 {
        return Err(bad_state(what, format!("{nanos} nanoseconds")));
    }
    Ok(Duration::new(secs, nanos))
}
