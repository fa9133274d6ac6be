//! Crash safety of `xiangqi serve`: two accounts play rated games to their
//! end and leave one in progress, the server is killed with SIGKILL in the
//! middle of that game, and a new server on the same data directory has
//! every finished game's PGN byte for byte, the same ratings and rating
//! histories, and the game in progress back with its moves, still playable.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::header::{HeaderValue, COOKIE, SET_COOKIE};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use xiangqi_server::ws::protocol::session_cookie_pair;

/// How long the test waits for any one frame or for the server to start.
const WAIT: Duration = Duration::from_secs(30);

// ---------------------------------------------------------------- the server

/// A running `xiangqi serve`, killed when dropped.
struct Serve {
    child: Child,
    base: String,
    /// Kept open: a closed pipe would make the server's next print fail.
    _stdout: BufReader<ChildStdout>,
}

impl Serve {
    /// Starts `xiangqi serve` on a free loopback port over `data`, and
    /// waits for the line that names its URL.
    fn start(data: &Path) -> Serve {
        let mut child = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
            .args(["serve", "--addr", "127.0.0.1:0", "--engine-threads", "1"])
            .arg("--data")
            .arg(data)
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("xiangqi serve starts");
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        stdout
            .read_line(&mut line)
            .expect("xiangqi serve prints its URL");
        let url = line
            .trim()
            .strip_prefix("xiangqi serve: open ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"));
        Serve {
            child,
            base: url.trim_end_matches('/').to_owned(),
            _stdout: stdout,
        }
    }

    /// SIGKILL: no shutdown code runs.
    fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

// ---------------------------------------------------------------- HTTP

/// Registers `name` (from a fresh guest) and returns its session cookie.
async fn register(http: &reqwest::Client, base: &str, name: &str) -> String {
    let response = http
        .post(format!("{base}/api/register"))
        .json(&json!({"name": name, "password": "a long enough password"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200, "registering {name}");
    let set_cookie = response.headers().get_all(SET_COOKIE);
    session_cookie_pair(set_cookie.iter().filter_map(|v| v.to_str().ok()))
        .expect("register sets the session cookie")
        .to_owned()
}

async fn get_text(http: &reqwest::Client, url: String) -> String {
    let response = http.get(&url).send().await.unwrap();
    assert_eq!(response.status(), 200, "GET {url}");
    response.text().await.unwrap()
}

async fn get_json(http: &reqwest::Client, url: String) -> Value {
    serde_json::from_str(&get_text(http, url).await).unwrap()
}

// ---------------------------------------------------------------- WebSocket

struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Client {
    /// A greeted socket of the player whose session `cookie` is.
    async fn open(base: &str, cookie: &str) -> Client {
        let url = format!("{}/ws", base.replacen("http://", "ws://", 1));
        let mut request = url.as_str().into_client_request().unwrap();
        request
            .headers_mut()
            .insert(COOKIE, HeaderValue::from_str(cookie).unwrap());
        let (ws, _) = tokio_tungstenite::connect_async(request).await.unwrap();
        let mut client = Client { ws };
        client.send(json!({"t": "hello", "v": 1})).await;
        client.expect("welcome").await;
        client
    }

    async fn send(&mut self, value: Value) {
        self.ws
            .send(Message::text(value.to_string()))
            .await
            .unwrap();
    }

    /// Reads up to the first frame of type `want` (answering pings); an
    /// `error` frame or a close fails the test.
    async fn expect(&mut self, want: &str) -> Value {
        loop {
            let next = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .unwrap_or_else(|_| panic!("no {want} frame in time"));
            let frame: Value = match next {
                Some(Ok(Message::Text(text))) => serde_json::from_str(text.as_str()).unwrap(),
                Some(Ok(Message::Close(close))) => panic!("waiting for {want}: closed {close:?}"),
                Some(Ok(_)) => continue,
                Some(Err(e)) => panic!("waiting for {want}: {e}"),
                None => panic!("waiting for {want}: the socket ended"),
            };
            match frame["t"].as_str() {
                Some(t) if t == want => return frame,
                Some("error") => panic!("waiting for {want}: {frame}"),
                Some("ping") => self.send(json!({"t": "pong"})).await,
                _ => {}
            }
        }
    }

    async fn expect_event(&mut self, kind: &str) -> Value {
        loop {
            let event = self.expect("event").await;
            if event["event"]["kind"] == kind {
                return event;
            }
        }
    }
}

/// Red and Black of one game, both watching it.
struct Table {
    game: String,
    red: Client,
    black: Client,
    ply: u32,
}

impl Table {
    /// `red_cookie`'s player seeks a rated game as Red, the other accepts,
    /// both watch.
    async fn start(base: &str, red_cookie: &str, black_cookie: &str) -> Table {
        let mut red = Client::open(base, red_cookie).await;
        let mut black = Client::open(base, black_cookie).await;
        red.send(json!({"t": "seek", "tc": "10+5", "rated": true, "color": "red"}))
            .await;
        let seek = red.expect("seek_created").await["seek"]["id"].clone();
        black.send(json!({"t": "accept", "id": seek})).await;
        let game = black.expect("started").await["game"]
            .as_str()
            .unwrap()
            .to_owned();
        red.expect("started").await;
        for (client, side) in [(&mut red, "red"), (&mut black, "black")] {
            client.send(json!({"t": "watch", "game": game})).await;
            assert_eq!(client.expect("state").await["you"], side);
        }
        Table {
            game,
            red,
            black,
            ply: 0,
        }
    }

    /// Plays `moves` in turn; each is acknowledged (stored) and seen by the other side.
    async fn play(&mut self, moves: &[&str]) {
        for mv in moves {
            let (mover, other) = if self.ply % 2 == 0 {
                (&mut self.red, &mut self.black)
            } else {
                (&mut self.black, &mut self.red)
            };
            let frame = json!({"t": "move", "game": self.game, "ply": self.ply, "move": mv});
            mover.send(frame).await;
            assert_eq!(mover.expect("ack").await["ply"], self.ply);
            let event = other.expect_event("move").await;
            assert_eq!(event["event"]["move"]["iccs"], *mv);
            self.ply += 1;
        }
    }

    /// Waits until both sides have seen the end; returns Red's view of it.
    async fn ended(&mut self) -> Value {
        let end = self.red.expect_event("end").await;
        self.black.expect_event("end").await;
        end["event"]["result"].clone()
    }
}

// ---------------------------------------------------------------- the test

const OPENING: [&str; 4] = ["h2e2", "h9g7", "h0g2", "i9h9"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_keeps_finished_games_ratings_and_the_game_in_progress() {
    let data = tempfile::tempdir().unwrap();
    let http = reqwest::Client::new();
    let serve = Serve::start(data.path());
    let base = serve.base.clone();
    let alice = register(&http, &base, "alice").await;
    let bob = register(&http, &base, "bob").await;

    // Game 1: Black resigns.
    let mut first = Table::start(&base, &alice, &bob).await;
    first.play(&OPENING).await;
    first
        .black
        .send(json!({"t": "resign", "game": first.game}))
        .await;
    let result = first.ended().await;
    assert_eq!(result["result"], "1-0");
    assert!(result["ratings"].is_object(), "rated: {result}");

    // Game 2, colours swapped: a draw by agreement.
    let mut second = Table::start(&base, &bob, &alice).await;
    second.play(&OPENING).await;
    second
        .red
        .send(json!({"t": "offer_draw", "game": second.game}))
        .await;
    second.black.expect_event("draw_offer").await;
    second
        .black
        .send(json!({"t": "accept_draw", "game": second.game}))
        .await;
    let result = second.ended().await;
    assert_eq!(result["result"], "1/2-1/2");
    assert!(result["ratings"].is_object(), "rated: {result}");

    // Game 3 stays in progress.
    let mut third = Table::start(&base, &alice, &bob).await;
    third.play(&["b2e2", "b9c7", "b0c2"]).await;

    let finished = [first.game.clone(), second.game.clone()];
    let mut pgns = Vec::new();
    for game in &finished {
        let pgn = get_text(&http, format!("{base}/games/{game}.pgn")).await;
        assert!(pgn.contains("[Result "), "{pgn}");
        pgns.push(pgn);
    }
    let mut profiles = Vec::new();
    for name in ["alice", "bob"] {
        let profile = get_json(&http, format!("{base}/api/players/{name}")).await;
        assert_eq!(profile["history"].as_array().unwrap().len(), 2, "{profile}");
        profiles.push(profile);
    }
    // Alice won the first game and drew the second: she is rated above Bob.
    let rating = |profile: &Value| profile["player"]["rating"].as_i64().unwrap();
    assert!(rating(&profiles[0]) > rating(&profiles[1]), "{profiles:?}");

    // Mid-game: Black's move is sent but not waited for, then SIGKILL.
    third
        .black
        .send(json!({"t": "move", "game": third.game, "ply": 3, "move": "h9g7"}))
        .await;
    serve.kill();
    let Table { game: third, .. } = third;

    let serve = Serve::start(data.path());
    let base = serve.base.clone();
    for (game, before) in finished.iter().zip(&pgns) {
        let after = get_text(&http, format!("{base}/games/{game}.pgn")).await;
        assert_eq!(&after, before, "the PGN of {game} changed");
    }
    for (name, before) in ["alice", "bob"].into_iter().zip(&profiles) {
        let after = get_json(&http, format!("{base}/api/players/{name}")).await;
        assert_eq!(after["player"], before["player"], "{name}");
        assert_eq!(after["history"], before["history"], "{name}");
    }

    // The game in progress is back: its moves, its players, still playing.
    // Black's last move may or may not have been stored before the kill.
    let mut red = Client::open(&base, &alice).await;
    red.send(json!({"t": "watch", "game": third})).await;
    let state = red.expect("state").await;
    assert_eq!(state["summary"]["status"], "playing", "{state}");
    assert_eq!(state["you"], "red");
    let moves: Vec<&str> = state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["iccs"].as_str().unwrap())
        .collect();
    assert!(
        moves == ["b2e2", "b9c7", "b0c2"] || moves == ["b2e2", "b9c7", "b0c2", "h9g7"],
        "{moves:?}"
    );
    let summary = get_json(&http, format!("{base}/api/games/{}", third)).await;
    assert_eq!(summary["status"], "playing");
    assert_eq!(summary["red"]["name"], "alice");
    assert_eq!(summary["black"]["name"], "bob");

    // And it goes on: the side to move moves, and is acknowledged.
    let mut black = Client::open(&base, &bob).await;
    black.send(json!({"t": "watch", "game": third})).await;
    black.expect("state").await;
    let (mover, ply, mv) = if moves.len() == 3 {
        (&mut black, 3, "h9g7")
    } else {
        (&mut red, 4, "h0g2")
    };
    mover
        .send(json!({"t": "move", "game": third, "ply": ply, "move": mv}))
        .await;
    assert_eq!(mover.expect("ack").await["ply"], ply);
    serve.kill();
}
