//! One socket's life: the `hello`/`welcome` handshake, a reader that
//! checks and dispatches each frame, a writer that renders what the lobby
//! and rooms send in the player's notation, keep-alive pings, and the
//! goodbye that tells the rooms this socket is gone.

use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use futures_util::stream::SplitSink;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::sync::mpsc;

use crate::game::room::RoomCommand;
use crate::game::view::{event_frame, state_frame};
use crate::game::{ConnId, Outbound};
use crate::http::auth::player_json;
use crate::notation_setting::NotationSetting;
use crate::state::AppState;
use crate::store::PlayerRow;
use crate::ws::dispatch;
use crate::ws::flood::FloodGate;
use crate::ws::protocol::{decode, ClientMessage, PROTOCOL_VERSION};

/// The server pings an idle socket this often.
const PING_EVERY: Duration = Duration::from_secs(20);
/// A socket silent for this long (no frame, no pong) is closed.
const SILENT_LIMIT: Duration = Duration::from_secs(60);
/// A write that takes longer means the client stopped reading.
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);
/// Frames queued for a client that reads too slowly, at most.
const MAX_QUEUED: usize = 4_096;
/// The first frame must come within this.
const HELLO_TIMEOUT: Duration = Duration::from_secs(10);

static NEXT_CONN: AtomicU64 = AtomicU64::new(1);

/// What one socket knows of itself.
pub struct Session {
    /// This socket's number.
    pub conn: ConnId,
    /// Its player (as of the handshake; ratings are read fresh when needed).
    pub player: PlayerRow,
    /// Where frames for this socket go.
    pub out: mpsc::UnboundedSender<Outbound>,
    /// Games this socket watches.
    pub watching: HashSet<String>,
    /// Whether it follows the lobby.
    pub in_lobby: bool,
}

/// An `error` frame.
pub fn error_frame(code: &str, message: &str, reference: Option<Value>) -> String {
    let mut frame = json!({"t": "error", "code": code, "message": message});
    if let Some(reference) = reference {
        frame["ref"] = reference;
    }
    frame.to_string()
}

/// Runs the socket of `player` until it closes.
pub async fn run(socket: WebSocket, state: AppState, player: PlayerRow) {
    let (mut sink, mut stream) = socket.split();
    // The handshake: `hello` with our version, first.
    let first = tokio::time::timeout(HELLO_TIMEOUT, stream.next()).await;
    let hello = match first {
        Ok(Some(Ok(Message::Text(text)))) => decode(text.as_str()),
        _ => return,
    };
    match hello {
        Ok(ClientMessage::Hello { v }) if v == PROTOCOL_VERSION => {}
        Ok(ClientMessage::Hello { v }) => {
            let message =
                format!("this server speaks protocol version {PROTOCOL_VERSION}, not {v}");
            let _ = sink
                .send(text(error_frame("version", &message, None)))
                .await;
            let _ = sink.send(close(1002, "protocol version")).await;
            return;
        }
        _ => {
            let message = "the first frame must be {\"t\":\"hello\",\"v\":1}";
            let _ = sink
                .send(text(error_frame("hello_first", message, None)))
                .await;
            let _ = sink.send(close(1002, "hello first")).await;
            return;
        }
    }
    let notation = NotationSetting::parse(&player.notation).unwrap_or_default();
    state.set_notation(&player.id, notation);
    let welcome = json!({"t": "welcome", "v": PROTOCOL_VERSION, "player": player_json(&player)});
    if sink.send(text(welcome.to_string())).await.is_err() {
        return;
    }

    let (out, outbox) = mpsc::unbounded_channel();
    let conn = NEXT_CONN.fetch_add(1, Ordering::Relaxed);
    state.hub.join(&player.id, conn, out.clone());
    let player_id = player.id.clone();
    let mut session = Session {
        conn,
        player,
        out,
        watching: HashSet::new(),
        in_lobby: false,
    };
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<&'static str>();
    let writer = tokio::spawn(write_loop(
        sink,
        outbox,
        state.clone(),
        player_id.clone(),
        stop_rx,
    ));
    let why = read_loop(&mut stream, &state, &mut session).await;
    let _ = stop_tx.send(why);
    let _ = writer.await;
    goodbye(&state, &session).await;
}

fn text(frame: String) -> Message {
    Message::Text(Utf8Bytes::from(frame))
}

fn close(code: u16, reason: &'static str) -> Message {
    Message::Close(Some(CloseFrame {
        code,
        reason: Utf8Bytes::from_static(reason),
    }))
}

/// Reads frames until the socket ends or misbehaves; says why it stopped.
async fn read_loop(
    stream: &mut futures_util::stream::SplitStream<WebSocket>,
    state: &AppState,
    session: &mut Session,
) -> &'static str {
    let mut gate = FloodGate::new(state.clock.now_ms());
    loop {
        let next = match tokio::time::timeout(SILENT_LIMIT, stream.next()).await {
            Ok(next) => next,
            Err(_) => return "silent too long",
        };
        let frame = match next {
            Some(Ok(Message::Text(frame))) => frame,
            Some(Ok(Message::Binary(_))) => {
                let message = "frames are JSON text, not binary";
                session.send_text(error_frame("bad_message", message, None));
                continue;
            }
            Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return "closed",
            Some(Ok(_)) => continue, // WebSocket pings: axum answers them.
        };
        if !gate.admit(state.clock.now_ms()) {
            let message = "too many frames: at most 50 a second on average";
            session.send_text(error_frame("flood", message, None));
            return "flood";
        }
        match decode(frame.as_str()) {
            Ok(message) => {
                for reply in dispatch::handle(state, session, message).await {
                    session.send_text(reply);
                }
            }
            Err(error) => {
                session.send_text(error_frame(error.code(), &error.to_string(), None));
            }
        }
    }
}

impl Session {
    /// Queues a ready frame for this socket.
    pub fn send_text(&self, frame: String) {
        let _ = self.out.send(Outbound::Text(frame));
    }
}

/// Writes queued frames, rendering game frames for `player`; pings when
/// idle; stops when told, when the client stops reading, or on error.
async fn write_loop(
    mut sink: SplitSink<WebSocket, Message>,
    mut outbox: mpsc::UnboundedReceiver<Outbound>,
    state: AppState,
    player: String,
    mut stop: tokio::sync::oneshot::Receiver<&'static str>,
) {
    let mut ping = tokio::time::interval(PING_EVERY);
    ping.tick().await;
    loop {
        let frame = tokio::select! {
            why = &mut stop => {
                let code = if why == Ok("flood") { 1008 } else { 1000 };
                let _ = tokio::time::timeout(WRITE_TIMEOUT, sink.send(close(code, "bye"))).await;
                return;
            }
            _ = ping.tick() => json!({"t": "ping"}).to_string(),
            next = outbox.recv() => match next {
                None => return,
                Some(_) if outbox.len() > MAX_QUEUED => {
                    let _ = sink.send(close(1008, "too slow to read")).await;
                    return;
                }
                Some(out) => render(&state, &player, out),
            },
        };
        match tokio::time::timeout(WRITE_TIMEOUT, sink.send(text(frame))).await {
            Ok(Ok(())) => {}
            _ => return,
        }
    }
}

/// The text of `out` for `player`, in their current notation.
fn render(state: &AppState, player: &str, out: Outbound) -> String {
    match out {
        Outbound::Text(text) => text,
        Outbound::Event(facts, event) => {
            event_frame(&facts, &event, Some(player), state.notation_of(player)).to_string()
        }
        Outbound::State(snapshot) => {
            state_frame(&snapshot, Some(player), state.notation_of(player)).to_string()
        }
    }
}

/// The socket is gone: leave its rooms and the lobby; a player whose last
/// socket this was withdraws their seeks.
async fn goodbye(state: &AppState, session: &Session) {
    for game in &session.watching {
        if let Some(room) = state.rooms.running(game).await {
            let _ = room.send(RoomCommand::Unwatch { conn: session.conn });
        }
    }
    state.lobby.unsubscribe(session.conn);
    if state.hub.leave(&session.player.id, session.conn) {
        state.lobby.remove_seeks_of(&session.player.id);
    }
}
