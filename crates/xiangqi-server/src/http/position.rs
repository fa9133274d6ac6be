//! `POST /api/position`: the analysis board's position checked by the rules
//! core (`analysis::position`), the board's only source of rules. A FEN
//! that is no position is a normal state of a board being set up, so it is
//! answered `200` with `valid: false` and what is wrong; moves that cannot
//! be played (the board sends only moves it was given as legal) are `400`.
//! Each address is limited to [`POSITION_CHECKS`](crate::analysis::POSITION_CHECKS).

use axum::extract::State;
use axum::http::HeaderMap;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::analysis::position::{
    check, legal_moves, line_text, problem_json, problems, read_diagram, Refusal,
};
use crate::error::ApiError;
use crate::http::auth::current_player;
use crate::http::extract::JsonBody;
use crate::notation_setting::NotationSetting;
use crate::security::Client;
use crate::state::AppState;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionBody {
    fen: String,
    #[serde(default)]
    moves: Vec<String>,
}

fn side(color: xiangqi_core::Color) -> &'static str {
    match color {
        xiangqi_core::Color::Red => "red",
        xiangqi_core::Color::Black => "black",
    }
}

/// Each problem as `{problem, message, …args}`.
fn problem_list(problems: &[xiangqi_core::FenError]) -> Vec<Value> {
    problems
        .iter()
        .map(|p| {
            let mut value = problem_json(p);
            value["message"] = json!(p.to_string());
            value
        })
        .collect()
}

fn refused(refusal: Refusal) -> ApiError {
    ApiError::BadInput(refusal.code, refusal.message)
}

pub async fn position(
    State(state): State<AppState>,
    client: Client,
    headers: HeaderMap,
    JsonBody(body): JsonBody<PositionBody>,
) -> Result<Json<Value>, ApiError> {
    if let Err(wait) = state.analyses.checks.check(&client.address) {
        let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
        return Err(ApiError::TooMany(
            "rate_limited",
            format!(
                "too many position checks; try again in {} s",
                seconds.max(1)
            ),
            wait,
        ));
    }
    let notation = current_player(&state, &headers)
        .await?
        .and_then(|p| NotationSetting::parse(&p.notation))
        .unwrap_or_default();
    let diagram = match read_diagram(&body.fen) {
        Ok(diagram) => diagram,
        Err(refusal) => {
            let problem = refusal.args.unwrap_or_else(|| json!({}));
            let mut problem = problem;
            problem["message"] = json!(refusal.message);
            return Ok(Json(json!({ "valid": false, "problems": [problem] })));
        }
    };
    let wrong = problems(&diagram);
    if !wrong.is_empty() {
        return Ok(Json(json!({
            "valid": false,
            "fen": diagram.to_fen(),
            "side": side(diagram.side_to_move()),
            "problems": problem_list(&wrong),
        })));
    }
    let checked = check(&body.fen, &body.moves).map_err(refused)?;
    let texts = line_text(&checked.start, &checked.moves, notation);
    let moves: Vec<Value> = checked
        .moves
        .iter()
        .zip(texts)
        .map(|(mv, text)| json!({ "iccs": mv.to_string(), "text": text }))
        .collect();
    let end = &checked.end;
    Ok(Json(json!({
        "valid": true,
        "fen": checked.start.to_fen(),
        "moves": moves,
        "end_fen": end.to_fen(),
        "side": side(end.side_to_move()),
        "check": end.is_check(),
        "legal": legal_moves(end),
    })))
}
