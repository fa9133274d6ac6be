//! The engine's side of a game against it: when it is to move, one search
//! starts (on a slot, [`crate::engine_player`]) and its move comes back to
//! the room as a command; when the game ends the search stops and the player
//! may start another engine game. The only place a room reaches the engine.

use std::sync::Arc;
use std::time::Duration;

use xiangqi_adjudication::OnlineGame;
use xiangqi_core::{Color, Move};

use crate::engine_player::{self, EngineGames, Thinking, Turn};
use crate::engine_slots::EngineSlots;
use crate::game::view::{GameFacts, Seat};

/// What the engine seats of all rooms share.
#[derive(Clone)]
pub struct EngineDesk {
    /// The engine slots: searches running at once, shared fairly.
    pub slots: Arc<EngineSlots>,
    /// The players with an engine game going.
    pub games: Arc<EngineGames>,
}

/// The engine playing one side of a game.
pub struct EngineSeat {
    side: Color,
    level: u8,
    /// The player on the other side, whose searches these count as.
    owner: String,
    desk: EngineDesk,
    /// The search for the engine's move, while one runs or waits for a slot.
    thinking: Option<Thinking>,
}

impl EngineSeat {
    /// The engine's seat in `facts`' game, if it plays in it.
    pub fn of(facts: &GameFacts, desk: &EngineDesk) -> Option<EngineSeat> {
        Color::ALL
            .into_iter()
            .find_map(|side| match facts.seat(side) {
                Seat::Engine { level } => Some(EngineSeat {
                    side,
                    level: *level,
                    owner: facts.seat(!side).id(),
                    desk: desk.clone(),
                    thinking: None,
                }),
                Seat::Player { .. } => None,
            })
    }

    /// The side the engine plays.
    pub fn side(&self) -> Color {
        self.side
    }

    /// A game resumed at a restart is its player's one engine game again.
    pub fn resumed(&self, game: &str) {
        self.desk.games.started(&self.owner, game);
    }

    /// Starts the engine's search when it is to move and none runs;
    /// `answer` gets its move and the ply it was searched at.
    pub fn think_if_to_move(
        &mut self,
        facts: &GameFacts,
        game: &OnlineGame,
        time_left_ms: u64,
        answer: impl FnOnce(u32, Option<Move>) + Send + 'static,
    ) {
        if game.game().is_over()
            || game.game().position().side_to_move() != self.side
            || self.thinking.is_some()
        {
            return;
        }
        let turn = Turn {
            start: facts.start.clone(),
            moves: game.game().moves().to_vec(),
            level: self.level,
            time_left: Duration::from_millis(time_left_ms),
            increment: Duration::from_millis(facts.tc.increment_ms),
        };
        let ply = game.game().ply();
        self.thinking = Some(engine_player::think(
            &self.desk.slots,
            &self.owner,
            turn,
            move |mv| answer(ply, mv),
        ));
    }

    /// Whether a search runs (or waits for a slot).
    pub fn is_thinking(&self) -> bool {
        self.thinking.is_some()
    }

    /// The search's answer has come.
    pub fn answered(&mut self) {
        self.thinking = None;
    }

    /// The game is over: a search for it stops, and its player may start
    /// another engine game.
    pub fn game_over(&mut self, game: &str) {
        if let Some(thinking) = self.thinking.take() {
            thinking.stop();
        }
        self.desk.games.ended(&self.owner, Some(game));
    }
}
