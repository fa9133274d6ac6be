//! A stored game for the game viewer (`xiangqi-viewer`), shared by played
//! games and imported ones ([`viewer_answer`], [`start_review`]):
//! `GET /api/games/{id}/viewer`, the viewer's data of its PGN export (or of
//! the engine's review once there is one) with the review's status, and
//! `POST /api/games/{id}/annotate`, which starts the review
//! ([`crate::review`]).

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use serde_json::{json, Value};
use xiangqi_gamefile::pgn::read_str;
use xiangqi_gamefile::Game;

use crate::error::ApiError;
use crate::http::auth::current_player;
use crate::http::extract::PathParams;
use crate::http::games::stored_game_record;
use crate::review::{Reviewed, StartError};
use crate::state::AppState;
use xiangqi_server_protocol::echo::quoted;

/// The viewer's data of `game`.
pub fn viewer_data(game: &Game) -> Result<Value, ApiError> {
    let view = xiangqi_viewer::viewer_game(game).map_err(|e| ApiError::Internal(e.to_string()))?;
    serde_json::to_value(view).map_err(|e| ApiError::Internal(e.to_string()))
}

/// A stored review's annotated game (the store keeps it as PGN text).
fn stored_review(pgn: &str) -> Result<Game, ApiError> {
    read_str(pgn)
        .next()
        .ok_or_else(|| ApiError::Internal("the stored review holds no game".into()))?
        .map_err(|e| ApiError::Internal(format!("the stored review cannot be read: {e}")))
}

/// Where a game's review stands: running now, or its stored outcome (the
/// annotated PGN or the error), or none.
pub enum ReviewState {
    Running,
    Stored {
        pgn: Option<String>,
        error: Option<String>,
    },
    None,
}

/// The viewer's answer for a game whose record is `record`:
/// `{game, annotation: {status, error?}}`, status `none`, `running`,
/// `done` (the game is the annotated one) or `failed`.
pub fn viewer_answer(record: Game, review: ReviewState) -> Result<Value, ApiError> {
    let (game, annotation) = match review {
        ReviewState::Running => (record, json!({ "status": "running" })),
        ReviewState::Stored {
            pgn: Some(pgn),
            error: _,
        } => (stored_review(&pgn)?, json!({ "status": "done" })),
        ReviewState::Stored { pgn: None, error } => {
            (record, json!({ "status": "failed", "error": error }))
        }
        ReviewState::None => (record, json!({ "status": "none" })),
    };
    Ok(json!({ "game": viewer_data(&game)?, "annotation": annotation }))
}

/// Starts the review of `what` (record `record`) for `player`: `202
/// {annotation: {status: "running"}}`, or `409 busy`.
pub fn start_review(
    state: &AppState,
    what: Reviewed,
    record: Game,
    player: &str,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    crate::review::start(&state.reviews, what, record, player).map_err(|e| match e {
        StartError::Busy(_) => ApiError::Conflict("busy", e.to_string()),
    })?;
    Ok((
        StatusCode::ACCEPTED,
        Json(json!({ "annotation": { "status": "running" } })),
    ))
}

/// `GET /api/games/{id}/viewer`: [`viewer_answer`] of the game's export.
pub async fn viewer(
    State(state): State<AppState>,
    PathParams(id): PathParams<String>,
) -> Result<Json<Value>, ApiError> {
    let export = stored_game_record(&state, &id).await?;
    let review = match state.store.review(&id).await? {
        _ if state.reviews.is_running(&Reviewed::Game(id.clone())) => ReviewState::Running,
        Some(row) => ReviewState::Stored {
            pgn: row.pgn,
            error: row.error,
        },
        None => ReviewState::None,
    };
    Ok(Json(viewer_answer(export, review)?))
}

/// `POST /api/games/{id}/annotate`: starts the engine's review of a
/// finished game for a signed-in player or a guest with a session; `202
/// {annotation: {status: "running"}}`.
pub async fn annotate(
    State(state): State<AppState>,
    headers: HeaderMap,
    PathParams(id): PathParams<String>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let Some(player) = current_player(&state, &headers).await? else {
        return Err(ApiError::NotSignedIn);
    };
    let Some(stored) = state.store.game(&id).await? else {
        return Err(ApiError::NotFound(format!("game {}", quoted(&id))));
    };
    if stored.ending.is_none() {
        return Err(ApiError::Conflict(
            "game_in_progress",
            "a game in progress cannot be annotated".into(),
        ));
    }
    let record = stored_game_record(&state, &id).await?;
    start_review(&state, Reviewed::Game(id), record, &player.id)
}
