//! `GET /api/players/{name}`: a player's public face, rating history and
//! games, newest first, each with its ECCO code, a page of
//! [`GAMES_PER_PAGE`] at a time (`?page=2`), filtered by `?ecco=C2` (the
//! games whose code starts with `C2`: a code, or its letter and first
//! digit), `?result=win|loss|draw|playing` (from this player's side),
//! `?rated=true|false` and `?opponent=NAME`.

use std::collections::HashMap;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::Json;
use serde_json::{json, Value};

use crate::error::ApiError;
use crate::http::extract::PathParams;
use crate::http::games::stored_summary;
use crate::state::AppState;
use crate::store::{CodePrefix, GameFilter, ResultFilter};
use xiangqi_server_protocol::echo::quoted;

/// Games on a page.
pub const GAMES_PER_PAGE: i64 = 50;
/// Rating changes listed at most.
const HISTORY_LISTED: usize = 100;
/// Pages beyond this are refused (the offset stays cheap).
const MAX_PAGE: i64 = 1_000;

fn bad(code: &'static str, message: String) -> ApiError {
    ApiError::BadInput(code, message)
}

/// The filters and page of the query.
async fn read_filters(
    state: &AppState,
    params: &HashMap<String, String>,
) -> Result<(GameFilter, i64, Option<String>), ApiError> {
    let given = |key: &str| {
        params
            .get(key)
            .map(String::as_str)
            .filter(|v| !v.is_empty())
    };
    let mut filter = GameFilter::default();
    if let Some(text) = given("result") {
        filter.result = Some(ResultFilter::parse(text).ok_or_else(|| {
            bad(
                "bad_result",
                format!("result filter {}: win, loss, draw or playing", quoted(text)),
            )
        })?);
    }
    if let Some(text) = given("rated") {
        filter.rated = Some(match text {
            "true" => true,
            "false" => false,
            _ => {
                return Err(bad(
                    "bad_rated",
                    format!("rated filter {}: true or false", quoted(text)),
                ))
            }
        });
    }
    let mut opponent_name = None;
    if let Some(name) = given("opponent") {
        // An unknown opponent is a filter nothing matches, not an error:
        // the page shows "no games".
        let id = match state.store.player_by_name(name).await? {
            Some(opponent) => {
                opponent_name = Some(opponent.name);
                opponent.id
            }
            None => String::new(),
        };
        filter.opponent = Some(id);
    }
    let page = match given("page") {
        None => 1,
        Some(text) => text
            .parse::<i64>()
            .ok()
            .filter(|page| (1..=MAX_PAGE).contains(page))
            .ok_or_else(|| {
                bad(
                    "bad_page",
                    format!("page {}: a number from 1 to {MAX_PAGE}", quoted(text)),
                )
            })?,
    };
    Ok((filter, page, opponent_name))
}

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
    let (mut filter, page, opponent) = read_filters(&state, &params).await?;
    filter.ecco = ecco.clone();
    let Some(player) = state.store.player_by_name(&name).await? else {
        return Err(ApiError::NotFound(format!("player {}", quoted(&name))));
    };
    // A bot's rating is the bot pool's, and so is its history.
    let changes = if player.bot {
        state.store.bot_rating_history(&player.id).await?
    } else {
        state.store.rating_history(&player.id).await?
    };
    let history: Vec<Value> = changes
        .into_iter()
        .take(HISTORY_LISTED)
        .map(|c| json!({"game": c.game, "at": c.at, "before": c.before, "after": c.after}))
        .collect();
    let mut players = HashMap::from([(player.id.clone(), player.clone())]);
    let mut games = Vec::new();
    // One more than a page says whether there is a next one.
    let offset = (page - 1) * GAMES_PER_PAGE;
    let mut found = state
        .store
        .games_filtered(&player.id, &filter, GAMES_PER_PAGE + 1, offset)
        .await?;
    let more = found.len() as i64 > GAMES_PER_PAGE;
    found.truncate(GAMES_PER_PAGE as usize);
    for stored in found {
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
    // A person's rating in the bot pool, once they have one (a bot's own
    // rating already is that pool's).
    let bot_rating = if player.bot { None } else { player.bot_rating };
    let public = crate::game::view::Seat::from(player.clone()).to_public();
    Ok(Json(
        json!({"player": public, "bot_rating": bot_rating, "history": history, "games": games,
               "ecco": ecco.as_ref().map(CodePrefix::as_str),
               "result": filter.result.map(ResultFilter::as_str),
               "rated": filter.rated,
               "opponent": opponent.or_else(|| params.get("opponent").cloned().filter(|o| !o.is_empty())),
               "page": page, "more": more}),
    ))
}
