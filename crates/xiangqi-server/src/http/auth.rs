//! Sessions and accounts: the `xq_session` cookie (only its hash is
//! stored; `Secure` when served over HTTPS), guests made on first sight (at
//! a limited rate per address), registration and login with Argon2 on the
//! bounded hashing pool behind per-address and per-account throttles,
//! logout and the notation setting.

use std::time::Duration;

use axum::extract::State;
use axum::http::header::{COOKIE, SET_COOKIE};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use crate::error::ApiError;
use crate::http::extract::JsonBody;
use crate::ids::{guest_suffix, new_id, new_token, token_hash};
use crate::notation_setting::NotationSetting;
use crate::security::hashing::HashError;
use crate::security::names::{check_name, NameError};
use crate::security::passwords::check_password;
use crate::security::sweep::TOUCH_EVERY_MS;
use crate::security::Client;
use crate::state::AppState;
use crate::store::{PlayerRow, StoreError};

use xiangqi_server_protocol::server::Player;
use xiangqi_server_protocol::SESSION_COOKIE;

/// `Player`, as a player sees themselves.
pub fn player_view(player: &PlayerRow) -> Player {
    Player {
        id: player.id.clone(),
        name: player.name.clone(),
        guest: player.guest,
        rating: player.rating,
        notation: player.notation.clone(),
        language: player.language.clone(),
        pieces: player.pieces.clone(),
    }
}

/// The session token the request carries, if any.
pub fn session_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == SESSION_COOKIE)
        .map(|(_, token)| token.to_string())
}

/// The player of the request's session, if it has a valid one.
pub async fn current_player(
    state: &AppState,
    headers: &HeaderMap,
) -> Result<Option<PlayerRow>, ApiError> {
    let Some(token) = session_token(headers) else {
        return Ok(None);
    };
    let Some((player, seen)) = state.store.session_player_seen(&token_hash(&token)).await? else {
        return Ok(None);
    };
    // A guest's last use decides when it expires; written at most hourly.
    let now = state.clock.unix_ms();
    let fresh = matches!(seen, Some(seen) if now - seen < TOUCH_EVERY_MS);
    if player.guest && !fresh {
        state.store.touch_player(&player.id, now).await?;
    }
    Ok(Some(player))
}

/// The session cookie's attributes: script cannot read it, other sites'
/// requests carry it only on top-level navigation, and over HTTPS it never
/// travels in clear.
pub(crate) fn cookie_header(value: &str, max_age: u32, client: &Client) -> HeaderValue {
    let secure = if client.https { "; Secure" } else { "" };
    let text = format!(
        "{SESSION_COOKIE}={value}; HttpOnly; SameSite=Lax; Path=/; Max-Age={max_age}{secure}"
    );
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// A session lasts a year.
const SESSION_SECONDS: u32 = 31_536_000;

/// Starts a session for `player` and returns its cookie header.
async fn new_session(
    state: &AppState,
    player: &str,
    client: &Client,
) -> Result<HeaderValue, ApiError> {
    let token = new_token();
    state
        .store
        .insert_session(&token_hash(&token), player, state.clock.unix_ms())
        .await?;
    Ok(cookie_header(&token, SESSION_SECONDS, client))
}

/// The answer to a request over a limit.
pub(crate) fn too_many(what: &str, wait: Duration) -> ApiError {
    let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    ApiError::TooMany(
        "rate_limited",
        format!("too many {what}; try again in {} s", seconds.max(1)),
        wait,
    )
}

pub(crate) fn hashing_failed(error: HashError) -> ApiError {
    match error {
        HashError::Busy => ApiError::Overloaded(
            "the server is busy checking passwords; try again in a moment".into(),
            Duration::from_secs(2),
        ),
        HashError::Failed(detail) => ApiError::Internal(detail),
    }
}

/// Draws of a guest name before giving up. Six hex digits collide often
/// enough to matter (among 10 000 guests two share a name with a
/// probability of about 95 %, the birthday bound), and a taken name only
/// needs another draw.
const GUEST_NAME_ATTEMPTS: usize = 8;

/// A new guest for `client`, within the rate of new guests per address.
async fn new_guest(state: &AppState, client: &Client) -> Result<PlayerRow, ApiError> {
    if let Err(wait) = state.guards.guests.check(&client.address) {
        return Err(too_many("new guests from your address", wait));
    }
    new_guest_named(state, || format!("Guest-{}", guest_suffix())).await
}

/// A new guest named by `draw_name`, drawing again while the name is taken.
async fn new_guest_named(
    state: &AppState,
    mut draw_name: impl FnMut() -> String,
) -> Result<PlayerRow, ApiError> {
    let mut attempt = 1;
    loop {
        let guest = PlayerRow {
            id: new_id("p"),
            name: draw_name(),
            guest: true,
            password_hash: None,
            rating: None,
            notation: NotationSetting::default().name().to_string(),
            created_at: state.clock.unix_ms(),
            language: None,
            pieces: None,
            bot: false,
            bot_rating: None,
        };
        match state.store.insert_player(&guest).await {
            Ok(()) => return Ok(guest),
            Err(StoreError::NameTaken(_)) if attempt < GUEST_NAME_ATTEMPTS => attempt += 1,
            Err(error) => return Err(error.into()),
        }
    }
}

pub(crate) fn with_cookie(cookie: HeaderValue, body: impl serde::Serialize) -> Response {
    let mut response = Json(body).into_response();
    response.headers_mut().insert(SET_COOKIE, cookie);
    response
}

/// `GET /api/me`: the session's player, a new guest without one.
pub async fn me(
    State(state): State<AppState>,
    client: Client,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    if let Some(player) = current_player(&state, &headers).await? {
        return Ok(Json(player_view(&player)).into_response());
    }
    let guest = new_guest(&state, &client).await?;
    let cookie = new_session(&state, &guest.id, &client).await?;
    Ok(with_cookie(cookie, player_view(&guest)))
}

/// A name and password.
#[derive(Deserialize)]
pub struct Credentials {
    name: String,
    password: String,
}

fn check_credentials(c: &Credentials) -> Result<(), ApiError> {
    check_name(&c.name).map_err(|error| match error {
        NameError::Shape => ApiError::BadInput("bad_name", error.to_string()),
        NameError::Reserved(_) => ApiError::BadInput("reserved_name", error.to_string()),
    })?;
    check_password(&c.name, &c.password)
        .map_err(|error| ApiError::BadInput("bad_password", error.to_string()))
}

/// One sign-in attempt (login or registration) from `client`'s address.
pub(crate) fn admit_sign_in(state: &AppState, client: &Client) -> Result<(), ApiError> {
    state
        .guards
        .sign_ins
        .check(&client.address)
        .map_err(|wait| too_many("sign-in attempts from your address", wait))
}

/// `POST /api/register`: the session's guest (or a new one) becomes an account.
pub async fn register(
    State(state): State<AppState>,
    client: Client,
    headers: HeaderMap,
    JsonBody(credentials): JsonBody<Credentials>,
) -> Result<Response, ApiError> {
    admit_sign_in(&state, &client)?;
    check_credentials(&credentials)?;
    if state
        .store
        .player_by_name(&credentials.name)
        .await?
        .is_some()
    {
        return Err(StoreError::NameTaken(credentials.name).into());
    }
    let guest = match current_player(&state, &headers).await? {
        Some(player) if player.guest => player,
        _ => new_guest(&state, &client).await?,
    };
    if let Some(existing) = state
        .store
        .confusable_with(&credentials.name, &guest.id)
        .await?
    {
        let name = credentials.name;
        return Err(StoreError::NameConfusable { name, existing }.into());
    }
    let hash = state
        .guards
        .hashing
        .hash(credentials.password)
        .await
        .map_err(hashing_failed)?;
    let start = xiangqi_rating::online::START_RATING;
    let player = state
        .store
        .register_guest(&guest.id, &credentials.name, &hash, start)
        .await?;
    if let Some(token) = session_token(&headers) {
        state.store.delete_session(&token_hash(&token)).await?;
    }
    let cookie = new_session(&state, &player.id, &client).await?;
    Ok(with_cookie(cookie, player_view(&player)))
}

/// `POST /api/login`: throttled per address and per name (known or not,
/// so the answer tells nothing about which names exist), then checked on
/// the hashing pool, against the dummy hash for a name without a password.
pub async fn login(
    State(state): State<AppState>,
    client: Client,
    headers: HeaderMap,
    JsonBody(credentials): JsonBody<Credentials>,
) -> Result<Response, ApiError> {
    admit_sign_in(&state, &client)?;
    let account: String = credentials.name.to_lowercase().chars().take(64).collect();
    if let Err(wait) = state.guards.account_sign_ins.check(&account) {
        return Err(too_many("sign-in attempts for this name", wait));
    }
    let player = state.store.player_by_name(&credentials.name).await?;
    let hash = player.as_ref().and_then(|p| p.password_hash.clone());
    let matches = state
        .guards
        .hashing
        .verify(credentials.password, hash)
        .await
        .map_err(hashing_failed)?;
    let Some(player) = player.filter(|_| matches) else {
        return Err(ApiError::BadCredentials);
    };
    if let Some(token) = session_token(&headers) {
        state.store.delete_session(&token_hash(&token)).await?;
    }
    let cookie = new_session(&state, &player.id, &client).await?;
    Ok(with_cookie(cookie, player_view(&player)))
}

/// `POST /api/logout`.
pub async fn logout(
    State(state): State<AppState>,
    client: Client,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    if let Some(token) = session_token(&headers) {
        state.store.delete_session(&token_hash(&token)).await?;
    }
    Ok(with_cookie(cookie_header("", 0, &client), json!({})))
}

/// The settings a player may change; each is optional, and one left out
/// stays as it was.
#[derive(Deserialize)]
pub struct Settings {
    notation: Option<String>,
    language: Option<String>,
    pieces: Option<String>,
}

/// The piece sets of the web client's board.
pub const PIECE_SETS: [&str; 2] = ["traditional", "pictogram"];

/// `PUT /api/settings`.
pub async fn settings(
    State(state): State<AppState>,
    headers: HeaderMap,
    JsonBody(settings): JsonBody<Settings>,
) -> Result<Response, ApiError> {
    let Some(mut player) = current_player(&state, &headers).await? else {
        return Err(ApiError::NotSignedIn);
    };
    let notation = match &settings.notation {
        None => None,
        Some(name) => Some(NotationSetting::parse(name).ok_or_else(|| {
            ApiError::BadInput(
                "bad_notation",
                "notation is one of coordinate, wxf, chinese, chinese-traditional, vietnamese"
                    .into(),
            )
        })?),
    };
    if let Some(language) = &settings.language {
        if !crate::http::assets::has_language(language) {
            return Err(ApiError::BadInput(
                "bad_language",
                format!(
                    "language is one of {}",
                    crate::http::assets::languages().join(", ")
                ),
            ));
        }
    }
    if let Some(pieces) = &settings.pieces {
        if !PIECE_SETS.contains(&pieces.as_str()) {
            return Err(ApiError::BadInput(
                "bad_pieces",
                format!("pieces is one of {}", PIECE_SETS.join(", ")),
            ));
        }
    }
    if let Some(setting) = notation {
        state.store.set_notation(&player.id, setting.name()).await?;
        state.hub.set_notation(&player.id, setting);
        player.notation = setting.name().to_string();
    }
    if settings.language.is_some() || settings.pieces.is_some() {
        state
            .store
            .set_display(
                &player.id,
                settings.language.as_deref(),
                settings.pieces.as_deref(),
            )
            .await?;
        player.language = settings.language.or(player.language);
        player.pieces = settings.pieces.or(player.pieces);
    }
    Ok(Json(player_view(&player)).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::ManualClock;
    use crate::store::Store;

    async fn state() -> AppState {
        let store = Store::open("sqlite::memory:").await.unwrap();
        AppState::new(store, ManualClock::new(0), 1)
    }

    #[tokio::test]
    async fn a_taken_guest_name_is_drawn_again() {
        let state = state().await;
        let first = new_guest_named(&state, || "Guest-000000".into())
            .await
            .unwrap();
        let mut names = ["Guest-000000", "Guest-000000", "Guest-000001"].into_iter();
        let second = new_guest_named(&state, || names.next().unwrap().into())
            .await
            .unwrap();
        assert_eq!(second.name, "Guest-000001");
        assert_ne!(first.id, second.id);
        assert_eq!(
            state.store.player_by_name("Guest-000001").await.unwrap(),
            Some(second)
        );
    }

    #[tokio::test]
    async fn a_name_taken_every_time_is_an_error_after_the_last_draw() {
        let state = state().await;
        new_guest_named(&state, || "Guest-000000".into())
            .await
            .unwrap();
        let mut draws = 0;
        let error = new_guest_named(&state, || {
            draws += 1;
            "Guest-000000".into()
        })
        .await
        .unwrap_err();
        assert!(matches!(error, ApiError::NameInUse { existing: None, .. }));
        assert_eq!(draws, GUEST_NAME_ATTEMPTS);
    }
}
