//! Takebacks in an online game (a decision of this crate, written down in
//! docs/adjudication.md): a side asks to take back its last move, the
//! opponent agrees or refuses. What is taken back, the clocks after it and
//! the limits against asking again and again are decided here, once.

use xiangqi_core::Color;

use super::{ClockError, OnlineGame};
use crate::verdict::Verdict;

/// After a declined request (or one the opponent let lapse by moving), the
/// requester may ask again once this many more plies have been played.
pub const TAKEBACK_COOLDOWN_PLIES: u64 = 4;

impl OnlineGame {
    /// The plies a takeback by `side` would take back now: its own last move,
    /// plus the opponent's reply when the opponent has moved since (2 when
    /// `side` is to move, 1 when the opponent is). `None` when `side` has no
    /// move in the game to take back.
    pub fn takeback_plies(&self, side: Color) -> Option<u32> {
        let ply = self.game.ply();
        let plies = if self.game.position().side_to_move() == side {
            2
        } else {
            1
        };
        (ply >= plies).then_some(plies)
    }

    /// The side whose takeback request waits for an answer, if any.
    pub fn takeback_request(&self) -> Option<Color> {
        Color::ALL
            .into_iter()
            .find(|c| self.takeback_request[c.index()])
    }

    /// `side` asks to take back its last move (asking again while the
    /// request waits is a no-op). Refused when `side` has no move to take
    /// back, while the opponent's request waits, and for
    /// [`TAKEBACK_COOLDOWN_PLIES`] plies after a declined request.
    pub fn offer_takeback(&mut self, side: Color, at: u64) -> Result<&Verdict, ClockError> {
        self.begin(at)?;
        self.game
            .ensure_running(|| format!("takeback request by {side} at {at} ms"))?;
        if self.takeback_request[side.index()] {
            return Ok(self.game.verdict());
        }
        if self.takeback_request[(!side).index()] {
            return Err(ClockError::TakebackPending { side });
        }
        if self.takeback_plies(side).is_none() {
            return Err(ClockError::NothingToTakeBack { side });
        }
        let allowed_from = self.takeback_allowed_from[side.index()];
        if self.plies_played < allowed_from {
            return Err(ClockError::TakebackTooSoon {
                side,
                plies_left: allowed_from - self.plies_played,
            });
        }
        self.takeback_request[side.index()] = true;
        Ok(self.game.verdict())
    }

    /// `side` agrees to the opponent's request: the plies of
    /// [`takeback_plies`](OnlineGame::takeback_plies) are taken back (the
    /// game is replayed without them, so repetition and no-capture counts
    /// are those of the shorter game). Clocks are not wound back: each side
    /// keeps the time it has at `at`, and the clock of the side to move
    /// after the takeback runs from `at`. Draw offers stand.
    pub fn accept_takeback(&mut self, side: Color, at: u64) -> Result<&Verdict, ClockError> {
        self.begin(at)?;
        self.game
            .ensure_running(|| format!("takeback acceptance by {side} at {at} ms"))?;
        let requester = !side;
        let plies = match self.takeback_plies(requester) {
            Some(plies) if self.takeback_request[requester.index()] => plies,
            _ => return Err(ClockError::NoTakebackRequest { side, at }),
        };
        let to_move = self.game.position().side_to_move().index();
        let used = at.saturating_sub(self.turn_started);
        self.remaining[to_move] = self.remaining[to_move].saturating_sub(used);
        self.game.take_back(plies)?;
        self.turn_started = at;
        self.takeback_request = [false; 2];
        if self.game.is_over() {
            // Cannot happen (the shorter game was running), but the clocks
            // must stop with any end.
            self.stop(at);
        }
        Ok(self.game.verdict())
    }

    /// `side` refuses the opponent's request; the requester may ask again
    /// after [`TAKEBACK_COOLDOWN_PLIES`] plies.
    pub fn decline_takeback(&mut self, side: Color, at: u64) -> Result<&Verdict, ClockError> {
        self.begin(at)?;
        self.game
            .ensure_running(|| format!("takeback refusal by {side} at {at} ms"))?;
        let requester = !side;
        if !self.takeback_request[requester.index()] {
            return Err(ClockError::NoTakebackRequest { side, at });
        }
        self.refuse_takeback(requester);
        Ok(self.game.verdict())
    }

    fn refuse_takeback(&mut self, requester: Color) {
        self.takeback_request[requester.index()] = false;
        self.takeback_allowed_from[requester.index()] = self.plies_played + TAKEBACK_COOLDOWN_PLIES;
    }

    /// After `mover`'s move: a request of the opponent's lapses as refused;
    /// `mover`'s own request is withdrawn (its move changed what it asked).
    pub(super) fn takeback_moved_on(&mut self, mover: Color) {
        if self.takeback_request[(!mover).index()] {
            self.refuse_takeback(!mover);
        }
        self.takeback_request[mover.index()] = false;
    }
}

#[cfg(test)]
mod tests {
    use xiangqi_core::Position;

    use super::*;
    use crate::clock::TimeControl;
    use crate::rules::{Preset, RuleSet};

    fn game() -> OnlineGame {
        let tc = TimeControl {
            base_ms: 60_000,
            increment_ms: 1_000,
        };
        OnlineGame::new(Position::startpos(), RuleSet::preset(Preset::Online), tc, 0).unwrap()
    }

    fn play(game: &mut OnlineGame, side: Color, mv: &str, at: u64) {
        game.play(side, mv.parse().unwrap(), at).unwrap();
    }

    #[test]
    fn the_requesters_last_move_goes_and_the_reply_with_it() {
        let mut g = game();
        assert!(matches!(
            g.offer_takeback(Color::Red, 100),
            Err(ClockError::NothingToTakeBack { .. })
        ));
        play(&mut g, Color::Red, "h2e2", 1_000);
        assert_eq!(g.takeback_plies(Color::Red), Some(1));
        assert_eq!(g.takeback_plies(Color::Black), None);
        play(&mut g, Color::Black, "h9g7", 3_000);
        // Red is to move: its move and Black's reply.
        assert_eq!(g.takeback_plies(Color::Red), Some(2));
        assert_eq!(g.takeback_plies(Color::Black), Some(1));
        g.offer_takeback(Color::Red, 4_000).unwrap();
        assert_eq!(g.takeback_request(), Some(Color::Red));
        // Red: 60 000 - 1 000 + 1 000, running 1 000 since 3 000; Black:
        // 60 000 - 2 000 + 1 000.
        assert_eq!(g.clocks(), [59_000, 59_000]);
        g.accept_takeback(Color::Black, 5_000).unwrap();
        assert_eq!(g.game().ply(), 0);
        assert_eq!(g.game().position(), &Position::startpos());
        assert_eq!(g.takeback_request(), None);
        // Red's clock ran from 3 000 to 5 000 and keeps running from there.
        assert_eq!(g.clocks(), [58_000, 59_000]);
        g.poll(6_000).unwrap();
        assert_eq!(g.clocks(), [57_000, 59_000]);
        // Both have moved once: still not abortable.
        assert!(!g.abortable());
    }

    #[test]
    fn one_ply_when_the_opponent_has_not_replied() {
        let mut g = game();
        play(&mut g, Color::Red, "h2e2", 1_000);
        play(&mut g, Color::Black, "h9g7", 2_000);
        play(&mut g, Color::Red, "h0g2", 3_000);
        g.offer_takeback(Color::Red, 3_500).unwrap();
        g.accept_takeback(Color::Black, 4_000).unwrap();
        assert_eq!(g.game().ply(), 2);
        assert_eq!(g.game().position().side_to_move(), Color::Red);
        assert_eq!(g.game().moves()[1].to_string(), "h9g7");
    }

    #[test]
    fn answers_need_a_request_and_a_refusal_has_a_cooldown() {
        let mut g = game();
        play(&mut g, Color::Red, "h2e2", 1_000);
        assert!(matches!(
            g.accept_takeback(Color::Black, 1_100),
            Err(ClockError::NoTakebackRequest { .. })
        ));
        assert!(matches!(
            g.decline_takeback(Color::Black, 1_200),
            Err(ClockError::NoTakebackRequest { .. })
        ));
        g.offer_takeback(Color::Red, 1_300).unwrap();
        // Asking again while it waits changes nothing; the opponent cannot
        // ask at the same time; the requester cannot accept its own.
        g.offer_takeback(Color::Red, 1_400).unwrap();
        assert!(matches!(
            g.offer_takeback(Color::Black, 1_500),
            Err(ClockError::TakebackPending { .. })
        ));
        assert!(matches!(
            g.accept_takeback(Color::Red, 1_600),
            Err(ClockError::NoTakebackRequest { .. })
        ));
        g.decline_takeback(Color::Black, 1_700).unwrap();
        assert_eq!(g.game().ply(), 1);
        let moves = ["h9g7", "h0g2", "i9h9", "i0h0"];
        for (n, mv) in moves.iter().enumerate() {
            match g.offer_takeback(Color::Red, 2_000 + n as u64 * 100) {
                Err(ClockError::TakebackTooSoon { plies_left, .. }) => {
                    assert_eq!(plies_left, TAKEBACK_COOLDOWN_PLIES - n as u64)
                }
                other => panic!("ply {n}: {other:?}"),
            }
            let side = if n % 2 == 0 { Color::Black } else { Color::Red };
            play(&mut g, side, mv, 2_050 + n as u64 * 100);
        }
        g.offer_takeback(Color::Red, 3_000).unwrap();
    }

    #[test]
    fn moving_on_refuses_the_opponents_request_and_withdraws_ones_own() {
        let mut g = game();
        play(&mut g, Color::Red, "h2e2", 1_000);
        play(&mut g, Color::Black, "h9g7", 2_000);
        g.offer_takeback(Color::Black, 2_100).unwrap();
        play(&mut g, Color::Red, "h0g2", 3_000);
        assert_eq!(g.takeback_request(), None);
        assert!(matches!(
            g.offer_takeback(Color::Black, 3_100),
            Err(ClockError::TakebackTooSoon { .. })
        ));
        play(&mut g, Color::Black, "i9h9", 4_000);
        // Red asks on its turn, then moves instead: withdrawn, no cooldown.
        g.offer_takeback(Color::Red, 4_100).unwrap();
        play(&mut g, Color::Red, "i0h0", 5_000);
        assert_eq!(g.takeback_request(), None);
        g.offer_takeback(Color::Red, 5_100).unwrap();
        assert_eq!(g.takeback_plies(Color::Red), Some(1));
    }

    #[test]
    fn the_repetition_record_is_that_of_the_shorter_game() {
        let cycle = ["h2e2", "h9g7", "e2h2", "g7h9"];
        let side = |n: usize| if n % 2 == 0 { Color::Red } else { Color::Black };
        let mut g = game();
        let mut plain = game();
        // Once round: the start position stands a second time.
        for (n, mv) in cycle.iter().enumerate() {
            play(&mut g, side(n), mv, 1_000 + n as u64);
            play(&mut plain, side(n), mv, 1_000 + n as u64);
        }
        // A move and its takeback leave no trace in the record.
        play(&mut g, Color::Red, "h0g2", 2_000);
        g.offer_takeback(Color::Red, 2_001).unwrap();
        g.accept_takeback(Color::Black, 2_002).unwrap();
        assert_eq!(g.game().ply(), 4);
        assert_eq!(g.game().no_capture_count(), plain.game().no_capture_count());
        for (n, mv) in cycle.iter().enumerate() {
            play(&mut g, side(n), mv, 3_000 + n as u64);
            play(&mut plain, side(n), mv, 3_000 + n as u64);
            assert_eq!(g.verdict(), plain.verdict(), "ply {}", 5 + n);
        }
        // The third time the start position stands ends both games alike.
        assert!(g.game().is_over());
        assert_eq!(g.verdict().ply, 8);
    }
}
