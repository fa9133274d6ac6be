//! Driving a `xiangqi serve` over real sockets on 127.0.0.1, as the CLI's
//! server tests do: the process (killed when dropped), a WebSocket client of
//! protocol version 1 that answers pings, and the HTTP calls they repeat.
//! The session cookie is picked by the caller's function (the protocol
//! crate's `session_cookie_pair`): this crate depends on no workspace crate.

use std::ffi::OsStr;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use reqwest::header::{HeaderMap, ORIGIN};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::header::{HeaderValue, COOKIE, SET_COOKIE};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// Why a socket could not be opened (a refused upgrade is its `Http` case).
pub use tokio_tungstenite::tungstenite::Error as WsError;

/// How long a test waits for any one frame or for a server to start.
pub const WAIT: Duration = Duration::from_secs(30);

// ---------------------------------------------------------------- the process

/// A running `xiangqi serve`, killed when dropped.
pub struct ServeProcess {
    child: Child,
    /// `http://127.0.0.1:PORT`, as the server printed it.
    pub base: String,
    /// Kept open: a closed pipe would make the server's next print fail.
    _stdout: BufReader<ChildStdout>,
}

impl ServeProcess {
    /// Starts `program serve --addr 127.0.0.1:0 --engine-threads 1 ARGS…`
    /// with `RUST_LOG=rust_log` (its log on the test's stderr), and waits
    /// for the line that names its URL.
    pub fn start<I, S>(program: &Path, args: I, rust_log: &str) -> ServeProcess
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let mut child = Command::new(program)
            .args(["serve", "--addr", "127.0.0.1:0", "--engine-threads", "1"])
            .args(args)
            .env("RUST_LOG", rust_log)
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
        ServeProcess {
            child,
            base: url.trim_end_matches('/').to_owned(),
            _stdout: stdout,
        }
    }

    /// SIGKILL: no shutdown code runs.
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for ServeProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

// ---------------------------------------------------------------- HTTP

/// Registers `name` (a new player: no session is sent) with a long enough
/// password; the session cookie as `pick_cookie` finds it among the
/// answer's `Set-Cookie` values.
pub async fn register(
    http: &reqwest::Client,
    base: &str,
    name: &str,
    pick_cookie: impl Fn(&[&str]) -> Option<String>,
) -> String {
    let response = http
        .post(format!("{base}/api/register"))
        .json(&json!({"name": name, "password": "a long enough password"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200, "registering {name}");
    let set_cookie: Vec<&str> = response
        .headers()
        .get_all(SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect();
    pick_cookie(&set_cookie).expect("register sets the session cookie")
}

/// The status, headers and JSON body of an answer (a body that is not JSON
/// as a JSON string).
pub async fn answer(response: reqwest::Response) -> (u16, HeaderMap, Value) {
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let text = response.text().await.unwrap();
    let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (status, headers, body)
}

/// HTTP requests to the server at `base` as a test makes them: with a
/// session cookie or none, from the server's own pages or another site's.
pub struct WebClient {
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    pub http: reqwest::Client,
    /// Finds the session cookie among a response's headers.
    cookie_of: fn(&HeaderMap) -> Option<String>,
}

impl WebClient {
    pub fn new(base: String, cookie_of: fn(&HeaderMap) -> Option<String>) -> WebClient {
        WebClient {
            base,
            http: reqwest::Client::new(),
            cookie_of,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// A new guest's session cookie (`GET /api/me` without one).
    pub async fn guest(&self) -> String {
        let response = self.http.get(self.url("/api/me")).send().await.unwrap();
        assert_eq!(response.status(), 200);
        (self.cookie_of)(response.headers()).expect("a session cookie")
    }

    /// `GET path` with the session `cookie`: the status and JSON body.
    pub async fn get(&self, path: &str, cookie: Option<&str>) -> (u16, Value) {
        let mut request = self.http.get(self.url(path));
        if let Some(cookie) = cookie {
            request = request.header(reqwest::header::COOKIE, cookie);
        }
        let (status, _, body) = answer(request.send().await.unwrap()).await;
        (status, body)
    }

    /// `POST path` with `body`, the session `cookie` and `origin`.
    pub async fn post(
        &self,
        path: &str,
        body: Value,
        cookie: Option<&str>,
        origin: Option<&str>,
    ) -> (u16, HeaderMap, Value) {
        let mut request = self.http.post(self.url(path)).json(&body);
        if let Some(cookie) = cookie {
            request = request.header(reqwest::header::COOKIE, cookie);
        }
        if let Some(origin) = origin {
            request = request.header(ORIGIN, origin);
        }
        answer(request.send().await.unwrap()).await
    }
}

/// The body of `GET url`, which must answer 200.
pub async fn get_text(http: &reqwest::Client, url: String) -> String {
    let response = http.get(&url).send().await.unwrap();
    assert_eq!(response.status(), 200, "GET {url}");
    response.text().await.unwrap()
}

/// The JSON body of `GET url`, which must answer 200.
pub async fn get_json(http: &reqwest::Client, url: String) -> Value {
    serde_json::from_str(&get_text(http, url).await).unwrap()
}

// ---------------------------------------------------------------- WebSocket

/// A greeted socket of one player.
pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Client {
    /// Opens `/ws` of `base` with the session `cookie` and does the
    /// `hello`/`welcome` handshake.
    pub async fn open(base: &str, cookie: &str) -> Client {
        Client::open_from(base, cookie, None).await.unwrap()
    }

    /// As [`Client::open`], with the `Origin` header of a browser's page
    /// when `origin` is given; a refused upgrade is the error.
    pub async fn open_from(
        base: &str,
        cookie: &str,
        origin: Option<&str>,
    ) -> Result<Client, WsError> {
        let url = format!("{}/ws", base.replacen("http://", "ws://", 1));
        let mut request = url.as_str().into_client_request().unwrap();
        let headers = request.headers_mut();
        headers.insert(COOKIE, HeaderValue::from_str(cookie).unwrap());
        if let Some(origin) = origin {
            headers.insert("origin", HeaderValue::from_str(origin).unwrap());
        }
        let (ws, _) = tokio_tungstenite::connect_async(request).await?;
        let mut client = Client { ws };
        client.send(json!({"t": "hello", "v": 1})).await;
        client.expect("welcome").await;
        Ok(client)
    }

    pub async fn send(&mut self, value: Value) {
        self.ws
            .send(Message::text(value.to_string()))
            .await
            .unwrap();
    }

    /// The next frame (pings answered and skipped), within [`WAIT`]; a
    /// close fails the test.
    pub async fn next(&mut self, want: &str) -> Value {
        self.next_by(Instant::now() + WAIT, want)
            .await
            .unwrap_or_else(|| panic!("no {want} frame in time"))
    }

    /// The next frame within `wait`, or `None` when none comes (to be sure
    /// a frame does not come).
    pub async fn next_within(&mut self, wait: Duration) -> Option<Value> {
        self.next_by(Instant::now() + wait, "a frame").await
    }

    async fn next_by(&mut self, deadline: Instant, want: &str) -> Option<Value> {
        loop {
            let next = tokio::time::timeout_at(deadline, self.ws.next())
                .await
                .ok()?;
            let frame: Value = match next {
                Some(Ok(Message::Text(text))) => serde_json::from_str(text.as_str()).unwrap(),
                Some(Ok(Message::Close(close))) => panic!("waiting for {want}: closed {close:?}"),
                Some(Ok(_)) => continue,
                Some(Err(e)) => panic!("waiting for {want}: {e}"),
                None => panic!("waiting for {want}: the socket ended"),
            };
            if frame["t"] == "ping" {
                self.send(json!({"t": "pong"})).await;
                continue;
            }
            return Some(frame);
        }
    }

    /// Up to the first frame of type `want`; an `error` fails the test.
    pub async fn expect(&mut self, want: &str) -> Value {
        loop {
            let frame = self.next(want).await;
            match frame["t"].as_str() {
                Some(t) if t == want => return frame,
                Some("error") => panic!("waiting for {want}: {frame}"),
                _ => {}
            }
        }
    }

    /// Up to the first `error`, which must have code `code`.
    pub async fn expect_error(&mut self, code: &str) -> Value {
        loop {
            let frame = self.next(code).await;
            if frame["t"] == "error" {
                assert_eq!(frame["code"], code, "{frame}");
                return frame;
            }
        }
    }

    /// Seeks a rated 10+5 game as Red: the seek's id.
    pub async fn seek_as_red(&mut self) -> Value {
        self.send(json!({"t": "seek", "tc": "10+5", "rated": true, "color": "red"}))
            .await;
        self.expect("seek_created").await["seek"]["id"].clone()
    }

    /// `black` accepts `red`'s `seek`; both are told of the same game and
    /// watch it, each as its side: the game's id.
    pub async fn accept_and_watch(red: &mut Client, black: &mut Client, seek: &Value) -> String {
        black.send(json!({"t": "accept", "id": seek})).await;
        let game = black.expect("started").await["game"]
            .as_str()
            .unwrap()
            .to_owned();
        // The seeker hears of the game too (on its own node in a cluster).
        assert_eq!(red.expect("started").await["game"], game);
        for (client, side) in [(red, "red"), (black, "black")] {
            client.send(json!({"t": "watch", "game": game})).await;
            assert_eq!(client.expect("state").await["you"], side);
        }
        game
    }

    /// Up to the first `event` of kind `kind`.
    pub async fn expect_event(&mut self, kind: &str) -> Value {
        loop {
            let event = self.expect("event").await;
            if event["event"]["kind"] == kind {
                return event;
            }
        }
    }
}
