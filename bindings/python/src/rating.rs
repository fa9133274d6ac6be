//! `xiangqi.rate(games)`: Elo ratings of the players of game records, by
//! `xiangqi-rating` (see docs/rating.md). The fit runs with the GIL released.

use std::collections::BTreeMap;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use xiangqi_adjudication::{Preset, RuleSet, UnknownPresetError};
use xiangqi_rating::{fit, rated_game, FitOptions, PlayerRating, Unrated};

use crate::errors::type_name;
use crate::pgn::PyGame;

/// One player's rating.
#[pyclass(module = "xiangqi", name = "PlayerRating", frozen)]
pub struct PyPlayerRating(PlayerRating);

#[pymethods]
impl PyPlayerRating {
    #[getter]
    fn name(&self) -> &str {
        &self.0.name
    }
    #[getter]
    fn elo(&self) -> f64 {
        self.0.elo
    }
    #[getter]
    fn games(&self) -> usize {
        self.0.games
    }
    #[getter]
    fn points(&self) -> f64 {
        self.0.points
    }
    fn __repr__(&self) -> String {
        format!(
            "PlayerRating(name={:?}, elo={:.1}, games={}, points={})",
            self.0.name, self.0.elo, self.0.games, self.0.points
        )
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        crate::pickle::reduce::<PyPlayerRating>(py, player_state(&self.0))
    }

    #[staticmethod]
    fn _restore(state: PlayerState) -> PyPlayerRating {
        PyPlayerRating(player_of(state))
    }
}

/// What pickles a [`PlayerRating`]: name, elo, games, points.
type PlayerState = (String, f64, usize, f64);

fn player_state(p: &PlayerRating) -> PlayerState {
    (p.name.clone(), p.elo, p.games, p.points)
}

fn player_of((name, elo, games, points): PlayerState) -> PlayerRating {
    PlayerRating {
        name,
        elo,
        games,
        points,
    }
}

/// The ratings of a corpus.
#[pyclass(module = "xiangqi", name = "Ratings", frozen)]
pub struct PyRatings {
    players: Vec<Py<PyPlayerRating>>,
    rated_games: usize,
    unrated: BTreeMap<String, usize>,
}

#[pymethods]
impl PyRatings {
    /// Best first.
    #[getter]
    fn players(&self, py: Python<'_>) -> crate::types::Frozen<Py<PyPlayerRating>> {
        self.players.iter().map(|p| p.clone_ref(py)).collect()
    }
    #[getter]
    fn rated_games(&self) -> usize {
        self.rated_games
    }
    /// Games not rated, by reason: `cancelled`, `no_result`, `no_player`,
    /// `unplayable`, as a read-only mapping (a copy: an edit raises).
    #[getter]
    fn unrated<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let counts = self.unrated.clone().into_pyobject(py)?;
        py.import("types")?
            .getattr("MappingProxyType")?
            .call1((counts,))
    }
    /// The rating of `name`, or `None`.
    fn elo(&self, name: &str) -> Option<f64> {
        self.players
            .iter()
            .map(|p| p.get())
            .find(|p| p.0.name == name)
            .map(|p| p.0.elo)
    }
    fn __repr__(&self) -> String {
        format!(
            "Ratings(players={}, rated_games={})",
            self.players.len(),
            self.rated_games
        )
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let players: Vec<PlayerState> = self
            .players
            .iter()
            .map(|p| player_state(&p.get().0))
            .collect();
        let state = (players, self.rated_games, self.unrated.clone());
        crate::pickle::reduce::<PyRatings>(py, state)
    }

    #[staticmethod]
    fn _restore(
        py: Python<'_>,
        state: (Vec<PlayerState>, usize, BTreeMap<String, usize>),
    ) -> PyResult<PyRatings> {
        let (players, rated_games, unrated) = state;
        let players = players
            .into_iter()
            .map(|p| Py::new(py, PyPlayerRating(player_of(p))))
            .collect::<PyResult<_>>()?;
        Ok(PyRatings {
            players,
            rated_games,
            unrated,
        })
    }
}

fn reason(why: &Unrated) -> &'static str {
    match why {
        Unrated::Cancelled(_) | Unrated::CancelledByRules => "cancelled",
        Unrated::NoResult => "no_result",
        Unrated::NoPlayer => "no_player",
        Unrated::Unplayable(_) => "unplayable",
    }
}

/// Elo ratings of the players of `games` (an iterable of `xiangqi.pgn.Game`):
/// the rules' verdict or the recorded result counts, cancelled and
/// unfinished games are not rated; maximum-likelihood fit with
/// `prior_draws` virtual draws per player, mean rating `mean`.
#[pyfunction]
#[pyo3(signature = (games, *, rules = "online", prior_draws = 2.0, mean = 0.0))]
pub fn rate(
    py: Python<'_>,
    games: &Bound<'_, PyAny>,
    rules: &str,
    prior_draws: f64,
    mean: f64,
) -> PyResult<PyRatings> {
    let preset: Preset = rules
        .parse()
        .map_err(|e: UnknownPresetError| PyValueError::new_err(e.to_string()))?;
    let rules = RuleSet::preset(preset);
    let mut records = Vec::new();
    for item in games.try_iter()? {
        let item = item?;
        let game = item.cast::<PyGame>().map_err(|_| {
            pyo3::exceptions::PyTypeError::new_err(format!(
                "rate() takes xiangqi.pgn.Game objects, not {}",
                type_name(&item)
            ))
        })?;
        records.push(game.borrow().0.clone());
    }
    let (rated, unrated) = py.detach(|| {
        let mut rated = Vec::new();
        let mut unrated: BTreeMap<String, usize> = BTreeMap::new();
        for g in &records {
            match rated_game(g, &rules) {
                Ok(r) => rated.push(r),
                Err(why) => *unrated.entry(reason(&why).to_owned()).or_default() += 1,
            }
        }
        (rated, unrated)
    });
    let options = FitOptions {
        prior_draws,
        mean,
        ..FitOptions::default()
    };
    let ratings = py
        .detach(|| fit(&rated, &options))
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let players = ratings
        .players
        .into_iter()
        .map(|p| Py::new(py, PyPlayerRating(p)))
        .collect::<PyResult<_>>()?;
    Ok(PyRatings {
        players,
        rated_games: rated.len(),
        unrated,
    })
}
