//! Takebacks in a game against the engine: the engine agrees to every
//! request made on the player's turn (while it is not searching), so a
//! search never answers for a position that was taken back. Between two
//! players `OnlineGame` alone judges requests and answers.

use xiangqi_adjudication::ClockEvent;
use xiangqi_core::Color;

use crate::game::room::{ActionError, Room};

impl Room {
    /// `side`'s request in a game against the engine, answered at once.
    pub(super) async fn takeback_from_engine(&mut self, side: Color) -> Result<(), ActionError> {
        let Some(seat) = self.engine.as_ref() else {
            return self.commit(ClockEvent::OfferTakeback { side }).await;
        };
        let engine = seat.side();
        if seat.is_thinking() {
            return Err(ActionError::new(
                "engine_thinking",
                "the engine is thinking: ask for a takeback on your turn",
            ));
        }
        self.commit(ClockEvent::OfferTakeback { side }).await?;
        self.commit(ClockEvent::AcceptTakeback { side: engine })
            .await
    }
}
