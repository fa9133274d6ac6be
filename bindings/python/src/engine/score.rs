//! The one score type, `xiangqi.Score` (centipawns or a mate distance, the
//! core's `Score`), and `xiangqi.engine.PovScore`, a score with the side it
//! is seen from (python-chess's pair of `Score` and `PovScore`).

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use xiangqi_core::{Color, Score, REFERENCE_PLY};

use crate::pickle::{self, ScoreState};
use crate::types::PyColor;

/// An evaluation: centipawns or a mate distance, from one side's point of
/// view. `Score(cp=35)`, `Score(mate=3)` (`xiangqi.engine.Cp(35)`,
/// `Mate(3)`). Scores compare and sort from worst to best for that side:
/// being mated now, mated later, centipawns, mating later, mating now.
#[pyclass(module = "xiangqi", name = "Score", frozen, eq, ord, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PyScore(pub Score);

#[pymethods]
impl PyScore {
    /// Exactly one of `cp` (centipawns) and `mate` (moves to mate: positive
    /// when this side mates, negative or 0 when it is mated).
    #[new]
    #[pyo3(signature = (*, cp = None, mate = None))]
    fn new(cp: Option<i32>, mate: Option<i32>) -> PyResult<PyScore> {
        match (cp, mate) {
            (Some(v), None) => Ok(PyScore(Score::Cp(v))),
            (None, Some(n)) => Ok(PyScore(Score::Mate(n))),
            _ => Err(PyValueError::new_err(
                "give exactly one of cp= and mate=: Score(cp=35) or Score(mate=3)",
            )),
        }
    }

    /// The win, draw and loss chances in per mille, `(win, draw, loss)`,
    /// of this side `ply` plies into the game, by the win-rate model
    /// (`xiangqi/guide/engine-client.md`; ply 30 when not given).
    #[pyo3(signature = (*, ply = None))]
    fn wdl(&self, ply: Option<u32>) -> (u32, u32, u32) {
        let wdl = self.0.wdl(ply.unwrap_or(REFERENCE_PLY));
        (wdl.win, wdl.draw, wdl.loss)
    }

    /// Centipawns, or `None` for a mate score.
    #[getter]
    fn cp(&self) -> Option<i32> {
        match self.0 {
            Score::Cp(v) => Some(v),
            Score::Mate(_) => None,
        }
    }

    /// Moves to mate (positive: this side mates; negative: it is mated), or `None`.
    #[getter]
    fn mate(&self) -> Option<i32> {
        match self.0 {
            Score::Mate(n) => Some(n),
            Score::Cp(_) => None,
        }
    }

    /// True for a mate score.
    fn is_mate(&self) -> bool {
        self.0.is_mate()
    }

    /// A number for plotting: the centipawns, or +/-`mate_score` minus the
    /// distance for mates (so a nearer mate is a larger magnitude).
    #[pyo3(signature = (*, mate_score = 10_000))]
    fn score(&self, mate_score: i32) -> i32 {
        match self.0 {
            Score::Cp(v) => v,
            Score::Mate(n) if n >= 0 => mate_score.saturating_sub(n),
            Score::Mate(n) => -mate_score.saturating_add(n),
        }
    }

    /// The same evaluation from the other side's point of view.
    fn __neg__(&self) -> PyScore {
        PyScore(self.0.flipped())
    }

    /// `"cp 35"` or `"mate 3"`, as UCI writes it.
    fn __str__(&self) -> String {
        self.0.to_string()
    }

    /// `Score(cp=31)` or `Score(mate=-2)`.
    pub(crate) fn __repr__(&self) -> String {
        match self.0 {
            Score::Cp(v) => format!("Score(cp={v})"),
            Score::Mate(n) => format!("Score(mate={n})"),
        }
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        pickle::reduce::<PyScore>(py, pickle::score_state(self.0))
    }

    #[staticmethod]
    fn _restore(state: ScoreState) -> PyScore {
        PyScore(pickle::score(state))
    }
}

/// A score with the side it is seen from: `relative` is the side to move's
/// view, `red()` and `black()` the fixed views.
#[pyclass(module = "xiangqi.engine", name = "PovScore", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PyPovScore {
    relative: Score,
    turn: Color,
}

impl PyPovScore {
    /// `relative`, the view of `turn`, the side to move.
    pub fn new(relative: Score, turn: Color) -> PyPovScore {
        PyPovScore { relative, turn }
    }
}

#[pymethods]
impl PyPovScore {
    /// `PovScore(relative, turn)`: `relative` seen by `turn`, as python-chess builds one.
    #[new]
    fn py_new(relative: PyRef<'_, PyScore>, turn: PyColor) -> PyPovScore {
        PyPovScore::new(relative.0, turn.into())
    }

    /// The side to move's `(win, draw, loss)` in per mille `ply` plies into
    /// the game (`Score.wdl`); `.red()` / `.black()` then `.wdl()` for a fixed side.
    #[pyo3(signature = (*, ply = None))]
    fn wdl(&self, ply: Option<u32>) -> (u32, u32, u32) {
        PyScore(self.relative).wdl(ply)
    }

    /// The side to move's view.
    #[getter]
    fn relative(&self) -> PyScore {
        PyScore(self.relative)
    }

    /// The side the relative score is seen from (the side to move).
    #[getter]
    fn turn(&self) -> PyColor {
        self.turn.into()
    }

    /// Red's view.
    fn red(&self) -> PyScore {
        PyScore(self.relative.for_red(self.turn))
    }

    /// Black's view.
    fn black(&self) -> PyScore {
        PyScore(self.relative.for_red(self.turn).flipped())
    }

    /// `color`'s view.
    fn pov(&self, color: PyColor) -> PyScore {
        match Color::from(color) {
            Color::Red => self.red(),
            Color::Black => self.black(),
        }
    }

    /// True for a mate score.
    fn is_mate(&self) -> bool {
        self.relative.is_mate()
    }

    /// The side to move's chance of winning, 0.0 to 1.0 (logistic in the
    /// centipawns, scale in `xiangqi/guide/engine-client.md`).
    fn winning_chance(&self) -> f64 {
        self.relative.winning_chance()
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let state = (
            pickle::score_state(self.relative),
            pickle::color_state(self.turn),
        );
        pickle::reduce::<PyPovScore>(py, state)
    }

    #[staticmethod]
    fn _restore(state: (ScoreState, String)) -> PyResult<PyPovScore> {
        Ok(PyPovScore {
            relative: pickle::score(state.0),
            turn: pickle::color(&state.1, "a PovScore")?,
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "PovScore({}, {})",
            PyScore(self.relative).__repr__(),
            if self.turn == Color::Red {
                "RED"
            } else {
                "BLACK"
            }
        )
    }
}
