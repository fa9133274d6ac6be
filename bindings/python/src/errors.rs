//! The module's exception types and the one place where Rust errors become
//! Python exceptions. Every exception is a `ValueError` subclass, so code
//! that catches `ValueError` keeps working, and carries the Rust error's
//! message unchanged.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyInt;

pyo3::create_exception!(
    xiangqi,
    InvalidFenError,
    PyValueError,
    "A FEN string that does not describe a legal position."
);
pyo3::create_exception!(
    xiangqi,
    InvalidMoveError,
    PyValueError,
    "Move text that cannot be read at all (bad syntax), whatever the position."
);
pyo3::create_exception!(
    xiangqi,
    IllegalMoveError,
    PyValueError,
    "A move that is well formed but not legal in the position."
);
pyo3::create_exception!(
    xiangqi,
    AmbiguousMoveError,
    PyValueError,
    "Move text that fits more than one legal move."
);
pyo3::create_exception!(
    xiangqi,
    PgnError,
    PyValueError,
    "A game record (PGN or WXF game file) that cannot be read or written. `game`, `line` \
     and `column` (1-based) say where a broken game is, `None` when the error has no place \
     in a file; `message` says what is wrong, without the place."
);

/// A `PgnError` whose attributes say where in a file a broken game is:
/// `str(e)` is `text`; `game`, `line` and `column` are the place and
/// `message` the problem alone.
fn located_pgn_error(text: String, place: Option<(usize, usize, usize)>, message: String) -> PyErr {
    let place = place.map(|(game, line, column)| Place {
        game,
        line: Some(line),
        column: Some(column),
        offset: None,
        ply: None,
    });
    placed_pgn_error(text, place, message)
}

/// Where a broken game is: its number, and a line and column (text formats)
/// or a byte offset (binary formats).
struct Place {
    game: usize,
    line: Option<usize>,
    column: Option<usize>,
    offset: Option<u64>,
    /// The 1-based ply along its line of a move that could not be read.
    ply: Option<usize>,
}

fn placed_pgn_error(text: String, place: Option<Place>, message: String) -> PyErr {
    Python::attach(|py| {
        let err = PgnError::new_err(text);
        let value = err.value(py);
        let (game, line, column, offset, ply) = match place {
            Some(p) => (Some(p.game), p.line, p.column, p.offset, p.ply),
            None => (None, None, None, None, None),
        };
        let set = value
            .setattr("game", game)
            .and_then(|()| value.setattr("ply", ply))
            .and_then(|()| value.setattr("line", line))
            .and_then(|()| value.setattr("column", column))
            .and_then(|()| value.setattr("offset", offset))
            .and_then(|()| value.setattr("message", message));
        match set {
            Ok(()) => err,
            Err(e) => e,
        }
    })
}

/// A `PgnError` with no place in a file (`game`, `line`, `column` are `None`).
pub fn pgn_error(message: impl Into<String>) -> PyErr {
    let message = message.into();
    located_pgn_error(message.clone(), None, message)
}

/// The exception `inner` maps to (e.g. `IllegalMoveError`), with the outer
/// error's fuller message.
fn same_class(inner: &dyn ToPyErr, message: String) -> PyErr {
    Python::attach(|py| PyErr::from_type(inner.to_py_err().get_type(py), message))
}

/// Maps a Rust error of this workspace to the Python exception a user
/// expects, keeping its message.
pub trait ToPyErr {
    /// The Python exception for `self`.
    fn to_py_err(&self) -> PyErr;
}

impl ToPyErr for xiangqi_core::FenError {
    fn to_py_err(&self) -> PyErr {
        InvalidFenError::new_err(self.to_string())
    }
}

impl ToPyErr for xiangqi_core::ParseMoveError {
    fn to_py_err(&self) -> PyErr {
        InvalidMoveError::new_err(self.to_string())
    }
}

impl ToPyErr for xiangqi_core::PlayError {
    fn to_py_err(&self) -> PyErr {
        IllegalMoveError::new_err(self.to_string())
    }
}

impl ToPyErr for xiangqi_core::ParseSquareError {
    fn to_py_err(&self) -> PyErr {
        PyValueError::new_err(self.to_string())
    }
}

/// `result.map_err(to_py)` reads better than a closure at every call site.
pub fn to_py<E: ToPyErr>(err: E) -> PyErr {
    err.to_py_err()
}

/// Reads a Python `int` of any size as an `i64`, so that huge or negative
/// numbers become a `ValueError` naming `what` (rather than an
/// `OverflowError` from argument conversion) and non-integers a `TypeError`.
pub fn int_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<i64> {
    let int = obj.cast::<PyInt>().map_err(|_| {
        PyTypeError::new_err(format!("{what} must be an int, not {}", type_name(obj)))
    })?;
    int.extract::<i64>()
        .map_err(|_| PyValueError::new_err(format!("{what} {int} is out of range")))
}

/// The Python type name of `obj`, for error messages.
pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "object".to_owned())
}

impl ToPyErr for xiangqi_notation::MoveTextError {
    fn to_py_err(&self) -> PyErr {
        use xiangqi_notation::MoveTextError as E;
        let msg = self.to_string();
        match self {
            E::Syntax(_) => InvalidMoveError::new_err(msg),
            E::Ambiguous { .. } => AmbiguousMoveError::new_err(msg),
            // NoSuchPiece, Impossible, Illegal and any later kind: the text
            // is well formed but names no legal move here.
            _ => IllegalMoveError::new_err(msg),
        }
    }
}

impl ToPyErr for xiangqi_notation::ParseMoveError {
    fn to_py_err(&self) -> PyErr {
        InvalidMoveError::new_err(self.to_string())
    }
}

impl ToPyErr for xiangqi_gamefile::GameFileError {
    fn to_py_err(&self) -> PyErr {
        use xiangqi_gamefile::{ErrorKind, Location};
        if self.is_io() {
            return pyo3::exceptions::PyOSError::new_err(self.to_string());
        }
        let ply = match &self.kind {
            ErrorKind::IllegalMove { ply, .. }
            | ErrorKind::EmptySquare { ply, .. }
            | ErrorKind::MoveText { ply, .. } => Some(*ply),
            _ => None,
        };
        let (line, column, offset) = match self.location {
            Location::Text { line, column } => (Some(line), Some(column), None),
            Location::Byte(offset) => (None, None, Some(offset)),
            Location::File => (None, None, None),
        };
        let place = Place {
            game: self.game,
            line,
            column,
            offset,
            ply,
        };
        placed_pgn_error(self.to_string(), Some(place), self.kind.to_string())
    }
}

impl ToPyErr for xiangqi_gamefile::MainLineError {
    fn to_py_err(&self) -> PyErr {
        use xiangqi_gamefile::MainLineError as E;
        match self {
            E::Fen(_) => InvalidFenError::new_err(self.to_string()),
            E::Illegal(_) => IllegalMoveError::new_err(self.to_string()),
        }
    }
}

impl ToPyErr for xiangqi_gamefile::WriteError {
    fn to_py_err(&self) -> PyErr {
        use xiangqi_gamefile::WriteError as E;
        match self {
            E::Io(e) => pyo3::exceptions::PyOSError::new_err(e.to_string()),
            E::Fen(e) => same_class(e, self.to_string()),
            E::Move(e) => same_class(e, self.to_string()),
            E::Comment(_) => pgn_error(self.to_string()),
            // What WXF or XQF cannot hold: variations, NAGs, comments, tags, pieces.
            _ => PyValueError::new_err(self.to_string()),
        }
    }
}

impl ToPyErr for xiangqi_adjudication::GameError {
    fn to_py_err(&self) -> PyErr {
        use xiangqi_adjudication::GameError as E;
        let msg = self.to_string();
        match self {
            E::BadFen(_) => InvalidFenError::new_err(msg),
            E::BadMoveText { .. } => InvalidMoveError::new_err(msg),
            E::IllegalMove { .. } => IllegalMoveError::new_err(msg),
            _ => PyValueError::new_err(msg),
        }
    }
}

pyo3::create_exception!(
    xiangqi,
    EngineError,
    pyo3::exceptions::PyRuntimeError,
    "An external engine failed: it could not be started, cannot do what was asked, or \
     failed in one of the ways of the subclasses."
);
pyo3::create_exception!(
    xiangqi,
    EngineTerminatedError,
    EngineError,
    "The engine process died, closed its output, or was stopped after an earlier failure."
);
pyo3::create_exception!(
    xiangqi,
    EngineTimeoutError,
    EngineError,
    "The engine did not answer in time; its process was killed."
);
pyo3::create_exception!(
    xiangqi,
    EngineProtocolError,
    EngineError,
    "The engine answered nonsense: an unreadable or illegal move, no move, a refusal of \
     a legal move, or a resignation."
);

impl ToPyErr for xiangqi_engine_client::EngineError {
    fn to_py_err(&self) -> PyErr {
        use xiangqi_engine_client::EngineError as E;
        let text = self.to_string();
        match self {
            E::Died { .. } | E::Stopped => EngineTerminatedError::new_err(text),
            E::Timeout { .. } | E::FlagFell { .. } => EngineTimeoutError::new_err(text),
            E::UnreadableMove { .. }
            | E::IllegalMove { .. }
            | E::NoMove { .. }
            | E::Refused { .. }
            | E::Resigned => EngineProtocolError::new_err(text),
            E::Spawn { .. } | E::Unsupported(_) => EngineError::new_err(text),
        }
    }
}
