//! `xiangqi.ecco`: a game's opening in the ECCO classification, by
//! `xiangqi-ecco` (docs/ecco.md): `classify(game_or_moves)`, `codes()`,
//! and `Game.opening()`.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use xiangqi_core::Move;
use xiangqi_ecco::{EccoError, Opening};

use crate::errors::{to_py, type_name, IllegalMoveError};
use crate::pgn::PyGame;
use crate::types::PyMove;

/// A game's opening: `code` (`"C23"`), `name` (simplified Chinese),
/// `name_traditional`, `name_en` (English, WXF terms) and `ply` (the plies
/// after which the code no longer changes).
#[pyclass(module = "xiangqi.ecco", name = "Opening", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PyOpening(Opening);

#[pymethods]
impl PyOpening {
    #[getter]
    fn code(&self) -> &str {
        self.0.code
    }
    #[getter]
    fn name(&self) -> &str {
        self.0.name
    }
    #[getter]
    fn name_traditional(&self) -> &str {
        &self.0.name_traditional
    }
    #[getter]
    fn name_en(&self) -> &str {
        &self.0.name_en
    }
    #[getter]
    fn ply(&self) -> usize {
        self.0.ply
    }
    /// The fields as a dict (a row of a pandas DataFrame).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let row = PyDict::new(py);
        row.set_item("code", self.0.code)?;
        row.set_item("name", self.0.name)?;
        row.set_item("name_traditional", &self.0.name_traditional)?;
        row.set_item("name_en", &self.0.name_en)?;
        row.set_item("ply", self.0.ply)?;
        Ok(row)
    }
    fn __repr__(&self) -> String {
        format!(
            "Opening(code={:?}, name={:?}, name_en={:?}, ply={})",
            self.0.code, self.0.name, self.0.name_en, self.0.ply
        )
    }
}

fn ecco_error(e: EccoError) -> PyErr {
    IllegalMoveError::new_err(e.to_string())
}

fn classified(result: Result<Option<Opening>, EccoError>) -> PyResult<Option<PyOpening>> {
    result.map(|o| o.map(PyOpening)).map_err(ecco_error)
}

/// A move given as a `Move` or as ICCS text.
fn move_arg(value: &Bound<'_, PyAny>) -> PyResult<Move> {
    if let Ok(mv) = value.extract::<PyMove>() {
        return Ok(mv.0);
    }
    let text: String = value.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "a move must be a Move or ICCS text, not {}",
            type_name(value)
        ))
    })?;
    text.parse().map_err(to_py)
}

/// The opening of a `Game` (its main line) or of moves from the initial
/// position (`Move`s or ICCS text); `None` for a game from another position
/// or without moves. Raises `IllegalMoveError` for a move that cannot be
/// played.
#[pyfunction]
pub fn ecco_classify(game_or_moves: &Bound<'_, PyAny>) -> PyResult<Option<PyOpening>> {
    if let Ok(game) = game_or_moves.cast::<PyGame>() {
        return classified(xiangqi_ecco::classify_game(&game.borrow().0));
    }
    if game_or_moves.is_instance_of::<pyo3::types::PyString>() {
        return Err(PyTypeError::new_err(
            "classify takes a Game or a sequence of moves, not one string",
        ));
    }
    let moves = game_or_moves
        .try_iter()
        .map_err(|_| {
            PyTypeError::new_err(format!(
                "classify takes a Game or a sequence of moves, not {}",
                type_name(game_or_moves)
            ))
        })?
        .map(|item| move_arg(&item?))
        .collect::<PyResult<Vec<Move>>>()?;
    classified(xiangqi_ecco::classify_moves(&moves))
}

/// Every code the classification defines (260), as dicts with `code`,
/// `name`, `name_traditional` and `name_en`.
#[pyfunction]
pub fn ecco_codes<'py>(py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
    xiangqi_ecco::codes()
        .map(|c| {
            let row = PyDict::new(py);
            row.set_item("code", c.code)?;
            row.set_item("name", c.name)?;
            row.set_item("name_traditional", c.name_traditional)?;
            row.set_item("name_en", c.name_en)?;
            Ok(row)
        })
        .collect()
}

#[pymethods]
impl PyGame {
    /// The opening of the game's main line in the ECCO classification
    /// (`xiangqi.ecco.classify(game)`); `None` for a game from another
    /// position or without moves.
    fn opening(&self) -> PyResult<Option<PyOpening>> {
        classified(xiangqi_ecco::classify_game(&self.0))
    }
}
