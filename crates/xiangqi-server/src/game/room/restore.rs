//! A room's beginnings: a new game's, and a stored game's rebuilt by
//! replaying its events, with the restart policy for an unfinished one.

use std::sync::Arc;

use xiangqi_adjudication::{ClockEvent, OnlineGame, Outcome};
use xiangqi_core::{Color, Position};

use crate::game::changes;
use crate::game::room::{signed, Room, RoomPorts};
use crate::game::view::{EventKind, GameFacts, Seat};
use crate::game::RoomHandle;
use crate::rules::game_rules;
use crate::store::{StoreError, StoredGame};
use crate::time_control::parse_time_control;

/// Why a stored game cannot become a room.
#[derive(Debug, thiserror::Error)]
pub enum RestoreError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The stored game does not replay.
    #[error("game {0}: {1}")]
    Corrupt(String, String),
}

/// The game of `facts` before its first event.
fn new_game(facts: &GameFacts) -> Result<OnlineGame, RestoreError> {
    let corrupt = |what: String| RestoreError::Corrupt(facts.id.clone(), what);
    let rules = game_rules(&facts.rules).map_err(|e| corrupt(e.to_string()))?;
    OnlineGame::new(facts.start.clone(), rules, facts.tc, 0).map_err(|e| corrupt(e.to_string()))
}

/// Starts the room of a new game (its row is already stored). The sides
/// count as away until a socket of theirs watches.
pub async fn start(ports: RoomPorts, facts: GameFacts) -> Result<RoomHandle, RestoreError> {
    let game = new_game(&facts)?;
    let origin = signed(ports.clock.now_ms());
    let mut room = Room::new(ports, facts, game, origin, 0);
    for side in Color::ALL {
        if matches!(room.facts.seat(side), Seat::Player { .. }) {
            room.commit_logged(ClockEvent::Leave { side }).await;
        }
    }
    room.maybe_start_engine();
    Ok(room.spawn())
}

/// Rebuilds a stored game's room. An unfinished game resumes with the
/// restart policy: the downtime is charged to nobody and both players count
/// as away from now on.
pub async fn restore(ports: RoomPorts, stored: StoredGame) -> Result<RoomHandle, RestoreError> {
    let row = &stored.game;
    let corrupt = |what: String| RestoreError::Corrupt(row.id.clone(), what);
    // A finished game shows its sides as they stood when it was played (the
    // rating before it, as its live room did), not their ratings of today.
    let finished = stored.ending.is_some();
    // A bot game's seats show the bot pool's ratings.
    let bot_game = ports.store.is_bot_game(&row.id).await?.unwrap_or(false);
    let seat = |id: &str| {
        let store = ports.store.clone();
        let (id, game) = (id.to_string(), row.id.clone());
        async move {
            let mut player = match Seat::engine_level(&id) {
                Some(_) => None,
                None => store.player(&id).await?,
            };
            if let Some(player) = player.as_mut().filter(|p| bot_game && !p.guest) {
                let pool = player
                    .bot_rating
                    .unwrap_or(xiangqi_rating::online::START_RATING);
                player.rating = Some(pool);
            }
            if let Some(player) = player.as_mut().filter(|_| finished) {
                let history = if bot_game {
                    store.bot_rating_history(&id).await?
                } else {
                    store.rating_history(&id).await?
                };
                if let Some(change) = history.iter().find(|c| c.game == game) {
                    player.rating = Some(change.before);
                    player.bot_rating = player.bot.then_some(change.before);
                }
            }
            Ok::<Seat, StoreError>(Seat::stored(&id, player.as_ref()))
        }
    };
    let facts = GameFacts {
        id: row.id.clone(),
        red: seat(&row.red).await?,
        black: seat(&row.black).await?,
        tc: parse_time_control(&row.time_control).map_err(|e| corrupt(e.to_string()))?,
        tc_text: row.time_control.clone(),
        rated: row.rated,
        rules: row.rules.clone(),
        start: Position::from_fen(&row.start_fen).map_err(|e| corrupt(e.to_string()))?,
        started_at: row.started_at,
    };
    let game = new_game(&facts)?;
    let next_seq = stored.events.iter().map(|e| e.seq + 1).max().unwrap_or(0);
    let mut room = Room::new(ports, facts, game, 0, next_seq);
    let mut ended = false;
    for event_row in &stored.events {
        let event = event_row.to_timed()?;
        let (events, ended_now) =
            changes::apply(&mut room.game, &event).map_err(|e| corrupt(e.to_string()))?;
        for kind in events {
            room.publish(kind);
        }
        ended |= ended_now;
    }
    // Game time goes on from where it stopped: the downtime counts for nobody.
    room.origin = signed(room.ports.clock.now_ms()) - signed(room.game.now());
    if stored.ending.is_some() {
        let ratings = room.stored_ratings().await?;
        let result = Arc::new(room.result_view(ratings));
        room.result = Some(result.clone());
        // The live room published the end as the last event: so does the
        // reloaded one, keeping versions equal and letting a client that
        // resumes with `since` hear of the end.
        if result.outcome != Outcome::Ongoing {
            room.publish(EventKind::End(result));
        }
    } else if ended || room.game.game().is_over() {
        // Stopped between the last event and its ending: finish now.
        room.finish().await;
    } else {
        for side in Color::ALL {
            if matches!(room.facts.seat(side), Seat::Player { .. }) {
                if room.game.away_since(side).is_some() {
                    room.commit_logged(ClockEvent::Return { side }).await;
                }
                room.commit_logged(ClockEvent::Leave { side }).await;
            }
        }
        if let Some(seat) = &room.engine {
            seat.resumed(&room.facts.id);
        }
        room.maybe_start_engine();
    }
    Ok(room.spawn())
}
