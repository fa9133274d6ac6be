//! What each client message does: lobby requests go to the lobby, game
//! actions to the game's room, which decides. Every refusal is an `error`
//! frame with a code, words and a `ref` naming what it refers to.

use crate::game::lobby::{seat_colors, start_game, Seek};
use crate::game::room::{Action, RematchAnswer, RoomCommand};
use crate::game::view::Seat;
use crate::game::RoomHandle;
use crate::ids::new_id;
use crate::rules::{seek_preset, DEFAULT_RULES};
use crate::state::AppState;
use crate::time_control::offered_time_control;
use crate::ws::analysis;
use crate::ws::connection::{error_frame, Session};
use crate::ws::protocol::echo::quoted;
use crate::ws::protocol::server::ErrorRef;
use crate::ws::protocol::{ClientMessage, ServerMessage, PROTOCOL_VERSION};
use crate::ws::rematch::rematch;

/// The highest engine level.
const MAX_ENGINE_LEVEL: i64 = crate::engine_player::MAX_LEVEL as i64;
/// Rooms a socket may watch at once.
const MAX_WATCHED: usize = 32;

/// The frames that go back to the socket that sent the message.
pub type Replies = Vec<String>;

pub(crate) fn refuse(code: &str, message: impl AsRef<str>, reference: Option<ErrorRef>) -> Replies {
    vec![error_frame(code, message.as_ref(), reference)]
}

fn frame(message: ServerMessage) -> Replies {
    vec![message.to_text()]
}

/// Handles one decoded message of `session`'s player.
pub async fn handle(state: &AppState, session: &mut Session, message: ClientMessage) -> Replies {
    if state.social.closed.is_closed(&session.player.id) {
        return refuse(
            "account_deleted",
            "this account was deleted; reload the page",
            None,
        );
    }
    match message {
        ClientMessage::Hello { .. } => frame(ServerMessage::Welcome {
            v: PROTOCOL_VERSION,
            player: crate::http::auth::player_view(&session.player),
        }),
        ClientMessage::Ping => frame(ServerMessage::Pong),
        ClientMessage::Pong => Vec::new(),
        ClientMessage::Lobby => {
            if !session.in_lobby {
                state.lobby.subscribe(session.conn, session.out.clone());
                session.in_lobby = true;
            }
            Vec::new()
        }
        ClientMessage::Seek {
            tc,
            rated,
            color,
            rules,
        } => {
            let tc = match offered_time_control(&tc) {
                Ok(tc) => tc,
                Err(e) => return refuse("bad_time_control", e.to_string(), None),
            };
            // The preset's own spelling, as stored and shown.
            let rules = match seek_preset(&rules) {
                Ok(preset) => preset.name().to_string(),
                Err(e) => return refuse("unknown_rules", e.to_string(), None),
            };
            let seat = match fresh_seat(state, session).await {
                Ok(seat) => seat,
                Err(reply) => return reply,
            };
            if rated && !seat.is_account() {
                return refuse(
                    "guest_rated",
                    "rated games are for accounts: register first",
                    None,
                );
            }
            let seek = Seek {
                id: new_id("s"),
                seat,
                tc,
                rated,
                color,
                rules,
                address: session.address,
            };
            let per_address = state.guards.security.seeks_per_address;
            match state.lobby.add_seek(seek, per_address) {
                Ok(seek) => frame(ServerMessage::SeekCreated { seek }),
                Err((code, message)) => refuse(code, message, None),
            }
        }
        ClientMessage::CancelSeek { id } => {
            match state.lobby.cancel_seek(&id, &session.player.id) {
                Ok(()) => Vec::new(),
                Err((code, message)) => refuse(code, message, Some(ErrorRef::seek(&id))),
            }
        }
        ClientMessage::Accept { id } => accept(state, session, id).await,
        ClientMessage::PlayEngine { level, tc, color } => {
            if !(0..=MAX_ENGINE_LEVEL).contains(&level) {
                return refuse(
                    "bad_level",
                    format!("the engine's levels are 0 to {MAX_ENGINE_LEVEL}"),
                    None,
                );
            }
            let tc = match offered_time_control(&tc) {
                Ok(tc) => tc,
                Err(e) => return refuse("bad_time_control", e.to_string(), None),
            };
            let me = match fresh_seat(state, session).await {
                Ok(seat) => seat,
                Err(reply) => return reply,
            };
            // One engine game at a time per player, so one player cannot
            // occupy the engine slots with many games.
            let player = session.player.id.clone();
            if let Err(going) = state.engine_games.claim(&player) {
                return refuse("engine_game_in_progress", going.to_string(), None);
            }
            let engine = Seat::Engine { level: level as u8 };
            let (red, black) = seat_colors(me, engine, color);
            match start_game(state.game_start(), red, black, tc, false, DEFAULT_RULES).await {
                Ok(room) => {
                    state.engine_games.started(&player, &room.id);
                    started(state, &room);
                    Vec::new()
                }
                Err(e) => {
                    state.engine_games.ended(&player, None);
                    tracing::error!("starting an engine game: {e}");
                    refuse("internal", "the game could not be started; try again", None)
                }
            }
        }
        ClientMessage::Watch { game, since } => watch(state, session, game, since).await,
        ClientMessage::Chat {
            game,
            channel,
            text,
        } => match crate::social::chat::post(state, &session.player, &game, channel, &text).await {
            Ok(()) => Vec::new(),
            Err((code, message)) => refuse(code, message, Some(ErrorRef::game(&game))),
        },
        ClientMessage::Unwatch { game } => {
            state.social.readers.leave(&game, session.conn);
            if session.watching.remove(&game) {
                if let Some(room) = state.rooms.running(&game).await {
                    let _ = room.send(RoomCommand::Unwatch { conn: session.conn });
                }
            }
            Vec::new()
        }
        ClientMessage::Move { game, ply, mv } => {
            let reference = ErrorRef::game_move(&game, ply);
            match act(state, session, &game, Action::Move { ply, mv }).await {
                Ok(()) => frame(ServerMessage::Ack { game, ply }),
                Err((code, message)) => refuse(code, message, Some(reference)),
            }
        }
        ClientMessage::Resign { game } => game_action(state, session, game, Action::Resign).await,
        ClientMessage::Abort { game } => game_action(state, session, game, Action::Abort).await,
        ClientMessage::OfferDraw { game } => {
            game_action(state, session, game, Action::OfferDraw).await
        }
        ClientMessage::AcceptDraw { game } => {
            game_action(state, session, game, Action::AcceptDraw).await
        }
        ClientMessage::DeclineDraw { game } => {
            game_action(state, session, game, Action::DeclineDraw).await
        }
        ClientMessage::OfferTakeback { game } => {
            game_action(state, session, game, Action::OfferTakeback).await
        }
        ClientMessage::AcceptTakeback { game } => {
            game_action(state, session, game, Action::AcceptTakeback).await
        }
        ClientMessage::DeclineTakeback { game } => {
            game_action(state, session, game, Action::DeclineTakeback).await
        }
        ClientMessage::OfferRematch { game } => {
            rematch(state, session, game, RematchAnswer::Offer).await
        }
        ClientMessage::AcceptRematch { game } => {
            rematch(state, session, game, RematchAnswer::Accept).await
        }
        ClientMessage::DeclineRematch { game } => {
            rematch(state, session, game, RematchAnswer::Decline).await
        }
        ClientMessage::Analyse(request) => analysis::analyse(state, session, request),
        ClientMessage::StopAnalysis { id } => analysis::stop(state, session, id),
    }
}

/// The player's seat with the rating as stored now.
async fn fresh_seat(state: &AppState, session: &Session) -> Result<Seat, Replies> {
    match state.store.player(&session.player.id).await {
        Ok(Some(p)) => Ok(Seat::from(p)),
        Ok(None) => Err(refuse(
            "not_signed_in",
            "your player is gone; reload the page",
            None,
        )),
        Err(e) => {
            tracing::error!("reading a player: {e}");
            Err(refuse(
                "internal",
                "the server could not read your player; try again",
                None,
            ))
        }
    }
}

/// Tells both players that a game started (on every socket of theirs).
pub(super) fn started(state: &AppState, room: &RoomHandle) {
    let text = ServerMessage::Started {
        game: room.id.clone(),
    }
    .to_text();
    for seat in [&room.facts.red, &room.facts.black] {
        if let Seat::Player { id, .. } = seat {
            state.hub.send(id, &text);
        }
    }
    if let Some(node) = &state.cluster {
        node.started(room);
    }
}

async fn accept(state: &AppState, session: &Session, id: String) -> Replies {
    let me = match fresh_seat(state, session).await {
        Ok(seat) => seat,
        Err(reply) => return reply,
    };
    let seek = match state.lobby.take_seek(&id, &session.player.id) {
        Ok(seek) => seek,
        // A seek made on another node of a cluster is taken there.
        Err(refusal) => match crate::cluster::take_remote_seek(state, session, &id).await {
            Some(Ok(seek)) => seek,
            Some(Err((code, message))) => return refuse(&code, message, Some(ErrorRef::seek(&id))),
            None => return refuse(refusal.0, refusal.1, Some(ErrorRef::seek(&id))),
        },
    };
    if seek.rated && !me.is_account() {
        state.lobby.restore_seek(seek);
        return refuse(
            "guest_rated",
            "rated games are for accounts: register first",
            Some(ErrorRef::seek(&id)),
        );
    }
    let (red, black) = seat_colors(seek.seat.clone(), me, seek.color);
    match start_game(
        state.game_start(),
        red,
        black,
        seek.tc,
        seek.rated,
        &seek.rules,
    )
    .await
    {
        Ok(room) => {
            started(state, &room);
            Vec::new()
        }
        Err(e) => {
            tracing::error!("starting a game: {e}");
            state.lobby.restore_seek(seek);
            refuse(
                "internal",
                "the game could not be started; try again",
                Some(ErrorRef::seek(&id)),
            )
        }
    }
}

async fn watch(
    state: &AppState,
    session: &mut Session,
    game: String,
    since: Option<u64>,
) -> Replies {
    if !session.watching.contains(&game) && session.watching.len() >= MAX_WATCHED {
        return refuse(
            "too_many_games",
            format!("one socket watches at most {MAX_WATCHED} games"),
            Some(ErrorRef::game(&game)),
        );
    }
    // A finished room may stop between the lookup and the send: look again.
    for _ in 0..2 {
        let room = match state.rooms.get(&state.room_ports, &game).await {
            Ok(Some(room)) => room,
            Ok(None) => {
                return refuse(
                    "unknown_game",
                    format!("no game {}", quoted(&game)),
                    Some(ErrorRef::game(&game)),
                )
            }
            Err(e) => {
                tracing::error!("loading game {game}: {e}");
                return refuse(
                    "internal",
                    "the game could not be loaded",
                    Some(ErrorRef::game(&game)),
                );
            }
        };
        let command = RoomCommand::Watch {
            conn: session.conn,
            player: session.player.id.clone(),
            out: session.out.clone(),
            since,
        };
        if room.send(command).is_ok() {
            let (conn, out) = (session.conn, session.out.clone());
            state
                .social
                .readers
                .join(&game, conn, &session.player.id, out);
            session.watching.insert(game);
            return Vec::new();
        }
    }
    refuse(
        "internal",
        "the game could not be loaded",
        Some(ErrorRef::game(&game)),
    )
}

/// Asks the room of `game` to perform `action` (loading it if needed).
async fn act(
    state: &AppState,
    session: &Session,
    game: &str,
    action: Action,
) -> Result<(), (&'static str, String)> {
    for _ in 0..2 {
        let room = match state.rooms.get(&state.room_ports, game).await {
            Ok(Some(room)) => room,
            Ok(None) => return Err(("unknown_game", format!("no game {}", quoted(game)))),
            Err(e) => {
                tracing::error!("loading game {game}: {e}");
                return Err(("internal", "the game could not be loaded".to_string()));
            }
        };
        if let Ok(answer) = room.act(&session.player.id, action.clone()).await {
            return answer.map_err(|e| (e.code, e.message));
        }
    }
    Err(("internal", "the game could not be loaded".to_string()))
}

async fn game_action(state: &AppState, session: &Session, game: String, action: Action) -> Replies {
    match act(state, session, &game, action).await {
        Ok(()) => Vec::new(),
        Err((code, message)) => refuse(code, message, Some(ErrorRef::game(&game))),
    }
}
