//! `GET /api/games/{id}` and the SPA paths under `/games/`, including the
//! PGN export `GET /games/{id}.pgn`.

use std::collections::HashMap;

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use tokio::sync::oneshot;
use xiangqi_gamefile::Game;

use crate::error::ApiError;
use crate::game::room::RoomCommand;
use crate::game::view::Seat;
use crate::http::extract::PathParams;
use crate::state::AppState;
use crate::store::{PlayerRow, StoreError, StoredGame};
use xiangqi_server_protocol::echo::quoted;
use xiangqi_server_protocol::server::GameSummary;

/// `GET /api/games/{id}`'s body: the summary, the moves (ICCS) and the
/// position now.
#[derive(Serialize)]
struct GameDetail {
    #[serde(flatten)]
    summary: GameSummary,
    moves: Vec<String>,
    fen: String,
}

/// `GET /api/games/{id}`: `GameSummary` with `moves` and `fen`.
pub async fn game(
    State(state): State<AppState>,
    PathParams(id): PathParams<String>,
) -> Result<Response, ApiError> {
    for _ in 0..2 {
        let Some(room) = state
            .rooms
            .get(&state.room_ports, &id)
            .await
            .map_err(|e| ApiError::Internal(e.to_string()))?
        else {
            return Err(ApiError::NotFound(format!("game {}", quoted(&id))));
        };
        let (reply, answer) = oneshot::channel();
        if room.send(RoomCommand::Summary { reply }).is_err() {
            continue; // the room stopped meanwhile: load it again
        }
        if let Ok((summary, moves, fen)) = answer.await {
            let detail = GameDetail {
                summary,
                moves,
                fen,
            };
            return Ok(Json(detail).into_response());
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
) -> Result<GameSummary, StoreError> {
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
    let red = Seat::stored(&row.red, players.get(&row.red));
    let black = Seat::stored(&row.black, players.get(&row.black));
    Ok(GameSummary {
        bot: red.is_bot() || black.is_bot(),
        id: row.id.clone(),
        red: red.to_public(),
        black: black.to_public(),
        tc: row.time_control.clone(),
        rated: row.rated,
        rules: row.rules.clone(),
        status: status.to_string(),
        result: result.to_string(),
        reason: reason.map(str::to_string),
        started_at: row.started_at,
        ply: ply as u32,
    })
}

/// `GET /games/{id}`: the game page; `GET /games/{id}.pgn`: its PGN.
pub async fn page_or_pgn(
    State(state): State<AppState>,
    PathParams(file): PathParams<String>,
    request: axum::http::HeaderMap,
) -> Result<Response, ApiError> {
    let Some(id) = file.strip_suffix(".pgn") else {
        return Ok(crate::http::assets::index(request).await);
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
    let parts = ExportParts::read(state, id).await?;
    Ok(crate::export::game_pgn(
        &parts.stored,
        parts.red.as_ref(),
        parts.black.as_ref(),
        parts.ratings_before,
    )?)
}

/// Stored game `id` as a value: the record its PGN export writes.
pub async fn stored_game_record(state: &AppState, id: &str) -> Result<Game, ApiError> {
    let parts = ExportParts::read(state, id).await?;
    Ok(crate::export::export_game(
        &parts.stored,
        parts.red.as_ref(),
        parts.black.as_ref(),
        parts.ratings_before,
    )?)
}

/// What a stored game's export is made of.
struct ExportParts {
    stored: StoredGame,
    red: Option<PlayerRow>,
    black: Option<PlayerRow>,
    /// Red's and Black's ratings before a rated game.
    ratings_before: Option<(i32, i32)>,
}

impl ExportParts {
    async fn read(state: &AppState, id: &str) -> Result<ExportParts, ApiError> {
        let Some(stored) = state.store.game(id).await? else {
            return Err(ApiError::NotFound(format!("game {}", quoted(id))));
        };
        let row = &stored.game;
        let red = state.store.player(&row.red).await?;
        let black = state.store.player(&row.black).await?;
        let mut ratings_before = None;
        if row.rated {
            let of = |history: Vec<crate::store::RatingChangeRow>| {
                history
                    .into_iter()
                    .find(|c| c.game == row.id)
                    .map(|c| c.before)
            };
            // A bot game was rated in the bot pool.
            let bot_game = state.store.is_bot_game(&row.id).await? == Some(true);
            let history = |id: String| async move {
                if bot_game {
                    state.store.bot_rating_history(&id).await
                } else {
                    state.store.rating_history(&id).await
                }
            };
            let red_before = of(history(row.red.clone()).await?);
            let black_before = of(history(row.black.clone()).await?);
            ratings_before = red_before.zip(black_before);
        }
        Ok(ExportParts {
            stored,
            red,
            black,
            ratings_before,
        })
    }
}
