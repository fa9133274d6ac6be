//! Rebuilding a stored game: its rules, time control and events through
//! [`OnlineGame`].

use xiangqi_adjudication::{OnlineGame, Preset, RuleSet};
use xiangqi_core::Position;

use super::{StoreError, StoredGame};
use crate::time_control::parse_time_control;

impl StoredGame {
    /// The game rebuilt: its start position, rule preset and time control,
    /// with every stored event applied in order (clock from 0 ms).
    pub fn replay(&self) -> Result<OnlineGame, StoreError> {
        let id = &self.game.id;
        let invalid = |why: String| StoreError::Invalid(format!("game {id}: {why}"));
        let preset: Preset = self
            .game
            .rules
            .parse()
            .map_err(|e| invalid(format!("{e}")))?;
        let control =
            parse_time_control(&self.game.time_control).map_err(|e| invalid(e.to_string()))?;
        let start = Position::from_fen(&self.game.start_fen)
            .map_err(|e| invalid(format!("start position: {e}")))?;
        let mut game = OnlineGame::new(start, RuleSet::preset(preset), control, 0)
            .map_err(|e| invalid(e.to_string()))?;
        for event in &self.events {
            game.apply(&event.to_timed()?)
                .map_err(|e| invalid(format!("event {}: {e}", event.seq)))?;
        }
        Ok(game)
    }
}
