//! Sessions and accounts: the `xq_session` cookie (only its hash is
//! stored), guests made on first sight, registration and login with
//! argon2 (hashed on a blocking thread), logout and the notation setting.

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use axum::extract::State;
use axum::http::header::{COOKIE, SET_COOKIE};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::error::ApiError;
use crate::http::extract::JsonBody;
use crate::ids::{guest_suffix, new_id, new_token, token_hash};
use crate::notation_setting::NotationSetting;
use crate::state::AppState;
use crate::store::{PlayerRow, StoreError};

use crate::ws::protocol::SESSION_COOKIE;

/// `Player`, as a player sees themselves.
pub fn player_json(player: &PlayerRow) -> Value {
    json!({
        "id": player.id, "name": player.name, "guest": player.guest,
        "rating": player.rating, "notation": player.notation,
    })
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
    Ok(state.store.session_player(&token_hash(&token)).await?)
}

fn cookie_header(token: &str) -> HeaderValue {
    let text =
        format!("{SESSION_COOKIE}={token}; HttpOnly; SameSite=Lax; Path=/; Max-Age=31536000");
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// Starts a session for `player` and returns its cookie header.
async fn new_session(state: &AppState, player: &str) -> Result<HeaderValue, ApiError> {
    let token = new_token();
    state
        .store
        .insert_session(&token_hash(&token), player, state.clock.unix_ms())
        .await?;
    Ok(cookie_header(&token))
}

/// Draws of a guest name before giving up. Six hex digits collide often
/// enough to matter (among 10 000 guests two share a name with a
/// probability of about 95 %, the birthday bound), and a taken name only
/// needs another draw.
const GUEST_NAME_ATTEMPTS: usize = 8;

async fn new_guest(state: &AppState) -> Result<PlayerRow, ApiError> {
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
        };
        match state.store.insert_player(&guest).await {
            Ok(()) => return Ok(guest),
            Err(StoreError::NameTaken(_)) if attempt < GUEST_NAME_ATTEMPTS => attempt += 1,
            Err(error) => return Err(error.into()),
        }
    }
}

fn with_cookie(cookie: HeaderValue, body: Value) -> Response {
    let mut response = Json(body).into_response();
    response.headers_mut().insert(SET_COOKIE, cookie);
    response
}

/// `GET /api/me`: the session's player, a new guest without one.
pub async fn me(State(state): State<AppState>, headers: HeaderMap) -> Result<Response, ApiError> {
    if let Some(player) = current_player(&state, &headers).await? {
        return Ok(Json(player_json(&player)).into_response());
    }
    let guest = new_guest(&state).await?;
    let cookie = new_session(&state, &guest.id).await?;
    Ok(with_cookie(cookie, player_json(&guest)))
}

/// A name and password.
#[derive(Deserialize)]
pub struct Credentials {
    name: String,
    password: String,
}

fn check_credentials(c: &Credentials) -> Result<(), ApiError> {
    let name_ok = (3..=20).contains(&c.name.len())
        && c.name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if !name_ok {
        return Err(ApiError::BadInput(
            "bad_name",
            "a name has 3 to 20 of the characters A-Z, a-z, 0-9, _ and -".into(),
        ));
    }
    if !(8..=200).contains(&c.password.len()) {
        return Err(ApiError::BadInput(
            "bad_password",
            "a password has 8 to 200 bytes".into(),
        ));
    }
    Ok(())
}

/// Argon2 on a blocking thread: it is slow on purpose.
async fn hash_password(password: String) -> Result<String, ApiError> {
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
            .map_err(|e| ApiError::Internal(format!("hashing: {e}")))
    })
    .await
    .map_err(|e| ApiError::Internal(format!("hashing task: {e}")))?
}

async fn verify_password(password: String, hash: String) -> bool {
    tokio::task::spawn_blocking(move || {
        PasswordHash::new(&hash)
            .map(|parsed| {
                Argon2::default()
                    .verify_password(password.as_bytes(), &parsed)
                    .is_ok()
            })
            .unwrap_or(false)
    })
    .await
    .unwrap_or(false)
}

/// `POST /api/register`: the session's guest (or a new one) becomes an account.
pub async fn register(
    State(state): State<AppState>,
    headers: HeaderMap,
    JsonBody(credentials): JsonBody<Credentials>,
) -> Result<Response, ApiError> {
    check_credentials(&credentials)?;
    if state
        .store
        .player_by_name(&credentials.name)
        .await?
        .is_some()
    {
        return Err(ApiError::Conflict(
            "name_taken",
            format!("the name {:?} is taken", credentials.name),
        ));
    }
    let guest = match current_player(&state, &headers).await? {
        Some(player) if player.guest => player,
        _ => new_guest(&state).await?,
    };
    let hash = hash_password(credentials.password).await?;
    let start = xiangqi_rating::online::START_RATING;
    let player = state
        .store
        .register_guest(&guest.id, &credentials.name, &hash, start)
        .await?;
    if let Some(token) = session_token(&headers) {
        state.store.delete_session(&token_hash(&token)).await?;
    }
    let cookie = new_session(&state, &player.id).await?;
    Ok(with_cookie(cookie, player_json(&player)))
}

/// `POST /api/login`.
pub async fn login(
    State(state): State<AppState>,
    headers: HeaderMap,
    JsonBody(credentials): JsonBody<Credentials>,
) -> Result<Response, ApiError> {
    let player = state.store.player_by_name(&credentials.name).await?;
    let Some((player, hash)) = player.and_then(|p| p.password_hash.clone().map(|h| (p, h))) else {
        return Err(ApiError::BadCredentials);
    };
    if !verify_password(credentials.password, hash).await {
        return Err(ApiError::BadCredentials);
    }
    if let Some(token) = session_token(&headers) {
        state.store.delete_session(&token_hash(&token)).await?;
    }
    let cookie = new_session(&state, &player.id).await?;
    Ok(with_cookie(cookie, player_json(&player)))
}

/// `POST /api/logout`.
pub async fn logout(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    if let Some(token) = session_token(&headers) {
        state.store.delete_session(&token_hash(&token)).await?;
    }
    let cleared = HeaderValue::from_str(&format!(
        "{SESSION_COOKIE}=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0"
    ))
    .expect("the cookie name is a valid header value");
    Ok(with_cookie(cleared, json!({})))
}

/// The settings a player may change.
#[derive(Deserialize)]
pub struct Settings {
    notation: String,
}

/// `PUT /api/settings`.
pub async fn settings(
    State(state): State<AppState>,
    headers: HeaderMap,
    JsonBody(settings): JsonBody<Settings>,
) -> Result<Response, ApiError> {
    let Some(mut player) = current_player(&state, &headers).await? else {
        return Err(ApiError::NotSignedIn);
    };
    let Some(setting) = NotationSetting::parse(&settings.notation) else {
        return Err(ApiError::BadInput(
            "bad_notation",
            "notation is one of coordinate, wxf, chinese, chinese-traditional, vietnamese".into(),
        ));
    };
    state.store.set_notation(&player.id, setting.name()).await?;
    state.hub.set_notation(&player.id, setting);
    player.notation = setting.name().to_string();
    Ok(Json(player_json(&player)).into_response())
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
        assert!(matches!(error, ApiError::Conflict("name_taken", _)));
        assert_eq!(draws, GUEST_NAME_ATTEMPTS);
    }
}
