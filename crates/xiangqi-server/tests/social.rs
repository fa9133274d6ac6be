//! Chat, reports, the player page's filters and the account's own changes,
//! over real sockets on 127.0.0.1: what each may do, and each attack of
//! docs/server.md ("Chat and reports", "Accounts") refused, bounded in
//! count.

use std::time::Duration;

use reqwest::header::{HeaderMap, SET_COOKIE};
use serde_json::{json, Value};
use xiangqi_server::clock::ManualClock;
use xiangqi_server::security::{Rate, Security};
use xiangqi_server::store::{Ending, GameRow, Store};
use xiangqi_server::ws::protocol::session_cookie_pair;
use xiangqi_server::Server;
use xiangqi_test_support::serve::{Client as Socket, WebClient};

/// How long a test waits to be sure a frame does not come.
const QUIET_WAIT: Duration = Duration::from_millis(300);
const PASSWORD: &str = "correct horse battery";

fn roomy() -> Security {
    let many: Rate = "100000/min".parse().unwrap();
    Security {
        guests: many,
        sign_ins: many,
        account_sign_ins: many,
        seeks_per_address: 100_000,
        hash_queue: 1_000,
        ..Security::default()
    }
}

struct TestServer {
    /// The HTTP calls (`url`, `guest`, `get`, `post`) and the `base` and `http` fields.
    web: WebClient,
    state: xiangqi_server::state::AppState,
}

impl std::ops::Deref for TestServer {
    type Target = WebClient;

    fn deref(&self) -> &WebClient {
        &self.web
    }
}

async fn start() -> TestServer {
    let store = Store::open("sqlite::memory:").await.unwrap();
    let clock = ManualClock::new(1_700_000_000_000);
    let server = Server::bind("127.0.0.1:0".parse().unwrap(), store, clock, 1)
        .await
        .unwrap()
        .with_security(roomy());
    let host = server.local_addr().to_string();
    let state = server.state().clone();
    tokio::spawn(server.run_until(std::future::pending()));
    TestServer {
        web: WebClient::new(format!("http://{host}"), cookie_of),
        state,
    }
}

fn cookie_of(headers: &HeaderMap) -> Option<String> {
    let values = headers.get_all(SET_COOKIE);
    session_cookie_pair(values.iter().filter_map(|v| v.to_str().ok())).map(str::to_owned)
}

impl TestServer {
    /// A new account's cookie and id.
    async fn account(&self, name: &str) -> (String, String) {
        let body = json!({"name": name, "password": PASSWORD});
        let (status, headers, body) = self.post("/api/register", body, None, None).await;
        assert_eq!(status, 200, "{body}");
        (
            cookie_of(&headers).unwrap(),
            body["id"].as_str().unwrap().to_string(),
        )
    }

    async fn me(&self, cookie: &str) -> Value {
        self.get("/api/me", Some(cookie)).await.1
    }

    async fn socket(&self, cookie: &str) -> Socket {
        Socket::open(&self.base, cookie).await
    }

    /// A game between the players of `a` (red, by their seek) and `b`
    /// (black, who accepts it), both watching it.
    async fn game(&self, a: &mut Socket, b: &mut Socket, rated: bool) -> String {
        a.send(json!({"t": "seek", "tc": "5+3", "rated": rated, "color": "red"}))
            .await;
        let seek = a.expect("seek_created").await;
        b.send(json!({"t": "accept", "id": seek["seek"]["id"]}))
            .await;
        let game = a.expect("started").await["game"]
            .as_str()
            .unwrap()
            .to_string();
        b.expect("started").await;
        for socket in [&mut *a, &mut *b] {
            socket.send(json!({"t": "watch", "game": game})).await;
            socket.expect("state").await;
        }
        game
    }
}

/// What the chat tests ask of a socket besides the shared client's calls.
trait ChatSocket {
    /// No `chat` frame comes within a moment.
    async fn no_chat(&mut self);
    async fn chat(&mut self, game: &str, channel: &str, text: &str);
}

impl ChatSocket for Socket {
    async fn no_chat(&mut self) {
        while let Some(frame) = self.next_within(QUIET_WAIT).await {
            assert_ne!(frame["t"], "chat", "an unexpected chat frame: {frame}");
        }
    }

    async fn chat(&mut self, game: &str, channel: &str, text: &str) {
        self.send(json!({"t": "chat", "game": game, "channel": channel, "text": text}))
            .await;
    }
}

// ------------------------------------------------------------------ chat

#[tokio::test]
async fn each_chat_reaches_only_its_readers_and_nobody_writes_in_another() {
    let server = start().await;
    let (red_cookie, blue_cookie) = (server.guest().await, server.guest().await);
    let mut red = server.socket(&red_cookie).await;
    let mut black = server.socket(&blue_cookie).await;
    let game = server.game(&mut red, &mut black, false).await;
    let (watcher_cookie, _) = server.account("watcher").await;
    let mut watcher = server.socket(&watcher_cookie).await;
    watcher.send(json!({"t": "watch", "game": game})).await;
    watcher.expect("state").await;
    let guest_cookie = server.guest().await;
    let mut guest = server.socket(&guest_cookie).await;
    guest.send(json!({"t": "watch", "game": game})).await;
    guest.expect("state").await;

    red.chat(&game, "players", "good luck <b>").await;
    for socket in [&mut red, &mut black] {
        let frame = socket.expect("chat").await;
        assert_eq!(
            frame["message"]["text"], "good luck <b>",
            "text, never escaped"
        );
        assert_eq!(frame["message"]["channel"], "players");
    }
    watcher.chat(&game, "spectators", "nice opening").await;
    for socket in [&mut watcher, &mut guest] {
        assert_eq!(
            socket.expect("chat").await["message"]["text"],
            "nice opening"
        );
    }
    // The players' chat never reached the spectators, nor theirs the players.
    watcher.no_chat().await;
    guest.no_chat().await;
    red.no_chat().await;
    black.no_chat().await;

    // Nobody writes in the other's chat; guests only read the spectators'.
    watcher.chat(&game, "players", "psst, play h2e2").await;
    watcher.expect_error("not_your_chat").await;
    black.chat(&game, "spectators", "hello audience").await;
    black.expect_error("not_your_chat").await;
    guest.chat(&game, "spectators", "hi").await;
    guest.expect_error("guest_chat").await;
    watcher.chat("g_nothing", "spectators", "hi").await;
    watcher.expect_error("unknown_game").await;
    red.no_chat().await;

    // The chat is kept with the game, each reader seeing their own part.
    let (_, players_view) = server
        .get(&format!("/api/games/{game}/chat"), Some(&red_cookie))
        .await;
    assert_eq!(players_view["channels"], json!(["players"]));
    assert_eq!(players_view["messages"][0]["text"], "good luck <b>");
    let (_, outsider_view) = server.get(&format!("/api/games/{game}/chat"), None).await;
    assert_eq!(outsider_view["channels"], json!(["spectators"]));
    assert_eq!(outsider_view["messages"].as_array().unwrap().len(), 1);
    assert_eq!(outsider_view["messages"][0]["name"], "watcher");
    // Once the game is over the players read the spectators too.
    red.send(json!({"t": "abort", "game": game})).await;
    red.expect("event").await;
    let (_, after) = server
        .get(&format!("/api/games/{game}/chat"), Some(&blue_cookie))
        .await;
    assert_eq!(after["channels"], json!(["players", "spectators"]));
    assert_eq!(after["messages"].as_array().unwrap().len(), 2);
    let (status, _) = server.get("/api/games/g_nothing/chat", None).await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn chat_floods_and_oversized_or_empty_messages_are_refused() {
    let server = start().await;
    let (a, b) = (server.guest().await, server.guest().await);
    let mut red = server.socket(&a).await;
    let mut black = server.socket(&b).await;
    let game = server.game(&mut red, &mut black, false).await;
    red.chat(&game, "players", &"x".repeat(301)).await;
    let refused = red.expect_error("chat_too_long").await;
    assert_eq!(refused["ref"]["game"], game.as_str());
    red.chat(&game, "players", " \n\u{200B} ").await;
    red.expect_error("chat_empty").await;
    // A burst of 5, then the limit (the refused ones above did not count).
    for i in 0..5 {
        red.chat(&game, "players", &format!("message {i}")).await;
        red.expect("chat").await;
    }
    red.chat(&game, "players", "one too many").await;
    red.expect_error("rate_limited").await;
    // The other player has a limit of their own.
    black.chat(&game, "players", "calm down").await;
    loop {
        // Red's five come first: black reads the players' chat too.
        if black.expect("chat").await["message"]["text"] == "calm down" {
            break;
        }
    }
    // A frame over the protocol's 16 KiB is refused before it is read.
    red.chat(&game, "players", &"y".repeat(17 * 1024)).await;
    red.expect_error("too_large").await;
    let stored = server
        .state
        .store
        .chat_of(&game, &["players"])
        .await
        .unwrap();
    assert_eq!(stored.len(), 6);
}

// --------------------------------------------------------------- reports

#[tokio::test]
async fn forged_reports_are_refused_and_the_reported_player_is_the_servers() {
    let server = start().await;
    let (red_cookie, red_id) = server.account("reporter").await;
    let (black_cookie, black_id) = server.account("rude_one").await;
    let mut red = server.socket(&red_cookie).await;
    let mut black = server.socket(&black_cookie).await;
    let game = server.game(&mut red, &mut black, false).await;
    black.chat(&game, "players", "you are bad").await;
    let message = red.expect("chat").await["message"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (watcher_cookie, _) = server.account("watcher").await;
    let report = |message: &str| json!({"message": message, "reason": "abuse", "reported": red_id});

    // No session, a message that does not exist, one the reporter cannot
    // read, one's own, a bad reason, a note too long.
    let (status, _, _) = server
        .post("/api/reports", report(&message), None, None)
        .await;
    assert_eq!(status, 401);
    let (status, _, _) = server
        .post("/api/reports", report("m_forged"), Some(&red_cookie), None)
        .await;
    assert_eq!(status, 404);
    let (status, _, _) = server
        .post(
            "/api/reports",
            report(&message),
            Some(&watcher_cookie),
            None,
        )
        .await;
    assert_eq!(
        status, 404,
        "a spectator cannot read, so cannot report, the players' chat"
    );
    let (status, _, body) = server
        .post("/api/reports", report(&message), Some(&black_cookie), None)
        .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (400, Some("report_self"))
    );
    let bad_reason = json!({"message": message, "reason": "<script>"});
    let (status, _, body) = server
        .post("/api/reports", bad_reason, Some(&red_cookie), None)
        .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (400, Some("bad_reason"))
    );
    let long_note = json!({"message": message, "reason": "other", "note": "n".repeat(501)});
    let (status, _, _) = server
        .post("/api/reports", long_note, Some(&red_cookie), None)
        .await;
    assert_eq!(status, 400);
    // About a game one does not play: refused; about one's opponent: taken.
    let about_game = json!({"game": game, "reason": "cheating"});
    let (status, _, _) = server
        .post(
            "/api/reports",
            about_game.clone(),
            Some(&watcher_cookie),
            None,
        )
        .await;
    assert_eq!(status, 403);
    let (status, _, _) = server
        .post("/api/reports", about_game, Some(&red_cookie), None)
        .await;
    assert_eq!(status, 201);
    // The real one: the reported player is the message's author, whatever
    // the request said.
    let (status, _, body) = server
        .post("/api/reports", report(&message), Some(&red_cookie), None)
        .await;
    assert_eq!(status, 201, "{body}");
    let (status, _, body) = server
        .post("/api/reports", report(&message), Some(&red_cookie), None)
        .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (409, Some("already_reported"))
    );
    let reports = server.state.store.reports(10, 0).await.unwrap();
    assert_eq!(reports.len(), 2);
    assert!(reports
        .iter()
        .all(|r| r.reported == black_id && r.reporter == red_id));
    let about_message = reports.iter().find(|r| r.message.is_some()).unwrap();
    assert_eq!(about_message.message_body.as_deref(), Some("you are bad"));
}

#[tokio::test]
async fn a_flood_of_reports_is_limited_per_player() {
    let server = start().await;
    let (red_cookie, _) = server.account("reporter").await;
    let black_cookie = server.guest().await;
    let mut red = server.socket(&red_cookie).await;
    let mut black = server.socket(&black_cookie).await;
    let game = server.game(&mut red, &mut black, false).await;
    let mut statuses = Vec::new();
    for _ in 0..12 {
        let body = json!({"game": game, "reason": "spam"});
        statuses.push(
            server
                .post("/api/reports", body, Some(&red_cookie), None)
                .await
                .0,
        );
    }
    assert_eq!(statuses[..10], [201; 10]);
    assert_eq!(statuses[10..], [429, 429]);
    assert_eq!(server.state.store.reports(100, 0).await.unwrap().len(), 10);
}

#[tokio::test]
async fn pages_of_other_sites_cannot_report_or_change_an_account() {
    let server = start().await;
    let (cookie, _) = server.account("victim").await;
    let evil = Some("http://evil.example");
    for (path, body) in [
        ("/api/reports", json!({"game": "g_x", "reason": "spam"})),
        (
            "/api/account/password",
            json!({"old": PASSWORD, "new": "a new long password"}),
        ),
        ("/api/account/delete", json!({"password": PASSWORD})),
    ] {
        let (status, _, body) = server.post(path, body, Some(&cookie), evil).await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (403, Some("foreign_origin")),
            "{path}"
        );
    }
    // Nothing happened: the account is there with its password.
    assert_eq!(server.me(&cookie).await["name"], "victim");
    let login = json!({"name": "victim", "password": PASSWORD});
    assert_eq!(server.post("/api/login", login, None, None).await.0, 200);
}

// -------------------------------------------------------------- accounts

#[tokio::test]
async fn a_password_change_needs_the_old_password_and_ends_the_other_sessions() {
    let server = start().await;
    let (here, id) = server.account("changer").await;
    let login = |password: &str| json!({"name": "changer", "password": password});
    let (_, headers, _) = server.post("/api/login", login(PASSWORD), None, None).await;
    let phone = cookie_of(&headers).unwrap();
    let new = "a brand new passphrase";
    let path = "/api/account/password";
    // Without the old password, with a wrong one, as a guest, too weak.
    let (status, _, body) = server
        .post(path, json!({"new": new}), Some(&here), None)
        .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (422, Some("bad_json"))
    );
    let wrong = json!({"old": "not the password", "new": new});
    let (status, _, body) = server.post(path, wrong, Some(&here), None).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (401, Some("bad_credentials"))
    );
    let guest = server.guest().await;
    let (status, _, _) = server
        .post(path, json!({"old": "", "new": new}), Some(&guest), None)
        .await;
    assert_eq!(status, 403);
    let (status, _, _) = server
        .post(path, json!({"old": PASSWORD, "new": new}), None, None)
        .await;
    assert_eq!(status, 401);
    let weak = json!({"old": PASSWORD, "new": "password"});
    let (status, _, body) = server.post(path, weak, Some(&here), None).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (400, Some("bad_password"))
    );
    // The change: this session stays, the phone's ends.
    let change = json!({"old": PASSWORD, "new": new});
    let (status, _, _) = server.post(path, change, Some(&here), None).await;
    assert_eq!(status, 200);
    assert_eq!(server.me(&here).await["id"], id.as_str());
    assert_ne!(
        server.me(&phone).await["id"],
        id.as_str(),
        "the phone is a new guest now"
    );
    assert_eq!(
        server
            .post("/api/login", login(PASSWORD), None, None)
            .await
            .0,
        401
    );
    assert_eq!(
        server.post("/api/login", login(new), None, None).await.0,
        200
    );
}

#[tokio::test]
async fn a_deleted_account_keeps_its_games_anonymised_and_its_sessions_die() {
    let server = start().await;
    let (alice, alice_id) = server.account("alice").await;
    let (bob, _) = server.account("bob").await;
    let mut red = server.socket(&alice).await;
    let mut black = server.socket(&bob).await;
    let game = server.game(&mut red, &mut black, true).await;
    red.chat(&game, "players", "hello bob").await;
    black.expect("chat").await;
    for (socket, mv) in [(&mut red, "h2e2"), (&mut black, "h9g7")] {
        let ply = if mv == "h2e2" { 0 } else { 1 };
        socket
            .send(json!({"t": "move", "game": game, "ply": ply, "move": mv}))
            .await;
        socket.expect("ack").await;
    }
    red.send(json!({"t": "resign", "game": game})).await;
    loop {
        let frame = red.expect("event").await;
        if frame["event"]["kind"] == "end" {
            break;
        }
    }
    let path = "/api/account/delete";
    let (status, _, _) = server
        .post(
            path,
            json!({"password": "wrong password"}),
            Some(&alice),
            None,
        )
        .await;
    assert_eq!(status, 401);
    let (status, _, _) = server.post(path, json!({}), Some(&alice), None).await;
    assert_eq!(status, 422);
    let (status, headers, body) = server
        .post(path, json!({"password": PASSWORD}), Some(&alice), None)
        .await;
    assert_eq!(status, 200, "{body}");
    let placeholder = body["deleted"].as_str().unwrap().to_string();
    assert!(placeholder.starts_with("deleted-"), "{placeholder}");
    let cleared = headers.get(SET_COOKIE).unwrap().to_str().unwrap();
    assert!(cleared.contains("Max-Age=0"), "{cleared}");

    // The old session is nobody's: a new guest, no report, no deletion.
    assert_ne!(server.me(&alice).await["id"], alice_id.as_str());
    let (status, _, _) = server
        .post(
            "/api/reports",
            json!({"game": game, "reason": "spam"}),
            Some(&alice),
            None,
        )
        .await;
    assert_eq!(status, 401, "the old cookie is no session");
    // The socket opened before is refused everything.
    red.chat(&game, "players", "still here?").await;
    red.expect_error("account_deleted").await;
    red.send(json!({"t": "seek", "tc": "5+3"})).await;
    red.expect_error("account_deleted").await;
    black.no_chat().await;
    // No login by the old name or the placeholder.
    for name in ["alice", placeholder.as_str()] {
        let login = json!({"name": name, "password": PASSWORD});
        assert_eq!(
            server.post("/api/login", login, None, None).await.0,
            401,
            "{name}"
        );
    }
    // The games, ratings and chat stay under the placeholder.
    let (status, page) = server
        .get(&format!("/api/players/{placeholder}"), None)
        .await;
    assert_eq!(status, 200);
    assert_eq!(page["games"].as_array().unwrap().len(), 1);
    assert_eq!(page["history"].as_array().unwrap().len(), 1);
    assert_eq!(page["games"][0]["red"]["name"], placeholder.as_str());
    let (_, bobs) = server.get("/api/players/bob", None).await;
    assert_eq!(bobs["games"][0]["red"]["name"], placeholder.as_str());
    let (_, chat) = server
        .get(&format!("/api/games/{game}/chat"), Some(&bob))
        .await;
    assert_eq!(chat["messages"][0]["name"], placeholder.as_str());
    assert_eq!(server.get("/api/players/alice", None).await.0, 404);
    // The name is free for anyone again.
    let (new_alice, new_id) = server.account("alice").await;
    assert_ne!(new_id, alice_id);
    assert_eq!(server.me(&new_alice).await["name"], "alice");
}

// ---------------------------------------------------------- player page

fn stored_game(id: &str, red: &str, black: &str, at: i64, rated: bool) -> GameRow {
    GameRow {
        id: id.into(),
        red: red.into(),
        black: black.into(),
        time_control: "5+3".into(),
        rated,
        rules: "online".into(),
        start_fen: xiangqi_core::START_FEN.into(),
        started_at: at,
    }
}

#[tokio::test]
async fn a_players_games_are_filtered_and_paged_on_the_server() {
    let server = start().await;
    let (_, me) = server.account("pager").await;
    let (_, rival) = server.account("rival").await;
    let (_, other) = server.account("other").await;
    let store = &server.state.store;
    // 120 games: 80 against the rival (won on even numbers, rated on
    // multiples of 4), 40 against the other (drawn, casual).
    for i in 0..120 {
        let id = format!("g_{i:03}");
        let opponent = if i < 80 { &rival } else { &other };
        store
            .insert_game(&stored_game(
                &id,
                &me,
                opponent,
                1_000 + i,
                i < 80 && i % 4 == 0,
            ))
            .await
            .unwrap();
        let result = if i >= 80 {
            "1/2-1/2"
        } else if i % 2 == 0 {
            "1-0"
        } else {
            "0-1"
        };
        let ending = Ending {
            status: "finished".into(),
            result: result.into(),
            reason: "checkmate".into(),
            ply: 30,
            red_clock: 1,
            black_clock: 1,
            ended_at: 2_000 + i,
            ecco: Some("A00".into()),
        };
        store.finish_game(&id, &ending, &[]).await.unwrap();
    }
    let page = |query: &str| {
        let path = format!("/api/players/pager?{query}");
        let server = &server;
        async move { server.get(&path, None).await }
    };
    let count = |body: &Value| body["games"].as_array().unwrap().len();
    let (status, first) = page("").await;
    assert_eq!(status, 200);
    assert_eq!(
        (count(&first), &first["more"], &first["page"]),
        (50, &json!(true), &json!(1))
    );
    assert_eq!(first["games"][0]["id"], "g_119");
    let (_, third) = page("page=3").await;
    assert_eq!((count(&third), &third["more"]), (20, &json!(false)));
    assert_eq!(third["games"][19]["id"], "g_000");
    let (_, wins) = page("result=win").await;
    assert_eq!((count(&wins), &wins["more"]), (40, &json!(false)));
    let (_, draws) = page("result=draw&opponent=rival").await;
    assert_eq!(count(&draws), 0);
    let (_, versus) = page("opponent=OTHER&result=draw").await;
    assert_eq!((count(&versus), &versus["opponent"]), (40, &json!("other")));
    let (_, rated_wins) = page("rated=true&result=win").await;
    assert_eq!(count(&rated_wins), 20);
    // 60 casual games against the rival and 40 against the other.
    let (_, casual) = page("rated=false&page=2").await;
    assert_eq!((count(&casual), &casual["more"]), (50, &json!(false)));
    let (_, rival_losses) = server
        .get("/api/players/rival?result=loss&opponent=pager", None)
        .await;
    assert_eq!(count(&rival_losses), 40);
    let (_, nobody) = page("opponent=nobody_at_all").await;
    assert_eq!(count(&nobody), 0);
    for (query, code) in [
        ("result=won", "bad_result"),
        ("rated=yes", "bad_rated"),
        ("page=0", "bad_page"),
        ("page=-1", "bad_page"),
        ("page=99999999999999999999", "bad_page"),
        ("ecco=Z9", "bad_ecco"),
    ] {
        let (status, body) = page(query).await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (400, Some(code)),
            "{query}"
        );
    }
}
