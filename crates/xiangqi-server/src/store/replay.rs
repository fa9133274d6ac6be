//! Rebuilding a stored game: its rules, time control and events through
//! [`OnlineGame`].

use xiangqi_adjudication::{OnlineGame, TimedEvent};
use xiangqi_core::Position;

use super::{StoreError, StoredGame};
use crate::rules::game_rules;
use crate::time_control::parse_time_control;

impl StoredGame {
    fn invalid(&self, why: impl std::fmt::Display) -> StoreError {
        StoreError::Invalid(format!("game {}: {why}", self.game.id))
    }

    /// The game as it started: its start position, rules and time control
    /// (clock from 0 ms), before any event.
    pub fn new_game(&self) -> Result<OnlineGame, StoreError> {
        let rules = game_rules(&self.game.rules).map_err(|e| self.invalid(e))?;
        let control = parse_time_control(&self.game.time_control).map_err(|e| self.invalid(e))?;
        let start = Position::from_fen(&self.game.start_fen)
            .map_err(|e| self.invalid(format!("start position: {e}")))?;
        OnlineGame::new(start, rules, control, 0).map_err(|e| self.invalid(e))
    }

    /// The game rebuilt with every stored event applied in order;
    /// `visit` sees the game after each event.
    pub fn replay_each(
        &self,
        mut visit: impl FnMut(&OnlineGame, &TimedEvent),
    ) -> Result<OnlineGame, StoreError> {
        let mut game = self.new_game()?;
        for event in &self.events {
            let timed = event.to_timed()?;
            game.apply(&timed)
                .map_err(|e| self.invalid(format!("event {}: {e}", event.seq)))?;
            visit(&game, &timed);
        }
        Ok(game)
    }

    /// The game rebuilt with every stored event applied in order.
    pub fn replay(&self) -> Result<OnlineGame, StoreError> {
        self.replay_each(|_, _| {})
    }
}
