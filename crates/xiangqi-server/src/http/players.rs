//! `GET /api/players/{name}`: a player's public face, rating history and
//! latest games, each with its ECCO code; `?ecco=C2` lists only the games
//! whose code starts with `C2` (a code, or its letter and first digit).

use std::collections::HashMap;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::Json;
use serde_json::{json, Value};

use crate::error::ApiError;
use crate::http::extract::PathParams;
use crate::http::games::stored_summary;
use crate::state::AppState;
use crate::store::CodePrefix;
use xiangqi_server_protocol::echo::quoted;

/// Games listed at most.
const GAMES_LISTED: i64 = 100;

/// The profile.
pub async fn player(
    State(state): State<AppState>,
    PathParams(name): PathParams<String>,
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(params) = query.map_err(|e| ApiError::BadInput("bad_query", e.body_text()))?;
    let ecco = match params.get("ecco").map(String::as_str) {
        None | Some("") => None,
        Some(text) => Some(CodePrefix::parse(text).ok_or_else(|| {
            ApiError::BadInput(
                "bad_ecco",
                format!(
                    "ecco filter {}: an ECCO code (C23) or its start (C2, C)",
                    quoted(text)
                ),
            )
        })?),
    };
    let Some(player) = state.store.player_by_name(&name).await? else {
        return Err(ApiError::NotFound(format!("player {}", quoted(&name))));
    };
    let history: Vec<Value> = state
        .store
        .rating_history(&player.id)
        .await?
        .into_iter()
        .take(GAMES_LISTED as usize)
        .map(|c| json!({"game": c.game, "at": c.at, "before": c.before, "after": c.after}))
        .collect();
    let mut players = HashMap::from([(player.id.clone(), player.clone())]);
    let mut games = Vec::new();
    for stored in state
        .store
        .games_of(&player.id, GAMES_LISTED, ecco.as_ref())
        .await?
    {
        let summary = stored_summary(&state, &stored, &mut players).await?;
        let code = match &stored.ending {
            Some(ending) => ending.ecco.as_deref(),
            None => stored.ecco_code(),
        };
        let mut game =
            serde_json::to_value(summary).map_err(|e| ApiError::Internal(e.to_string()))?;
        game["ecco"] = json!(code);
        games.push(game);
    }
    let public = crate::game::view::Seat::from(player.clone()).to_public();
    Ok(Json(
        json!({"player": public, "history": history, "games": games,
               "ecco": ecco.as_ref().map(CodePrefix::as_str)}),
    ))
}
