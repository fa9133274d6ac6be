//! Accuracy, 0 to 100, as chess sites show it: how much of their winning
//! chance a player kept, move by move, and over the game. The winning
//! chance is the fitted win-rate model's expected score
//! (`xiangqi_core::winrate`), the same whose drop judges a move; the
//! formulas are lichess's and are documented in `docs/engine-client.md`.

use xiangqi_core::Color;

use super::MoveReview;

/// Lichess's fit of a move's accuracy to the drop in percentage points:
/// `A * exp(-K * drop) - C`.
const SCALE: f64 = 103.1668;
const DECAY: f64 = 0.04354;
const OFFSET: f64 = 3.1669;
/// Each move counts at least this much in the harmonic mean, so that one
/// 0% move does not make the whole game 0%: one such move among 20 perfect
/// ones gives (95 + 69) / 2 = 82.
const HARMONIC_FLOOR: f64 = 10.0;

/// The accuracy of one move, 0 to 100, from the mover's winning chance
/// (expected score, 0.0-1.0) it lost: `103.1668 * exp(-0.04354 * d) -
/// 3.1669` with `d` the drop in percentage points, at least 0 (a move that
/// gained counts as one that lost nothing), clamped to 0..100.
///
/// ```
/// use xiangqi_engine_client::annotate::accuracy::move_accuracy;
/// assert!((move_accuracy(0.0) - 100.0).abs() < 1e-3);
/// assert!((move_accuracy(0.10) - 63.58).abs() < 0.01);
/// assert_eq!(move_accuracy(0.9), 0.0);
/// ```
pub fn move_accuracy(drop: f64) -> f64 {
    let points = (drop * 100.0).max(0.0);
    (SCALE * (-DECAY * points).exp() - OFFSET).clamp(0.0, 100.0)
}

/// A game's accuracy from its moves' accuracies: the mean of their
/// arithmetic mean and their harmonic mean (each move at least 10 in the
/// latter), so that a few bad moves weigh more than in a plain average.
/// `None` without moves.
///
/// ```
/// use xiangqi_engine_client::annotate::accuracy::game_accuracy;
/// assert_eq!(game_accuracy([100.0, 100.0]), Some(100.0));
/// // (75 + 2 / (1/100 + 1/50)) / 2
/// assert!((game_accuracy([100.0, 50.0]).unwrap() - 70.8333).abs() < 1e-3);
/// assert_eq!(game_accuracy([]), None);
/// ```
pub fn game_accuracy(moves: impl IntoIterator<Item = f64>) -> Option<f64> {
    let (mut count, mut sum, mut inverse_sum) = (0usize, 0.0, 0.0);
    for accuracy in moves {
        count += 1;
        sum += accuracy;
        inverse_sum += 1.0 / accuracy.max(HARMONIC_FLOOR);
    }
    if count == 0 {
        return None;
    }
    let n = count as f64;
    Some((sum / n + n / inverse_sum) / 2.0)
}

/// Each player's accuracy over a reviewed game.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Accuracy {
    /// Red's, `None` when no Red move could be judged.
    pub red: Option<f64>,
    /// Black's, likewise.
    pub black: Option<f64>,
}

impl Accuracy {
    /// The accuracy of each side over `reviews`: [`game_accuracy`] of the
    /// [`MoveReview::accuracy`] of its moves (moves without a score on
    /// both sides of them do not count).
    pub fn of_reviews(reviews: &[MoveReview]) -> Accuracy {
        let of = |side: Color| {
            game_accuracy(
                reviews
                    .iter()
                    .filter(|r| r.mover == side)
                    .filter_map(MoveReview::accuracy),
            )
        };
        Accuracy {
            red: of(Color::Red),
            black: of(Color::Black),
        }
    }

    /// The accuracy of `side`.
    pub fn of(&self, side: Color) -> Option<f64> {
        match side {
            Color::Red => self.red,
            Color::Black => self.black,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_move_values() {
        assert!((move_accuracy(0.0) - 99.9999).abs() < 1e-9);
        // Gains count as no loss.
        assert_eq!(move_accuracy(-0.2), move_accuracy(0.0));
        // 103.1668 e^(-0.2177) - 3.1669 = 79.817; 103.1668 e^(-0.8708) - 3.1669 = 40.020.
        assert!((move_accuracy(0.05) - 79.817).abs() < 1e-3);
        assert!((move_accuracy(0.20) - 40.020).abs() < 1e-3);
        assert_eq!(move_accuracy(1.0), 0.0);
        // Strictly falling until it reaches 0.
        let mut last = move_accuracy(0.0);
        for step in 1..=80 {
            let now = move_accuracy(f64::from(step) / 100.0);
            assert!(now < last, "drop {step}%");
            last = now;
        }
    }

    #[test]
    fn one_blunder_drags_a_game_down_more_than_the_mean() {
        let clean = game_accuracy([100.0; 20]).unwrap();
        assert!((clean - 100.0).abs() < 1e-9);
        let mut moves = [100.0; 20];
        moves[7] = move_accuracy(0.9);
        let blundered = game_accuracy(moves).unwrap();
        let plain_mean = moves.iter().sum::<f64>() / 20.0;
        assert!(blundered < plain_mean && blundered < clean, "{blundered}");
        // A zero is floored at 10 in the harmonic mean: (95 + 20 / (19/100 + 1/10)) / 2.
        let expected = (95.0 + 20.0 / (0.19 + 0.1)) / 2.0;
        assert!(
            (blundered - expected).abs() < 1e-9,
            "{blundered} {expected}"
        );
    }
}
