//! The bot API over real HTTP and sockets on 127.0.0.1: a whole bot-vs-bot
//! game driven by a small client, a person (WebSocket) against a bot,
//! challenges (decline, lapse, limits), the upgrade's refusal, and each
//! attack of docs/server.md ("Bots") refused. Bounded in count and time.

use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use reqwest::header::{AUTHORIZATION, COOKIE, ORIGIN, SET_COOKIE};
use serde_json::{json, Value};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use xiangqi_server::clock::ManualClock;
use xiangqi_server::security::{Rate, Security};
use xiangqi_server::store::Store;
use xiangqi_server::ws::protocol::bot::{parse_line, BotEvent, GameStatus, GameStreamLine};
use xiangqi_server::ws::protocol::session_cookie_pair;
use xiangqi_server::Server;

const WAIT: Duration = Duration::from_secs(10);
const PASSWORD: &str = "correct horse battery";

struct TestServer {
    base: String,
    host: String,
    clock: Arc<ManualClock>,
    store: Store,
    http: reqwest::Client,
}

async fn start() -> TestServer {
    let store = Store::open("sqlite::memory:").await.unwrap();
    let clock = ManualClock::new(1_700_000_000_000);
    let many: Rate = "100000/min".parse().unwrap();
    let server = Server::bind(
        "127.0.0.1:0".parse().unwrap(),
        store.clone(),
        clock.clone(),
        1,
    )
    .await
    .unwrap()
    .with_security(Security {
        guests: many,
        sign_ins: many,
        account_sign_ins: many,
        ..Security::default()
    });
    let host = server.local_addr().to_string();
    tokio::spawn(server.run_until(std::future::pending()));
    TestServer {
        base: format!("http://{host}"),
        host,
        clock,
        store,
        http: reqwest::Client::new(),
    }
}

/// How a request proves who it is.
#[derive(Clone, Copy)]
enum Auth<'a> {
    None,
    Cookie(&'a str),
    Token(&'a str),
}

impl TestServer {
    fn request(&self, method: reqwest::Method, path: &str, auth: Auth) -> reqwest::RequestBuilder {
        let request = self.http.request(method, format!("{}{path}", self.base));
        match auth {
            Auth::None => request,
            Auth::Cookie(cookie) => request.header(COOKIE, cookie),
            Auth::Token(token) => request.header(AUTHORIZATION, format!("Bearer {token}")),
        }
    }

    async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        auth: Auth<'_>,
        body: Option<Value>,
    ) -> (u16, Value) {
        let mut request = self.request(method, path, auth);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.unwrap();
        let status = response.status().as_u16();
        let text = response.text().await.unwrap();
        (
            status,
            serde_json::from_str(&text).unwrap_or(Value::String(text)),
        )
    }

    async fn post(&self, path: &str, auth: Auth<'_>, body: Value) -> (u16, Value) {
        self.call(reqwest::Method::POST, path, auth, Some(body))
            .await
    }

    async fn get(&self, path: &str, auth: Auth<'_>) -> (u16, Value) {
        self.call(reqwest::Method::GET, path, auth, None).await
    }

    /// A new account's cookie and id.
    async fn account(&self, name: &str) -> (String, String) {
        let response = self
            .http
            .post(format!("{}/api/register", self.base))
            .json(&json!({"name": name, "password": PASSWORD}))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 200);
        let values = response.headers().get_all(SET_COOKIE);
        let cookie = session_cookie_pair(values.iter().filter_map(|v| v.to_str().ok()))
            .unwrap()
            .to_string();
        let body: Value = response.json().await.unwrap();
        (cookie, body["id"].as_str().unwrap().to_string())
    }

    /// A token of the account of `cookie`.
    async fn token(&self, cookie: &str) -> (String, String) {
        let (status, body) = self
            .post(
                "/api/account/tokens",
                Auth::Cookie(cookie),
                json!({"description": "engine"}),
            )
            .await;
        assert_eq!(status, 201, "{body}");
        (
            body["token"].as_str().unwrap().to_string(),
            body["id"].as_str().unwrap().to_string(),
        )
    }

    /// A new bot account: its token and id.
    async fn bot(&self, name: &str) -> (String, String) {
        let (cookie, id) = self.account(name).await;
        let (token, _) = self.token(&cookie).await;
        let (status, body) = self
            .post("/api/bot/account/upgrade", Auth::Token(&token), json!({}))
            .await;
        assert_eq!(status, 200, "{body}");
        (token, id)
    }

    async fn stream(&self, path: &str, token: &str) -> Lines {
        let response = self
            .request(reqwest::Method::GET, path, Auth::Token(token))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 200, "{path}");
        assert_eq!(response.headers()["content-type"], "application/x-ndjson");
        Lines {
            response,
            buffer: String::new(),
        }
    }

    async fn socket(&self, cookie: &str) -> Socket {
        let mut request = format!("ws://{}/ws", self.host)
            .into_client_request()
            .unwrap();
        request
            .headers_mut()
            .insert("cookie", HeaderValue::from_str(cookie).unwrap());
        let (ws, _) = tokio_tungstenite::connect_async(request).await.unwrap();
        let mut socket = Socket { ws };
        socket.send(json!({"t": "hello", "v": 1})).await;
        socket.expect("welcome").await;
        socket
    }
}

/// An NDJSON stream read line by line.
struct Lines {
    response: reqwest::Response,
    buffer: String,
}

impl Lines {
    /// The next line's text, keep-alives included; `None` at the end.
    async fn raw(&mut self) -> Option<String> {
        loop {
            if let Some(at) = self.buffer.find('\n') {
                let line = self.buffer[..at].to_string();
                self.buffer.drain(..=at);
                return Some(line);
            }
            let chunk = tokio::time::timeout(WAIT, self.response.chunk())
                .await
                .expect("a line in time")
                .ok()??;
            self.buffer.push_str(std::str::from_utf8(&chunk).unwrap());
        }
    }

    async fn event(&mut self) -> BotEvent {
        loop {
            let line = self.raw().await.expect("the stream goes on");
            if let Some(event) = parse_line::<BotEvent>(&line) {
                return event.unwrap();
            }
        }
    }

    async fn game_line(&mut self) -> GameStreamLine {
        loop {
            let line = self.raw().await.expect("the stream goes on");
            if let Some(line) = parse_line::<GameStreamLine>(&line) {
                return line.unwrap();
            }
        }
    }

    /// Whether the stream ends (without lines other than keep-alives).
    async fn ends(&mut self) -> bool {
        loop {
            match self.raw().await {
                None => return true,
                Some(line) if line.trim().is_empty() => continue,
                Some(_) => return false,
            }
        }
    }
}

struct Socket {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Socket {
    async fn send(&mut self, frame: Value) {
        self.ws
            .send(Message::text(frame.to_string()))
            .await
            .unwrap();
    }

    async fn expect(&mut self, t: &str) -> Value {
        loop {
            let next = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .expect("a frame in time");
            let Some(Ok(Message::Text(text))) = next else {
                panic!("the socket ended: {next:?}");
            };
            let frame: Value = serde_json::from_str(text.as_str()).unwrap();
            if frame["t"] == t {
                return frame;
            }
            assert_ne!(frame["t"], "error", "waiting for {t}: {frame}");
        }
    }
}

fn game_of(event: &BotEvent) -> (String, String) {
    match event {
        BotEvent::GameStart { game } => {
            (game.id.clone(), format!("{:?}", game.color).to_lowercase())
        }
        other => panic!("not game_start: {other:?}"),
    }
}

fn challenge_id(event: &BotEvent) -> String {
    match event {
        BotEvent::Challenge { challenge } => challenge.id.clone(),
        other => panic!("not a challenge: {other:?}"),
    }
}

#[tokio::test]
async fn two_bots_play_a_whole_rated_game_over_http_in_the_bot_pool() {
    let server = start().await;
    let (red_token, red_id) = server.bot("redbot").await;
    let (black_token, black_id) = server.bot("blackbot").await;
    let mut red_events = server.stream("/api/stream/event", &red_token).await;
    let mut black_events = server.stream("/api/stream/event", &black_token).await;
    let (status, online) = server.get("/api/bots/online", Auth::None).await;
    assert_eq!(status, 200);
    assert_eq!(online["bots"].as_array().unwrap().len(), 2, "{online}");
    assert_eq!(online["bots"][0]["rating"], 1500);

    let (status, created) = server
        .post(
            "/api/challenge/blackbot",
            Auth::Token(&red_token),
            json!({"tc": "1+0", "rated": true, "color": "red"}),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let id = challenge_id(&black_events.event().await);
    assert_eq!(id, created["challenge"]["id"]);
    let (status, body) = server
        .post(
            &format!("/api/challenge/{id}/accept"),
            Auth::Token(&black_token),
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (game, red_color) = game_of(&red_events.event().await);
    let (same_game, black_color) = game_of(&black_events.event().await);
    assert_eq!(
        (game.as_str(), red_color.as_str(), black_color.as_str()),
        (same_game.as_str(), "red", "black")
    );

    let path = format!("/api/bot/game/stream/{game}");
    let mut red_stream = server.stream(&path, &red_token).await;
    let mut black_stream = server.stream(&path, &black_token).await;
    for stream in [&mut red_stream, &mut black_stream] {
        let GameStreamLine::GameFull(full) = stream.game_line().await else {
            panic!("game_full first");
        };
        assert_eq!(full.id, game);
        assert!(full.rated && full.red.bot && full.black.bot);
        assert_eq!(full.red.name, "redbot");
        assert_eq!(full.state.moves, "");
        assert_eq!(full.state.status, GameStatus::Started);
        assert_eq!(full.state.red_ms, 60_000);
    }
    let moves = ["h2e2", "h9g7", "h0g2", "i9h9"];
    for (n, mv) in moves.iter().enumerate() {
        let token = if n % 2 == 0 { &red_token } else { &black_token };
        server.clock.advance(1_000);
        let (status, body) = server
            .post(
                &format!("/api/bot/game/{game}/move/{mv}"),
                Auth::Token(token),
                json!({}),
            )
            .await;
        assert_eq!(status, 200, "{mv}: {body}");
        assert_eq!(body, json!({"ok": true}));
        for stream in [&mut red_stream, &mut black_stream] {
            let GameStreamLine::GameState(state) = stream.game_line().await else {
                panic!("game_state after a move");
            };
            assert_eq!(state.moves, moves[..=n].join(" "));
            assert_eq!(state.status, GameStatus::Started);
        }
    }
    // Each side has spent its two seconds.
    let (status, _) = server
        .post(
            &format!("/api/bot/game/{game}/resign"),
            Auth::Token(&black_token),
            json!({}),
        )
        .await;
    assert_eq!(status, 200);
    for stream in [&mut red_stream, &mut black_stream] {
        let GameStreamLine::GameState(state) = stream.game_line().await else {
            panic!("the last game_state");
        };
        assert_eq!(state.status, GameStatus::Ended);
        assert_eq!(state.result.as_deref(), Some("1-0"));
        assert_eq!(state.reason.as_deref(), Some("resignation"));
        assert_eq!((state.red_ms, state.black_ms), (58_000, 58_000));
        assert!(stream.ends().await, "the game stream ends with the game");
    }
    for events in [&mut red_events, &mut black_events] {
        match events.event().await {
            BotEvent::GameFinish { game: finished } => assert_eq!(finished.id, game),
            other => panic!("game_finish expected: {other:?}"),
        }
    }
    // Rated in the bot pool; the normal ratings did not move.
    let red = server.store.player(&red_id).await.unwrap().unwrap();
    let black = server.store.player(&black_id).await.unwrap().unwrap();
    assert!(red.bot_rating.unwrap() > 1500 && black.bot_rating.unwrap() < 1500);
    assert_eq!((red.rating, black.rating), (Some(1500), Some(1500)));
    assert!(server
        .store
        .rating_history(&red_id)
        .await
        .unwrap()
        .is_empty());
    assert_eq!(
        server
            .store
            .bot_rating_history(&red_id)
            .await
            .unwrap()
            .len(),
        1
    );
    assert_eq!(server.store.is_bot_game(&game).await.unwrap(), Some(true));
    let (_, summary) = server.get(&format!("/api/games/{game}"), Auth::None).await;
    let summary = summary.get("summary").cloned().unwrap_or(summary);
    assert_eq!(summary["bot"], true, "{summary}");
    assert_eq!(summary["red"]["bot"], true, "{summary}");
    // The PGN export marks both sides as bots, with their bot-pool ratings.
    let pgn = server
        .http
        .get(format!("{}/games/{game}.pgn", server.base))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    for tag in [
        "[RedType \"bot\"]",
        "[BlackType \"bot\"]",
        "[RedElo \"1500\"]",
        "[Rated \"yes\"]",
    ] {
        assert!(pgn.contains(tag), "{tag} in {pgn}");
    }
    // A move after the end is refused with the room's own code.
    let (status, body) = server
        .post(
            &format!("/api/bot/game/{game}/move/b2e2"),
            Auth::Token(&red_token),
            json!({}),
        )
        .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (400, Some("game_over")),
        "{body}"
    );
}

#[tokio::test]
async fn a_person_plays_a_bot_from_the_browser_socket() {
    let server = start().await;
    let (bot_token, _) = server.bot("engineer").await;
    let (cookie, person_id) = server.account("ana").await;
    let mut events = server.stream("/api/stream/event", &bot_token).await;
    let mut socket = server.socket(&cookie).await;
    let (status, created) = server
        .post(
            "/api/challenge/engineer",
            Auth::Cookie(&cookie),
            json!({"tc": "5+3", "rated": true, "color": "red"}),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(created["challenge"]["challenger"]["bot"], false);
    let id = challenge_id(&events.event().await);
    let (status, _) = server
        .post(
            &format!("/api/challenge/{id}/accept"),
            Auth::Token(&bot_token),
            json!({}),
        )
        .await;
    assert_eq!(status, 200);
    let started = socket.expect("started").await;
    let (game, color) = game_of(&events.event().await);
    assert_eq!(
        (started["game"].as_str().unwrap(), color.as_str()),
        (game.as_str(), "black")
    );
    let mut stream = server
        .stream(&format!("/api/bot/game/stream/{game}"), &bot_token)
        .await;
    assert!(matches!(
        stream.game_line().await,
        GameStreamLine::GameFull(_)
    ));
    socket.send(json!({"t": "watch", "game": game})).await;
    let state = socket.expect("state").await;
    assert_eq!(state["summary"]["bot"], true);
    assert_eq!(state["summary"]["black"]["bot"], true);
    socket
        .send(json!({"t": "move", "game": game, "ply": 0, "move": "h2e2"}))
        .await;
    socket.expect("ack").await;
    let GameStreamLine::GameState(seen) = stream.game_line().await else {
        panic!("the person's move reaches the bot");
    };
    assert_eq!(seen.moves, "h2e2");
    let (status, body) = server
        .post(
            &format!("/api/bot/game/{game}/move/h9g7"),
            Auth::Token(&bot_token),
            json!({}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let event = socket.expect("event").await;
    assert_eq!(event["event"]["move"]["iccs"], "h9g7");
    let GameStreamLine::GameState(seen) = stream.game_line().await else {
        panic!("the bot's own move on its stream");
    };
    assert_eq!(seen.moves, "h2e2 h9g7");
    socket.send(json!({"t": "resign", "game": game})).await;
    let GameStreamLine::GameState(last) = stream.game_line().await else {
        panic!("the end reaches the bot");
    };
    assert_eq!(last.result.as_deref(), Some("0-1"));
    let person = server.store.player(&person_id).await.unwrap().unwrap();
    assert_eq!(
        person.rating,
        Some(1500),
        "the normal rating never moves in a bot game"
    );
    assert!(person.bot_rating.unwrap() < 1500);
    // The person's page gives both pools: the normal rating and history
    // unchanged, the bot pool's rating beside them; a bot's page has none.
    let (status, page) = server.get("/api/players/ana", Auth::None).await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["player"]["rating"], 1500);
    assert_eq!(page["bot_rating"], person.bot_rating.unwrap());
    assert_eq!(page["history"], json!([]));
    let (_, bot_page) = server.get("/api/players/engineer", Auth::None).await;
    assert_eq!(bot_page["bot_rating"], Value::Null);
    assert!(bot_page["player"]["rating"].as_i64().unwrap() > 1500);
}

#[tokio::test]
async fn challenges_are_declined_canceled_and_lapse_after_30_seconds() {
    let server = start().await;
    let (bot_token, _) = server.bot("lapsebot").await;
    let (cookie, _) = server.account("bea").await;
    let mut events = server.stream("/api/stream/event", &bot_token).await;
    let mut socket = server.socket(&cookie).await;
    let challenge = json!({"tc": "3+2"});
    // Declined: the person's sockets hear why.
    let (_, created) = server
        .post(
            "/api/challenge/lapsebot",
            Auth::Cookie(&cookie),
            challenge.clone(),
        )
        .await;
    let id = challenge_id(&events.event().await);
    assert_eq!(id, created["challenge"]["id"]);
    let (status, _) = server
        .post(
            &format!("/api/challenge/{id}/decline"),
            Auth::Token(&bot_token),
            json!({"reason": "tc"}),
        )
        .await;
    assert_eq!(status, 200);
    let closed = socket.expect("challenge_closed").await;
    assert_eq!(
        (
            closed["id"].as_str().unwrap(),
            closed["why"].as_str(),
            closed["reason"].as_str()
        ),
        (id.as_str(), Some("declined"), Some("tc"))
    );
    // Canceled by the challenger: the bot hears of it.
    let (_, created) = server
        .post(
            "/api/challenge/lapsebot",
            Auth::Cookie(&cookie),
            challenge.clone(),
        )
        .await;
    let id = challenge_id(&events.event().await);
    let (status, _) = server
        .post(
            &format!("/api/challenge/{id}/cancel"),
            Auth::Cookie(&cookie),
            json!({}),
        )
        .await;
    assert_eq!(status, 200);
    assert!(
        matches!(events.event().await, BotEvent::ChallengeCanceled { challenge } if challenge.id == created["challenge"]["id"])
    );
    // Unanswered: it lapses after 30 s, for both.
    let _ = server
        .post(
            "/api/challenge/lapsebot",
            Auth::Cookie(&cookie),
            challenge.clone(),
        )
        .await;
    let id = challenge_id(&events.event().await);
    server.clock.advance(29_000);
    tokio::time::sleep(Duration::from_millis(100)).await;
    server.clock.advance(1_500);
    assert!(
        matches!(events.event().await, BotEvent::ChallengeCanceled { challenge } if challenge.id == id)
    );
    let closed = socket.expect("challenge_closed").await;
    assert_eq!(closed["why"], "lapsed");
    let (status, body) = server
        .post(
            &format!("/api/challenge/{id}/accept"),
            Auth::Token(&bot_token),
            json!({}),
        )
        .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (404, Some("not_found"))
    );
}

#[tokio::test]
async fn the_upgrade_is_refused_after_a_game() {
    let server = start().await;
    let (a, _) = server.account("played").await;
    let (b, _) = server.account("other").await;
    let mut sa = server.socket(&a).await;
    let mut sb = server.socket(&b).await;
    sa.send(json!({"t": "seek", "tc": "5+3"})).await;
    let seek = sa.expect("seek_created").await;
    sb.send(json!({"t": "accept", "id": seek["seek"]["id"]}))
        .await;
    sa.expect("started").await;
    let (token, _) = server.token(&a).await;
    let (status, body) = server
        .post("/api/bot/account/upgrade", Auth::Token(&token), json!({}))
        .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (409, Some("bot_upgrade_refused")),
        "{body}"
    );
    assert!(
        !server
            .store
            .player_by_name("played")
            .await
            .unwrap()
            .unwrap()
            .bot
    );
}

#[tokio::test]
async fn attacks_on_the_bot_api_are_refused() {
    let server = start().await;
    let (token_a, _) = server.bot("bota").await;
    let (token_b, _) = server.bot("botb").await;
    let (token_c, _) = server.bot("botc").await;
    let (person, _) = server.account("person").await;
    let (person_token, _) = server.token(&person).await;

    // No token, a made-up token, a session cookie on a bot endpoint.
    for auth in [
        Auth::None,
        Auth::Token("xqb_not-a-token"),
        Auth::Cookie(&person),
    ] {
        let (status, body) = server.get("/api/stream/event", auth).await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (401, Some("bad_token")),
            "{body}"
        );
    }
    // A token on a cookie endpoint: it is no session.
    let (status, body) = server
        .get("/api/account/tokens", Auth::Token(&token_a))
        .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (401, Some("not_signed_in"))
    );
    let (status, _) = server
        .post(
            "/api/account/password",
            Auth::Token(&token_a),
            json!({"old": PASSWORD, "new": "another long password"}),
        )
        .await;
    assert_eq!(status, 401);
    // A non-bot account's token on the bot endpoints.
    let (status, body) = server
        .get("/api/stream/event", Auth::Token(&person_token))
        .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (403, Some("not_a_bot"))
    );
    // A foreign page's challenge with the person's cookie.
    let mut events_b = server.stream("/api/stream/event", &token_b).await;
    let response = server
        .request(
            reqwest::Method::POST,
            "/api/challenge/botb",
            Auth::Cookie(&person),
        )
        .header(ORIGIN, "http://evil.example")
        .json(&json!({"tc": "5+3"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 403);
    // A flood: three open challenges at most, per challenger.
    for n in 0..5 {
        let (status, body) = server
            .post(
                "/api/challenge/botb",
                Auth::Token(&token_a),
                json!({"tc": "5+3"}),
            )
            .await;
        if n < 3 {
            assert_eq!(status, 201, "{body}");
        } else {
            assert_eq!(
                (status, body["error"]["code"].as_str()),
                (429, Some("too_many_challenges"))
            );
        }
    }
    // An offline bot cannot be challenged.
    let (status, body) = server
        .post(
            "/api/challenge/botc",
            Auth::Token(&token_a),
            json!({"tc": "5+3"}),
        )
        .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (409, Some("bot_offline"))
    );
    // Another bot cannot answer botb's challenge.
    let id = challenge_id(&events_b.event().await);
    let (status, _) = server
        .post(
            &format!("/api/challenge/{id}/accept"),
            Auth::Token(&token_c),
            json!({}),
        )
        .await;
    assert_eq!(status, 404);
    let (status, _) = server
        .post(
            &format!("/api/challenge/{id}/accept"),
            Auth::Token(&token_b),
            json!({}),
        )
        .await;
    assert_eq!(status, 200);
    let (game, _) = loop {
        if let BotEvent::GameStart { game } = events_b.event().await {
            break (game.id, ());
        }
    };
    // botb plays red or black; whoever is not to move cannot move, nor can
    // a third bot, in the game or its stream.
    let (status, body) = server
        .post(
            &format!("/api/bot/game/{game}/move/h2e2"),
            Auth::Token(&token_c),
            json!({}),
        )
        .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (403, Some("not_your_game"))
    );
    let (status, _) = server
        .get(
            &format!("/api/bot/game/stream/{game}"),
            Auth::Token(&token_c),
        )
        .await;
    assert_eq!(status, 403);
    let (s_a, b_a) = server
        .post(
            &format!("/api/bot/game/{game}/move/h9g7"),
            Auth::Token(&token_a),
            json!({}),
        )
        .await;
    let (s_b, b_b) = server
        .post(
            &format!("/api/bot/game/{game}/move/h9g7"),
            Auth::Token(&token_b),
            json!({}),
        )
        .await;
    let codes = [b_a["error"]["code"].as_str(), b_b["error"]["code"].as_str()];
    assert_eq!(
        (s_a, s_b),
        (400, 400),
        "black's move on red's turn: {b_a} {b_b}"
    );
    assert!(codes.contains(&Some("not_your_turn")), "{codes:?}");

    // A second event stream ends the first.
    let mut second = server.stream("/api/stream/event", &token_b).await;
    // It starts with the game in progress.
    assert!(matches!(second.event().await, BotEvent::GameStart { game: g } if g.id == game));
    // And the two challenges from bota still open.
    for _ in 0..2 {
        assert!(matches!(second.event().await, BotEvent::Challenge { .. }));
    }
    assert!(events_b.ends().await, "the older stream ends");
    // Revoking the token ends the stream and refuses the token.
    let (cookie_b, _) = {
        let response = server
            .http
            .post(format!("{}/api/login", server.base))
            .json(&json!({"name": "botb", "password": PASSWORD}))
            .send()
            .await
            .unwrap();
        let values = response.headers().get_all(SET_COOKIE);
        (
            session_cookie_pair(values.iter().filter_map(|v| v.to_str().ok()))
                .unwrap()
                .to_string(),
            (),
        )
    };
    let (_, list) = server
        .get("/api/account/tokens", Auth::Cookie(&cookie_b))
        .await;
    let token_id = list["tokens"][0]["id"].as_str().unwrap().to_string();
    assert!(
        list["tokens"][0].get("token").is_none(),
        "the secret is shown once"
    );
    let (status, _) = server
        .call(
            reqwest::Method::DELETE,
            &format!("/api/account/tokens/{token_id}"),
            Auth::Cookie(&cookie_b),
            None,
        )
        .await;
    assert_eq!(status, 200);
    assert!(second.ends().await, "revoking ends the stream");
    let (status, body) = server.get("/api/stream/event", Auth::Token(&token_b)).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (401, Some("bad_token"))
    );
    // Another player cannot revoke someone's token.
    let (_, list) = server
        .get("/api/account/tokens", Auth::Cookie(&person))
        .await;
    assert_eq!(list["tokens"].as_array().unwrap().len(), 1);
    let theirs = list["tokens"][0]["id"].as_str().unwrap().to_string();
    let (status, _) = server
        .call(
            reqwest::Method::DELETE,
            &format!("/api/account/tokens/{theirs}"),
            Auth::Cookie(&cookie_b),
            None,
        )
        .await;
    assert_eq!(status, 404);
    // A bot cannot open the WebSocket.
    let mut request = format!("ws://{}/ws", server.host)
        .into_client_request()
        .unwrap();
    request
        .headers_mut()
        .insert("cookie", HeaderValue::from_str(&cookie_b).unwrap());
    assert!(tokio_tungstenite::connect_async(request).await.is_err());
}

#[tokio::test]
async fn a_bot_is_at_the_board_while_its_game_stream_is_open() {
    let server = start().await;
    let (red_token, _) = server.bot("staybot").await;
    let (black_token, _) = server.bot("leavebot").await;
    let mut red_events = server.stream("/api/stream/event", &red_token).await;
    let mut black_events = server.stream("/api/stream/event", &black_token).await;
    let _ = server
        .post(
            "/api/challenge/leavebot",
            Auth::Token(&red_token),
            json!({"tc": "5+0", "color": "red"}),
        )
        .await;
    let id = challenge_id(&black_events.event().await);
    let _ = server
        .post(
            &format!("/api/challenge/{id}/accept"),
            Auth::Token(&black_token),
            json!({}),
        )
        .await;
    let (game, _) = game_of(&red_events.event().await);
    let path = format!("/api/bot/game/stream/{game}");
    let mut red_stream = server.stream(&path, &red_token).await;
    let black_stream = server.stream(&path, &black_token).await;
    assert!(matches!(
        red_stream.game_line().await,
        GameStreamLine::GameFull(_)
    ));
    for (mv, token) in [("h2e2", &red_token), ("h9g7", &black_token)] {
        let (status, _) = server
            .post(
                &format!("/api/bot/game/{game}/move/{mv}"),
                Auth::Token(token),
                json!({}),
            )
            .await;
        assert_eq!(status, 200);
        assert!(matches!(
            red_stream.game_line().await,
            GameStreamLine::GameState(_)
        ));
    }
    // With its stream open, black is at the board however long red thinks.
    server.clock.advance(50_000);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (status, _) = server
        .post(
            &format!("/api/bot/game/{game}/move/h0g2"),
            Auth::Token(&red_token),
            json!({}),
        )
        .await;
    assert_eq!(status, 200);
    assert!(
        matches!(red_stream.game_line().await, GameStreamLine::GameState(s) if s.status == GameStatus::Started)
    );
    // Black hangs up: 45 s later it has abandoned the game.
    drop(black_stream);
    tokio::time::sleep(Duration::from_millis(200)).await;
    server.clock.advance(46_000);
    let GameStreamLine::GameState(last) = red_stream.game_line().await else {
        panic!("the end");
    };
    assert_eq!(
        (last.result.as_deref(), last.reason.as_deref()),
        (Some("1-0"), Some("abandonment"))
    );
}

#[tokio::test]
async fn a_deleted_accounts_tokens_stop_working_and_their_streams_end() {
    let server = start().await;
    let (cookie, _) = server.account("gonebot").await;
    let (token, _) = server.token(&cookie).await;
    let (status, _) = server
        .post("/api/bot/account/upgrade", Auth::Token(&token), json!({}))
        .await;
    assert_eq!(status, 200);
    let mut events = server.stream("/api/stream/event", &token).await;
    let (status, body) = server
        .post(
            "/api/account/delete",
            Auth::Cookie(&cookie),
            json!({"password": PASSWORD}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert!(events.ends().await, "the stream ends with the account");
    let (status, body) = server.get("/api/stream/event", Auth::Token(&token)).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (401, Some("bad_token"))
    );
}
