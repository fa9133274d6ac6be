//! Ratings of an online platform: each rated game moves both players'
//! Elo at once (the classic update), as opposed to [`crate::fit`], which
//! fits a whole corpus. What counts as rated is R-CLOCK-RATED, read from
//! the game's own verdict: cancelled games (aborted ones included) never
//! change a rating, and neither does a game that ended before both sides
//! had made a move (a resignation at ply 0, say), so two accounts cannot
//! trade rating points without playing (docs/rating.md).
//!
//! The update is ours rather than a crate's: it is one formula, and keeping
//! it here keeps its constants next to the fit that reads the same scale.

use xiangqi_adjudication::OnlineGame;
use xiangqi_core::Color;

/// The rating of a new account.
pub const START_RATING: i32 = 1500;
/// How far one game can move a rating (the FIDE and lichess-classic K of
/// new players): a win against an equal opponent is worth K/2.
pub const K_FACTOR: f64 = 32.0;
/// The lowest rating an update gives, so a losing streak never goes below
/// a floor that still means something.
pub const RATING_FLOOR: i32 = 100;

/// Red's score (1, ½ or 0) when `game` counts for the ratings; `None` while
/// it goes on, for a cancelled or aborted game (R-CLOCK-RATED), and for a
/// game that ended before both sides had moved.
pub fn rated_score(game: &OnlineGame) -> Option<f64> {
    if game.rated() != Some(true) {
        return None;
    }
    if !(game.has_moved(Color::Red) && game.has_moved(Color::Black)) {
        return None;
    }
    game.verdict().outcome.red_score()
}

/// The expected score of a player rated `own` against one rated `other`.
pub fn expected_score(own: i32, other: i32) -> f64 {
    1.0 / (1.0 + 10f64.powf(f64::from(other - own) / 400.0))
}

/// Red's and Black's ratings after a game in which Red scored `red_score`.
/// The changes are rounded once and mirrored, so no rating points are made
/// or lost (except at the floor).
pub fn elo_update(red: i32, black: i32, red_score: f64) -> (i32, i32) {
    let change = (K_FACTOR * (red_score - expected_score(red, black))).round() as i32;
    (
        (red + change).max(RATING_FLOOR),
        (black - change).max(RATING_FLOOR),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_adjudication::{ClockEvent, RuleSet, TimeControl, TimedEvent};
    use xiangqi_core::Position;

    #[test]
    fn equal_players_move_by_half_k() {
        assert_eq!(elo_update(1500, 1500, 1.0), (1516, 1484));
        assert_eq!(elo_update(1500, 1500, 0.5), (1500, 1500));
        assert_eq!(elo_update(1500, 1500, 0.0), (1484, 1516));
    }

    #[test]
    fn an_upset_moves_more_than_an_expected_result() {
        let (weak_after, _) = elo_update(1300, 1700, 1.0);
        let (strong_after, _) = elo_update(1700, 1300, 1.0);
        assert!(weak_after - 1300 > strong_after - 1700);
        assert_eq!(elo_update(110, 110, 0.0).0, RATING_FLOOR);
    }

    fn game() -> OnlineGame {
        let tc = TimeControl {
            base_ms: 60_000,
            increment_ms: 0,
        };
        OnlineGame::new(Position::startpos(), RuleSet::default(), tc, 0).unwrap()
    }

    #[test]
    fn only_finished_games_are_rated() {
        let mut g = game();
        assert_eq!(rated_score(&g), None, "in progress");
        // Red's flag falls before Red's first move: cancelled (R-CLOCK-CANCEL).
        g.apply(&TimedEvent {
            at: 61_000,
            event: ClockEvent::Poll,
        })
        .unwrap();
        assert!(g.game().is_over());
        assert_eq!(rated_score(&g), None, "cancelled");

        let mut g = game();
        g.play(Color::Red, "h2e2".parse().unwrap(), 500).unwrap();
        g.play(Color::Black, "h9g7".parse().unwrap(), 700).unwrap();
        g.apply(&TimedEvent {
            at: 1_000,
            event: ClockEvent::Resign { side: Color::Black },
        })
        .unwrap();
        assert_eq!(rated_score(&g), Some(1.0));
    }

    #[test]
    fn aborted_games_are_not_rated() {
        let mut g = game();
        g.play(Color::Red, "h2e2".parse().unwrap(), 500).unwrap();
        g.apply(&TimedEvent {
            at: 1_000,
            event: ClockEvent::Abort { side: Color::Black },
        })
        .unwrap();
        assert!(g.game().is_over());
        assert_eq!(rated_score(&g), None);
    }

    #[test]
    fn a_game_decided_before_both_sides_moved_is_not_rated() {
        // The rating farm: resigning at ply 0, or after one side's move.
        let mut g = game();
        g.resign(Color::Red, 100).unwrap();
        assert_eq!(g.rated(), Some(true), "R-CLOCK-RATED: a finished game");
        assert_eq!(rated_score(&g), None);
        let mut g = game();
        g.play(Color::Red, "h2e2".parse().unwrap(), 500).unwrap();
        g.resign(Color::Black, 900).unwrap();
        assert_eq!(rated_score(&g), None);
    }
}
