//! `GET /api/explorer?fen=FEN`: the opening explorer's table for a position
//! (`xiangqi serve --explorer FILE`), as the viewer's table
//! (`xiangqi_viewer::ExplorerTable`: each move in every notation, so the
//! page shows the reader's). The query runs on a blocking thread.

use std::collections::HashMap;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::response::{IntoResponse, Response};
use axum::Json;
use xiangqi_core::Position;

use crate::error::ApiError;
use crate::state::AppState;

pub async fn explorer(
    State(state): State<AppState>,
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
    let asked = position.clone();
    let stats = tokio::task::spawn_blocking(move || explorer.query(&asked))
        .await
        .map_err(|e| ApiError::Internal(format!("explorer query: {e}")))?
        .map_err(|e| ApiError::Internal(e.to_string()))?;
    Ok(Json(xiangqi_viewer::explorer_table(&position, &stats)).into_response())
}
