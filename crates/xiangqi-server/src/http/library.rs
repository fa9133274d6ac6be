//! A player's library of imported games (docs/server.md, "Library"):
//! `POST /api/library/import?name=FILE` (the file's bytes as the body, up
//! to [`MAX_IMPORT_BYTES`]; read by `xiangqi-gamefile` in
//! [`crate::library`], never here), `GET /api/library` (a page of the
//! list, filtered), `GET /api/library/{id}/viewer` and `POST
//! /api/library/{id}/annotate` (the game viewer and the engine's review,
//! shared with played games in [`crate::http::review`]) and `DELETE
//! /api/library/{id}`. Accounts only: a guest's library would vanish with
//! the guest. Another player's game is answered as no game at all.

use std::collections::HashMap;

use axum::body::Body;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::header::CONTENT_LENGTH;
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use serde_json::{json, Value};
use xiangqi_ecco::Opening;
use xiangqi_gamefile::pgn::read_str;
use xiangqi_gamefile::Game;

use crate::error::ApiError;
use crate::http::auth::current_player;
use crate::http::extract::PathParams;
use crate::http::review::{start_review, viewer_answer, ReviewState};
use crate::library::import::{import, Imported};
use crate::library::{GAMES_PER_PAGE, MAX_GAMES_PER_IMPORT, MAX_IMPORT_BYTES, MAX_LIBRARY_GAMES};
use crate::notation_setting::NotationSetting;
use crate::review::Reviewed;
use crate::state::AppState;
use crate::store::{LibraryFilter, LibraryGameRow, PlayerRow};
use xiangqi_server_protocol::echo::quoted;

/// Pages beyond this are refused (the offset stays cheap).
const MAX_PAGE: usize = MAX_LIBRARY_GAMES.div_ceil(GAMES_PER_PAGE) + 1;
/// The longest file name kept.
const MAX_NAME_CHARS: usize = 200;

/// The session's player, who must have an account.
async fn account(state: &AppState, headers: &HeaderMap) -> Result<PlayerRow, ApiError> {
    let player = current_player(state, headers)
        .await?
        .ok_or(ApiError::NotSignedIn)?;
    if player.guest {
        return Err(ApiError::BadBody(
            StatusCode::FORBIDDEN,
            "account_required",
            "a library needs an account: register or sign in".into(),
        ));
    }
    Ok(player)
}

fn too_large() -> ApiError {
    ApiError::BadBody(
        StatusCode::PAYLOAD_TOO_LARGE,
        "too_large",
        format!(
            "the file is larger than {} MiB",
            MAX_IMPORT_BYTES / (1024 * 1024)
        ),
    )
}

fn query_params(
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> Result<HashMap<String, String>, ApiError> {
    let Query(params) = query.map_err(|e| ApiError::BadInput("bad_query", e.body_text()))?;
    Ok(params)
}

/// The file's name as given, printable and cut; `pasted` when none.
fn file_name(params: &HashMap<String, String>) -> String {
    let name: String = params
        .get("name")
        .map(|n| n.trim())
        .unwrap_or("")
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_NAME_CHARS)
        .collect();
    if name.is_empty() {
        "pasted".into()
    } else {
        name
    }
}

/// `POST /api/library/import?name=FILE`: the body is the file. `200` with
/// the report: the games stored, the games that could not be read (each by
/// its number in the file), the games past the caps.
pub async fn import_file(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
    body: Body,
) -> Result<Json<Value>, ApiError> {
    let params = query_params(query)?;
    let player = account(&state, &headers).await?;
    // Refused before a byte of the body is read.
    let claimed = headers
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if claimed.is_some_and(|n| n > MAX_IMPORT_BYTES as u64) {
        return Err(too_large());
    }
    if let Err(wait) = state.library.throttle.check(&player.id) {
        return Err(ApiError::TooMany(
            "rate_limited",
            "too many imports; try again later".into(),
            wait,
        ));
    }
    let bytes = axum::body::to_bytes(body, MAX_IMPORT_BYTES)
        .await
        .map_err(|_| too_large())?;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ApiError::BadInput(
            "empty_import",
            "nothing to import: the file or text is empty".into(),
        ));
    }
    // Reading is CPU work on a blocking thread: a few at once.
    let Ok(_reading) = state.library.running.try_acquire() else {
        return Err(ApiError::Overloaded(
            "the server is reading other imports; try again in a few seconds".into(),
            std::time::Duration::from_secs(5),
        ));
    };
    let name = file_name(&params);
    let now = state.clock.unix_ms();
    let imported = import(&state.store, &player.id, &name, bytes.to_vec(), now).await?;
    Ok(Json(report(&name, &imported)))
}

fn report(name: &str, imported: &Imported) -> Value {
    let file = &imported.file;
    let games: Vec<Value> = file
        .games
        .iter()
        .zip(&imported.ids)
        .map(|(game, id)| {
            json!({
                "id": id,
                "index": game.index,
                "red": game.red,
                "black": game.black,
                "result": game.result,
                "warning": game.warning,
            })
        })
        .collect();
    let errors: Vec<Value> = file
        .errors
        .iter()
        .map(|e| json!({ "index": e.index, "message": e.message }))
        .collect();
    let not_imported = file.over_room.map(|(first, last)| {
        let (reason, limit) = match imported.library_full {
            true => ("library_full", MAX_LIBRARY_GAMES),
            false => ("import_cap", MAX_GAMES_PER_IMPORT),
        };
        json!({ "first": first, "last": last, "reason": reason, "limit": limit })
    });
    json!({
        "batch": imported.batch,
        "name": name,
        "format": file.format,
        "encoding": file.encoding,
        "imported": file.games.len(),
        "failed": file.failed(),
        "games": games,
        "errors": errors,
        "errors_unlisted": file.errors_unlisted,
        "not_imported": not_imported,
        "notes": file.notes,
        "headings_skipped": file.headings_skipped,
    })
}

/// The name of ECCO code `code` for a reader of `notation` (as a played
/// game's opening is named); the stored simplified name for a code this
/// build does not know.
fn opening_name(code: &str, stored: Option<&str>, notation: NotationSetting) -> Option<String> {
    let Some(known) = xiangqi_ecco::code(code) else {
        return stored.map(str::to_owned);
    };
    let opening = Opening {
        code: known.code,
        name: known.name,
        name_traditional: known.name_traditional,
        name_en: known.name_en,
        ply: 0,
    };
    Some(notation.opening_name(&opening).to_owned())
}

/// A game of the list, its opening named for a reader of `notation`.
fn summary(game: &LibraryGameRow, notation: NotationSetting) -> Value {
    let opening = game
        .ecco
        .as_deref()
        .and_then(|code| opening_name(code, game.opening.as_deref(), notation));
    json!({
        "id": game.id,
        "batch": game.batch,
        "name": game.source_name,
        "format": game.source_format,
        "index": game.source_index,
        "red": game.red,
        "black": game.black,
        "event": game.event,
        "date": game.date,
        "result": game.result,
        "ecco": game.ecco,
        "opening": opening,
        "plies": game.plies,
        "imported_at": game.created_at,
    })
}

/// `GET /api/library?page=N&player=TEXT&batch=ID`: `{games, total, page,
/// per_page, size, limit}`, newest import first; `size` is the whole
/// library's, `total` what matches.
pub async fn list(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: Result<Query<HashMap<String, String>>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let params = query_params(query)?;
    let player = account(&state, &headers).await?;
    let page = match params.get("page") {
        None => 1,
        Some(text) => text
            .parse::<usize>()
            .ok()
            .filter(|p| (1..=MAX_PAGE).contains(p))
            .ok_or_else(|| {
                ApiError::BadInput(
                    "bad_page",
                    format!("page {}: a number from 1 to {MAX_PAGE}", quoted(text)),
                )
            })?,
    };
    let text = |key: &str| {
        params
            .get(key)
            .map(|v| v.trim().chars().take(MAX_NAME_CHARS).collect::<String>())
            .filter(|v| !v.is_empty())
    };
    let filter = LibraryFilter {
        player: text("player"),
        batch: text("batch"),
    };
    let per_page = GAMES_PER_PAGE as i64;
    let offset = (page as i64 - 1) * per_page;
    let (total, games) = state
        .store
        .library_page(&player.id, &filter, per_page, offset)
        .await?;
    let size = match filter == LibraryFilter::default() {
        true => total,
        false => state.store.library_count(&player.id).await?,
    };
    Ok(Json(json!({
        "games": games.iter().map(|g| summary(g, notation_of(&player))).collect::<Vec<_>>(),
        "total": total,
        "page": page,
        "per_page": GAMES_PER_PAGE,
        "size": size,
        "limit": MAX_LIBRARY_GAMES,
    })))
}

fn notation_of(player: &PlayerRow) -> NotationSetting {
    NotationSetting::parse(&player.notation).unwrap_or(NotationSetting::Coordinate)
}

fn no_such_game(id: &str) -> ApiError {
    ApiError::NotFound(format!("imported game {}", quoted(id)))
}

/// The stored game as the gamefile crate reads it back.
fn record(game: &LibraryGameRow) -> Result<Game, ApiError> {
    read_str(&game.pgn)
        .next()
        .ok_or_else(|| ApiError::Internal(format!("imported game {} holds no game", game.id)))?
        .map_err(|e| ApiError::Internal(format!("imported game {}: {e}", game.id)))
}

/// `GET /api/library/{id}/viewer`: `{summary, game, annotation}` as for a
/// played game's viewer.
pub async fn viewer(
    State(state): State<AppState>,
    headers: HeaderMap,
    PathParams(id): PathParams<String>,
) -> Result<Json<Value>, ApiError> {
    let player = account(&state, &headers).await?;
    let (game, review) = state
        .store
        .library_game(&player.id, &id)
        .await?
        .ok_or_else(|| no_such_game(&id))?;
    let review = match review {
        _ if state.reviews.is_running(&Reviewed::Imported(id.clone())) => ReviewState::Running,
        Some(r) => ReviewState::Stored {
            pgn: r.pgn,
            error: r.error,
        },
        None => ReviewState::None,
    };
    let mut answer = viewer_answer(record(&game)?, review)?;
    answer["summary"] = summary(&game, notation_of(&player));
    Ok(Json(answer))
}

/// `POST /api/library/{id}/annotate`: starts the engine's review; `202`.
pub async fn annotate(
    State(state): State<AppState>,
    headers: HeaderMap,
    PathParams(id): PathParams<String>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let player = account(&state, &headers).await?;
    let (game, _) = state
        .store
        .library_game(&player.id, &id)
        .await?
        .ok_or_else(|| no_such_game(&id))?;
    start_review(&state, Reviewed::Imported(id), record(&game)?, &player.id)
}

/// `DELETE /api/library/{id}`: `204`.
pub async fn delete(
    State(state): State<AppState>,
    headers: HeaderMap,
    PathParams(id): PathParams<String>,
) -> Result<StatusCode, ApiError> {
    let player = account(&state, &headers).await?;
    match state.store.delete_library_game(&player.id, &id).await? {
        true => Ok(StatusCode::NO_CONTENT),
        false => Err(no_such_game(&id)),
    }
}
