//! `GET /api/games/{id}/viewer`: a stored game as the game viewer's data
//! (`xiangqi-viewer`), from its PGN export, so the page that reviews a game
//! shows what `GET /games/{id}.pgn` holds.

use axum::extract::State;
use axum::Json;
use serde_json::{json, Value};
use xiangqi_gamefile::pgn::read_str;

use crate::error::ApiError;
use crate::http::extract::PathParams;
use crate::http::games::stored_pgn;
use crate::state::AppState;

/// The viewer's data of the game a PGN text holds.
pub fn viewer_data(pgn: &str) -> Result<Value, ApiError> {
    let game = read_str(pgn)
        .next()
        .ok_or_else(|| ApiError::Internal("the PGN export holds no game".into()))?
        .map_err(|e| ApiError::Internal(format!("the PGN export cannot be read: {e}")))?;
    let view = xiangqi_viewer::viewer_game(&game).map_err(|e| ApiError::Internal(e.to_string()))?;
    serde_json::to_value(view).map_err(|e| ApiError::Internal(e.to_string()))
}

/// `GET /api/games/{id}/viewer`: `{game}`, the viewer's data.
pub async fn viewer(
    State(state): State<AppState>,
    PathParams(id): PathParams<String>,
) -> Result<Json<Value>, ApiError> {
    let pgn = stored_pgn(&state, &id).await?;
    Ok(Json(json!({ "game": viewer_data(&pgn)? })))
}
