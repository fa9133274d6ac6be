//! `GET /api/games/{id}/chat`, a game's chat as the asker may read it, and
//! `POST /api/reports`, a report about a chat message or an opponent,
//! stored for a moderator (docs/server.md, "Chat and reports").

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use crate::error::ApiError;
use crate::http::auth::current_player;
use crate::http::extract::{JsonBody, PathParams};
use crate::ids::new_id;
use crate::social::chat::{chat_line, may_read};
use crate::social::text::{clean_text, TextError};
use crate::social::MAX_NOTE_CHARS;
use crate::state::AppState;
use crate::store::NewReport;
use xiangqi_server_protocol::echo::quoted;
use xiangqi_server_protocol::ChatChannel;

/// The reasons a report may give.
pub const REPORT_REASONS: &[&str] = &["abuse", "spam", "cheating", "other"];

fn channel_named(name: &str) -> Option<ChatChannel> {
    match name {
        "players" => Some(ChatChannel::Players),
        "spectators" => Some(ChatChannel::Spectators),
        _ => None,
    }
}

/// `GET /api/games/{id}/chat`: the messages the session's player may read,
/// oldest first (no session: the spectators' chat only).
pub async fn chat(
    State(state): State<AppState>,
    headers: HeaderMap,
    PathParams(id): PathParams<String>,
) -> Result<Response, ApiError> {
    let Some(sides) = state.store.game_sides(&id).await? else {
        return Err(ApiError::NotFound(format!("game {}", quoted(&id))));
    };
    let reader = current_player(&state, &headers).await?;
    let reader = reader.as_ref().map(|p| p.id.as_str());
    let channels: Vec<&str> = [ChatChannel::Players, ChatChannel::Spectators]
        .into_iter()
        .filter(|channel| may_read(&sides, *channel, reader))
        .map(ChatChannel::name)
        .collect();
    let messages: Vec<_> = state
        .store
        .chat_of(&id, &channels)
        .await?
        .iter()
        .filter_map(|row| Some(chat_line(row, channel_named(&row.channel)?)))
        .collect();
    Ok(Json(json!({"game": id, "channels": channels, "messages": messages})).into_response())
}

/// A report: about chat message `message`, or, without one, about the
/// reporter's opponent in `game`.
#[derive(Deserialize)]
pub struct ReportRequest {
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    game: Option<String>,
    reason: String,
    #[serde(default)]
    note: String,
}

/// `POST /api/reports`: only from a signed-in account or a player of the
/// game, at most [`crate::social::REPORT_RATE`] per player; who is
/// reported is the message's author or the opponent, as stored.
pub async fn report(
    State(state): State<AppState>,
    headers: HeaderMap,
    JsonBody(request): JsonBody<ReportRequest>,
) -> Result<Response, ApiError> {
    let Some(reporter) = current_player(&state, &headers).await? else {
        return Err(ApiError::NotSignedIn);
    };
    if let Err(wait) = state.social.report_rate.check(&reporter.id) {
        let seconds = wait.as_secs() + 1;
        return Err(ApiError::TooMany(
            "rate_limited",
            format!("too many reports; try again in {seconds} s"),
            wait,
        ));
    }
    if !REPORT_REASONS.contains(&request.reason.as_str()) {
        return Err(ApiError::BadInput(
            "bad_reason",
            format!("a report's reason is one of {}", REPORT_REASONS.join(", ")),
        ));
    }
    let note = match clean_text(&request.note, MAX_NOTE_CHARS) {
        Ok(note) => note,
        Err(TextError::Empty) => String::new(),
        Err(e) => return Err(ApiError::BadInput("note_too_long", e.to_string())),
    };
    let (reported, game, message) = match (&request.message, &request.game) {
        (Some(id), _) => {
            let Some(message) = state.store.chat_message(id).await? else {
                return Err(ApiError::NotFound(format!("message {}", quoted(id))));
            };
            let sides = state
                .store
                .game_sides(&message.game)
                .await?
                .ok_or_else(|| ApiError::Internal(format!("message {id} of a missing game")))?;
            let channel = channel_named(&message.channel)
                .ok_or_else(|| ApiError::Internal(format!("message {id}'s channel")))?;
            // A message one cannot read does not exist for one.
            if !may_read(&sides, channel, Some(&reporter.id)) {
                return Err(ApiError::NotFound(format!("message {}", quoted(id))));
            }
            if message.author == reporter.id {
                return Err(ApiError::BadInput(
                    "report_self",
                    "you cannot report your own message".into(),
                ));
            }
            (message.author, message.game, Some(message.id))
        }
        (None, Some(game)) => {
            let Some(sides) = state.store.game_sides(game).await? else {
                return Err(ApiError::NotFound(format!("game {}", quoted(game))));
            };
            let Some(opponent) = sides.opponent_of(&reporter.id) else {
                return Err(ApiError::Forbidden(
                    "only a game's players report their opponent; report a message instead".into(),
                ));
            };
            if opponent.starts_with("engine-") {
                return Err(ApiError::BadInput(
                    "report_engine",
                    "the engine is not a player one can report".into(),
                ));
            }
            (opponent.to_string(), game.clone(), None)
        }
        (None, None) => {
            return Err(ApiError::BadInput(
                "bad_report",
                "a report names a chat message (`message`) or a game (`game`)".into(),
            ))
        }
    };
    let reporter_plays = state
        .store
        .game_sides(&game)
        .await?
        .is_some_and(|s| s.plays(&reporter.id));
    if reporter.guest && !reporter_plays {
        return Err(ApiError::Forbidden(
            "reports are for accounts and the game's players: register to report".into(),
        ));
    }
    let id = new_id("r");
    let stored = state
        .store
        .insert_report(&NewReport {
            id: &id,
            reporter: &reporter.id,
            reported: &reported,
            game: &game,
            message: message.as_deref(),
            reason: &request.reason,
            note: &note,
            at: state.clock.unix_ms(),
        })
        .await?;
    if !stored {
        return Err(ApiError::Conflict(
            "already_reported",
            "you have reported this message already".into(),
        ));
    }
    Ok((StatusCode::CREATED, Json(json!({"id": id}))).into_response())
}
