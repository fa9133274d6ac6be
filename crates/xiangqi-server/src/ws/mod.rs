//! The WebSocket endpoint `/ws`: one task per socket that greets, checks
//! each frame (size, shape, rate), carries the player's requests to the
//! lobby and the game rooms, and writes what they answer in the player's
//! own notation. The socket holds no game rules: rooms decide.

pub mod connection;
pub mod dispatch;
pub mod flood;
pub mod rematch;

/// The client's messages and their decoder (a crate of their own).
pub use xiangqi_server_protocol as protocol;

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;
use crate::http::auth::current_player;
use crate::security::Client;
use crate::state::AppState;

/// Messages the WebSocket layer itself accepts at most; larger ones close
/// the socket (code 1009). Between [`protocol::MAX_FRAME_BYTES`] and this, a
/// frame gets a `too_large` error and the socket stays open.
pub const MAX_SOCKET_MESSAGE_BYTES: usize = 64 * 1024;
/// Frames read in full at most. A message over the limit but within this is
/// read to its end, so the socket is closed with a Close frame and a clean
/// handshake; past this the connection is cut where the frame starts.
pub const MAX_READ_FRAME_BYTES: usize = 1024 * 1024;

/// The read buffer of a socket. The WebSocket library's default, 128 KiB,
/// is allocated per socket and zero-filled before every read: with frames
/// of a few hundred bytes that is memory and time spent on nothing (a
/// larger frame still reserves its whole length).
const READ_BUFFER_BYTES: usize = 4 * 1024;

/// `GET /ws`: the session cookie names the player (`GET /api/me` makes a
/// guest's session first); a page of another site never gets here
/// (`http::guard` checks `Origin` first).
pub async fn upgrade(
    State(state): State<AppState>,
    client: Client,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let Some(player) = current_player(&state, &headers).await? else {
        return Err(ApiError::NotSignedIn);
    };
    if player.bot {
        // A bot plays through the bot API only (docs/server.md, "Bots").
        return Err(ApiError::Forbidden(
            "a bot account plays through the bot API only, not the WebSocket".into(),
        ));
    }
    Ok(ws
        .max_message_size(MAX_SOCKET_MESSAGE_BYTES)
        .max_frame_size(MAX_READ_FRAME_BYTES)
        .read_buffer_size(READ_BUFFER_BYTES)
        .on_upgrade(move |socket| connection::run(socket, state, player, client.address))
        .into_response())
}
