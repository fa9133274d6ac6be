//! `xiangqi.engine.annotate` and its `MoveReview`: a game reviewed by any
//! engine (`xiangqi_engine_client::annotate`) and written into the record.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use pyo3::types::PyTuple;
use xiangqi_core::Color;
use xiangqi_engine_client::annotate::pgn::{annotate_game, AnnotateError};
use xiangqi_engine_client::annotate::{Judgement, MoveReview, PositionEval, ReviewOptions};
use xiangqi_engine_client::SearchOptions;

use super::client::PyEngineClient;
use super::limit::{read_limit, secs};
use super::score::PyScore;
use crate::errors::to_py;
use crate::pgn::PyGame;
use crate::pickle::{self, ScoreState};
use crate::types::{PyColor, PyMove};

/// What pickles a [`PositionEval`]: `("engine", score, depth, None)`,
/// `("over", None, None, winner)` or `("unknown", None, None, None)`.
type EvalState = (String, Option<ScoreState>, Option<u32>, Option<String>);

/// What pickles a [`MoveReview`]: ply, move, mover, evaluation after,
/// drop, judgement name, best line, evaluation before.
type ReviewState = (
    usize,
    String,
    String,
    EvalState,
    Option<f64>,
    Option<String>,
    Option<String>,
    EvalState,
);

fn eval_state(eval: PositionEval) -> EvalState {
    match eval {
        PositionEval::Engine { red, depth } => {
            ("engine".into(), Some(pickle::score_state(red)), depth, None)
        }
        PositionEval::Over { winner } => (
            "over".into(),
            None,
            None,
            Some(pickle::color_state(winner).into()),
        ),
        PositionEval::Unknown => ("unknown".into(), None, None, None),
    }
}

fn eval_of(state: EvalState, what: &str) -> PyResult<PositionEval> {
    match state {
        (kind, Some(score), depth, None) if kind == "engine" => Ok(PositionEval::Engine {
            red: pickle::score(score),
            depth,
        }),
        (kind, None, None, Some(winner)) if kind == "over" => Ok(PositionEval::Over {
            winner: pickle::color(&winner, what)?,
        }),
        (kind, None, None, None) if kind == "unknown" => Ok(PositionEval::Unknown),
        (kind, ..) => Err(pickle::bad_state(what, format!("evaluation {kind:?}"))),
    }
}

/// One reviewed move of [`annotate`].
#[pyclass(module = "xiangqi.engine", name = "MoveReview", frozen)]
pub struct PyMoveReview(MoveReview);

#[pymethods]
impl PyMoveReview {
    /// 1-based ply of the main line.
    #[getter]
    fn ply(&self) -> usize {
        self.0.ply
    }
    #[getter]
    fn r#move(&self) -> PyMove {
        PyMove(self.0.mv)
    }
    #[getter]
    fn mover(&self) -> PyColor {
        self.0.mover.into()
    }
    /// The engine's score after the move, Red's view (`None` when the game is
    /// over there or the engine gave no score).
    #[getter]
    fn red_score(&self) -> Option<PyScore> {
        match self.0.eval_after {
            PositionEval::Engine { red, .. } => Some(PyScore(red)),
            _ => None,
        }
    }
    /// The engine's score before the move (of the best line it found
    /// there), Red's view; `None` like `red_score`. With `red_score` it
    /// gives the centipawns a move lost.
    #[getter]
    fn red_score_before(&self) -> Option<PyScore> {
        match self.0.best_eval {
            PositionEval::Engine { red, .. } => Some(PyScore(red)),
            _ => None,
        }
    }
    /// Red's winning chance after the move, 0.0-1.0 (1.0 or 0.0 when the
    /// game is over), for evaluation plots.
    #[getter]
    fn red_winning_chance(&self) -> Option<f64> {
        self.0
            .eval_after
            .winning_chance(Color::Red, self.0.ply as u32)
    }
    /// The `[%eval …]` comment written on the move.
    #[getter]
    fn eval_comment(&self) -> Option<String> {
        self.0.eval_after.comment()
    }
    /// The mover's winning chance lost by the move.
    #[getter]
    fn drop(&self) -> Option<f64> {
        self.0.drop
    }
    /// The move's accuracy, 0-100, from its drop (`None` without one).
    #[getter]
    fn accuracy(&self) -> Option<f64> {
        self.0.accuracy()
    }
    /// `"inaccuracy"`, `"mistake"`, `"blunder"` or `None`.
    #[getter]
    fn judgement(&self) -> Option<&'static str> {
        self.0.judgement.map(|j| j.name())
    }
    /// `"?!"`, `"?"`, `"??"` or `None`.
    #[getter]
    fn symbol(&self) -> Option<&'static str> {
        self.0.judgement.map(|j| j.symbol())
    }
    /// The engine's line instead of a mistake or blunder, else `None`.
    #[getter]
    fn best_line(&self) -> Option<crate::types::Frozen<PyMove>> {
        self.0
            .best_line
            .as_ref()
            .map(|l| l.iter().copied().map(PyMove).collect())
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let r = &self.0;
        let state: ReviewState = (
            r.ply,
            r.mv.to_string(),
            pickle::color_state(r.mover).to_owned(),
            eval_state(r.eval_after),
            r.drop,
            r.judgement.map(|j| j.name().to_owned()),
            r.best_line.as_deref().map(pickle::moves_state),
            eval_state(r.best_eval),
        );
        pickle::reduce::<PyMoveReview>(py, state)
    }

    #[staticmethod]
    fn _restore(state: ReviewState) -> PyResult<PyMoveReview> {
        const WHAT: &str = "a MoveReview";
        let (ply, mv, mover, eval_after, drop, judgement, best_line, best_eval) = state;
        let judgement = match judgement {
            None => None,
            Some(name) => Some(
                [
                    Judgement::Inaccuracy,
                    Judgement::Mistake,
                    Judgement::Blunder,
                ]
                .into_iter()
                .find(|j| j.name() == name)
                .ok_or_else(|| pickle::bad_state(WHAT, format!("judgement {name:?}")))?,
            ),
        };
        Ok(PyMoveReview(MoveReview {
            ply,
            mv: pickle::one_move(&mv, WHAT)?,
            mover: pickle::color(&mover, WHAT)?,
            eval_after: eval_of(eval_after, WHAT)?,
            drop,
            judgement,
            best_line: best_line.map(|l| pickle::moves(&l, WHAT)).transpose()?,
            best_eval: eval_of(best_eval, WHAT)?,
        }))
    }

    fn __repr__(&self) -> String {
        format!(
            "MoveReview(ply={}, move='{}', eval={:?}, judgement={:?})",
            self.0.ply,
            self.0.mv,
            self.0.eval_after.comment(),
            self.0.judgement.map(|j| j.name())
        )
    }
}

/// Reviews `game`'s main line with `engine` and writes the review into the
/// game: `[%eval …]` on every move, `?!`/`?`/`??`, the engine's line for
/// mistakes (see `xiangqi/guide/engine-client.md`). Returns one `MoveReview` per move.
#[pyfunction]
#[pyo3(signature = (game, engine, *, timeout = None, **limit))]
#[allow(clippy::too_many_arguments)]
pub fn annotate(
    py: Python<'_>,
    mut game: PyRefMut<'_, PyGame>,
    engine: &PyEngineClient,
    timeout: Option<f64>,
    limit: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<PyMoveReview>> {
    let limit = read_limit(limit)?;
    let timeout = timeout.map(|t| secs(t, "timeout")).transpose()?;
    let options = ReviewOptions::new(SearchOptions {
        limit,
        multipv: 1,
        timeout,
    });
    let record = &mut game.0;
    let reviews = engine
        .with_open_backend(py, |backend| {
            annotate_game(backend, record, &options, |_, _| {})
        })?
        .map_err(|e| match e {
            AnnotateError::Game(e) => PyValueError::new_err(e.to_string()),
            AnnotateError::Engine(e) => to_py(e),
        })?;
    Ok(reviews.into_iter().map(PyMoveReview).collect())
}
