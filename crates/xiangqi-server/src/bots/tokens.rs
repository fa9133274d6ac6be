//! API tokens: made and revoked by their owner on the account page
//! (session cookie), stored as their SHA-256 only, and read from
//! `Authorization: Bearer xqb_…` by the bot endpoints ([`Bearer`]), which
//! take nothing else: a session cookie never acts on them, and a token acts
//! on nothing else.

use axum::extract::FromRequestParts;
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode};

use crate::error::ApiError;
use crate::ids::{new_token, token_hash};
use crate::state::AppState;
use crate::store::PlayerRow;
use xiangqi_server_protocol::bot::TOKEN_PREFIX;

/// A token's use is written at most this often (ms).
const TOUCH_EVERY_MS: i64 = 60_000;
/// The longest description kept, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 60;

/// A new token's secret: the prefix and 256 random bits.
pub fn new_secret() -> String {
    format!("{TOKEN_PREFIX}{}", new_token())
}

/// The refusal of a request without a valid token.
pub fn bad_token(message: &str) -> ApiError {
    ApiError::BadBody(StatusCode::UNAUTHORIZED, "bad_token", message.to_string())
}

/// The account a valid Bearer token names, and the token's id.
pub struct Bearer {
    /// The token's owner, as stored now.
    pub player: PlayerRow,
    /// The token's id (`t_…`): a stream ends when it is revoked.
    pub token: String,
}

impl Bearer {
    /// The owner, who must be a bot (`not_a_bot` otherwise).
    pub fn bot(&self) -> Result<&PlayerRow, ApiError> {
        if self.player.bot {
            Ok(&self.player)
        } else {
            Err(ApiError::BadBody(
                StatusCode::FORBIDDEN,
                "not_a_bot",
                "this endpoint is for bot accounts: upgrade the account first".into(),
            ))
        }
    }
}

impl FromRequestParts<AppState> for Bearer {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Bearer, ApiError> {
        Bearer::of(state, &parts.headers).await
    }
}

impl Bearer {
    /// The token of `headers`, checked.
    pub async fn of(state: &AppState, headers: &HeaderMap) -> Result<Bearer, ApiError> {
        let header = headers
            .get(AUTHORIZATION)
            .ok_or_else(|| bad_token("this endpoint needs Authorization: Bearer TOKEN"))?;
        let secret = header
            .to_str()
            .ok()
            .and_then(|value| value.strip_prefix("Bearer "))
            .map(str::trim)
            .filter(|secret| secret.starts_with(TOKEN_PREFIX))
            .ok_or_else(|| bad_token("the Authorization header is not Bearer xqb_…"))?;
        let Some(token) = state.store.token_by_hash(&token_hash(secret)).await? else {
            return Err(bad_token("no such token (revoked, or never made)"));
        };
        let Some(player) = state.store.player(&token.player).await? else {
            return Err(bad_token("the token's account is gone"));
        };
        let now = state.clock.unix_ms();
        if token
            .last_used_at
            .map_or(true, |used| now - used >= TOUCH_EVERY_MS)
        {
            state.store.touch_token(&token.id, now).await?;
        }
        Ok(Bearer {
            player,
            token: token.id,
        })
    }
}
