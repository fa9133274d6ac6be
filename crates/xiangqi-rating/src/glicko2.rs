//! Glicko-2 (Mark Glickman's rating system with a rating deviation and a
//! volatility), for ratings updated one result at a time, as puzzle
//! ratings are: the player and the puzzle each rate the other as an
//! opponent (docs/rating.md, "Glicko-2").

/// A Glicko-2 rating on the familiar scale (1500 = average).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Glicko2 {
    /// The rating.
    pub rating: f64,
    /// Its deviation: how uncertain it is (350 = nothing known).
    pub deviation: f64,
    /// How erratic results are (the σ of the system).
    pub volatility: f64,
}

/// What the updates assume.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Glicko2Settings {
    /// τ, how much the volatility may change (0.3 to 1.2; smaller, slower).
    pub tau: f64,
    /// The deviation never falls below this, so ratings keep moving.
    pub min_deviation: f64,
    /// Nor rises above this (a new player's).
    pub max_deviation: f64,
}

impl Default for Glicko2Settings {
    fn default() -> Glicko2Settings {
        Glicko2Settings {
            tau: 0.75,
            min_deviation: 45.0,
            max_deviation: 350.0,
        }
    }
}

impl Glicko2 {
    /// A rating nothing is known about yet.
    pub const fn new(rating: f64) -> Glicko2 {
        Glicko2 {
            rating,
            deviation: 350.0,
            volatility: 0.06,
        }
    }

    /// The expected score (0 to 1) against `opponent`.
    pub fn expected_score(&self, opponent: &Glicko2) -> f64 {
        let (mu, _) = to_internal(self);
        let (mu_j, phi_j) = to_internal(opponent);
        expected(mu, mu_j, phi_j)
    }

    /// The rating after one rating period with these results: each an
    /// opponent and the score against it (1 win, 0.5 draw, 0 loss). With
    /// no result the deviation grows only.
    pub fn updated(&self, results: &[(Glicko2, f64)], settings: &Glicko2Settings) -> Glicko2 {
        let (mu, phi) = to_internal(self);
        let sigma = self.volatility;
        if results.is_empty() {
            let phi_star = (phi * phi + sigma * sigma).sqrt();
            return self.clamped(mu, phi_star, sigma, settings);
        }
        let mut v_inverse = 0.0;
        let mut improvement = 0.0;
        for (opponent, score) in results {
            let (mu_j, phi_j) = to_internal(opponent);
            let g = g(phi_j);
            let e = expected(mu, mu_j, phi_j);
            v_inverse += g * g * e * (1.0 - e);
            improvement += g * (score.clamp(0.0, 1.0) - e);
        }
        let v = 1.0 / v_inverse.max(f64::MIN_POSITIVE);
        let delta = v * improvement;
        let sigma = new_volatility(sigma, phi, v, delta, settings.tau);
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * improvement;
        self.clamped(mu_new, phi_new, sigma, settings)
    }

    fn clamped(&self, mu: f64, phi: f64, sigma: f64, settings: &Glicko2Settings) -> Glicko2 {
        let deviation = (phi * SCALE).clamp(settings.min_deviation, settings.max_deviation);
        let rating = mu * SCALE + 1500.0;
        Glicko2 {
            rating: if rating.is_finite() {
                rating
            } else {
                self.rating
            },
            deviation: if deviation.is_finite() {
                deviation
            } else {
                self.deviation
            },
            volatility: if sigma.is_finite() {
                sigma
            } else {
                self.volatility
            },
        }
    }
}

/// Between the Glicko and Glicko-2 scales: 400 / ln 10.
const SCALE: f64 = 173.7178;

fn to_internal(r: &Glicko2) -> (f64, f64) {
    ((r.rating - 1500.0) / SCALE, r.deviation / SCALE)
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

/// The new volatility: the root of the system's equation, found by the
/// Illinois variant of regula falsi (bounded, so bad input cannot hang it).
fn new_volatility(sigma: f64, phi: f64, v: f64, delta: f64, tau: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 && k < 100.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let (mut f_a, mut f_b) = (f(big_a), f(big_b));
    for _ in 0..100 {
        if (big_b - big_a).abs() <= 1e-6 {
            break;
        }
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
    }
    (big_a / 2.0).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_of_glickmans_description_comes_out() {
        // The worked example of the system's description: 1500 (RD 200)
        // beats 1400 (30), loses to 1550 (100) and to 1700 (300), τ = 0.5.
        let player = Glicko2 {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opponent = |rating, deviation| Glicko2 {
            rating,
            deviation,
            volatility: 0.06,
        };
        let settings = Glicko2Settings {
            tau: 0.5,
            min_deviation: 0.0,
            max_deviation: 350.0,
        };
        let after = player.updated(
            &[
                (opponent(1400.0, 30.0), 1.0),
                (opponent(1550.0, 100.0), 0.0),
                (opponent(1700.0, 300.0), 0.0),
            ],
            &settings,
        );
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    #[test]
    fn a_win_raises_a_loss_lowers_and_no_game_widens() {
        let settings = Glicko2Settings::default();
        let player = Glicko2::new(1500.0);
        let puzzle = Glicko2 {
            deviation: 80.0,
            ..Glicko2::new(1600.0)
        };
        let won = player.updated(&[(puzzle, 1.0)], &settings);
        let lost = player.updated(&[(puzzle, 0.0)], &settings);
        assert!(won.rating > 1500.0 && lost.rating < 1500.0);
        // Beating a stronger puzzle gains more than losing to it costs.
        assert!(won.rating - 1500.0 > 1500.0 - lost.rating);
        assert!(won.deviation < 350.0);
        let idle = Glicko2 {
            deviation: 100.0,
            ..player
        }
        .updated(&[], &settings);
        assert!(idle.deviation > 100.0 && idle.rating == 1500.0);
        let nonsense = player.updated(&[(puzzle, f64::NAN)], &settings);
        assert!(nonsense.rating.is_finite());
    }
}
