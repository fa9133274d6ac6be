//! [`EventRow`] to and from the adjudication crate's [`TimedEvent`]: the
//! stored form of everything that happens in a game.

use xiangqi_adjudication::{ClockEvent, TimedEvent};
use xiangqi_core::{Color, Move};

use super::{EventRow, StoreError};

impl EventRow {
    /// The row of `event`, the game's `seq`-th.
    pub fn from_timed(seq: i64, event: &TimedEvent) -> EventRow {
        let (kind, side, mv) = match event.event {
            ClockEvent::Move { side, mv } => ("move", side, Some(mv.to_string())),
            ClockEvent::Resign { side } => ("resign", Some(side), None),
            ClockEvent::Abort { side } => ("abort", Some(side), None),
            ClockEvent::OfferDraw { side } => ("offer_draw", Some(side), None),
            ClockEvent::AcceptDraw { side } => ("accept_draw", Some(side), None),
            ClockEvent::DeclineDraw { side } => ("decline_draw", Some(side), None),
            ClockEvent::OfferTakeback { side } => ("offer_takeback", Some(side), None),
            ClockEvent::AcceptTakeback { side } => ("accept_takeback", Some(side), None),
            ClockEvent::DeclineTakeback { side } => ("decline_takeback", Some(side), None),
            ClockEvent::Leave { side } => ("leave", Some(side), None),
            ClockEvent::Return { side } => ("return", Some(side), None),
            ClockEvent::Poll => ("poll", None, None),
        };
        EventRow {
            seq,
            kind: kind.to_string(),
            side: side.map(|s| s.name().to_string()),
            mv,
            // Game times are far below i64::MAX ms (292 million years).
            at: i64::try_from(event.at).unwrap_or(i64::MAX),
        }
    }

    /// The event this row stores.
    pub fn to_timed(&self) -> Result<TimedEvent, StoreError> {
        let invalid = |why: String| StoreError::Invalid(format!("event {}: {why}", self.seq));
        let at =
            u64::try_from(self.at).map_err(|_| invalid(format!("negative time {}", self.at)))?;
        let side = self
            .side
            .as_deref()
            .map(|s| match s {
                "red" => Ok(Color::Red),
                "black" => Ok(Color::Black),
                other => Err(invalid(format!("side {other:?} is not red or black"))),
            })
            .transpose()?;
        let sided = |make: fn(Color) -> ClockEvent| {
            side.map(make)
                .ok_or_else(|| invalid(format!("a {:?} event needs a side", self.kind)))
        };
        let event = match self.kind.as_str() {
            "move" => {
                let text = self
                    .mv
                    .as_deref()
                    .ok_or_else(|| invalid("a move event without its move".into()))?;
                let mv: Move = text
                    .parse()
                    .map_err(|e| invalid(format!("move {text:?}: {e}")))?;
                ClockEvent::Move { side, mv }
            }
            "resign" => sided(|side| ClockEvent::Resign { side })?,
            "abort" => sided(|side| ClockEvent::Abort { side })?,
            "offer_draw" => sided(|side| ClockEvent::OfferDraw { side })?,
            "accept_draw" => sided(|side| ClockEvent::AcceptDraw { side })?,
            "decline_draw" => sided(|side| ClockEvent::DeclineDraw { side })?,
            "offer_takeback" => sided(|side| ClockEvent::OfferTakeback { side })?,
            "accept_takeback" => sided(|side| ClockEvent::AcceptTakeback { side })?,
            "decline_takeback" => sided(|side| ClockEvent::DeclineTakeback { side })?,
            "leave" => sided(|side| ClockEvent::Leave { side })?,
            "return" => sided(|side| ClockEvent::Return { side })?,
            "poll" => ClockEvent::Poll,
            other => return Err(invalid(format!("unknown kind {other:?}"))),
        };
        Ok(TimedEvent { at, event })
    }
}
