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
    /// The game's ply at the analysed position, for the win-rate model.
    ply: Option<u32>,
}

/// The keys `info[...]` reads, python-chess's `InfoDict` keys that we have.
const INFO_KEYS: [&str; 10] = [
    "multipv", "depth", "seldepth", "nodes", "nps", "time", "pv", "score", "bound", "wdl",
];

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
    /// The side to move's `(win, draw, loss)` in per mille, by the win-rate
    /// model at the analysed position's ply (`Score.wdl`; ply 30 when the
    /// info was made without a board), `None` without a score.
    #[getter]
    fn wdl(&self) -> Option<(u32, u32, u32)> {
        let ply = self.ply.unwrap_or(xiangqi_core::REFERENCE_PLY);
        self.info.evaluation.map(|e| {
            let wdl = e.score.wdl(ply);
            (wdl.win, wdl.draw, wdl.loss)
        })
    }

    /// `info["score"]`, as python-chess's `InfoDict` reads: the attribute
    /// of that name; `KeyError` for a key that is not one or has no value.
    fn __getitem__<'py>(slf: &Bound<'py, Self>, key: &str) -> PyResult<Bound<'py, PyAny>> {
        let value = if INFO_KEYS.contains(&key) {
            Some(slf.getattr(key)?).filter(|v| !v.is_none())
        } else {
            None
        };
        value.ok_or_else(|| pyo3::exceptions::PyKeyError::new_err(key.to_owned()))
    }

    /// `info.get("score")`: the value, or `default` when there is none.
    #[pyo3(signature = (key, default = None))]
    fn get<'py>(
        slf: &Bound<'py, Self>,
        key: &str,
        default: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        match Self::__getitem__(slf, key) {
            Ok(value) => Ok(Some(value)),
            Err(e) if e.is_instance_of::<pyo3::exceptions::PyKeyError>(slf.py()) => Ok(default),
            Err(e) => Err(e),
        }
    }

    /// `"score" in info`: the key has a value.
    fn __contains__(slf: &Bound<'_, Self>, key: &str) -> PyResult<bool> {
        Ok(Self::get(slf, key, None)?.is_some())
    }

    /// The keys that have a value, as a python-chess `InfoDict` has them.
    fn keys(slf: &Bound<'_, Self>) -> PyResult<Vec<&'static str>> {
        let mut out = Vec::new();
        for key in INFO_KEYS {
            if Self::__contains__(slf, key)? {
                out.push(key);
            }
        }
        Ok(out)
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let state = (
            info_state(&self.info),
            pickle::color_state(self.turn),
            self.ply,
        );
        pickle::reduce::<PyEngineInfo>(py, state)
    }

    #[staticmethod]
    fn _restore(state: (InfoState, String, Option<u32>)) -> PyResult<PyEngineInfo> {
        const WHAT: &str = "an EngineInfo";
        Ok(PyEngineInfo {
            info: info_of(state.0, WHAT)?,
            turn: pickle::color(&state.1, WHAT)?,
            ply: state.2,
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
    Option<u32>,
);

/// What one search returned: the move and the lines.
#[pyclass(module = "xiangqi.engine", name = "EngineResult", frozen)]
pub struct PyEngineResult {
    analysis: Analysis,
    /// The game's ply at the analysed position (for `EngineInfo.wdl`).
    ply: Option<u32>,
}

impl From<Analysis> for PyEngineResult {
    fn from(analysis: Analysis) -> PyEngineResult {
        PyEngineResult {
            analysis,
            ply: None,
        }
    }
}

impl PyEngineInfo {
    /// A line of a search by `turn` at the game's `ply`.
    pub(super) fn new(info: Info, turn: Color, ply: Option<u32>) -> PyEngineInfo {
        PyEngineInfo { info, turn, ply }
    }
}

impl PyEngineResult {
    /// The result of a search of `position`, whose game ply the lines' `wdl` reads.
    pub fn of_position(analysis: Analysis, position: &xiangqi_core::Position) -> PyEngineResult {
        PyEngineResult {
            analysis,
            ply: Some(xiangqi_core::winrate::game_ply(position)),
        }
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
                ply: self.ply,
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
            self.ply,
        );
        pickle::reduce::<PyEngineResult>(py, state)
    }

    #[staticmethod]
    fn _restore(state: ResultState) -> PyResult<PyEngineResult> {
        const WHAT: &str = "an EngineResult";
        let (best, best_text, ponder, lines, turn, elapsed, ply) = state;
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
            ply,
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
