//! One bot's connection: a guest session over HTTP, the WebSocket with its
//! handshake, and frames sent no faster than the server's flood limit.

use std::time::Duration;

use anyhow::{bail, Context, Result};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::header::{HeaderValue, COOKIE, SET_COOKIE};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use super::bot::{bad, error_text, kind, ProtocolError};

/// The session cookie of a new guest: `GET /api/me` without a cookie.
/// (xtask takes no workspace crate, so this is not the protocol crate's
/// `session_cookie_pair`.)
pub async fn guest_cookie(http: &reqwest::Client, base: &str) -> Result<String> {
    let response = http
        .get(format!("{base}/api/me"))
        .send()
        .await
        .context("GET /api/me")?;
    if !response.status().is_success() {
        bail!("GET /api/me answered {}", response.status());
    }
    session_cookie(response.headers(), "GET /api/me")
}

/// The session cookie of a new account `name` (`POST /api/register`
/// without a session): spectators must be accounts to write in the
/// spectators' chat. Registration hashes the password on the server's
/// small hashing pool, so a full pool (503 `overloaded`) is waited out and
/// asked again, until `deadline`.
pub async fn account_cookie(
    http: &reqwest::Client,
    base: &str,
    name: &str,
    deadline: Instant,
) -> Result<String> {
    let body = json!({"name": name, "password": format!("{name}-watches-the-bench")});
    loop {
        let response = http
            .post(format!("{base}/api/register"))
            .json(&body)
            .send()
            .await
            .context("POST /api/register")?;
        let status = response.status();
        if status == reqwest::StatusCode::SERVICE_UNAVAILABLE
            && Instant::now() + Duration::from_secs(1) < deadline
        {
            tokio::time::sleep(Duration::from_millis(250)).await;
            continue;
        }
        if !status.is_success() {
            let text = response.text().await.unwrap_or_default();
            bail!("POST /api/register for {name} answered {status}: {text}");
        }
        return session_cookie(response.headers(), "POST /api/register");
    }
}

/// The `xq_session=…` pair a response set.
fn session_cookie(headers: &reqwest::header::HeaderMap, what: &str) -> Result<String> {
    headers
        .get_all(SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("xq_session="))
        .map(|v| v.split(';').next().unwrap_or(v).to_owned())
        .with_context(|| format!("{what} set no xq_session cookie"))
}

/// An open, greeted WebSocket.
pub struct Connection {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// Sends wait for this, so a bot never trips the flood limit.
    next_send: Instant,
    interval: Duration,
}

/// What reading a frame gave.
pub enum Received {
    Frame(Value),
    /// The server closed the socket (or it broke), with why.
    Closed(String),
    /// The deadline passed first.
    TimedOut,
}

impl Connection {
    /// Connects to `/ws` with the session `cookie` and does the
    /// `hello`/`welcome` handshake; at most `frames_per_second` frames are sent.
    pub async fn open(base: &str, cookie: &str, frames_per_second: f64) -> Result<Connection> {
        let url = format!("{}/ws", base.replacen("http://", "ws://", 1));
        let mut request = url.as_str().into_client_request()?;
        request
            .headers_mut()
            .insert(COOKIE, HeaderValue::from_str(cookie)?);
        // Nagle off: a move is one small frame and its latency is the point.
        let (ws, _) = tokio_tungstenite::connect_async_with_config(request, None, true)
            .await
            .with_context(|| format!("WebSocket {url}"))?;
        let mut connection = Connection {
            ws,
            next_send: Instant::now(),
            interval: Duration::from_secs_f64(1.0 / frames_per_second),
        };
        connection
            .send(&json!({"t": "hello", "v": 1}).to_string())
            .await?;
        connection.expect("welcome", None).await?;
        Ok(connection)
    }

    /// Sends an answer (a `pong`) at once, outside the pacing. A pong
    /// waiting for its turn would hold up the reading of every frame after
    /// it: a ping that came during a think time, answered right after the
    /// move, delayed the reading of that move's `ack` by the pacing
    /// interval (25 ms), and the p99 round trip with it. One unpaced frame
    /// every 10 s (the server's ping) is far inside the server's burst.
    pub async fn send_now(&mut self, text: &str) -> Result<()> {
        self.ws.send(Message::text(text)).await.context("send")
    }

    /// Sends one text frame once the pacing allows; returns when it was sent.
    pub async fn send(&mut self, text: &str) -> Result<Instant> {
        tokio::time::sleep_until(self.next_send).await;
        let now = Instant::now();
        self.ws.send(Message::text(text)).await.context("send")?;
        self.next_send = now + self.interval;
        Ok(now)
    }

    /// The next text frame as JSON, by `deadline` if one is given.
    pub async fn receive(&mut self, deadline: Option<Instant>) -> Received {
        loop {
            let next = match deadline {
                Some(at) => match tokio::time::timeout_at(at, self.ws.next()).await {
                    Ok(next) => next,
                    Err(_) => return Received::TimedOut,
                },
                None => self.ws.next().await,
            };
            return match next {
                Some(Ok(Message::Text(text))) => match serde_json::from_str(text.as_str()) {
                    Ok(value) => Received::Frame(value),
                    Err(e) => Received::Closed(format!("a frame that is not JSON ({e}): {text}")),
                },
                Some(Ok(Message::Close(close))) => {
                    Received::Closed(format!("closed by the server: {close:?}"))
                }
                Some(Ok(Message::Binary(_))) => Received::Closed("a binary frame".into()),
                // WebSocket-level pings are answered by tungstenite itself.
                Some(Ok(_)) => continue,
                Some(Err(e)) => Received::Closed(format!("socket error: {e}")),
                None => Received::Closed("the socket ended".into()),
            };
        }
    }

    /// Reads until a frame of type `want`, answering pings and skipping
    /// lobby news; anything else (an `error` frame too) is a protocol error.
    pub async fn expect(&mut self, want: &str, deadline: Option<Instant>) -> Result<Value> {
        match self.expect_unless(want, None, deadline).await? {
            Some(frame) => Ok(frame),
            None => unreachable!("no refusal is awaited"),
        }
    }

    /// As [`Connection::expect`], but an `error` frame of code `refusal`
    /// gives `None` (an answer the caller waits for, not a protocol error).
    pub async fn expect_unless(
        &mut self,
        want: &str,
        refusal: Option<&str>,
        deadline: Option<Instant>,
    ) -> Result<Option<Value>> {
        loop {
            let frame = match self.receive(deadline).await {
                Received::Frame(frame) => frame,
                Received::Closed(why) => bail!(ProtocolError(format!("waiting for {want}: {why}"))),
                Received::TimedOut => bail!("no {want} frame before the deadline"),
            };
            match kind(&frame)? {
                t if t == want => return Ok(Some(frame)),
                "ping" => {
                    self.send_now(&json!({"t": "pong"}).to_string()).await?;
                }
                "pong" | "seek_added" | "seek_removed" | "game_added" | "game_removed" => {}
                "error" if refusal.is_some() && frame["code"].as_str() == refusal => {
                    return Ok(None)
                }
                "error" => bail!(error_text(&frame)),
                _ => bail!(bad(&frame, &format!("waiting for {want}"))),
            }
        }
    }

    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

impl std::error::Error for ProtocolError {}
