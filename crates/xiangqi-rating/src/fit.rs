//! The maximum-likelihood fit: the Bradley-Terry model with Elo's scale,
//! `P(i scores against j) = 1 / (1 + 10^((R_j - R_i) / 400))`, a draw
//! counting half a win for each side; solved by the MM iteration of Hunter
//! (2004). A prior of virtual draws against a fixed virtual opponent
//! (strength 1, rating 0 before the ratings are shifted to their mean)
//! keeps every rating finite (BayesElo's idea) and links players who never
//! met.

use std::collections::BTreeMap;

use crate::result::RatedGame;

/// Parameters of [`fit`].
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct FitOptions {
    /// Virtual draws of every player against the fixed virtual opponent
    /// (0: plain maximum likelihood, which is infinite for a player with
    /// only wins or only losses).
    pub prior_draws: f64,
    /// The mean rating of the players.
    pub mean: f64,
    /// Stop when no rating moves by more than this (Elo).
    pub tolerance: f64,
    pub max_iterations: usize,
}

impl Default for FitOptions {
    /// Two virtual draws, mean 0, tolerance 1e-9 Elo, 100 000 iterations.
    fn default() -> FitOptions {
        FitOptions {
            prior_draws: 2.0,
            mean: 0.0,
            tolerance: 1e-9,
            max_iterations: 100_000,
        }
    }
}

/// Why no ratings can be computed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FitError {
    #[error("no rated games")]
    NoGames,
    /// Without a prior: a player with only wins or only losses.
    #[error(
        "{0} won or lost every game: its rating is infinite without a prior (use prior draws)"
    )]
    Unbounded(String),
    /// Without a prior: groups of players who never met.
    #[error("the players form {0} groups that never met: their ratings cannot be compared without a prior")]
    Disconnected(usize),
    #[error("the prior must be a finite number of draws ≥ 0")]
    BadPrior,
    #[error("a game score must be 0, 0.5 or 1")]
    BadScore,
    #[error("the fit did not converge in {0} iterations")]
    NoConvergence(usize),
}

/// One player's rating.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PlayerRating {
    pub name: String,
    pub elo: f64,
    pub games: usize,
    pub points: f64,
}

/// The ratings, best first.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Ratings {
    pub players: Vec<PlayerRating>,
    /// MM iterations used.
    pub iterations: usize,
}

impl Ratings {
    /// The rating of `name`.
    pub fn elo(&self, name: &str) -> Option<f64> {
        self.players.iter().find(|p| p.name == name).map(|p| p.elo)
    }
}

/// Fits Elo ratings to `games` (see the module documentation).
pub fn fit(games: &[RatedGame], options: &FitOptions) -> Result<Ratings, FitError> {
    if games.is_empty() {
        return Err(FitError::NoGames);
    }
    if !(options.prior_draws.is_finite() && options.prior_draws >= 0.0) {
        return Err(FitError::BadPrior);
    }
    let mut index: BTreeMap<&str, usize> = BTreeMap::new();
    for g in games {
        if ![0.0, 0.5, 1.0].contains(&g.red_score) {
            return Err(FitError::BadScore);
        }
        for name in [g.red.as_str(), g.black.as_str()] {
            let next = index.len();
            index.entry(name).or_insert(next);
        }
    }
    let names: Vec<&str> = {
        let mut v = vec![""; index.len()];
        for (&name, &i) in &index {
            v[i] = name;
        }
        v
    };
    let n = names.len();
    let pairs: Vec<(usize, usize, f64)> = games
        .iter()
        .map(|g| (index[g.red.as_str()], index[g.black.as_str()], g.red_score))
        .collect();
    let mut points = vec![0.0; n];
    let mut played = vec![0usize; n];
    for &(r, b, s) in &pairs {
        points[r] += s;
        points[b] += 1.0 - s;
        played[r] += 1;
        played[b] += 1;
    }
    let prior = options.prior_draws;
    if prior == 0.0 {
        if let Some(i) = (0..n).find(|&i| points[i] == 0.0 || points[i] == played[i] as f64) {
            return Err(FitError::Unbounded(names[i].to_string()));
        }
        let groups = components(n, &pairs);
        if groups > 1 {
            return Err(FitError::Disconnected(groups));
        }
    }
    // Strengths gamma = 10^(R/400); the prior's opponent has gamma 1.
    let wins: Vec<f64> = (0..n).map(|i| points[i] + prior / 2.0).collect();
    let mut gamma = vec![1.0f64; n];
    let step = options.tolerance / 400.0 * std::f64::consts::LN_10;
    for iteration in 1..=options.max_iterations {
        let mut denominator: Vec<f64> = gamma.iter().map(|&g| prior / (g + 1.0)).collect();
        for &(r, b, _) in &pairs {
            let d = 1.0 / (gamma[r] + gamma[b]);
            denominator[r] += d;
            denominator[b] += d;
        }
        let mut next: Vec<f64> = (0..n).map(|i| wins[i] / denominator[i]).collect();
        if prior == 0.0 {
            // Only ratios matter: keep the scale fixed (geometric mean 1).
            let mean_log = next.iter().map(|g| g.ln()).sum::<f64>() / n as f64;
            for g in &mut next {
                *g /= mean_log.exp();
            }
        }
        let moved = next
            .iter()
            .zip(&gamma)
            .map(|(a, b)| (a.ln() - b.ln()).abs())
            .fold(0.0, f64::max);
        gamma = next;
        if moved < step {
            return Ok(ratings(
                &names,
                &gamma,
                &played,
                &points,
                options.mean,
                iteration,
            ));
        }
    }
    Err(FitError::NoConvergence(options.max_iterations))
}

fn ratings(
    names: &[&str],
    gamma: &[f64],
    played: &[usize],
    points: &[f64],
    mean: f64,
    iterations: usize,
) -> Ratings {
    let elo: Vec<f64> = gamma.iter().map(|g| 400.0 * g.log10()).collect();
    let shift = mean - elo.iter().sum::<f64>() / elo.len() as f64;
    let mut players: Vec<PlayerRating> = (0..names.len())
        .map(|i| PlayerRating {
            name: names[i].to_string(),
            elo: elo[i] + shift,
            games: played[i],
            points: points[i],
        })
        .collect();
    players.sort_by(|a, b| b.elo.total_cmp(&a.elo).then_with(|| a.name.cmp(&b.name)));
    Ratings {
        players,
        iterations,
    }
}

/// Number of groups of players linked by games.
fn components(n: usize, pairs: &[(usize, usize, f64)]) -> usize {
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for &(a, b, _) in pairs {
        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
        parent[ra] = rb;
    }
    (0..n).filter(|&i| root(&mut parent, i) == i).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games(list: &[(&str, &str, f64, usize)]) -> Vec<RatedGame> {
        list.iter()
            .flat_map(|&(r, b, s, k)| std::iter::repeat_n(RatedGame::new(r, b, s), k))
            .collect()
    }

    const EXACT: FitOptions = FitOptions {
        prior_draws: 0.0,
        mean: 0.0,
        tolerance: 1e-9,
        max_iterations: 100_000,
    };

    #[test]
    fn results_that_fit_the_model_exactly() {
        // Strengths 9 : 3 : 1. A-B 3-1, B-C 3-1, A-C 9-1: the expected
        // scores, so the fit is exact: 400·log10(3) ≈ 190.85 between neighbours.
        let g = games(&[
            ("A", "B", 1.0, 3),
            ("B", "A", 1.0, 1),
            ("B", "C", 1.0, 3),
            ("C", "B", 1.0, 1),
            ("A", "C", 1.0, 9),
            ("A", "C", 0.0, 1),
        ]);
        let r = fit(&g, &EXACT).unwrap();
        let step = 400.0 * 3f64.log10();
        assert!((r.elo("A").unwrap() - step).abs() < 1e-6, "{r:?}");
        assert!(r.elo("B").unwrap().abs() < 1e-6);
        assert!((r.elo("C").unwrap() + step).abs() < 1e-6);
        assert_eq!(r.players[0].name, "A");
        assert_eq!((r.players[0].games, r.players[0].points), (14, 12.0));
    }

    #[test]
    fn draws_count_half() {
        // 1 win, 2 draws, 1 loss: even.
        let g = games(&[("A", "B", 1.0, 1), ("A", "B", 0.5, 2), ("A", "B", 0.0, 1)]);
        let r = fit(&g, &EXACT).unwrap();
        assert!(r.elo("A").unwrap().abs() < 1e-6);
    }

    #[test]
    fn the_prior_keeps_a_perfect_score_finite() {
        let g = games(&[("A", "B", 1.0, 2)]);
        assert_eq!(fit(&g, &EXACT), Err(FitError::Unbounded("A".into())));
        let r = fit(&g, &FitOptions::default()).unwrap();
        // With 2 virtual draws each against the virtual opponent: A has 3 points of 4.
        let (a, b) = (r.elo("A").unwrap(), r.elo("B").unwrap());
        assert!(a > 0.0 && (a + b).abs() < 1e-6 && a.is_finite());
        let apart = games(&[("A", "B", 1.0, 1), ("B", "A", 1.0, 1), ("C", "D", 0.5, 1)]);
        assert_eq!(fit(&apart, &EXACT), Err(FitError::Disconnected(2)));
        assert_eq!(fit(&[], &EXACT), Err(FitError::NoGames));
    }
}
