//! `xiangqi.Verdict`: the adjudication crate's verdict, read-only.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use xiangqi_adjudication::{Game, GameError, Preset, RuleSet, UnknownPresetError, Verdict};
use xiangqi_core::{Move, Position};

use crate::errors::to_py;
use crate::types::PyColor;

/// The preset named `rules` (`"online"`, `"asian"`, …), or `ValueError`.
pub fn preset_arg(rules: &str) -> PyResult<Preset> {
    rules
        .parse()
        .map_err(|e: UnknownPresetError| PyValueError::new_err(e.to_string()))
}

/// The verdict of the game `moves` from `start` under `rules`. Moves after
/// the end of the game do not raise: the verdict is the one at the ply
/// where the game ended.
pub fn judge(
    start: Position,
    moves: impl IntoIterator<Item = Move>,
    rules: RuleSet,
) -> Result<Verdict, GameError> {
    let mut game = Game::new(start, rules);
    for mv in moves {
        match game.push(mv) {
            Ok(_) => {}
            Err(GameError::GameOver { .. }) => break,
            Err(e) => return Err(e),
        }
    }
    Ok(game.verdict().clone())
}

/// Judges the game `moves` from `start` under the preset named `rules`
/// ([`judge`]), releasing the GIL.
pub fn adjudicate(
    py: Python<'_>,
    start: Position,
    moves: Vec<Move>,
    rules: &str,
) -> PyResult<PyVerdict> {
    let rules = RuleSet::preset(preset_arg(rules)?);
    py.detach(move || judge(start, moves, rules))
        .map(PyVerdict)
        .map_err(to_py)
}

/// `value` as Python data that cannot be edited: objects as read-only
/// mappings (`types.MappingProxyType`), arrays as tuples.
fn read_only<'py>(py: Python<'py>, value: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    use pyo3::types::{PyDict, PyTuple};
    use serde_json::Value;
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Number(n) => match n.as_i64() {
            Some(i) => i.into_pyobject(py)?.into_any(),
            None => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => s.into_pyobject(py)?.into_any(),
        Value::Array(items) => {
            let items = items
                .iter()
                .map(|item| read_only(py, item))
                .collect::<PyResult<Vec<_>>>()?;
            PyTuple::new(py, items)?.into_any()
        }
        Value::Object(fields) => {
            let dict = PyDict::new(py);
            for (key, field) in fields {
                dict.set_item(key, read_only(py, field)?)?;
            }
            py.import("types")?
                .getattr("MappingProxyType")?
                .call1((dict,))?
        }
    })
}

/// How a game stands under a rule set: who won (`outcome`), why (`reason`),
/// at which ply, and an explanation (`detail`).
#[pyclass(module = "xiangqi", name = "Verdict", frozen)]
#[derive(Clone)]
pub struct PyVerdict(pub Verdict);

#[pymethods]
impl PyVerdict {
    /// `"red"`, `"black"`, `"draw"`, `"cancelled"` or `"ongoing"`.
    #[getter]
    fn outcome(&self) -> &'static str {
        self.0.outcome.name()
    }

    /// The winning side, or `None`.
    #[getter]
    fn winner(&self) -> Option<PyColor> {
        self.0.outcome.winner().map(Into::into)
    }

    /// The reason code (`"checkmate"`, `"perpetual_check"`, `"no_capture_rule"`, ...),
    /// or `None` while the game goes on.
    #[getter]
    fn reason(&self) -> Option<&'static str> {
        self.0.reason.map(|r| r.code())
    }

    /// The ply after which the verdict holds (0 = the start position).
    #[getter]
    fn ply(&self) -> u32 {
        self.0.ply
    }

    /// A sentence a person can check, e.g. which pieces chased which.
    #[getter]
    fn detail(&self) -> &str {
        &self.0.detail
    }

    /// The PGN result: `"1-0"`, `"0-1"`, `"1/2-1/2"` or `"*"`.
    #[getter]
    fn result(&self) -> &'static str {
        self.0.result()
    }

    /// True when the game has ended.
    fn is_over(&self) -> bool {
        self.0.is_over()
    }

    /// For repetition verdicts, what each side did (checks, chases, the
    /// pieces involved) as a read-only mapping (lists as tuples: a verdict
    /// does not change, so an edit raises); otherwise `None`.
    #[getter]
    fn repetition<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let Some(info) = &self.0.repetition else {
            return Ok(None);
        };
        let value = serde_json::to_value(info)
            .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
        read_only(py, &value).map(Some)
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    /// Pickles as the verdict's JSON (every field, the repetition report too).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let json = serde_json::to_string(&self.0)
            .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
        crate::pickle::reduce::<PyVerdict>(py, json)
    }

    #[staticmethod]
    fn _restore(state: &str) -> PyResult<PyVerdict> {
        serde_json::from_str(state)
            .map(PyVerdict)
            .map_err(|e| crate::pickle::bad_state("a Verdict", e))
    }

    fn __repr__(&self) -> String {
        format!(
            "Verdict(outcome='{}', reason={}, ply={})",
            self.outcome(),
            self.reason()
                .map_or("None".to_owned(), |r| format!("'{r}'")),
            self.0.ply
        )
    }
}
