//! `Board.legal_moves`: a live view of a board's legal moves, as
//! python-chess's `LegalMoveGenerator` is. It holds the board, not a copy
//! of the moves, so it follows every push and pop.

use pyo3::exceptions::{PyIndexError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyIterator, PySlice, PyString, PyTuple};

use crate::board::PyBoard;
use crate::errors::to_py;
use crate::types::PyMove;

/// The legal moves of a board, live: `len()` and `count()`, `in` with a
/// `Move` or ICCS text (`"h2e2" in board.legal_moves`), iteration, `bool`
/// (no legal move: the side to move has lost) and indexing in generation
/// order. Raises `InvalidFenError` while the board is edited into
/// something the rules cannot play from.
#[pyclass(module = "xiangqi", name = "LegalMoves", frozen)]
pub struct PyLegalMoves {
    board: Py<PyBoard>,
}

impl PyLegalMoves {
    pub fn new(board: Py<PyBoard>) -> Self {
        PyLegalMoves { board }
    }

    fn moves(&self, py: Python<'_>) -> PyResult<Vec<PyMove>> {
        let list = self.board.borrow(py).legal_list()?;
        Ok(list.iter().copied().map(PyMove).collect())
    }
}

#[pymethods]
impl PyLegalMoves {
    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.board.borrow(py).legal_list()?.len())
    }

    /// How many legal moves there are.
    fn count(&self, py: Python<'_>) -> PyResult<usize> {
        self.__len__(py)
    }

    fn __bool__(&self, py: Python<'_>) -> PyResult<bool> {
        let board = self.board.borrow(py);
        Ok(board.position()?.has_legal_move())
    }

    /// `move in board.legal_moves`: a `Move`, or ICCS text (unreadable text
    /// raises `InvalidMoveError`); anything else is not in it.
    fn __contains__(&self, py: Python<'_>, item: &Bound<'_, PyAny>) -> PyResult<bool> {
        let mv = if let Ok(mv) = item.cast::<PyMove>() {
            mv.get().0
        } else if let Ok(text) = item.cast::<PyString>() {
            text.to_cow()?.parse().map_err(to_py)?
        } else {
            return Ok(false);
        };
        Ok(self.board.borrow(py).position()?.is_legal(mv))
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        PyTuple::new(py, self.moves(py)?)?.try_iter()
    }

    /// The move at `index` (or a list for a slice), in generation order.
    fn __getitem__<'py>(
        &self,
        py: Python<'py>,
        index: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let moves = PyTuple::new(py, self.moves(py)?)?;
        if let Ok(slice) = index.cast::<PySlice>() {
            return moves.as_any().get_item(slice);
        }
        let Ok(i) = index.extract::<isize>() else {
            return Err(PyTypeError::new_err(
                "legal move indices must be integers or slices",
            ));
        };
        let len = moves.len() as isize;
        let at = if i < 0 { i + len } else { i };
        if !(0..len).contains(&at) {
            return Err(PyIndexError::new_err(format!(
                "legal move index {i} is out of range: there are {len} legal moves"
            )));
        }
        moves.get_item(at as usize)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        match self.moves(py) {
            Ok(moves) => {
                let texts: Vec<String> = moves.iter().map(|m| m.0.to_string()).collect();
                format!("<LegalMoves ({})>", texts.join(", "))
            }
            Err(_) => "<LegalMoves of a board that is no position>".to_owned(),
        }
    }
}
