//! One socket's life: the `hello`/`welcome` handshake, a reader that
//! checks and dispatches each frame, a writer that renders what the lobby
//! and rooms send in the player's notation, keep-alive pings, and the
//! goodbye that tells the rooms this socket is gone.

use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::mpsc;

use crate::game::room::RoomCommand;
use crate::game::view::{event_frame, state_frame};
use crate::game::{ConnId, Outbound};
use crate::http::auth::player_view;
use crate::notation_setting::NotationSetting;
use crate::security::AddressKey;
use crate::state::AppState;
use crate::store::PlayerRow;
use crate::ws::dispatch;
use crate::ws::flood::FloodGate;
use crate::ws::protocol::echo::{cut_message, MAX_ECHO_CHARS};
use crate::ws::protocol::server::{ErrorFrame, ErrorRef};
use crate::ws::protocol::{decode, ClientMessage, ServerMessage, PROTOCOL_VERSION};

/// The server pings an idle socket this often.
const PING_EVERY: Duration = Duration::from_secs(10);
/// A socket silent for this long (no frame, no pong: two pings unanswered)
/// is closed. A page that can no longer answer (frozen, or kept in a
/// browser's back/forward cache with its socket open) then counts as gone
/// well within the 45 s of R-CLOCK-ABANDON, rather than after them.
const SILENT_LIMIT: Duration = Duration::from_secs(25);
/// A write that takes longer means the client stopped reading.
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);
/// Frames queued for a client that reads too slowly, at most.
const MAX_QUEUED: usize = 4_096;
/// The first frame must come within this.
const HELLO_TIMEOUT: Duration = Duration::from_secs(10);
/// After the server's Close frame, the client's reply is awaited this long.
const CLOSE_GRACE: Duration = Duration::from_secs(2);

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
    /// Its client's address (seeks are capped per address too).
    pub address: AddressKey,
}

/// An `error` frame. The message is cut to
/// [`MAX_MESSAGE_CHARS`](crate::ws::protocol::echo::MAX_MESSAGE_CHARS) and
/// each text in `ref` (ids the client sent) to a few dozen characters.
pub fn error_frame(code: &str, message: &str, reference: Option<ErrorRef>) -> String {
    error_frame_with_args(code, message, reference, None)
}

/// An `error` frame with `args`, what the client's words for the code need.
pub fn error_frame_with_args(
    code: &str,
    message: &str,
    reference: Option<ErrorRef>,
    args: Option<serde_json::Value>,
) -> String {
    let cut = |id: Option<String>| id.map(|id| id.chars().take(MAX_ECHO_CHARS).collect());
    let reference = reference.map(|r| ErrorRef {
        seek: cut(r.seek),
        game: cut(r.game),
        ply: r.ply,
    });
    ServerMessage::Error(ErrorFrame {
        code: code.to_string(),
        message: cut_message(message),
        reference,
        args,
    })
    .to_text()
}

/// Runs the socket of `player` until it closes.
pub async fn run(socket: WebSocket, state: AppState, player: PlayerRow, address: AddressKey) {
    let (mut sink, mut stream) = socket.split();
    // The handshake: `hello` with our version, first.
    let first = tokio::time::timeout(HELLO_TIMEOUT, stream.next()).await;
    let hello = match first {
        Ok(Some(Ok(Message::Text(text)))) => Some(decode(text.as_str())),
        Ok(Some(Ok(Message::Binary(_)))) => None,
        Ok(Some(Err(error))) => {
            if let Some((code, reason)) = Ending::ReadFailed(failure_code(error)).close() {
                let _ = sink.send(close(code, reason)).await;
                await_close_reply(&mut stream).await;
            }
            return;
        }
        _ => return,
    };
    let refusal = match hello {
        Some(Ok(ClientMessage::Hello { v })) if v == PROTOCOL_VERSION => None,
        Some(Ok(ClientMessage::Hello { v })) => Some((
            "version",
            format!("this server speaks protocol version {PROTOCOL_VERSION}, not {v}"),
            "protocol version",
        )),
        _ => Some((
            "hello_first",
            "the first frame must be {\"t\":\"hello\",\"v\":1}".to_string(),
            "hello first",
        )),
    };
    if let Some((code, message, reason)) = refusal {
        let _ = sink.send(text(error_frame(code, &message, None))).await;
        let _ = sink.send(close(1002, reason)).await;
        await_close_reply(&mut stream).await;
        return;
    }
    let welcome = ServerMessage::Welcome {
        v: PROTOCOL_VERSION,
        player: player_view(&player),
    };
    if sink.send(text(welcome.to_text())).await.is_err() {
        return;
    }

    let (out, outbox) = mpsc::unbounded_channel();
    let conn = NEXT_CONN.fetch_add(1, Ordering::Relaxed);
    let notation = NotationSetting::parse(&player.notation).unwrap_or_default();
    state.hub.join(&player.id, conn, out.clone(), notation);
    let player_id = player.id.clone();
    let mut session = Session {
        conn,
        player,
        out,
        watching: HashSet::new(),
        in_lobby: false,
        address,
    };
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<Ending>();
    let writer = tokio::spawn(write_loop(
        sink,
        outbox,
        state.clone(),
        player_id.clone(),
        stop_rx,
    ));
    let ending = read_loop(&mut stream, &state, &mut session).await;
    let _ = stop_tx.send(ending);
    let _ = writer.await;
    goodbye(&state, &session).await;
    if ending.close().is_some() {
        await_close_reply(&mut stream).await;
    }
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

/// Why a socket's reader stopped.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Ending {
    /// The client closed it, or the connection is gone.
    Gone,
    /// No frame for [`SILENT_LIMIT`].
    Silent,
    /// Frames faster than the flood limit.
    Flood,
    /// Reading failed with this close code (1009: too large, 1007: text
    /// not UTF-8, 1002: not WebSocket), or `None` when the connection broke.
    ReadFailed(Option<u16>),
}

impl Ending {
    /// The Close frame the server sends, if the socket can still take one.
    fn close(self) -> Option<(u16, &'static str)> {
        match self {
            Ending::Gone | Ending::ReadFailed(None) => None,
            Ending::Silent => Some((1000, "silent too long")),
            Ending::Flood => Some((1008, "flood")),
            Ending::ReadFailed(Some(1009)) => Some((1009, "message too large")),
            Ending::ReadFailed(Some(1007)) => Some((1007, "text is not UTF-8")),
            Ending::ReadFailed(Some(code)) => Some((code, "protocol error")),
        }
    }
}

/// The close code for a failed read; `None` when the connection itself broke.
fn failure_code(error: axum::Error) -> Option<u16> {
    let cause = error.into_inner();
    match cause.downcast_ref::<tungstenite::Error>()? {
        tungstenite::Error::Capacity(_) => Some(1009),
        tungstenite::Error::Utf8(_) => Some(1007),
        tungstenite::Error::Protocol(_) => Some(1002),
        _ => None,
    }
}

/// After the server's Close frame: reads (and drops) what the client still
/// sends until its Close reply, for at most [`CLOSE_GRACE`], so the
/// connection ends with the closing handshake rather than a reset.
async fn await_close_reply(stream: &mut SplitStream<WebSocket>) {
    let _ = tokio::time::timeout(CLOSE_GRACE, async {
        while let Some(Ok(message)) = stream.next().await {
            if matches!(message, Message::Close(_)) {
                break;
            }
        }
    })
    .await;
}

/// Reads frames until the socket ends or misbehaves; says why it stopped.
async fn read_loop(
    stream: &mut SplitStream<WebSocket>,
    state: &AppState,
    session: &mut Session,
) -> Ending {
    let mut gate = FloodGate::new(state.clock.now_ms());
    loop {
        let next = match tokio::time::timeout(SILENT_LIMIT, stream.next()).await {
            Ok(next) => next,
            Err(_) => return Ending::Silent,
        };
        let frame = match next {
            Some(Ok(Message::Text(frame))) => frame,
            Some(Ok(Message::Binary(_))) => {
                let message = "frames are JSON text, not binary";
                session.send_text(error_frame("bad_message", message, None));
                continue;
            }
            Some(Ok(Message::Close(_))) | None => return Ending::Gone,
            Some(Err(error)) => return Ending::ReadFailed(failure_code(error)),
            Some(Ok(_)) => continue, // WebSocket pings: axum answers them.
        };
        if !gate.admit(state.clock.now_ms()) {
            let message = "too many frames: at most 50 a second on average";
            session.send_text(error_frame("flood", message, None));
            return Ending::Flood;
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
/// idle; when told to stop, writes what is still queued (the frame that
/// says why, for one) and the Close frame; stops too when the client stops
/// reading, or on error.
async fn write_loop(
    mut sink: SplitSink<WebSocket, Message>,
    mut outbox: mpsc::UnboundedReceiver<Outbound>,
    state: AppState,
    player: String,
    mut stop: tokio::sync::oneshot::Receiver<Ending>,
) {
    let mut ping = tokio::time::interval(PING_EVERY);
    ping.tick().await;
    loop {
        let frame = tokio::select! {
            ending = &mut stop => {
                let ending = ending.unwrap_or(Ending::Gone);
                let _ = tokio::time::timeout(WRITE_TIMEOUT, async {
                    while let Ok(out) = outbox.try_recv() {
                        sink.send(text(render(&state, &player, out))).await?;
                    }
                    if let Some((code, reason)) = ending.close() {
                        sink.send(close(code, reason)).await?;
                    }
                    Ok::<(), axum::Error>(())
                })
                .await;
                return;
            }
            _ = ping.tick() => ServerMessage::Ping.to_text(),
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
            event_frame(&facts, &event, Some(player), state.hub.notation_of(player)).to_text()
        }
        Outbound::State(snapshot) => {
            state_frame(&snapshot, Some(player), state.hub.notation_of(player)).to_text()
        }
    }
}

/// The socket is gone: leave its rooms and the lobby; a player whose last
/// socket this was withdraws their seeks.
async fn goodbye(state: &AppState, session: &Session) {
    for game in &session.watching {
        state.social.readers.leave(game, session.conn);
        if let Some(room) = state.rooms.running(game).await {
            let _ = room.send(RoomCommand::Unwatch { conn: session.conn });
        }
    }
    state.lobby.unsubscribe(session.conn);
    state
        .analyses
        .socket_closed(&session.player.id, session.conn);
    if state.hub.leave(&session.player.id, session.conn) {
        state.lobby.remove_seeks_of(&session.player.id);
    }
}
