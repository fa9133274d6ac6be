//! Stored events (`EventRow`) to and from the adjudicator's events, and
//! what each one changed as the protocol's events.

use xiangqi_adjudication::{ClockError, ClockEvent, OnlineGame, TimedEvent};
use xiangqi_core::Color;

use crate::game::view::EventKind;
use crate::store::EventRow;

/// A stored event that does not describe an event.
#[derive(Debug, thiserror::Error)]
pub enum RowError {
    /// An unknown kind, or a side or move missing or malformed.
    #[error("stored event {seq} ({kind}) is malformed")]
    Malformed {
        /// Its sequence number.
        seq: i64,
        /// Its kind.
        kind: String,
    },
    /// The game refused it.
    #[error(transparent)]
    Clock(#[from] ClockError),
}

fn side_name(side: Color) -> String {
    side.name().to_string()
}

/// The row for `event` (with sequence number `seq`).
pub fn to_row(seq: i64, event: &TimedEvent) -> EventRow {
    let (kind, side, mv) = match &event.event {
        ClockEvent::Move { side, mv } => ("move", side.map(side_name), Some(mv.to_string())),
        ClockEvent::Resign { side } => ("resign", Some(side_name(*side)), None),
        ClockEvent::OfferDraw { side } => ("offer_draw", Some(side_name(*side)), None),
        ClockEvent::AcceptDraw { side } => ("accept_draw", Some(side_name(*side)), None),
        ClockEvent::DeclineDraw { side } => ("decline_draw", Some(side_name(*side)), None),
        ClockEvent::Leave { side } => ("leave", Some(side_name(*side)), None),
        ClockEvent::Return { side } => ("return", Some(side_name(*side)), None),
        ClockEvent::Poll => ("poll", None, None),
    };
    EventRow {
        seq,
        kind: kind.to_string(),
        side,
        mv,
        at: event.at as i64,
    }
}

/// The event a row stores.
pub fn from_row(row: &EventRow) -> Result<TimedEvent, RowError> {
    let bad = || RowError::Malformed {
        seq: row.seq,
        kind: row.kind.clone(),
    };
    let side = || match row.side.as_deref() {
        Some("red") => Ok(Color::Red),
        Some("black") => Ok(Color::Black),
        _ => Err(bad()),
    };
    let event = match row.kind.as_str() {
        "move" => ClockEvent::Move {
            side: row.side.as_ref().map(|_| side()).transpose()?,
            mv: row
                .mv
                .as_deref()
                .and_then(|m| m.parse().ok())
                .ok_or_else(bad)?,
        },
        "resign" => ClockEvent::Resign { side: side()? },
        "offer_draw" => ClockEvent::OfferDraw { side: side()? },
        "accept_draw" => ClockEvent::AcceptDraw { side: side()? },
        "decline_draw" => ClockEvent::DeclineDraw { side: side()? },
        "leave" => ClockEvent::Leave { side: side()? },
        "return" => ClockEvent::Return { side: side()? },
        "poll" => ClockEvent::Poll,
        _ => return Err(bad()),
    };
    let at = u64::try_from(row.at).map_err(|_| bad())?;
    Ok(TimedEvent { at, event })
}

/// Applies `event` to `game` and says what changed: the protocol events
/// (all but the end) and whether the game ended with it. On an error the
/// game may have advanced its clock: apply to a copy when that matters.
pub fn apply(game: &mut OnlineGame, event: &TimedEvent) -> Result<(Vec<EventKind>, bool), ClockError> {
    let before = game.game().position().clone();
    let ply = game.game().ply();
    let was_over = game.game().is_over();
    let offers = Color::ALL.map(|c| game.has_draw_offer(c));
    let away = Color::ALL.map(|c| game.away_since(c).is_some());
    game.apply(event)?;
    let over = game.game().is_over();
    let mut out = Vec::new();
    if game.game().ply() > ply {
        if let Some(&mv) = game.game().moves().last() {
            let fen = game.game().position().to_fen();
            out.push(EventKind::Move {
                ply,
                before,
                mv,
                fen,
            });
        }
    }
    if !over {
        for side in Color::ALL {
            let now_offered = game.has_draw_offer(side);
            if offers[side.index()] && !now_offered {
                out.push(EventKind::DrawDeclined(side.opposite()));
            }
            if !offers[side.index()] && now_offered {
                out.push(EventKind::DrawOffer(side));
            }
            let now_away = game.away_since(side).is_some();
            if away[side.index()] && !now_away {
                out.push(EventKind::Back(side));
            }
            if !away[side.index()] && now_away {
                out.push(EventKind::Away(side));
            }
        }
    }
    Ok((out, over && !was_over))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_round_trip() {
        let events = [
            TimedEvent {
                at: 5,
                event: ClockEvent::Move {
                    side: Some(Color::Red),
                    mv: "h2e2".parse().unwrap(),
                },
            },
            TimedEvent {
                at: 6,
                event: ClockEvent::Leave { side: Color::Black },
            },
            TimedEvent {
                at: 7,
                event: ClockEvent::Poll,
            },
        ];
        for (i, e) in events.iter().enumerate() {
            let row = to_row(i as i64, e);
            assert_eq!(&from_row(&row).unwrap(), e);
        }
        let bad = EventRow {
            seq: 1,
            kind: "dance".into(),
            side: None,
            mv: None,
            at: 0,
        };
        assert!(from_row(&bad).is_err());
    }
}
