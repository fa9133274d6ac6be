//! What a search reports, for Python: `EngineInfo` (one line, python-chess's
//! `InfoDict` as a typed object) and `EngineResult` (the move and every
//! line), both with their pickles.

use pyo3::prelude::*;
use pyo3::types::PyTuple;
use xiangqi_core::{Color, Move};
use xiangqi_engine_client::{Analysis, Bound as ScoreBound, Evaluation, Info};

use super::score::{PyPovScore, PyScore};
use crate::pickle::{self, DurationState, ScoreState};
use crate::types::{PyColor, PyMove};

/// What pickles an [`Info`]: multipv, depth, seldepth, evaluation (score
/// and bound name), nodes, nps, time, PV.
type InfoState = (
    u32,
    Option<u32>,
    Option<u32>,
    Option<(ScoreState, String)>,
    Option<u64>,
    Option<u64>,
    Option<DurationState>,
    String,
);

fn info_state(info: &Info) -> InfoState {
    (
        info.multipv,
        info.depth,
        info.seldepth,
        info.evaluation
            .map(|e| (pickle::score_state(e.score), e.bound.name().to_owned())),
        info.nodes,
        info.nps,
        info.time.map(pickle::duration_state),
        pickle::moves_state(&info.pv),
    )
}

fn info_of(state: InfoState, what: &str) -> PyResult<Info> {
    let (multipv, depth, seldepth, evaluation, nodes, nps, time, pv) = state;
    let evaluation = match evaluation {
        None => None,
        Some((score, bound)) => Some(Evaluation {
            score: pickle::score(score),
            bound: [ScoreBound::Exact, ScoreBound::Lower, ScoreBound::Upper]
                .into_iter()
                .find(|b| b.name() == bound)
                .ok_or_else(|| pickle::bad_state(what, format!("bound {bound:?}")))?,
        }),
    };
    Ok(Info {
        multipv,
        depth,
        seldepth,
        evaluation,
        nodes,
        nps,
        time: time.map(|t| pickle::duration(t, what)).transpose()?,
        pv: pickle::moves(&pv, what)?,
    })
}

/// One line of analysis (python-chess's `InfoDict` as a typed object).
#[pyclass(module = "xiangqi.engine", name = "EngineInfo", frozen)]
#[derive(Clone)]
pub struct PyEngineInfo {
    info: Info,
    turn: Color,
}

#[pymethods]
impl PyEngineInfo {
    /// 1-based line number (1: the best line).
    #[getter]
    fn multipv(&self) -> u32 {
        self.info.multipv
    }
    #[getter]
    fn depth(&self) -> Option<u32> {
        self.info.depth
    }
    #[getter]
    fn seldepth(&self) -> Option<u32> {
        self.info.seldepth
    }
    #[getter]
    fn nodes(&self) -> Option<u64> {
        self.info.nodes
    }
    #[getter]
    fn nps(&self) -> Option<u64> {
        self.info.nps
    }
    /// Seconds the engine reported, if it did.
    #[getter]
    fn time(&self) -> Option<f64> {
        self.info.time.map(|t| t.as_secs_f64())
    }
    /// The principal variation (up to its first unreadable or illegal move).
    #[getter]
    fn pv(&self) -> crate::types::Frozen<PyMove> {
        self.info.pv.iter().copied().map(PyMove).collect()
    }
    /// The score with its point of view, or `None` if the engine gave none.
    #[getter]
    fn score(&self) -> Option<PyPovScore> {
        self.info
            .evaluation
            .map(|e| PyPovScore::new(e.score, self.turn))
    }
    /// `"exact"`, `"lowerbound"` or `"upperbound"` (side to move's view), `None` without a score.
    #[getter]
    fn bound(&self) -> Option<&'static str> {
        self.info.evaluation.map(|e| e.bound.name())
    }
    /// The side to move in the analysed position.
    #[getter]
    fn turn(&self) -> PyColor {
        self.turn.into()
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let state = (info_state(&self.info), pickle::color_state(self.turn));
        pickle::reduce::<PyEngineInfo>(py, state)
    }

    #[staticmethod]
    fn _restore(state: (InfoState, String)) -> PyResult<PyEngineInfo> {
        const WHAT: &str = "an EngineInfo";
        Ok(PyEngineInfo {
            info: info_of(state.0, WHAT)?,
            turn: pickle::color(&state.1, WHAT)?,
        })
    }

    fn __repr__(&self) -> String {
        let pv: Vec<String> = self.info.pv.iter().map(Move::to_string).collect();
        let score = self
            .info
            .evaluation
            .map_or("None".to_string(), |e| PyScore(e.score).__repr__());
        let depth = self
            .info
            .depth
            .map_or("None".to_string(), |d| d.to_string());
        format!(
            "EngineInfo(multipv={}, depth={depth}, score={score}, pv='{}')",
            self.info.multipv,
            pv.join(" ")
        )
    }
}

/// What pickles an [`Analysis`]: best move, its text, ponder, the lines,
/// turn, elapsed time.
type ResultState = (
    String,
    String,
    Option<String>,
    Vec<InfoState>,
    String,
    DurationState,
);

/// What one search returned: the move and the lines.
#[pyclass(module = "xiangqi.engine", name = "EngineResult", frozen)]
pub struct PyEngineResult {
    analysis: Analysis,
}

impl From<Analysis> for PyEngineResult {
    fn from(analysis: Analysis) -> PyEngineResult {
        PyEngineResult { analysis }
    }
}

#[pymethods]
impl PyEngineResult {
    #[getter]
    fn best_move(&self) -> PyMove {
        PyMove(self.analysis.best_move)
    }
    #[getter]
    fn ponder(&self) -> Option<PyMove> {
        self.analysis.ponder.map(PyMove)
    }
    /// The last report of each line, best first (the engine may give fewer than asked).
    #[getter]
    fn lines(&self) -> crate::types::Frozen<PyEngineInfo> {
        let turn = self.analysis.turn;
        self.analysis
            .lines
            .iter()
            .map(|info| PyEngineInfo {
                info: info.clone(),
                turn,
            })
            .collect()
    }
    /// Wall-clock seconds from the request to the answer.
    #[getter]
    fn elapsed(&self) -> f64 {
        self.analysis.elapsed.as_secs_f64()
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let a = &self.analysis;
        let state: ResultState = (
            a.best_move.to_string(),
            a.best_text.clone(),
            a.ponder.map(|m| m.to_string()),
            a.lines.iter().map(info_state).collect(),
            pickle::color_state(a.turn).to_owned(),
            pickle::duration_state(a.elapsed),
        );
        pickle::reduce::<PyEngineResult>(py, state)
    }

    #[staticmethod]
    fn _restore(state: ResultState) -> PyResult<PyEngineResult> {
        const WHAT: &str = "an EngineResult";
        let (best, best_text, ponder, lines, turn, elapsed) = state;
        Ok(PyEngineResult {
            analysis: Analysis {
                best_move: pickle::one_move(&best, WHAT)?,
                best_text,
                ponder: ponder.map(|m| pickle::one_move(&m, WHAT)).transpose()?,
                lines: lines
                    .into_iter()
                    .map(|l| info_of(l, WHAT))
                    .collect::<PyResult<_>>()?,
                turn: pickle::color(&turn, WHAT)?,
                elapsed: pickle::duration(elapsed, WHAT)?,
            },
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "EngineResult(best_move='{}', lines={}, elapsed={:.3})",
            self.analysis.best_move,
            self.analysis.lines.len(),
            self.analysis.elapsed.as_secs_f64()
        )
    }
}
