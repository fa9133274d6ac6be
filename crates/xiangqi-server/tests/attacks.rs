//! Attacks on the server as a stranger on the internet would try them, over
//! real sockets on 127.0.0.1, each with the limit it runs into set
//! explicitly (the `serve` options' defaults are documented in
//! `docs/server.md`, "Security"). Every request loop is bounded in count.

use reqwest::header::{HeaderMap, COOKIE, ORIGIN, RETRY_AFTER, SET_COOKIE};
use serde_json::{json, Value};
use xiangqi_server::clock::ManualClock;
use xiangqi_server::security::{Rate, Security};
use xiangqi_server::store::Store;
use xiangqi_server::ws::protocol::session_cookie_pair;
use xiangqi_server::Server;
use xiangqi_test_support::serve::{answer, Client as Socket, WebClient, WsError};

/// Limits no test here reaches unless it sets its own.
fn roomy() -> Security {
    let many: Rate = "100000/min".parse().unwrap();
    Security {
        guests: many,
        sign_ins: many,
        account_sign_ins: many,
        seeks_per_address: 100_000,
        hash_workers: 2,
        hash_queue: 1_000,
        ..Security::default()
    }
}

struct TestServer {
    /// The HTTP calls (`url`, `guest`, `post`) and the `base` and `http` fields.
    web: WebClient,
    host: String,
    clock: std::sync::Arc<ManualClock>,
    state: xiangqi_server::state::AppState,
}

impl std::ops::Deref for TestServer {
    type Target = WebClient;

    fn deref(&self) -> &WebClient {
        &self.web
    }
}

async fn start(security: Security) -> TestServer {
    let store = Store::open("sqlite::memory:").await.unwrap();
    let clock = ManualClock::new(1_700_000_000_000);
    let server = Server::bind("127.0.0.1:0".parse().unwrap(), store, clock.clone(), 1)
        .await
        .unwrap()
        .with_security(security);
    let host = server.local_addr().to_string();
    let state = server.state().clone();
    tokio::spawn(server.run_until(std::future::pending()));
    TestServer {
        web: WebClient::new(format!("http://{host}"), cookie_of),
        host,
        clock,
        state,
    }
}

fn cookie_of(headers: &HeaderMap) -> Option<String> {
    let values = headers.get_all(SET_COOKIE);
    session_cookie_pair(values.iter().filter_map(|v| v.to_str().ok())).map(str::to_owned)
}

fn retry_after(headers: &HeaderMap) -> u64 {
    headers
        .get(RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .expect("a Retry-After in whole seconds")
}

impl TestServer {
    async fn register(&self, name: &str, password: &str) -> (u16, HeaderMap, Value) {
        let body = json!({"name": name, "password": password});
        self.post("/api/register", body, None, None).await
    }

    async fn login(&self, name: &str, password: &str) -> (u16, HeaderMap, Value) {
        let body = json!({"name": name, "password": password});
        self.post("/api/login", body, None, None).await
    }

    /// Opens `/ws` with `cookie` and `origin`.
    async fn socket(&self, cookie: &str, origin: Option<&str>) -> Result<Socket, WsError> {
        Socket::open_from(&self.base, cookie, origin).await
    }
}

/// The 403 of a refused upgrade.
fn refused_upgrade(result: Result<Socket, WsError>) -> Value {
    match result {
        Err(WsError::Http(response)) => {
            assert_eq!(response.status(), 403);
            let body = response.body().as_deref().unwrap_or_default();
            serde_json::from_slice(body).unwrap()
        }
        Err(e) => panic!("expected 403, got {e}"),
        Ok(_) => panic!("a socket was opened"),
    }
}

// ------------------------------------------------------ cross-site requests

#[tokio::test]
async fn a_page_of_another_origin_cannot_open_the_socket() {
    let server = start(Security {
        allowed_origins: vec!["https://xiangqi.example".into()],
        ..roomy()
    })
    .await;
    let cookie = server.guest().await;
    // Another port on the same host, a sibling site, a sandboxed frame.
    for foreign in [
        "http://127.0.0.1:18999",
        "http://localhost",
        "https://evil.example",
        "null",
    ] {
        let body = refused_upgrade(server.socket(&cookie, Some(foreign)).await);
        assert_eq!(body["error"]["code"], "foreign_origin", "{foreign}");
    }
    // The server's own pages, the allowed proxy origin, and clients that
    // are no browser page (no Origin) keep working.
    let own = server.base.clone();
    for origin in [Some(own.as_str()), Some("https://xiangqi.example"), None] {
        let mut socket = server.socket(&cookie, origin).await.expect("allowed");
        socket.send(json!({"t": "ping"})).await;
        socket.expect("pong").await;
    }
}

#[tokio::test]
async fn a_page_of_another_origin_cannot_send_state_changing_requests() {
    let server = start(roomy()).await;
    let cookie = server.guest().await;
    let foreign = Some("http://127.0.0.1:18999");
    let (status, _, body) = server
        .post("/api/logout", json!({}), Some(&cookie), foreign)
        .await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (403, Some("foreign_origin"))
    );
    let body = json!({"name": "victim_1", "password": "correct horse"});
    let (status, _, _) = server
        .post("/api/register", body.clone(), Some(&cookie), foreign)
        .await;
    assert_eq!(status, 403);
    let response = server
        .http
        .put(server.url("/api/settings"))
        .header(COOKIE, &cookie)
        .header(ORIGIN, "https://evil.example")
        .json(&json!({"notation": "wxf"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 403);
    // Nothing happened: the session is the same guest, with its notation.
    let me = server
        .http
        .get(server.url("/api/me"))
        .header(COOKIE, &cookie);
    let (status, _, me) = answer(me.send().await.unwrap()).await;
    assert_eq!(status, 200);
    assert_eq!(
        (me["guest"].as_bool(), me["notation"].as_str()),
        (Some(true), Some("coordinate"))
    );
    // The same requests from the server's own page succeed.
    let own = Some(server.base.as_str());
    let (status, _, me) = server.post("/api/register", body, Some(&cookie), own).await;
    assert_eq!(status, 200, "{me}");
}

// ------------------------------------------------------ passwords

#[tokio::test]
async fn wrong_passwords_are_throttled_per_account_and_per_address() {
    let server = start(Security {
        account_sign_ins: "5/h".parse().unwrap(),
        sign_ins: "13/h".parse().unwrap(),
        ..roomy()
    })
    .await;
    assert_eq!(server.register("alice", "correct horse").await.0, 200);
    for attempt in 0..5 {
        let (status, _, body) = server.login("alice", &format!("guess {attempt}")).await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (401, Some("bad_credentials"))
        );
    }
    let (status, headers, body) = server.login("alice", "guess 5").await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (429, Some("rate_limited")),
        "{body}"
    );
    assert!((600..=720).contains(&retry_after(&headers)), "{headers:?}");
    // Even the right password waits now: the throttle comes before the check.
    assert_eq!(server.login("alice", "correct horse").await.0, 429);
    // An unknown name answers the same way as a known one.
    for attempt in 0..5 {
        assert_eq!(
            server
                .login("nobody_here", &format!("guess {attempt}"))
                .await
                .0,
            401
        );
    }
    // 1 registration + 12 logins (the refused ones count too): the address
    // has had its 13 sign-ins an hour.
    let (status, headers, _) = server.login("carol", "whatever 1").await;
    assert_eq!(status, 429);
    assert!(retry_after(&headers) >= 1);
}

#[tokio::test]
async fn parallel_logins_are_bounded_by_the_hashing_pool() {
    let server = start(Security {
        hash_workers: 2,
        hash_queue: 2,
        ..roomy()
    })
    .await;
    assert_eq!(server.register("bob_99", "correct horse").await.0, 200);
    let attempts = (0..24).map(|i| {
        let server = &server;
        async move { server.login(&format!("name_{i}"), "wrong horse").await }
    });
    let answers = futures_util::future::join_all(attempts).await;
    let busy: Vec<_> = answers
        .iter()
        .filter(|(status, _, _)| *status == 503)
        .collect();
    let refused = answers
        .iter()
        .filter(|(status, _, _)| *status == 401)
        .count();
    assert_eq!(busy.len() + refused, 24, "only 401 or 503");
    // Two hash at once and two more may wait: the other 20 are refused at
    // once, whatever the hashing costs (the waiting two may time out too).
    assert!(refused >= 2, "the workers were served: {refused}");
    assert!(
        busy.len() >= 20,
        "24 at once cannot all be hashing or queued"
    );
    for (_, headers, body) in busy {
        assert_eq!(body["error"]["code"], "overloaded");
        assert!(retry_after(headers) >= 1);
    }
    // Never more than the two workers held Argon2's memory at once.
    assert!(server.state.guards.hashing.peak() <= 2);
    assert_eq!(server.login("bob_99", "correct horse").await.0, 200);
}

// ------------------------------------------------------ names

#[tokio::test]
async fn confusable_and_reserved_names_and_weak_passwords_are_refused() {
    let server = start(roomy()).await;
    assert_eq!(server.register("alice", "correct horse").await.0, 200);
    for poser in ["aIice", "a1ice", "ALlCE", "a|ice"] {
        let (status, _, body) = server.register(poser, "correct horse").await;
        let code = body["error"]["code"].as_str();
        if poser == "a|ice" {
            assert_eq!((status, code), (400, Some("bad_name")), "{poser}");
        } else {
            assert_eq!(
                (status, code),
                (409, Some("name_confusable")),
                "{poser}: {body}"
            );
            // Both names, for the client's own sentence.
            assert_eq!(body["error"]["args"]["name"], poser, "{body}");
            assert_eq!(body["error"]["args"]["existing"], "alice", "{body}");
        }
    }
    for reserved in ["Guest-123abc", "xiangqi-engine", "admin", "ADM1N", "root"] {
        let (status, _, body) = server.register(reserved, "correct horse").await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (400, Some("reserved_name")),
            "{reserved}"
        );
    }
    for (name, password) in [
        ("carol_77", "Carol_77"),
        ("carol_77", "password123"),
        ("carol_77", "carol_77x"),
    ] {
        let (status, _, body) = server.register(name, password).await;
        let expected = if password == "carol_77x" { 200 } else { 400 };
        assert_eq!(status, expected, "{password}: {body}");
        if expected == 400 {
            assert_eq!(body["error"]["code"], "bad_password");
        }
    }
    let (status, _, body) = server.register("CAROL_77", "correct horse").await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (409, Some("name_taken"))
    );
    assert_eq!(body["error"]["args"], json!({"name": "CAROL_77"}), "{body}");
}

// ------------------------------------------------------ guests and seeks

#[tokio::test]
async fn guests_are_limited_per_address() {
    let server = start(Security {
        guests: "20/h".parse().unwrap(),
        ..roomy()
    })
    .await;
    let mut made = 0;
    let mut refused = 0;
    for _ in 0..200 {
        let response = server.http.get(server.url("/api/me")).send().await.unwrap();
        let (status, headers, body) = answer(response).await;
        match status {
            200 => {
                assert!(cookie_of(&headers).is_some());
                made += 1;
            }
            429 => {
                assert_eq!(body["error"]["code"], "rate_limited");
                assert!(cookie_of(&headers).is_none());
                assert!(retry_after(&headers) >= 1);
                assert_eq!(
                    body["error"]["args"]["seconds"],
                    retry_after(&headers),
                    "{body}"
                );
                refused += 1;
            }
            other => panic!("status {other}: {body}"),
        }
    }
    assert_eq!((made, refused), (20, 180));
}

#[tokio::test]
async fn idle_guests_expire_with_their_sessions_and_players_of_games_stay() {
    let server = start(roomy()).await;
    let idle = server.guest().await;
    let (player, opponent) = (server.guest().await, server.guest().await);
    let mut red = server.socket(&player, None).await.unwrap();
    let mut black = server.socket(&opponent, None).await.unwrap();
    red.send(json!({"t": "seek", "tc": "5+3", "color": "red"}))
        .await;
    let seek = red.expect("seek_created").await["seek"]["id"].clone();
    black.send(json!({"t": "accept", "id": seek})).await;
    black.expect("started").await;
    drop((red, black));
    let me = |cookie: &str| {
        let request = server
            .http
            .get(server.url("/api/me"))
            .header(COOKIE, cookie);
        async move { answer(request.send().await.unwrap()).await }
    };
    let (_, _, idle_me) = me(&idle).await;
    let (_, _, player_me) = me(&player).await;
    server
        .clock
        .advance(xiangqi_server::security::sweep::GUEST_IDLE_LIMIT_MS + 1);
    let expired = xiangqi_server::security::sweep::expire_guests(&server.state)
        .await
        .unwrap();
    assert_eq!(expired, 1);
    // The idle guest's cookie no longer names it: a new guest is made.
    let (status, headers, again) = me(&idle).await;
    assert_eq!(status, 200);
    assert_ne!(again["id"], idle_me["id"]);
    assert!(cookie_of(&headers).is_some());
    let name = idle_me["name"].as_str().unwrap();
    let page = server.http.get(server.url(&format!("/api/players/{name}")));
    assert_eq!(page.send().await.unwrap().status(), 404);
    // The guest who played keeps its player and its session.
    let (_, _, still) = me(&player).await;
    assert_eq!(still["id"], player_me["id"]);
}

#[tokio::test]
async fn open_seeks_are_capped_per_address() {
    let server = start(Security {
        seeks_per_address: 4,
        ..roomy()
    })
    .await;
    let mut sockets = Vec::new();
    for _ in 0..2 {
        let cookie = server.guest().await;
        sockets.push(server.socket(&cookie, None).await.unwrap());
    }
    let seek = json!({"t": "seek", "tc": "5+3"});
    for _ in 0..3 {
        sockets[0].send(seek.clone()).await;
        sockets[0].expect("seek_created").await;
    }
    sockets[1].send(seek.clone()).await;
    sockets[1].expect("seek_created").await;
    sockets[1].send(seek).await;
    let refused = sockets[1].expect_error("too_many_seeks").await;
    assert!(
        refused["message"].as_str().unwrap().contains("address"),
        "{refused}"
    );
}

#[tokio::test]
async fn time_controls_under_15_seconds_and_padded_rules_are_refused() {
    let server = start(roomy()).await;
    let cookie = server.guest().await;
    let mut socket = server.socket(&cookie, None).await.unwrap();
    for tc in ["0.001+0", "0.2+0", "0.1+0.2"] {
        socket.send(json!({"t": "seek", "tc": tc})).await;
        socket.expect_error("bad_time_control").await;
        socket
            .send(json!({"t": "play_engine", "level": 0, "tc": tc}))
            .await;
        socket.expect_error("bad_time_control").await;
    }
    for rules in [" ASIAN ", "asian\n", "\tonline"] {
        socket
            .send(json!({"t": "seek", "tc": "5+3", "rules": rules}))
            .await;
        socket.expect_error("unknown_rules").await;
    }
    // 15 s exactly, either way.
    for (tc, rules) in [("0.25+0", "asian"), ("0.05+0.3", "ASIAN")] {
        socket
            .send(json!({"t": "seek", "tc": tc, "rules": rules}))
            .await;
        let created = socket.expect("seek_created").await;
        assert_eq!(created["seek"]["rules"], "asian");
    }
}

// ------------------------------------------------------ answers

#[tokio::test]
async fn every_answer_carries_the_security_headers() {
    let server = start(roomy()).await;
    for path in [
        "/",
        "/games/g_1",
        "/static/app.js",
        "/static/board.js",
        "/api/me",
        "/api/nothing",
    ] {
        let response = server.http.get(server.url(path)).send().await.unwrap();
        let headers = response.headers();
        let csp = headers
            .get("content-security-policy")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_else(|| panic!("{path}: no Content-Security-Policy"));
        for directive in [
            "default-src 'self'",
            "script-src 'self'",
            "frame-ancestors 'none'",
            "object-src 'none'",
        ] {
            assert!(csp.contains(directive), "{path}: {csp}");
        }
        assert!(!csp.contains("unsafe"), "{path}: {csp}");
        assert_eq!(headers["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(headers["x-frame-options"], "DENY", "{path}");
    }
    // Over plain HTTP the cookie cannot be Secure (the browser would drop it).
    let response = server.http.get(server.url("/api/me")).send().await.unwrap();
    let cookie = response.headers()[SET_COOKIE].to_str().unwrap().to_owned();
    assert!(!cookie.contains("Secure"), "{cookie}");
    // A forged X-Forwarded-Proto from a peer that is no trusted proxy changes nothing.
    let forged = server
        .http
        .get(server.url("/api/me"))
        .header("x-forwarded-proto", "https");
    let response = forged.send().await.unwrap();
    assert!(!response.headers()[SET_COOKIE]
        .to_str()
        .unwrap()
        .contains("Secure"));
}

#[tokio::test]
async fn the_cookie_is_secure_behind_tls_or_a_trusted_proxy_saying_https() {
    let tls = start(Security {
        behind_tls: true,
        ..roomy()
    })
    .await;
    let response = tls.http.get(tls.url("/api/me")).send().await.unwrap();
    let cookie = response.headers()[SET_COOKIE].to_str().unwrap().to_owned();
    assert!(cookie.contains("; Secure"), "{cookie}");
    let proxied = start(Security {
        trusted_proxies: vec!["127.0.0.1".parse().unwrap()],
        ..roomy()
    })
    .await;
    let request = proxied
        .http
        .get(proxied.url("/api/me"))
        .header("x-forwarded-proto", "https");
    let response = request.send().await.unwrap();
    assert!(response.headers()[SET_COOKIE]
        .to_str()
        .unwrap()
        .contains("; Secure"));
    // Behind TLS the own origin is https://HOST.
    let cookie = cookie_of(response.headers()).unwrap();
    let own = format!("https://{}", proxied.host);
    let fetched = proxied
        .http
        .put(proxied.url("/api/settings"))
        .header(COOKIE, &cookie)
        .header("x-forwarded-proto", "https")
        .header(ORIGIN, own)
        .json(&json!({"notation": "wxf"}));
    assert_eq!(fetched.send().await.unwrap().status(), 200);
}

#[tokio::test]
async fn error_messages_echo_a_few_dozen_characters_of_input() {
    let server = start(roomy()).await;
    let long = "x".repeat(10_000);
    let short_enough = |message: &str| {
        assert!(
            message.chars().count() <= 240,
            "{} characters",
            message.len()
        );
        assert!(!message.contains(&"x".repeat(40)), "{message}");
    };
    let cookie = server.guest().await;
    let mut socket = server.socket(&cookie, None).await.unwrap();
    let frames = [
        (json!({"t": "seek", "tc": long}), "bad_time_control"),
        (
            json!({"t": "seek", "tc": "5+3", "rules": long}),
            "unknown_rules",
        ),
        (json!({"t": "watch", "game": long}), "unknown_game"),
        (
            json!({"t": "move", "game": long, "ply": 0, "move": "h2e2"}),
            "unknown_game",
        ),
        (json!({"t": "cancel_seek", "id": long}), "unknown_seek"),
        (json!({"t": "accept", "id": long}), "unknown_seek"),
        (
            json!({"t": "seek", "tc": "5+3", "color": long}),
            "bad_message",
        ),
        (
            json!({"t": "move", "game": "g", "ply": long, "move": "h2e2"}),
            "bad_message",
        ),
    ];
    for (frame, code) in frames {
        socket.send(frame).await;
        let error = socket.expect_error(code).await;
        short_enough(error["message"].as_str().unwrap());
        assert!(
            error.to_string().len() < 600,
            "the whole frame, ref too: {error}"
        );
    }
    // A move as long as a frame allows, in a game of one's own.
    let other = server.guest().await;
    let mut opponent = server.socket(&other, None).await.unwrap();
    socket
        .send(json!({"t": "seek", "tc": "5+3", "color": "red"}))
        .await;
    let seek = socket.expect("seek_created").await["seek"]["id"].clone();
    opponent.send(json!({"t": "accept", "id": seek})).await;
    let game = socket.expect("started").await["game"].clone();
    let long_move = "x".repeat(15_000);
    socket
        .send(json!({"t": "move", "game": game, "ply": 0, "move": long_move}))
        .await;
    let error = socket.expect_error("illegal_move").await;
    short_enough(error["message"].as_str().unwrap());
    for path in [
        format!("/api/players/{long}"),
        format!("/api/games/{long}"),
        format!("/games/{long}.pgn"),
    ] {
        let (status, _, body) =
            answer(server.http.get(server.url(&path)).send().await.unwrap()).await;
        assert_eq!(status, 404);
        short_enough(body["error"]["message"].as_str().unwrap());
    }
    let bad_type = format!("{{\"name\": \"{long}\", \"password\": 5}}");
    let response = server
        .http
        .post(server.url("/api/login"))
        .header("content-type", "application/json")
        .body(bad_type)
        .send()
        .await
        .unwrap();
    let (status, _, body) = answer(response).await;
    assert_eq!(status, 422);
    short_enough(body["error"]["message"].as_str().unwrap());
}
