//! The puzzle endpoints (docs/server.md, "Puzzles"): `GET /api/puzzles`
//! (the set's size and the player's standing), `POST /api/puzzles/next`
//! (a puzzle near the player's rating, without its solution), `POST
//! /api/puzzles/attempts/{id}/move` (one move, judged by the server) and
//! `POST /api/puzzles/attempts/{id}/solution` (given up: a loss). Every
//! one needs a session (a guest plays unrated) and is counted against the
//! player's request rate.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::error::ApiError;
use crate::http::auth::current_player;
use crate::http::extract::{JsonBody, PathParams};
use crate::puzzles::{MoveAnswer, Outcome, PlayError, PlayerStanding};
use crate::state::AppState;
use crate::store::PlayerRow;
use xiangqi_server_protocol::echo::quoted;

fn standing_json(standing: &PlayerStanding) -> Value {
    let rating = standing.rating.map(|r| {
        json!({
            "rating": r.rating.round(),
            "deviation": r.deviation.round(),
            // As rating sites mark a rating that is still a guess.
            "provisional": r.deviation > 110.0,
        })
    });
    json!({
        "rating": rating,
        "streak": standing.streak,
        "best_streak": standing.best_streak,
        "solved": standing.solved,
        "failed": standing.failed,
    })
}

fn refusal(error: PlayError) -> ApiError {
    match error {
        PlayError::Store(e) => e.into(),
        PlayError::NoPuzzle => ApiError::NotFound("puzzle on this server".into()),
        PlayError::NotFound(id) => ApiError::NotFound(format!("puzzle attempt {}", quoted(&id))),
        PlayError::Over(outcome) => ApiError::Conflict(
            "puzzle_over",
            format!("this puzzle is over ({outcome}); ask for the next one"),
        ),
        e @ PlayError::Stale => ApiError::Conflict("puzzle_moved_on", e.to_string()),
        PlayError::BadMove(message) => ApiError::BadInput("bad_move", message),
        PlayError::Illegal(message) => ApiError::BadInput("illegal_move", message),
    }
}

/// The session's player, within their rate of puzzle requests.
async fn player(state: &AppState, headers: &HeaderMap) -> Result<PlayerRow, ApiError> {
    let player = current_player(state, headers)
        .await?
        .ok_or(ApiError::NotSignedIn)?;
    if let Err(wait) = state.puzzles.throttle.check(&player.id) {
        let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
        return Err(ApiError::TooMany(
            "rate_limited",
            format!(
                "too many puzzle requests; try again in {} s",
                seconds.max(1)
            ),
            wait,
        ));
    }
    Ok(player)
}

/// `GET /api/puzzles`: `{puzzles, me}`, `me` null without a session.
pub async fn overview(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let me = match current_player(&state, &headers).await? {
        Some(player) => Some(standing_json(
            &state.puzzles.standing(&state.store, &player).await?,
        )),
        None => None,
    };
    Ok(Json(json!({"puzzles": state.puzzles.len(), "me": me})))
}

/// `POST /api/puzzles/next`: `{attempt, puzzle: {id, fen, rating, themes,
/// moves, source}, counts, me}`.
pub async fn next(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let player = player(&state, &headers).await?;
    let served = state
        .puzzles
        .next(&state.store, &player, state.clock.unix_ms())
        .await
        .map_err(refusal)?;
    let p = &served.puzzle;
    Ok(Json(json!({
        "attempt": served.attempt,
        "puzzle": {
            "id": p.id,
            "fen": p.fen,
            "rating": served.rating.round(),
            "themes": p.themes,
            "moves": p.solver_moves(),
            "source": p.source,
        },
        "legal": served.legal,
        "counts": served.counts,
        "me": standing_json(&served.standing),
    })))
}

/// A move in ICCS.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveBody {
    #[serde(rename = "move")]
    mv: String,
}

fn answer_json(answer: &MoveAnswer) -> Value {
    let (result, reply) = match &answer.outcome {
        Outcome::Right { reply } => ("right", Some(reply.to_string())),
        Outcome::Solved => ("solved", None),
        Outcome::Failed => ("failed", None),
        Outcome::Shown => ("shown", None),
    };
    json!({
        "result": result,
        "reply": reply,
        "ply": answer.ply,
        "fen": answer.position.as_ref().map(|(fen, _)| fen),
        "legal": answer.position.as_ref().map(|(_, legal)| legal),
        "solution": answer.solution,
        "rating_change": answer.rating_change.map(|(before, after)| json!({
            "before": before.round(), "after": after.round(),
        })),
        "me": standing_json(&answer.standing),
    })
}

/// `POST /api/puzzles/attempts/{id}/move` with `{"move": "b0b5"}`:
/// `{result: right|solved|failed, reply, ply, solution, rating_change, me}`;
/// the solution only once the attempt is over.
pub async fn play(
    State(state): State<AppState>,
    headers: HeaderMap,
    PathParams(id): PathParams<String>,
    JsonBody(body): JsonBody<MoveBody>,
) -> Result<Json<Value>, ApiError> {
    let player = player(&state, &headers).await?;
    let answer = state
        .puzzles
        .play(&state.store, &player, &id, &body.mv, state.clock.unix_ms())
        .await
        .map_err(refusal)?;
    Ok(Json(answer_json(&answer)))
}

/// `POST /api/puzzles/attempts/{id}/solution`: the solution; the attempt
/// is lost.
pub async fn solution(
    State(state): State<AppState>,
    headers: HeaderMap,
    PathParams(id): PathParams<String>,
) -> Result<Json<Value>, ApiError> {
    let player = player(&state, &headers).await?;
    let answer = state
        .puzzles
        .show(&state.store, &player, &id, state.clock.unix_ms())
        .await
        .map_err(refusal)?;
    Ok(Json(answer_json(&answer)))
}
