//! The bot API's endpoints (`docs/server.md`, "Bots"): a player's API
//! tokens (session cookie), and the Bearer endpoints of bots: the upgrade,
//! the event stream, challenges, a game's stream and its actions. The
//! actions go to the game's room as a socket's do; nothing here decides
//! what a player may do in a game.

use std::time::Duration;

use axum::extract::State;
use axum::http::header::AUTHORIZATION;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use tokio::sync::oneshot;

use crate::bots::challenges::OpenChallenge;
use crate::bots::tokens::{new_secret, Bearer, MAX_DESCRIPTION_CHARS};
use crate::bots::{announce_start, events, game_stream, ndjson, player_info};
use crate::error::ApiError;
use crate::game::lobby::{seat_colors, start_game};
use crate::game::room::{Action, ActionError, RoomCommand};
use crate::game::view::Seat;
use crate::game::{RoomGone, RoomHandle};
use crate::http::auth::current_player;
use crate::http::extract::{JsonBody, PathParams};
use crate::ids::{new_id, token_hash};
use crate::rules::seek_preset;
use crate::state::AppState;
use crate::store::{PlayerRow, TokenRow};
use crate::time_control::offered_time_control;
use xiangqi_server_protocol::bot::{
    BotEvent, Challenge, ChallengeCreated, ChallengeRequest, ChatRequest, DeclineRequest, OkAnswer,
    OnlineBot, OnlineBots, TokenCreated, TokenInfo, TokenList, TokenRequest, CHALLENGE_LAPSE_SECS,
    MAX_TOKENS_PER_PLAYER,
};
use xiangqi_server_protocol::echo::quoted;
use xiangqi_server_protocol::server::ServerMessage;

fn ok() -> Json<OkAnswer> {
    Json(OkAnswer { ok: true })
}

/// The registered player of the session (tokens are for accounts).
async fn account(state: &AppState, headers: &HeaderMap) -> Result<PlayerRow, ApiError> {
    let Some(player) = current_player(state, headers).await? else {
        return Err(ApiError::NotSignedIn);
    };
    if player.guest {
        return Err(ApiError::Forbidden(
            "API tokens are for accounts: register first".into(),
        ));
    }
    Ok(player)
}

/// Bots play on a single server: a cluster's nodes do not share event
/// streams or challenges (`docs/server.md`, "Bots in a cluster").
fn single_node(state: &AppState) -> Result<(), ApiError> {
    if state.cluster.is_some() {
        return Err(ApiError::BadBody(
            StatusCode::SERVICE_UNAVAILABLE,
            "unavailable",
            "bots are not available on a server running as a cluster (--bus)".into(),
        ));
    }
    Ok(())
}

/// `POST /api/account/tokens`.
pub async fn create_token(
    State(state): State<AppState>,
    headers: HeaderMap,
    JsonBody(request): JsonBody<TokenRequest>,
) -> Result<Response, ApiError> {
    let player = account(&state, &headers).await?;
    let description = request.description.trim();
    if description.chars().count() > MAX_DESCRIPTION_CHARS {
        return Err(ApiError::BadInput(
            "description_too_long",
            format!("a token's description has at most {MAX_DESCRIPTION_CHARS} characters"),
        ));
    }
    let secret = new_secret();
    let row = TokenRow {
        id: new_id("t"),
        player: player.id.clone(),
        description: description.to_string(),
        created_at: state.clock.unix_ms(),
        last_used_at: None,
    };
    if !state
        .store
        .insert_token(&row, &token_hash(&secret), MAX_TOKENS_PER_PLAYER)
        .await?
    {
        return Err(ApiError::Conflict(
            "too_many_tokens",
            format!("a player holds at most {MAX_TOKENS_PER_PLAYER} tokens: revoke one first"),
        ));
    }
    let created = TokenCreated {
        id: row.id,
        token: secret,
        description: row.description,
        created_at: row.created_at,
    };
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

/// `GET /api/account/tokens`.
pub async fn list_tokens(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Json<TokenList>, ApiError> {
    let player = account(&state, &headers).await?;
    let tokens = state
        .store
        .tokens_of(&player.id)
        .await?
        .into_iter()
        .map(|t| TokenInfo {
            id: t.id,
            description: t.description,
            created_at: t.created_at,
            last_used_at: t.last_used_at,
        })
        .collect();
    Ok(Json(TokenList { tokens }))
}

/// `DELETE /api/account/tokens/{id}`: the streams opened with it end.
pub async fn revoke_token(
    State(state): State<AppState>,
    headers: HeaderMap,
    PathParams(id): PathParams<String>,
) -> Result<Json<OkAnswer>, ApiError> {
    let player = account(&state, &headers).await?;
    state.store.delete_token(&player.id, &id).await?;
    state.bots.revoke(&id);
    Ok(ok())
}

/// `POST /api/bot/account/upgrade`.
pub async fn upgrade(
    State(state): State<AppState>,
    bearer: Bearer,
) -> Result<Json<OkAnswer>, ApiError> {
    // A bot could not play on a cluster, and a bot account cannot use the
    // WebSocket: upgrading there would only lock the account out.
    single_node(&state)?;
    if bearer.player.bot || state.store.make_bot(&bearer.player.id).await? {
        return Ok(ok());
    }
    Err(ApiError::Conflict(
        "bot_upgrade_refused",
        "an account that has played a game cannot become a bot: make a new account".into(),
    ))
}

/// `GET /api/bots/online`.
pub async fn online(State(state): State<AppState>) -> Result<Json<OnlineBots>, ApiError> {
    let mut bots = Vec::new();
    for (id, name) in state.bots.events.online() {
        let Some(player) = state.store.player(&id).await? else {
            continue;
        };
        let games = state.lobby.games_of(&id).len() as u32;
        let rating = player
            .bot_rating
            .unwrap_or(xiangqi_rating::online::START_RATING);
        bots.push(OnlineBot {
            name,
            rating,
            games,
        });
    }
    Ok(Json(OnlineBots { bots }))
}

/// `GET /api/stream/event`.
pub async fn event_stream(
    State(state): State<AppState>,
    bearer: Bearer,
) -> Result<Response, ApiError> {
    single_node(&state)?;
    let bot = bearer.bot()?;
    Ok(ndjson::response(events::lines(
        &state,
        bot,
        bearer.token.clone(),
    )))
}

/// The challenger of a request: a bot by its token, or a person by the
/// session cookie (a request with `Authorization` is a bot's, whatever
/// cookie it carries).
async fn challenger(
    state: &AppState,
    bearer: Option<Bearer>,
    headers: &HeaderMap,
) -> Result<PlayerRow, ApiError> {
    match bearer {
        Some(bearer) => Ok(bearer.bot()?.clone()),
        None => match current_player(state, headers).await? {
            Some(player) if player.bot => Err(ApiError::Forbidden(
                "a bot challenges with its API token".into(),
            )),
            Some(player) => Ok(player),
            None => Err(ApiError::NotSignedIn),
        },
    }
}

async fn optional_bearer(
    state: &AppState,
    headers: &HeaderMap,
) -> Result<Option<Bearer>, ApiError> {
    if !headers.contains_key(AUTHORIZATION) {
        return Ok(None);
    }
    Bearer::of(state, headers).await.map(Some)
}

/// A player's seat in a bot game: with the bot pool's rating.
fn bot_pool_seat(player: PlayerRow) -> Seat {
    let rating = (!player.guest).then(|| {
        player
            .bot_rating
            .unwrap_or(xiangqi_rating::online::START_RATING)
    });
    match Seat::from(player) {
        Seat::Player {
            id,
            name,
            guest,
            bot,
            ..
        } => Seat::Player {
            id,
            name,
            guest,
            rating,
            bot,
        },
        engine => engine,
    }
}

/// Tells the challenger that its challenge closed (`why`: `declined`,
/// `canceled`, `lapsed`).
fn tell_challenger(state: &AppState, open: &OpenChallenge, why: &str, reason: Option<String>) {
    if open.challenger_bot {
        let challenge = open.view.clone();
        let event = match (why, reason) {
            ("declined", reason) => BotEvent::ChallengeDeclined {
                challenge,
                reason: reason
                    .and_then(|r| serde_json::from_value(serde_json::Value::String(r)).ok())
                    .unwrap_or_default(),
            },
            _ => BotEvent::ChallengeCanceled { challenge },
        };
        state.bots.events.send(&open.challenger, event);
    } else {
        let frame = ServerMessage::ChallengeClosed {
            id: open.view.id.clone(),
            why: why.to_string(),
            reason,
        };
        state.hub.send(&open.challenger, &frame.to_text());
    }
}

/// `POST /api/challenge/{name}`.
pub async fn challenge(
    State(state): State<AppState>,
    PathParams(name): PathParams<String>,
    headers: HeaderMap,
    JsonBody(wanted): JsonBody<ChallengeRequest>,
) -> Result<Response, ApiError> {
    single_node(&state)?;
    let bearer = optional_bearer(&state, &headers).await?;
    let me = challenger(&state, bearer, &headers).await?;
    let tc = offered_time_control(&wanted.tc)
        .map_err(|e| ApiError::BadInput("bad_time_control", e.to_string()))?;
    let rules = seek_preset(&wanted.rules)
        .map_err(|e| ApiError::BadInput("unknown_rules", e.to_string()))?
        .name()
        .to_string();
    if wanted.rated && me.guest {
        return Err(ApiError::BadInput(
            "guest_rated",
            "rated games are for accounts: register first".into(),
        ));
    }
    let dest = state
        .store
        .player_by_name(&name)
        .await?
        .filter(|p| p.bot)
        .ok_or_else(|| ApiError::NotFound(format!("bot {}", quoted(&name))))?;
    if dest.id == me.id {
        return Err(ApiError::BadInput(
            "own_challenge",
            "a bot cannot challenge itself".into(),
        ));
    }
    if !state.bots.events.is_online(&dest.id) {
        return Err(ApiError::Conflict(
            "bot_offline",
            format!("the bot {} is not online", quoted(&dest.name)),
        ));
    }
    let challenger_bot = me.bot;
    let view = Challenge {
        id: new_id("c"),
        challenger: player_info(&bot_pool_seat(me.clone())),
        dest: player_info(&bot_pool_seat(dest.clone())),
        tc: wanted.tc.trim().to_string(),
        rated: wanted.rated,
        rules,
        color: wanted.color,
    };
    let open = OpenChallenge {
        view: view.clone(),
        challenger: me.id.clone(),
        challenger_bot,
        dest: dest.id.clone(),
        tc,
    };
    if let Err(count) = state.bots.challenges.open(open) {
        return Err(ApiError::TooMany(
            "too_many_challenges",
            format!("you have {count} open challenges: wait for an answer or cancel one"),
            Duration::from_secs(CHALLENGE_LAPSE_SECS),
        ));
    }
    state.bots.events.send(
        &dest.id,
        BotEvent::Challenge {
            challenge: view.clone(),
        },
    );
    let lapse_state = state.clone();
    let id = view.id.clone();
    tokio::spawn(async move {
        let clock = &lapse_state.clock;
        clock
            .sleep_until(clock.now_ms() + CHALLENGE_LAPSE_SECS * 1000)
            .await;
        if let Some(open) = lapse_state.bots.challenges.take(&id) {
            lapse_state.bots.events.send(
                &open.dest,
                BotEvent::ChallengeCanceled {
                    challenge: open.view.clone(),
                },
            );
            tell_challenger(&lapse_state, &open, "lapsed", None);
        }
    });
    Ok((
        StatusCode::CREATED,
        Json(ChallengeCreated { challenge: view }),
    )
        .into_response())
}

fn no_challenge(id: &str) -> ApiError {
    ApiError::NotFound(format!("open challenge {}", quoted(id)))
}

/// The open challenge `id` to bot `me`, closed now (`None` when there is
/// none or it is another's: both are `not_found`).
fn take_challenge_to(state: &AppState, id: &str, me: &str) -> Result<OpenChallenge, ApiError> {
    match state.bots.challenges.get(id) {
        Some(open) if open.dest == me => state
            .bots
            .challenges
            .take(id)
            .ok_or_else(|| no_challenge(id)),
        _ => Err(no_challenge(id)),
    }
}

/// `POST /api/challenge/{id}/accept`: the game starts as an accepted seek's.
pub async fn accept(
    State(state): State<AppState>,
    PathParams(id): PathParams<String>,
    bearer: Bearer,
) -> Result<Json<OkAnswer>, ApiError> {
    single_node(&state)?;
    let bot = bearer.bot()?;
    let open = take_challenge_to(&state, &id, &bot.id)?;
    let Some(challenger) = state.store.player(&open.challenger).await? else {
        return Err(no_challenge(&id));
    };
    let Some(me) = state.store.player(&bot.id).await? else {
        return Err(no_challenge(&id));
    };
    let (red, black) = seat_colors(
        bot_pool_seat(challenger),
        bot_pool_seat(me),
        open.view.color,
    );
    let room = start_game(
        state.game_start(),
        red,
        black,
        open.tc,
        open.view.rated,
        &open.view.rules,
    )
    .await
    .map_err(|e| ApiError::Internal(format!("starting a bot game: {e}")))?;
    announce_start(&state, &room);
    Ok(ok())
}

/// `POST /api/challenge/{id}/decline`.
pub async fn decline(
    State(state): State<AppState>,
    PathParams(id): PathParams<String>,
    bearer: Bearer,
    body: Option<Json<DeclineRequest>>,
) -> Result<Json<OkAnswer>, ApiError> {
    single_node(&state)?;
    let bot = bearer.bot()?;
    let reason = body.map(|Json(b)| b.reason).unwrap_or_default();
    let open = take_challenge_to(&state, &id, &bot.id)?;
    tell_challenger(&state, &open, "declined", Some(reason.name().to_string()));
    Ok(ok())
}

/// `POST /api/challenge/{id}/cancel`: by the challenger, bot or person.
pub async fn cancel(
    State(state): State<AppState>,
    PathParams(id): PathParams<String>,
    headers: HeaderMap,
) -> Result<Json<OkAnswer>, ApiError> {
    single_node(&state)?;
    let bearer = optional_bearer(&state, &headers).await?;
    let me = challenger(&state, bearer, &headers).await?;
    let open = match state.bots.challenges.get(&id) {
        Some(open) if open.challenger == me.id => state
            .bots
            .challenges
            .take(&id)
            .ok_or_else(|| no_challenge(&id))?,
        _ => return Err(no_challenge(&id)),
    };
    state.bots.events.send(
        &open.dest,
        BotEvent::ChallengeCanceled {
            challenge: open.view,
        },
    );
    Ok(ok())
}

/// The room of game `id`, which bot `me` plays (`not_found` for no game,
/// `not_your_game` for another's).
async fn bots_room(state: &AppState, id: &str, me: &str) -> Result<RoomHandle, ApiError> {
    let room = state
        .rooms
        .get(&state.room_ports, id)
        .await
        .map_err(|e| ApiError::Internal(format!("loading game {id}: {e}")))?
        .ok_or_else(|| ApiError::NotFound(format!("game {}", quoted(id))))?;
    if room.facts.side_of(me).is_none() {
        return Err(ApiError::BadBody(
            StatusCode::FORBIDDEN,
            "not_your_game",
            "you do not play in this game".into(),
        ));
    }
    Ok(room)
}

/// `GET /api/bot/game/stream/{id}`.
pub async fn game_stream(
    State(state): State<AppState>,
    PathParams(id): PathParams<String>,
    bearer: Bearer,
) -> Result<Response, ApiError> {
    single_node(&state)?;
    let bot = bearer.bot()?;
    let room = bots_room(&state, &id, &bot.id).await?;
    Ok(ndjson::response(game_stream::lines(
        room,
        &bot.id,
        bearer.token.clone(),
        state.social.clone(),
        state.bots.revocations(),
    )))
}

fn refused(error: ActionError) -> ApiError {
    match error.code {
        "internal" => ApiError::Internal(error.message),
        "not_your_game" => ApiError::BadBody(StatusCode::FORBIDDEN, error.code, error.message),
        code => ApiError::BadInput(code, error.message),
    }
}

async fn act(
    state: &AppState,
    bearer: &Bearer,
    id: &str,
    action: Action,
) -> Result<Json<OkAnswer>, ApiError> {
    single_node(state)?;
    let bot = bearer.bot()?;
    // A finished game's room stops once nobody watches: the second try
    // loads it again.
    for _ in 0..2 {
        let room = bots_room(state, id, &bot.id).await?;
        if let Ok(answer) = act_in(&room, &bot.id, action.clone()).await {
            answer.map_err(refused)?;
            return Ok(ok());
        }
    }
    Err(ApiError::Internal(format!("game {id}: the room stopped")))
}

/// `player`'s action in `room`; `Err` when the room stopped meanwhile.
async fn act_in(
    room: &RoomHandle,
    player: &str,
    action: Action,
) -> Result<Result<(), ActionError>, RoomGone> {
    // Watching (as nobody's side: no presence changes) keeps a finished
    // game's room running until the answer, so a late move hears
    // `game_over` rather than finding the room gone.
    let conn = crate::bots::game_stream::stream_conn();
    let (out, _ignored) = tokio::sync::mpsc::unbounded_channel();
    room.send(RoomCommand::Watch {
        conn,
        player: String::new(),
        out,
        since: None,
    })?;
    let answer = act_watching(room, player, action).await;
    let _ = room.send(RoomCommand::Unwatch { conn });
    answer
}

async fn act_watching(
    room: &RoomHandle,
    player: &str,
    action: Action,
) -> Result<Result<(), ActionError>, RoomGone> {
    let action = match action {
        // The API names no ply: the move is for the position now.
        Action::Move { mv, .. } => {
            let (reply, answer) = oneshot::channel();
            room.send(RoomCommand::Summary { reply })?;
            let (_, moves, _) = answer.await.map_err(|_| RoomGone)?;
            Action::Move {
                ply: moves.len() as u32,
                mv,
            }
        }
        other => other,
    };
    room.act(player, action).await
}

/// `POST /api/bot/game/{id}/move/{iccs}`.
pub async fn play(
    State(state): State<AppState>,
    PathParams((id, mv)): PathParams<(String, String)>,
    bearer: Bearer,
) -> Result<Json<OkAnswer>, ApiError> {
    act(&state, &bearer, &id, Action::Move { ply: 0, mv }).await
}

macro_rules! game_action {
    ($name:ident, $action:expr, $doc:literal) => {
        #[doc = $doc]
        pub async fn $name(
            State(state): State<AppState>,
            PathParams(id): PathParams<String>,
            bearer: Bearer,
        ) -> Result<Json<OkAnswer>, ApiError> {
            act(&state, &bearer, &id, $action).await
        }
    };
}

game_action!(resign, Action::Resign, "`POST /api/bot/game/{id}/resign`.");
game_action!(abort, Action::Abort, "`POST /api/bot/game/{id}/abort`.");
game_action!(
    offer_draw,
    Action::OfferDraw,
    "`POST /api/bot/game/{id}/draw/offer`."
);
game_action!(
    accept_draw,
    Action::AcceptDraw,
    "`POST /api/bot/game/{id}/draw/accept`."
);
game_action!(
    decline_draw,
    Action::DeclineDraw,
    "`POST /api/bot/game/{id}/draw/decline`."
);
game_action!(
    offer_takeback,
    Action::OfferTakeback,
    "`POST /api/bot/game/{id}/takeback/offer`."
);
game_action!(
    accept_takeback,
    Action::AcceptTakeback,
    "`POST /api/bot/game/{id}/takeback/accept`."
);
game_action!(
    decline_takeback,
    Action::DeclineTakeback,
    "`POST /api/bot/game/{id}/takeback/decline`."
);

/// `POST /api/bot/game/{id}/chat`.
pub async fn chat(
    State(state): State<AppState>,
    PathParams(id): PathParams<String>,
    bearer: Bearer,
    JsonBody(request): JsonBody<ChatRequest>,
) -> Result<Json<OkAnswer>, ApiError> {
    single_node(&state)?;
    let bot = bearer.bot()?;
    bots_room(&state, &id, &bot.id).await?;
    crate::social::chat::post(&state, bot, &id, request.room, &request.text)
        .await
        .map_err(|(code, message)| ApiError::BadInput(code, message))?;
    Ok(ok())
}
