//! A signed-in account's own changes: `POST /api/account/password` (the
//! old password required; every other session ends) and
//! `POST /api/account/delete` (the password required; games, ratings and
//! chat stay under a placeholder name, every session ends, the old name is
//! free again). Both are throttled like a login and checked on the
//! hashing pool.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use crate::error::ApiError;
use crate::http::auth::{
    admit_sign_in, cookie_header, current_player, hashing_failed, player_view, session_token,
    too_many, with_cookie,
};
use crate::http::extract::JsonBody;
use crate::ids::token_hash;
use crate::security::passwords::check_password;
use crate::security::Client;
use crate::state::AppState;
use crate::store::PlayerRow;

/// The session's account, once `password` is checked against it (a wrong
/// one is `bad_credentials`; a guest has no account to change).
async fn verified_account(
    state: &AppState,
    client: &Client,
    headers: &HeaderMap,
    password: String,
) -> Result<PlayerRow, ApiError> {
    let Some(player) = current_player(state, headers).await? else {
        return Err(ApiError::NotSignedIn);
    };
    if player.guest {
        return Err(ApiError::Forbidden(
            "a guest has no password or account to change: register first".into(),
        ));
    }
    admit_sign_in(state, client)?;
    let account: String = player.name.to_lowercase().chars().take(64).collect();
    if let Err(wait) = state.guards.account_sign_ins.check(&account) {
        return Err(too_many("password attempts for this account", wait));
    }
    let matches = state
        .guards
        .hashing
        .verify(password, player.password_hash.clone())
        .await
        .map_err(hashing_failed)?;
    if !matches {
        return Err(ApiError::BadCredentials);
    }
    Ok(player)
}

/// The old password and the new one.
#[derive(Deserialize)]
pub struct PasswordChange {
    old: String,
    new: String,
}

/// `POST /api/account/password`.
pub async fn change_password(
    State(state): State<AppState>,
    client: Client,
    headers: HeaderMap,
    JsonBody(change): JsonBody<PasswordChange>,
) -> Result<Response, ApiError> {
    let player = verified_account(&state, &client, &headers, change.old).await?;
    check_password(&player.name, &change.new)
        .map_err(|error| ApiError::BadInput("bad_password", error.to_string()))?;
    let hash = state
        .guards
        .hashing
        .hash(change.new)
        .await
        .map_err(hashing_failed)?;
    let keep = session_token(&headers).map(|token| token_hash(&token));
    state
        .store
        .change_password(&player.id, &hash, keep.as_deref())
        .await?;
    Ok(Json(player_view(&player)).into_response())
}

/// The password, to confirm a deletion.
#[derive(Deserialize)]
pub struct Deletion {
    password: String,
}

/// `POST /api/account/delete`.
pub async fn delete_account(
    State(state): State<AppState>,
    client: Client,
    headers: HeaderMap,
    JsonBody(deletion): JsonBody<Deletion>,
) -> Result<Response, ApiError> {
    let player = verified_account(&state, &client, &headers, deletion.password).await?;
    let tokens = state.store.tokens_of(&player.id).await?;
    let placeholder = state
        .store
        .delete_account(&player.id, state.clock.unix_ms())
        .await?;
    state.social.closed.close(&player.id);
    state.lobby.remove_seeks_of(&player.id);
    // Its API tokens are gone: their streams end.
    for token in tokens {
        state.bots.revoke(&token.id);
    }
    Ok(with_cookie(
        cookie_header("", 0, &client),
        json!({"deleted": placeholder}),
    ))
}
