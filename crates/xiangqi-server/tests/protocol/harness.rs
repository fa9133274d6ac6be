//! A server on 127.0.0.1 with a hand-moved clock and an in-memory store,
//! and a small client: an HTTP session (its own cookie jar) and WebSocket
//! tabs that greet, send JSON and wait for a frame of a given type.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use reqwest::cookie::{CookieStore, Jar};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::header::COOKIE;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use xiangqi_server::clock::ManualClock;
use xiangqi_server::security::{Rate, Security};
use xiangqi_server::state::AppState;
use xiangqi_server::store::Store;
use xiangqi_server::Server;

/// How long a test waits for a frame it expects.
const FRAME_TIMEOUT: Duration = Duration::from_secs(5);
/// How long "nothing more arrives" is watched for.
pub const QUIET: Duration = Duration::from_millis(150);
/// The unix time at monotonic 0 of the test clock.
const UNIX_ORIGIN_MS: i64 = 1_700_000_000_000;
/// Frames that come unasked and that no test here is about.
const NOISE: &[&str] = &[
    "ping",
    "lobby",
    "seek_added",
    "seek_removed",
    "game_added",
    "game_removed",
];

/// Every test client comes from 127.0.0.1: the per-address limits are
/// set for a crowd on one address (the attacks that run into them are in
/// `tests/attacks.rs`).
pub fn every_client_on_one_address() -> Security {
    let many: Rate = "10000/min".parse().expect("a rate");
    Security {
        guests: many,
        sign_ins: many,
        account_sign_ins: many,
        seeks_per_address: 10_000,
        ..Security::default()
    }
}

/// A running server and its clock.
pub struct TestServer {
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    /// The server's time.
    pub clock: Arc<ManualClock>,
    /// The server's shared state, to see which rooms run.
    pub state: AppState,
    /// Games in progress it resumed at start.
    pub resumed: usize,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    running: Option<tokio::task::JoinHandle<Result<(), xiangqi_server::ServeError>>>,
}

impl TestServer {
    /// Starts a server on a free port over a fresh in-memory database.
    pub async fn start() -> TestServer {
        TestServer::start_on("sqlite::memory:").await
    }

    /// Starts a server on a free port over the database at `url`, resuming
    /// the games it holds.
    pub async fn start_on(url: &str) -> TestServer {
        let store = Store::open(url).await.expect("store");
        let clock = ManualClock::new(UNIX_ORIGIN_MS);
        let server = Server::bind("127.0.0.1:0".parse().unwrap(), store, clock.clone(), 1)
            .await
            .expect("bind")
            .with_security(every_client_on_one_address());
        let base = format!("http://{}", server.local_addr());
        let state = server.state().clone();
        let resumed = server.resumed_games();
        let (shutdown, stop) = tokio::sync::oneshot::channel::<()>();
        let running = tokio::spawn(server.run_until(async move {
            let _ = stop.await;
        }));
        TestServer {
            base,
            clock,
            state,
            resumed,
            shutdown: Some(shutdown),
            running: Some(running),
        }
    }

    /// Stops serving (open sockets must be closed first) and waits for it.
    pub async fn stop(mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        if let Some(running) = self.running.take() {
            let served = tokio::time::timeout(FRAME_TIMEOUT, running).await;
            served
                .expect("the server stops")
                .expect("server task")
                .expect("serving");
        }
    }

    /// Moves the server's clock forward.
    pub fn advance(&self, ms: u64) {
        self.clock.advance(ms);
    }

    /// Waits until no game room runs (finished rooms stop once nobody
    /// watches; the next visit loads the game from the store).
    pub async fn rooms_stopped(&self) {
        let deadline = tokio::time::Instant::now() + FRAME_TIMEOUT;
        while !self.state.rooms.is_empty().await {
            assert!(tokio::time::Instant::now() < deadline, "a room still runs");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    /// Engine searches holding a slot now.
    pub fn engine_searches(&self) -> usize {
        self.state.engine_slots.running()
    }

    /// Waits until no engine search holds a slot, for at most `wait`;
    /// false if one still does then.
    pub async fn engine_idle_within(&self, wait: Duration) -> bool {
        let deadline = tokio::time::Instant::now() + wait;
        while self.engine_searches() > 0 {
            if tokio::time::Instant::now() >= deadline {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        true
    }

    /// Waits until an engine search holds a slot, for at most `wait`.
    pub async fn engine_busy_within(&self, wait: Duration) -> bool {
        let deadline = tokio::time::Instant::now() + wait;
        while self.engine_searches() == 0 {
            if tokio::time::Instant::now() >= deadline {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        true
    }

    /// A new visitor: a guest made by `GET /api/me`.
    pub async fn guest(&self) -> Client {
        let client = Client::new(&self.base);
        let me = client.get_json("/api/me").await;
        assert_eq!(me["guest"], true, "{me}");
        Client { me, ..client }
    }

    /// A new visitor who registers as `name`.
    pub async fn account(&self, name: &str) -> Client {
        let mut client = self.guest().await;
        let body = json!({"name": name, "password": "correct horse"});
        let (status, me) = client.post_json("/api/register", &body).await;
        assert_eq!(status, 200, "register {name}: {me}");
        assert_eq!(me["guest"], false, "{me}");
        client.me = me;
        client
    }

    /// `GET path` as anybody.
    pub async fn get_json(&self, path: &str) -> Value {
        Client::new(&self.base).get_json(path).await
    }

    /// `GET path` as text, with its status.
    pub async fn get_text(&self, path: &str) -> (u16, String) {
        let response = reqwest::get(format!("{}{path}", self.base))
            .await
            .expect("GET");
        let status = response.status().as_u16();
        (status, response.text().await.expect("body"))
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
    }
}

/// One browser: an HTTP client with its own cookies.
pub struct Client {
    base: String,
    jar: Arc<Jar>,
    http: reqwest::Client,
    /// The player as `GET /api/me` or registration gave it.
    pub me: Value,
}

impl Client {
    fn new(base: &str) -> Client {
        let jar = Arc::new(Jar::default());
        let http = reqwest::Client::builder()
            .cookie_provider(jar.clone())
            .build()
            .expect("http client");
        Client {
            base: base.to_string(),
            jar,
            http,
            me: Value::Null,
        }
    }

    /// The same browser (cookies and all) visiting `server` instead.
    pub fn visiting(self, server: &TestServer) -> Client {
        Client {
            base: server.base.clone(),
            ..self
        }
    }

    /// The player's id.
    pub fn id(&self) -> &str {
        self.me["id"].as_str().expect("player id")
    }

    /// The player's name.
    pub fn name(&self) -> &str {
        self.me["name"].as_str().expect("player name")
    }

    /// `GET path`, expecting a JSON 200.
    pub async fn get_json(&self, path: &str) -> Value {
        let response = self
            .http
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .expect("GET");
        assert_eq!(response.status().as_u16(), 200, "GET {path}");
        response.json().await.expect("JSON body")
    }

    /// `POST path` with a JSON body; the status and JSON answer.
    pub async fn post_json(&self, path: &str, body: &Value) -> (u16, Value) {
        let response = self
            .http
            .post(format!("{}{path}", self.base))
            .json(body)
            .send()
            .await
            .expect("POST");
        let status = response.status().as_u16();
        (status, response.json().await.expect("JSON body"))
    }

    /// `PUT path` with a JSON body; the status and JSON answer.
    pub async fn put_json(&self, path: &str, body: &Value) -> (u16, Value) {
        let response = self
            .http
            .put(format!("{}{path}", self.base))
            .json(body)
            .send()
            .await
            .expect("PUT");
        let status = response.status().as_u16();
        (status, response.json().await.expect("JSON body"))
    }

    /// Opens a WebSocket with this browser's session and greets the server.
    pub async fn connect(&self) -> Tab {
        let ws_url = format!("{}/ws", self.base.replace("http://", "ws://"));
        let mut request = ws_url.as_str().into_client_request().expect("ws request");
        let url: reqwest::Url = self.base.parse().expect("base URL");
        let cookie = self.jar.cookies(&url).expect("a session cookie");
        request.headers_mut().insert(COOKIE, cookie);
        let (ws, _) = tokio_tungstenite::connect_async(request)
            .await
            .expect("WebSocket handshake");
        let mut tab = Tab {
            ws,
            pending: VecDeque::new(),
        };
        tab.send(json!({"t": "hello", "v": 1})).await;
        let welcome = tab.expect("welcome").await;
        assert_eq!(welcome["v"], 1);
        assert_eq!(welcome["player"]["id"], self.me["id"], "{welcome}");
        tab
    }
}

/// One open WebSocket.
pub struct Tab {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// Frames read while waiting for another type, in order.
    pending: VecDeque<Value>,
}

impl Tab {
    /// Sends one JSON frame.
    pub async fn send(&mut self, frame: Value) {
        self.ws
            .send(Message::text(frame.to_string()))
            .await
            .expect("send");
    }

    /// The next frame from the socket that is not noise (pings answered);
    /// `None` when nothing comes within `wait`.
    async fn read(&mut self, wait: Duration) -> Option<Value> {
        loop {
            let message = match tokio::time::timeout(wait, self.ws.next()).await {
                Err(_) => return None,
                Ok(Some(Ok(message))) => message,
                Ok(other) => panic!("the socket ended: {other:?}"),
            };
            let Message::Text(text) = message else {
                continue;
            };
            let frame: Value = serde_json::from_str(text.as_str()).expect("JSON frame");
            let kind = frame["t"].as_str().unwrap_or_default();
            if kind == "ping" {
                self.send(json!({"t": "pong"})).await;
            }
            if !NOISE.contains(&kind) {
                return Some(frame);
            }
        }
    }

    /// The next `event` of `kind`, waiting up to `limit` for it (pings
    /// answered meanwhile); other frames that come first are kept.
    pub async fn expect_event_within(&mut self, kind: &str, limit: Duration) -> Value {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            let Some(frame) = self.read(left).await else {
                panic!(
                    "no {kind:?} event within {limit:?}; kept: {:?}",
                    self.pending
                );
            };
            if frame["t"] == "event" && frame["event"]["kind"] == kind {
                return frame;
            }
            self.pending.push_back(frame);
        }
    }

    /// Reads on, answering nothing, until the server closes the socket;
    /// the code and reason of its Close frame.
    pub async fn closed_by_server(&mut self, limit: Duration) -> (u16, String) {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            match tokio::time::timeout(left, self.ws.next()).await {
                Err(_) => panic!("the server did not close the socket within {limit:?}"),
                Ok(Some(Ok(Message::Close(Some(frame))))) => {
                    return (frame.code.into(), frame.reason.to_string())
                }
                Ok(Some(Ok(_))) => {}
                Ok(other) => panic!("the socket ended without a Close frame: {other:?}"),
            }
        }
    }

    /// The first frame of type `t` (kept or new); frames of other types that
    /// come first are kept, in order, for later calls.
    pub async fn expect(&mut self, t: &str) -> Value {
        self.expect_within(t, FRAME_TIMEOUT).await
    }

    /// [`Tab::expect`], waiting up to `wait` for the frame.
    pub async fn expect_within(&mut self, t: &str, wait: Duration) -> Value {
        if let Some(i) = self.pending.iter().position(|f| f["t"] == t) {
            return self.pending.remove(i).expect("kept frame");
        }
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            let Some(frame) = self.read(left).await else {
                panic!("no {t:?} frame within {wait:?}; kept: {:?}", self.pending);
            };
            if frame["t"] == t {
                return frame;
            }
            self.pending.push_back(frame);
        }
    }

    /// The next `event` of `kind`, skipping presence news (`away`, `back`)
    /// unless that is the kind asked for; any other event first fails.
    pub async fn expect_event(&mut self, kind: &str) -> Value {
        loop {
            let event = self.expect("event").await;
            let got = event["event"]["kind"].as_str().unwrap_or_default();
            if got == kind {
                return event;
            }
            assert!(
                got == "away" || got == "back",
                "expected a {kind:?} event, got {event}"
            );
        }
    }

    /// The next `error` frame, which must have `code`.
    pub async fn expect_error(&mut self, code: &str) -> Value {
        let error = self.expect("error").await;
        assert_eq!(error["code"], code, "{error}");
        assert!(
            error["message"].as_str().is_some_and(|m| !m.is_empty()),
            "{error}"
        );
        error
    }

    /// Asserts that no frame but presence news is kept or arrives for
    /// [`QUIET`].
    pub async fn expect_quiet(&mut self) {
        let presence = |f: &Value| {
            f["t"] == "event" && matches!(f["event"]["kind"].as_str(), Some("away" | "back"))
        };
        self.pending.retain(|f| !presence(f));
        assert!(self.pending.is_empty(), "unexpected: {:?}", self.pending);
        while let Some(frame) = self.read(QUIET).await {
            assert!(presence(&frame), "unexpected: {frame}");
        }
    }

    /// Asserts that no frame at all is kept or arrives for [`QUIET`].
    pub async fn expect_silence(&mut self) {
        assert!(self.pending.is_empty(), "unexpected: {:?}", self.pending);
        if let Some(frame) = self.read(QUIET).await {
            panic!("unexpected: {frame}");
        }
    }

    /// Watches `game` (from its start) and returns its `state`.
    pub async fn watch(&mut self, game: &str) -> Value {
        self.send(json!({"t": "watch", "game": game})).await;
        let state = self.expect("state").await;
        assert_eq!(state["game"], game);
        state
    }

    /// Plays `mv` at `ply` and waits for its `ack` and its own move event.
    pub async fn play(&mut self, game: &str, ply: u32, mv: &str) -> Value {
        self.send(json!({"t": "move", "game": game, "ply": ply, "move": mv}))
            .await;
        let ack = self.expect("ack").await;
        assert_eq!(
            (ack["game"].as_str(), ack["ply"].as_u64()),
            (Some(game), Some(ply as u64))
        );
        let event = self.expect_event("move").await;
        assert_eq!(event["event"]["move"]["iccs"], mv, "{event}");
        event
    }

    /// Closes the socket.
    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
        // Read until the server's close comes back, so it has seen ours.
        while let Ok(Some(Ok(_))) = tokio::time::timeout(FRAME_TIMEOUT, self.ws.next()).await {}
    }
}

/// A game between two players, each with one tab watching it.
pub struct Table {
    /// The game's id.
    pub id: String,
    /// Red's tab.
    pub red: Tab,
    /// Black's tab.
    pub black: Tab,
}

impl Table {
    /// Red seeks (`tc`, `rated`), Black accepts, both watch the game.
    pub async fn start(red: &Client, black: &Client, tc: &str, rated: bool) -> Table {
        let mut red_tab = red.connect().await;
        let mut black_tab = black.connect().await;
        red_tab
            .send(json!({"t": "seek", "tc": tc, "rated": rated, "color": "red"}))
            .await;
        let created = red_tab.expect("seek_created").await;
        let seek = created["seek"]["id"].as_str().expect("seek id").to_string();
        black_tab.send(json!({"t": "accept", "id": seek})).await;
        let started = black_tab.expect("started").await;
        let id = started["game"].as_str().expect("game id").to_string();
        assert_eq!(red_tab.expect("started").await["game"], id.as_str());
        let state = red_tab.watch(&id).await;
        assert_eq!(state["you"], "red", "{state}");
        assert_eq!(state["summary"]["rated"], rated);
        assert_eq!(state["summary"]["red"]["id"], red.id());
        assert_eq!(state["summary"]["black"]["id"], black.id());
        let state = black_tab.watch(&id).await;
        assert_eq!(state["you"], "black", "{state}");
        Table {
            id,
            red: red_tab,
            black: black_tab,
        }
    }

    /// Plays `moves` (ICCS, Red first, from ply `first_ply`) alternately,
    /// each seen by both players; the last move's event (as Red saw it).
    pub async fn play_line(&mut self, first_ply: u32, moves: &[&str]) -> Value {
        let mut last = Value::Null;
        for (i, mv) in moves.iter().enumerate() {
            let ply = first_ply + i as u32;
            let (mover, other) = if ply % 2 == 0 {
                (&mut self.red, &mut self.black)
            } else {
                (&mut self.black, &mut self.red)
            };
            let mine = mover.play(&self.id, ply, mv).await;
            let theirs = other.expect_event("move").await;
            assert_eq!(mine["v"], theirs["v"]);
            assert_eq!(theirs["event"]["move"]["iccs"], *mv);
            last = if ply % 2 == 0 { mine } else { theirs };
        }
        last
    }
}
