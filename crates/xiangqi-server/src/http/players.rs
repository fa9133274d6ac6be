//! `GET /api/players/{name}`: a player's public face, rating history and
//! latest games.

use std::collections::HashMap;

use axum::extract::State;
use axum::Json;
use serde_json::{json, Value};

use crate::error::ApiError;
use crate::http::extract::PathParams;
use crate::http::games::stored_summary;
use crate::state::AppState;
use xiangqi_server_protocol::echo::quoted;

/// Games listed at most.
const GAMES_LISTED: i64 = 100;

/// The profile.
pub async fn player(
    State(state): State<AppState>,
    PathParams(name): PathParams<String>,
) -> Result<Json<Value>, ApiError> {
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
    for stored in state.store.games_of(&player.id, GAMES_LISTED).await? {
        games.push(stored_summary(&state, &stored, &mut players).await?);
    }
    let public = crate::game::view::Seat::from(player.clone()).to_public();
    Ok(Json(
        json!({"player": public, "history": history, "games": games}),
    ))
}
