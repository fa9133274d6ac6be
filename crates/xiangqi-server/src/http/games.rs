//! `GET /api/games/{id}` and the SPA paths under `/games/`, including the
//! PGN export `GET /games/{id}.pgn`.

use std::collections::HashMap;

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};
use tokio::sync::oneshot;

use crate::error::ApiError;
use crate::game::room::RoomCommand;
use crate::game::view::Seat;
use crate::http::extract::PathParams;
use crate::state::AppState;
use crate::store::{PlayerRow, StoreError, StoredGame};
use crate::ws::protocol::echo::quoted;

/// `GET /api/games/{id}`: `GameSummary` with `moves` and `fen`.
pub async fn game(
    State(state): State<AppState>,
    PathParams(id): PathParams<String>,
) -> Result<Response, ApiError> {
    for _ in 0..2 {
        let Some(room) = state
            .rooms
            .get(&state, &id)
            .await
            .map_err(|e| ApiError::Internal(e.to_string()))?
        else {
            return Err(ApiError::NotFound(format!("game {}", quoted(&id))));
        };
        let (reply, answer) = oneshot::channel();
        if room.send(RoomCommand::Summary { reply }).is_err() {
            continue; // the room stopped meanwhile: load it again
        }
        if let Ok((mut summary, moves, fen)) = answer.await {
            summary["moves"] = json!(moves);
            summary["fen"] = json!(fen);
            return Ok(Json(summary).into_response());
        }
    }
    Err(ApiError::Internal(format!(
        "game {id}: the room did not answer"
    )))
}

/// `GameSummary` of a stored game (`players` caches the rows looked up).
pub async fn stored_summary(
    state: &AppState,
    stored: &StoredGame,
    players: &mut HashMap<String, PlayerRow>,
) -> Result<Value, StoreError> {
    let row = &stored.game;
    for id in [&row.red, &row.black] {
        if Seat::engine_level(id).is_none() && !players.contains_key(id) {
            if let Some(p) = state.store.player(id).await? {
                players.insert(id.clone(), p);
            }
        }
    }
    let moves = stored.events.iter().filter(|e| e.kind == "move").count();
    let (status, result, reason, ply) = match &stored.ending {
        Some(e) => (
            e.status.as_str(),
            e.result.as_str(),
            Some(e.reason.as_str()),
            e.ply as usize,
        ),
        None => ("playing", "*", None, moves),
    };
    Ok(json!({
        "id": row.id, "red": Seat::stored(&row.red, players.get(&row.red)).to_json(),
        "black": Seat::stored(&row.black, players.get(&row.black)).to_json(), "tc": row.time_control,
        "rated": row.rated, "rules": row.rules, "status": status, "result": result,
        "reason": reason, "started_at": row.started_at, "ply": ply,
    }))
}

/// `GET /games/{id}`: the game page; `GET /games/{id}.pgn`: its PGN.
pub async fn page_or_pgn(
    State(state): State<AppState>,
    PathParams(file): PathParams<String>,
) -> Result<Response, ApiError> {
    let Some(id) = file.strip_suffix(".pgn") else {
        return Ok(crate::http::assets::index().await);
    };
    let pgn = stored_pgn(&state, id).await?;
    let disposition = format!("inline; filename=\"{id}.pgn\"");
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "application/x-chess-pgn; charset=utf-8".to_string(),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        pgn,
    )
        .into_response())
}

/// The PGN export of stored game `id` (with `[%clk]` and the ratings before it).
pub async fn stored_pgn(state: &AppState, id: &str) -> Result<String, ApiError> {
    let Some(stored) = state.store.game(id).await? else {
        return Err(ApiError::NotFound(format!("game {}", quoted(id))));
    };
    let row = &stored.game;
    let red = state.store.player(&row.red).await?;
    let black = state.store.player(&row.black).await?;
    let mut before = None;
    if row.rated {
        let of = |history: Vec<crate::store::RatingChangeRow>| {
            history
                .into_iter()
                .find(|c| c.game == row.id)
                .map(|c| c.before)
        };
        let red_before = of(state.store.rating_history(&row.red).await?);
        let black_before = of(state.store.rating_history(&row.black).await?);
        before = red_before.zip(black_before);
    }
    let pgn = crate::export::game_pgn(&stored, red.as_ref(), black.as_ref(), before)?;
    Ok(pgn)
}
