//! `GET /api/explorer?fen=FEN`: the opening explorer's table for a position
//! (`xiangqi serve --explorer FILE`), the moves in the session player's
//! notation. The query runs on a blocking thread.

use std::collections::HashMap;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};
use xiangqi_core::Position;
use xiangqi_explorer::PositionStats;

use crate::error::ApiError;
use crate::http::auth::current_player;
use crate::notation_setting::NotationSetting;
use crate::state::AppState;

pub async fn explorer(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Some(explorer) = state.explorer.clone() else {
        return Err(ApiError::NotFound("opening explorer on this server".into()));
    };
    let Query(params) = query.map_err(|e| ApiError::BadInput("bad_query", e.body_text()))?;
    let position = match params.get("fen") {
        None => Position::startpos(),
        Some(fen) => Position::from_fen(fen)
            .map_err(|e| ApiError::BadInput("bad_fen", format!("cannot read fen: {e}")))?,
    };
    let notation = current_player(&state, &headers)
        .await?
        .and_then(|p| NotationSetting::parse(&p.notation))
        .unwrap_or_default();
    let asked = position.clone();
    let stats = tokio::task::spawn_blocking(move || explorer.query(&asked))
        .await
        .map_err(|e| ApiError::Internal(format!("explorer query: {e}")))?
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(Json(table(&position, &stats, notation)).into_response())
}

/// The table as the web client reads it.
fn table(position: &Position, stats: &PositionStats, notation: NotationSetting) -> Value {
    let side = position.side_to_move();
    let moves: Vec<Value> = stats
        .moves
        .iter()
        .map(|m| {
            let example = m.examples.first().map(|g| {
                json!({
                    "red": g.red, "black": g.black, "event": g.event, "date": g.date,
                    "result": g.result.map(|r| r.as_str()), "file": g.file, "index": g.index,
                })
            });
            json!({
                "move": m.mv.to_string(),
                "text": notation.move_text(position, m.mv),
                "games": m.results.games,
                "red_wins": m.results.red_wins,
                "draws": m.results.draws,
                "black_wins": m.results.black_wins,
                "score": m.results.score(side),
                "mean_rating": m.mean_rating,
                "example": example,
            })
        })
        .collect();
    json!({
        "fen": position.to_fen(),
        "side_to_move": side.name(),
        "games": stats.total.games,
        "score": stats.total.score(side),
        "moves": moves,
    })
}
