//! Bad input from clients: every malformed WebSocket frame and HTTP request
//! gets its error (or a clean close), and after each one another client on
//! the same server still plays a game from seek to resignation.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::header::{HeaderValue, COOKIE, SET_COOKIE};
use tokio_tungstenite::tungstenite::protocol::frame::coding::{CloseCode, Data, OpCode};
use tokio_tungstenite::tungstenite::protocol::frame::Frame;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use xiangqi_server::clock::ManualClock;
use xiangqi_server::security::{Rate, Security};
use xiangqi_server::store::Store;
use xiangqi_server::ws::protocol::session_cookie_pair;
use xiangqi_server::Server;

/// How long a test waits for any one frame before it fails.
const FRAME_WAIT: Duration = Duration::from_secs(10);

// ---------------------------------------------------------------- harness

struct TestServer {
    base: String,
    http: reqwest::Client,
}

/// A server on a free loopback port, in-memory SQLite, time standing still.
async fn start_server() -> TestServer {
    let store = Store::open("sqlite::memory:").await.unwrap();
    let clock = ManualClock::new(1_700_000_000_000);
    // Every client here comes from 127.0.0.1: limits for a crowd on one address.
    let many: Rate = "10000/min".parse().unwrap();
    let security = Security {
        guests: many,
        sign_ins: many,
        account_sign_ins: many,
        seeks_per_address: 10_000,
        ..Security::default()
    };
    let server = Server::bind("127.0.0.1:0".parse().unwrap(), store, clock, 1)
        .await
        .unwrap()
        .with_security(security);
    let base = format!("http://{}", server.local_addr());
    tokio::spawn(server.run_until(std::future::pending()));
    TestServer {
        base,
        http: reqwest::Client::new(),
    }
}

impl TestServer {
    /// The session cookie (`xq_session=…`) of a new guest.
    async fn guest_cookie(&self) -> String {
        let response = self
            .http
            .get(format!("{}/api/me", self.base))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        let set_cookie = response.headers().get_all(SET_COOKIE);
        session_cookie_pair(set_cookie.iter().filter_map(|v| v.to_str().ok()))
            .expect("GET /api/me sets the session cookie")
            .to_owned()
    }

    /// A WebSocket of a new guest, before any frame.
    async fn raw_socket(&self) -> Client {
        let cookie = self.guest_cookie().await;
        Client::connect(&self.base, Some(&cookie)).await.unwrap()
    }

    /// A WebSocket of a new guest after the handshake.
    async fn greeted_socket(&self) -> Client {
        let mut client = self.raw_socket().await;
        client.send_json(json!({"t": "hello", "v": 1})).await;
        client.expect("welcome").await;
        client
    }

    /// Two fresh guests play a casual game: a seek, its acceptance, two
    /// moves each acknowledged and seen by both, then a resignation that
    /// ends it. Proves the server still serves everyone normally.
    async fn assert_still_plays(&self) {
        let mut red = self.greeted_socket().await;
        let mut black = self.greeted_socket().await;
        red.send_json(json!({"t": "seek", "tc": "5+3", "color": "red"}))
            .await;
        let seek = red.expect("seek_created").await["seek"]["id"]
            .as_str()
            .unwrap()
            .to_owned();
        black.send_json(json!({"t": "accept", "id": seek})).await;
        let game = black.expect("started").await["game"]
            .as_str()
            .unwrap()
            .to_owned();
        assert_eq!(red.expect("started").await["game"], game.as_str());
        for (client, side) in [(&mut red, "red"), (&mut black, "black")] {
            client.send_json(json!({"t": "watch", "game": game})).await;
            let state = client.expect("state").await;
            assert_eq!(state["you"], side);
        }
        for (ply, mv) in [(0, "h2e2"), (1, "h9g7")] {
            let (mover, other) = if ply % 2 == 0 {
                (&mut red, &mut black)
            } else {
                (&mut black, &mut red)
            };
            mover
                .send_json(json!({"t": "move", "game": game, "ply": ply, "move": mv}))
                .await;
            let ack = mover.expect("ack").await;
            assert_eq!(ack["ply"], ply);
            let event = other.expect_event("move").await;
            assert_eq!(event["event"]["move"]["iccs"], mv);
        }
        red.send_json(json!({"t": "resign", "game": game})).await;
        for client in [&mut red, &mut black] {
            let end = client.expect_event("end").await;
            assert_eq!(end["event"]["result"]["result"], "0-1");
        }
    }

    async fn post_raw(&self, path: &str, content_type: &str, body: Vec<u8>) -> (u16, Value) {
        let response = self
            .http
            .post(format!("{}{path}", self.base))
            .header("content-type", content_type)
            .body(body)
            .send()
            .await
            .unwrap();
        json_answer(response).await
    }

    async fn get(&self, path: &str) -> (u16, Value) {
        let response = self
            .http
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .unwrap();
        json_answer(response).await
    }
}

/// The status and the JSON body of an answer (a body that is not JSON fails).
async fn json_answer(response: reqwest::Response) -> (u16, Value) {
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    let body = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("status {status}: the body is not JSON ({e}): {text:?}"));
    (status, body)
}

/// The error code of a `{"error": {"code", "message"}}` body.
fn error_code(body: &Value) -> &str {
    let message = body["error"]["message"].as_str().unwrap_or_default();
    assert!(!message.is_empty(), "an error says why: {body}");
    body["error"]["code"]
        .as_str()
        .unwrap_or_else(|| panic!("not an error body: {body}"))
}

/// What reading the socket gave.
#[derive(Debug)]
enum Received {
    Frame(Value),
    Closed(Option<CloseFrame>),
}

struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Client {
    async fn connect(base: &str, cookie: Option<&str>) -> Result<Client, WsError> {
        let url = format!("{}/ws", base.replacen("http://", "ws://", 1));
        let mut request = url.as_str().into_client_request()?;
        if let Some(cookie) = cookie {
            request
                .headers_mut()
                .insert(COOKIE, HeaderValue::from_str(cookie).unwrap());
        }
        let (ws, _) = tokio_tungstenite::connect_async(request).await?;
        Ok(Client { ws })
    }

    async fn send(&mut self, message: Message) {
        self.ws.send(message).await.unwrap();
    }

    async fn send_text(&mut self, text: impl Into<String>) {
        self.send(Message::text(text.into())).await;
    }

    async fn send_json(&mut self, value: Value) {
        self.send_text(value.to_string()).await;
    }

    /// The next text frame (parsed) or the close, within [`FRAME_WAIT`].
    async fn receive(&mut self) -> Received {
        loop {
            let next = tokio::time::timeout(FRAME_WAIT, self.ws.next())
                .await
                .expect("a frame or a close within the wait");
            match next {
                Some(Ok(Message::Text(text))) => {
                    let value = serde_json::from_str(text.as_str())
                        .unwrap_or_else(|e| panic!("a server frame is not JSON ({e}): {text}"));
                    return Received::Frame(value);
                }
                Some(Ok(Message::Close(frame))) => return Received::Closed(frame),
                Some(Ok(Message::Binary(_))) => panic!("the server sent a binary frame"),
                Some(Ok(_)) => continue,
                Some(Err(e)) => panic!("the socket failed instead of closing cleanly: {e}"),
                None => return Received::Closed(None),
            }
        }
    }

    /// Reads up to the first frame of type `want`; frames of other types
    /// (lobby news, events, pings) are passed over, but an `error` frame
    /// or a close fails the test.
    async fn expect(&mut self, want: &str) -> Value {
        loop {
            match self.receive().await {
                Received::Frame(frame) if frame["t"] == want => return frame,
                Received::Frame(frame) if frame["t"] == "error" => {
                    panic!("waiting for {want}: {frame}")
                }
                Received::Frame(_) => {}
                Received::Closed(close) => panic!("waiting for {want}: closed {close:?}"),
            }
        }
    }

    /// Reads up to the first `event` frame of `kind`.
    async fn expect_event(&mut self, kind: &str) -> Value {
        loop {
            let event = self.expect("event").await;
            if event["event"]["kind"] == kind {
                return event;
            }
        }
    }

    /// The next frame must be an `error` with `code`.
    async fn expect_error(&mut self, code: &str) -> Value {
        match self.receive().await {
            Received::Frame(frame) if frame["t"] == "error" && frame["code"] == code => {
                assert!(frame["message"].as_str().is_some_and(|m| !m.is_empty()));
                frame
            }
            other => panic!("expected an error {code:?}, got {other:?}"),
        }
    }

    /// The socket must close now (the server's Close frame, then the end).
    async fn expect_close(&mut self) -> Option<CloseFrame> {
        match self.receive().await {
            Received::Closed(frame) => {
                // After the Close frame the stream ends without an error.
                loop {
                    match tokio::time::timeout(FRAME_WAIT, self.ws.next()).await {
                        Ok(None) => break,
                        Ok(Some(Ok(_))) => continue,
                        Ok(Some(Err(WsError::ConnectionClosed))) => break,
                        Ok(Some(Err(e))) => panic!("an unclean end after the close: {e}"),
                        Err(_) => panic!("the socket stayed open after the close"),
                    }
                }
                frame
            }
            Received::Frame(frame) => panic!("expected the socket to close, got {frame}"),
        }
    }

    /// The socket still answers: `ping` gets `pong`.
    async fn assert_open(&mut self) {
        self.send_json(json!({"t": "ping"})).await;
        self.expect("pong").await;
    }
}

fn close_code(frame: &Option<CloseFrame>) -> Option<u16> {
    frame.as_ref().map(|f| u16::from(f.code))
}

// ---------------------------------------------------------------- WebSocket

#[tokio::test]
async fn frames_that_are_not_messages_get_bad_message_and_the_socket_stays_open() {
    let server = start_server().await;
    let mut client = server.greeted_socket().await;
    let cases = [
        "{",
        "not json at all",
        "",
        "[1,2,3]",
        "\"hello\"",
        "42",
        "null",
        r#"{"v":1}"#,
        r#"{"t":5}"#,
        r#"{"t":null}"#,
        r#"{"t":["move"]}"#,
        r#"{"t":"move","game":"g_1","ply":"zero","move":"h2e2"}"#,
        r#"{"t":"move","game":"g_1","ply":-1,"move":"h2e2"}"#,
        r#"{"t":"move","game":"g_1","ply":4294967296,"move":"h2e2"}"#,
        r#"{"t":"move","game":7,"ply":0,"move":"h2e2"}"#,
        r#"{"t":"move","game":"g_1"}"#,
        r#"{"t":"seek","tc":5}"#,
        r#"{"t":"seek","tc":"5+3","rated":"yes"}"#,
        r#"{"t":"seek","tc":"5+3","color":"green"}"#,
        r#"{"t":"play_engine","level":"max","tc":"5+3"}"#,
        r#"{"t":"watch","game":"g_1","since":-4}"#,
        r#"{"t":"hello","v":"one"}"#,
        "{\"t\":\"ping\"}\u{0}garbage",
    ];
    for case in cases {
        client.send_text(case).await;
        let error = client.expect_error("bad_message").await;
        assert!(error.get("ref").is_none() || error["ref"].is_object());
        client.assert_open().await;
    }
    server.assert_still_plays().await;
}

#[tokio::test]
async fn unknown_message_types_get_unknown_type_with_the_type_cut_short() {
    let server = start_server().await;
    let mut client = server.greeted_socket().await;
    for kind in ["dance", "welcome", "state", "MOVE", ""] {
        client.send_json(json!({"t": kind})).await;
        let error = client.expect_error("unknown_type").await;
        assert!(error["message"].as_str().unwrap().contains(kind));
    }
    let long = "x".repeat(1_000);
    client.send_json(json!({"t": long})).await;
    let error = client.expect_error("unknown_type").await;
    assert!(error["message"].as_str().unwrap().len() < 200, "{error}");
    client.assert_open().await;
    server.assert_still_plays().await;
}

#[tokio::test]
async fn well_formed_messages_with_bad_values_are_refused_by_code() {
    const START: &str = xiangqi_core::START_FEN;
    let server = start_server().await;
    let mut client = server.greeted_socket().await;
    let cases = [
        (json!({"t": "seek", "tc": "5"}), "bad_time_control"),
        (json!({"t": "seek", "tc": "-1+3"}), "bad_time_control"),
        (
            json!({"t": "seek", "tc": "5+3", "rules": "blitz-chess"}),
            "unknown_rules",
        ),
        (
            json!({"t": "seek", "tc": "5+3", "rated": true}),
            "guest_rated",
        ),
        (
            json!({"t": "play_engine", "level": 99, "tc": "5+3"}),
            "bad_level",
        ),
        (
            json!({"t": "play_engine", "level": -1, "tc": "5+3"}),
            "bad_level",
        ),
        (json!({"t": "watch", "game": "g_nothing"}), "unknown_game"),
        (
            json!({"t": "move", "game": "g_nothing", "ply": 0, "move": "h2e2"}),
            "unknown_game",
        ),
        (json!({"t": "resign", "game": "g_nothing"}), "unknown_game"),
        (json!({"t": "analyse", "fen": "rnbakabnr/9/9 w"}), "bad_fen"),
        (
            json!({"t": "analyse", "fen": "4k4/9/9/9/9/9/9/9/9/4K4 w"}),
            "illegal_position",
        ),
        (
            json!({"t": "analyse", "fen": START, "multipv": 9}),
            "bad_multipv",
        ),
        (
            json!({"t": "analyse", "fen": START, "multipv": 0}),
            "bad_multipv",
        ),
        (
            json!({"t": "analyse", "fen": START, "moves": ["h2"]}),
            "bad_move",
        ),
        (
            json!({"t": "analyse", "fen": START, "moves": ["h2e2", "h2e2"]}),
            "illegal_move",
        ),
        (
            json!({"t": "analyse", "fen": START, "depth": 30}),
            "bad_message",
        ),
        (json!({"t": "analyse", "fen": 5}), "bad_message"),
        (json!({"t": "stop_analysis"}), "unknown_analysis"),
    ];
    for (message, code) in cases {
        client.send_json(message).await;
        client.expect_error(code).await;
    }
    client.assert_open().await;
    server.assert_still_plays().await;
}

#[tokio::test]
async fn a_frame_over_16_kib_gets_too_large_and_the_socket_stays_open() {
    let server = start_server().await;
    let mut client = server.greeted_socket().await;
    let padded = json!({"t": "ping", "pad": "x".repeat(20 * 1024)});
    client.send_json(padded).await;
    client.expect_error("too_large").await;
    client.assert_open().await;
    server.assert_still_plays().await;
}

#[tokio::test]
async fn a_frame_over_64_kib_closes_the_socket_cleanly() {
    let server = start_server().await;
    let mut client = server.greeted_socket().await;
    let huge = json!({"t": "ping", "pad": "x".repeat(70 * 1024)});
    client.send_json(huge).await;
    let close = client.expect_close().await;
    assert_eq!(close_code(&close), Some(u16::from(CloseCode::Size)));
    server.assert_still_plays().await;
}

#[tokio::test]
async fn binary_frames_get_bad_message_and_the_socket_stays_open() {
    let server = start_server().await;
    let mut client = server.greeted_socket().await;
    client
        .send(Message::binary(br#"{"t":"ping"}"#.to_vec()))
        .await;
    client.expect_error("bad_message").await;
    client.assert_open().await;
    server.assert_still_plays().await;
}

#[tokio::test]
async fn a_text_frame_that_is_not_utf8_closes_the_socket_with_1007() {
    let server = start_server().await;
    let mut client = server.greeted_socket().await;
    let frame = Frame::message(
        b"{\"t\":\"ping\",\"x\":\"\xff\xfe\"}".to_vec(),
        OpCode::Data(Data::Text),
        true,
    );
    client.send(Message::Frame(frame)).await;
    let close = client.expect_close().await;
    assert_eq!(close_code(&close), Some(u16::from(CloseCode::Invalid)));
    server.assert_still_plays().await;
}

#[tokio::test]
async fn a_first_frame_that_is_not_hello_closes_the_socket() {
    let server = start_server().await;
    for first in [
        Message::text(r#"{"t":"ping"}"#),
        Message::text(r#"{"t":"seek","tc":"5+3"}"#),
        Message::text("{"),
        Message::text(r#"{"t":"dance"}"#),
        Message::binary(br#"{"t":"hello","v":1}"#.to_vec()),
    ] {
        let mut client = server.raw_socket().await;
        client.send(first).await;
        client.expect_error("hello_first").await;
        let close = client.expect_close().await;
        assert_eq!(close_code(&close), Some(u16::from(CloseCode::Protocol)));
    }
    server.assert_still_plays().await;
}

#[tokio::test]
async fn a_wrong_protocol_version_closes_the_socket() {
    let server = start_server().await;
    for version in [0, 2, 4_294_967_295u64] {
        let mut client = server.raw_socket().await;
        client.send_json(json!({"t": "hello", "v": version})).await;
        let error = client.expect_error("version").await;
        assert!(error["message"].as_str().unwrap().contains("version 1"));
        let close = client.expect_close().await;
        assert_eq!(close_code(&close), Some(u16::from(CloseCode::Protocol)));
    }
    server.assert_still_plays().await;
}

#[tokio::test]
async fn a_flood_gets_flood_then_the_socket_closes() {
    let server = start_server().await;
    let mut client = server.greeted_socket().await;
    // The clock stands still, so nothing refills the bucket of 100.
    for _ in 0..150 {
        client.send_json(json!({"t": "ping"})).await;
    }
    let mut pongs = 0;
    let error = loop {
        match client.receive().await {
            Received::Frame(frame) if frame["t"] == "pong" => pongs += 1,
            Received::Frame(frame) => break frame,
            Received::Closed(close) => {
                panic!("closed after {pongs} pongs without a word: {close:?}")
            }
        }
    };
    assert_eq!(error["t"], "error");
    assert_eq!(error["code"], "flood");
    assert_eq!(pongs, 100, "the burst of 100 is served");
    let close = client.expect_close().await;
    assert_eq!(close_code(&close), Some(u16::from(CloseCode::Policy)));
    server.assert_still_plays().await;
}

#[tokio::test]
async fn the_websocket_needs_a_session() {
    let server = start_server().await;
    for cookie in [None, Some("xq_session=forged"), Some("xq_session=")] {
        match Client::connect(&server.base, cookie).await {
            Err(WsError::Http(response)) => {
                assert_eq!(response.status(), 401, "{cookie:?}");
                let body = response.body().as_deref().unwrap_or_default();
                let body: Value = serde_json::from_slice(body).unwrap();
                assert_eq!(error_code(&body), "not_signed_in");
            }
            Err(e) => panic!("{cookie:?}: expected 401, got {e}"),
            Ok(_) => panic!("{cookie:?}: a socket without a session was opened"),
        }
    }
    server.assert_still_plays().await;
}

// ---------------------------------------------------------------- HTTP

#[tokio::test]
async fn bad_json_bodies_get_json_errors() {
    let server = start_server().await;
    let json = "application/json";
    let cases: [(&str, &str, &[u8], u16, &str); 8] = [
        ("/api/register", json, b"{", 400, "bad_json"),
        ("/api/register", json, b"[1,2]", 422, "bad_json"),
        (
            "/api/register",
            json,
            b"{\"name\":5,\"password\":\"x\"}",
            422,
            "bad_json",
        ),
        (
            "/api/register",
            json,
            b"{\"name\":\"abc\"}",
            422,
            "bad_json",
        ),
        ("/api/register", json, b"\xff\xfe{}", 400, "bad_json"),
        ("/api/login", json, b"", 400, "bad_json"),
        (
            "/api/login",
            "text/plain",
            b"{\"name\":\"a\",\"password\":\"b\"}",
            415,
            "not_json",
        ),
        (
            "/api/register",
            "application/x-www-form-urlencoded",
            b"name=a&password=b",
            415,
            "not_json",
        ),
    ];
    for (path, content_type, body, status, code) in cases {
        let (got, answer) = server.post_raw(path, content_type, body.to_vec()).await;
        assert_eq!(got, status, "{path} {body:?}: {answer}");
        assert_eq!(error_code(&answer), code, "{path} {body:?}");
    }
    // Settings with a session: a bad body, then a bad notation, language or piece set.
    let cookie = server.guest_cookie().await;
    for (body, status, code) in [
        (json!({"notation": 3}), 422, "bad_json"),
        (json!({"notation": "klingon"}), 400, "bad_notation"),
        (json!({"language": "klingon"}), 400, "bad_language"),
        (json!({"language": "EN"}), 400, "bad_language"),
        (json!({"pieces": "emoji"}), 400, "bad_pieces"),
        (json!({"language": 7}), 422, "bad_json"),
    ] {
        let response = server
            .http
            .put(format!("{}/api/settings", server.base))
            .header(COOKIE.as_str(), &cookie)
            .json(&body)
            .send()
            .await
            .unwrap();
        let (got, answer) = json_answer(response).await;
        assert_eq!(got, status, "{body}: {answer}");
        assert_eq!(error_code(&answer), code);
    }
    server.assert_still_plays().await;
}

#[tokio::test]
async fn oversized_bodies_get_too_large() {
    let server = start_server().await;
    let password = "p".repeat(100 * 1024);
    let body = json!({"name": "bigbody", "password": password}).to_string();
    let (status, answer) = server
        .post_raw("/api/register", "application/json", body.into_bytes())
        .await;
    assert_eq!(status, 413, "{answer}");
    assert_eq!(error_code(&answer), "too_large");
    let (status, answer) = server.get("/api/players/bigbody").await;
    assert_eq!(status, 404, "nothing was registered: {answer}");
    server.assert_still_plays().await;
}

#[tokio::test]
async fn unknown_api_paths_and_methods_get_json_errors() {
    let server = start_server().await;
    for path in [
        "/api/nothing",
        "/api/",
        "/api/games",
        "/api/games/g_1/moves",
        "/api/players",
        "/api/me/extra",
    ] {
        let (status, body) = server.get(path).await;
        assert_eq!(status, 404, "{path}: {body}");
        assert_eq!(error_code(&body), "not_found", "{path}");
    }
    let (status, body) = server
        .post_raw("/api/nothing", "application/json", b"{}".to_vec())
        .await;
    assert_eq!(status, 404);
    assert_eq!(error_code(&body), "not_found");
    for path in ["/api/register", "/api/login", "/api/settings"] {
        let (status, body) = server.get(path).await;
        assert_eq!(status, 405, "{path}: {body}");
        assert_eq!(error_code(&body), "method_not_allowed", "{path}");
    }
    let (status, body) = server.get("/api/players/nobody-here").await;
    assert_eq!(status, 404);
    assert_eq!(error_code(&body), "not_found");
    let (status, body) = server.get("/api/games/g_nothing").await;
    assert_eq!(status, 404);
    assert_eq!(error_code(&body), "not_found");
    for path in ["/api/players/%FF%FE", "/api/games/%C0"] {
        let (status, body) = server.get(path).await;
        assert_eq!(status, 400, "{path}: {body}");
        assert_eq!(error_code(&body), "bad_path", "{path}");
    }
    server.assert_still_plays().await;
}

#[tokio::test]
async fn register_refuses_bad_names_and_passwords() {
    let server = start_server().await;
    let good_password = "correct horse";
    let cases = [
        (json!({"name": "ab", "password": good_password}), "bad_name"),
        (
            json!({"name": "x".repeat(21), "password": good_password}),
            "bad_name",
        ),
        (
            json!({"name": "has space", "password": good_password}),
            "bad_name",
        ),
        (
            json!({"name": "semi;colon", "password": good_password}),
            "bad_name",
        ),
        (
            json!({"name": "名字名字", "password": good_password}),
            "bad_name",
        ),
        (json!({"name": "", "password": good_password}), "bad_name"),
        (
            json!({"name": "a\u{0}bc", "password": good_password}),
            "bad_name",
        ),
        (
            json!({"name": "okname", "password": "short"}),
            "bad_password",
        ),
        (json!({"name": "okname", "password": ""}), "bad_password"),
        (
            json!({"name": "okname", "password": "p".repeat(201)}),
            "bad_password",
        ),
    ];
    for (body, code) in cases {
        let (status, answer) = server
            .post_raw(
                "/api/register",
                "application/json",
                body.to_string().into_bytes(),
            )
            .await;
        assert_eq!(status, 400, "{body}: {answer}");
        assert_eq!(error_code(&answer), code, "{body}");
    }
    // None of them made an account.
    let (status, _) = server.get("/api/players/okname").await;
    assert_eq!(status, 404);
    server.assert_still_plays().await;
}
