//! A player's word on a rematch: the finished game's room judges it; when
//! it hands out a plan, the new game is started here like an accepted seek
//! (the players' ratings as stored now) and the room is told its id.

use crate::game::lobby::start_game;
use crate::game::room::{RematchAnswer, RematchPlan, RoomCommand};
use crate::game::view::Seat;
use crate::game::RoomHandle;
use crate::state::AppState;
use crate::ws::connection::Session;
use crate::ws::dispatch::{refuse, started, Replies};
use crate::ws::protocol::echo::quoted;
use crate::ws::protocol::server::ErrorRef;

/// Handles `offer_rematch`, `accept_rematch` and `decline_rematch`.
pub async fn rematch(
    state: &AppState,
    session: &Session,
    game: String,
    answer: RematchAnswer,
) -> Replies {
    let reference = || Some(ErrorRef::game(&game));
    let mut outcome = None;
    // A finished room may stop between the lookup and the send: look again.
    for _ in 0..2 {
        let room = match state.rooms.get(&state.room_ports, &game).await {
            Ok(Some(room)) => room,
            Ok(None) => {
                return refuse(
                    "unknown_game",
                    format!("no game {}", quoted(&game)),
                    reference(),
                )
            }
            Err(e) => {
                tracing::error!("loading game {game}: {e}");
                return refuse("internal", "the game could not be loaded", reference());
            }
        };
        if let Ok(answer) = room.rematch(&session.player.id, answer).await {
            outcome = Some((room, answer));
            break;
        }
    }
    let Some((room, answer)) = outcome else {
        return refuse("internal", "the game could not be loaded", reference());
    };
    match answer {
        Err(e) => refuse(e.code, e.message, reference()),
        Ok(None) => Vec::new(),
        Ok(Some(plan)) => match start(state, plan).await {
            Ok(new) => {
                let _ = room.send(RoomCommand::RematchStarted {
                    game: Some(new.id.clone()),
                });
                started(state, &new);
                Vec::new()
            }
            Err((code, message)) => {
                let _ = room.send(RoomCommand::RematchStarted { game: None });
                refuse(code, message, reference())
            }
        },
    }
}

/// Starts the planned game, with each player's seat as stored now.
async fn start(state: &AppState, plan: RematchPlan) -> Result<RoomHandle, (&'static str, String)> {
    let red = fresh(state, plan.red).await?;
    let black = fresh(state, plan.black).await?;
    let engine_owner = match (&red, &black) {
        (Seat::Engine { .. }, player) | (player, Seat::Engine { .. }) => Some(player.id()),
        _ => None,
    };
    if let Some(owner) = &engine_owner {
        if let Err(going) = state.engine_games.claim(owner) {
            return Err(("engine_game_in_progress", going.to_string()));
        }
    }
    match start_game(
        state.game_start(),
        red,
        black,
        plan.tc,
        plan.rated,
        &plan.rules,
    )
    .await
    {
        Ok(room) => {
            if let Some(owner) = &engine_owner {
                state.engine_games.started(owner, &room.id);
            }
            Ok(room)
        }
        Err(e) => {
            if let Some(owner) = &engine_owner {
                state.engine_games.ended(owner, None);
            }
            tracing::error!("starting a rematch: {e}");
            Err((
                "internal",
                "the rematch could not be started; try again".to_string(),
            ))
        }
    }
}

/// `seat` with the player's rating as stored now.
async fn fresh(state: &AppState, seat: Seat) -> Result<Seat, (&'static str, String)> {
    let Seat::Player { id, .. } = &seat else {
        return Ok(seat);
    };
    match state.store.player(id).await {
        Ok(Some(player)) => Ok(Seat::from(player)),
        Ok(None) => Err((
            "unknown_player",
            "a player of this game is gone".to_string(),
        )),
        Err(e) => {
            tracing::error!("reading a player: {e}");
            Err((
                "internal",
                "the server could not read a player; try again".to_string(),
            ))
        }
    }
}
