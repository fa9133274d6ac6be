//! The library of imported games over real sockets on 127.0.0.1, attacks
//! first: requests from another site's pages, guests and strangers,
//! another player's game ids, an oversized body (declared and chunked), a
//! file claiming more games than an import takes, garbage and cut binary
//! files, a flood of imports. Then real files of every format, each read
//! to as many games as the gamefile crate's reader (the CLI's) finds, the
//! list, its filters and paging, a game's viewer and its engine review
//! (docs/server.md, "Library"). Every request loop is bounded in count.

use std::path::{Path, PathBuf};
use std::time::Duration;

use reqwest::header::{HeaderMap, COOKIE, ORIGIN, RETRY_AFTER, SET_COOKIE};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use xiangqi_gamefile::Games;
use xiangqi_server::clock::ManualClock;
use xiangqi_server::library::{IMPORTS, MAX_GAMES_PER_IMPORT, MAX_IMPORT_BYTES};
use xiangqi_server::security::{Rate, Security};
use xiangqi_server::store::Store;
use xiangqi_server::ws::protocol::session_cookie_pair;
use xiangqi_server::Server;
use xiangqi_test_support::shared_testdata;

struct TestServer {
    base: String,
    host: String,
    http: reqwest::Client,
    clock: std::sync::Arc<ManualClock>,
}

async fn start() -> TestServer {
    let many: Rate = "100000/min".parse().unwrap();
    let security = Security {
        guests: many,
        sign_ins: many,
        account_sign_ins: many,
        hash_workers: 2,
        hash_queue: 1_000,
        ..Security::default()
    };
    let store = Store::open("sqlite::memory:").await.unwrap();
    let clock = ManualClock::new(1_700_000_000_000);
    let server = Server::bind("127.0.0.1:0".parse().unwrap(), store, clock.clone(), 1)
        .await
        .unwrap()
        .with_security(security);
    let host = server.local_addr().to_string();
    tokio::spawn(server.run_until(std::future::pending()));
    TestServer {
        base: format!("http://{host}"),
        host,
        http: reqwest::Client::new(),
        clock,
    }
}

async fn answer(response: reqwest::Response) -> (u16, HeaderMap, Value) {
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let text = response.text().await.unwrap();
    let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (status, headers, body)
}

fn cookie_of(headers: &HeaderMap) -> String {
    let values = headers.get_all(SET_COOKIE);
    session_cookie_pair(values.iter().filter_map(|v| v.to_str().ok()))
        .expect("a session cookie")
        .to_owned()
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/library")
        .join(name)
}

/// A PGN of `count` short games, each named by its number.
fn many_games(count: usize) -> String {
    (1..=count)
        .map(|i| format!("[Red \"r{i}\"]\n[Black \"b{i}\"]\n\n1. h2e2 h9g7 *\n\n"))
        .collect()
}

impl TestServer {
    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// A new account's session cookie.
    async fn account(&self, name: &str) -> String {
        let response = self
            .http
            .post(self.url("/api/register"))
            .json(&json!({"name": name, "password": "a long enough password"}))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 200);
        cookie_of(response.headers())
    }

    async fn guest(&self) -> String {
        let response = self.http.get(self.url("/api/me")).send().await.unwrap();
        cookie_of(response.headers())
    }

    /// `POST /api/library/import?name=NAME` with `bytes` as the body.
    async fn import(
        &self,
        cookie: Option<&str>,
        name: &str,
        bytes: Vec<u8>,
        origin: Option<&str>,
    ) -> (u16, HeaderMap, Value) {
        let mut request = self
            .http
            .post(self.url("/api/library/import"))
            .query(&[("name", name)])
            .body(bytes);
        if let Some(cookie) = cookie {
            request = request.header(COOKIE, cookie);
        }
        if let Some(origin) = origin {
            request = request.header(ORIGIN, origin);
        }
        answer(request.send().await.unwrap()).await
    }

    async fn import_ok(&self, cookie: &str, name: &str, bytes: Vec<u8>) -> Value {
        let (status, _, body) = self.import(Some(cookie), name, bytes, None).await;
        assert_eq!(status, 200, "{name}: {body}");
        body
    }

    async fn send(
        &self,
        method: reqwest::Method,
        path: &str,
        cookie: &str,
        origin: Option<&str>,
    ) -> (u16, Value) {
        let mut request = self
            .http
            .request(method, self.url(path))
            .header(COOKIE, cookie);
        if let Some(origin) = origin {
            request = request.header(ORIGIN, origin);
        }
        let (status, _, body) = answer(request.send().await.unwrap()).await;
        (status, body)
    }

    async fn get(&self, path: &str, cookie: &str) -> (u16, Value) {
        self.send(reqwest::Method::GET, path, cookie, None).await
    }
}

#[tokio::test]
async fn a_page_of_another_origin_cannot_import_or_delete() {
    let server = start().await;
    let alice = server.account("alice").await;
    let pgn = many_games(1).into_bytes();
    let evil = Some("http://evil.example");
    let (status, _, body) = server
        .import(Some(&alice), "a.pgn", pgn.clone(), evil)
        .await;
    assert_eq!(status, 403, "{body}");
    assert_eq!(body["error"]["code"], "foreign_origin");
    let (_, library) = server.get("/api/library", &alice).await;
    assert_eq!(library["size"], 0, "nothing was stored: {library}");

    let own = format!("http://{}", server.host);
    let (status, _, body) = server.import(Some(&alice), "a.pgn", pgn, Some(&own)).await;
    assert_eq!(status, 200, "{body}");
    let id = body["games"][0]["id"].as_str().unwrap();
    let path = format!("/api/library/{id}");
    let (status, _) = server
        .send(reqwest::Method::DELETE, &path, &alice, evil)
        .await;
    assert_eq!(status, 403);
    let (status, _) = server
        .send(
            reqwest::Method::POST,
            &format!("{path}/annotate"),
            &alice,
            evil,
        )
        .await;
    assert_eq!(status, 403);
    let (status, _) = server.get(&format!("{path}/viewer"), &alice).await;
    assert_eq!(status, 200, "the game is still there");
}

#[tokio::test]
async fn strangers_and_guests_have_no_library() {
    let server = start().await;
    let pgn = many_games(1).into_bytes();
    let (status, _, body) = server.import(None, "a.pgn", pgn.clone(), None).await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (401, &json!("not_signed_in"))
    );
    let guest = server.guest().await;
    let (status, _, body) = server.import(Some(&guest), "a.pgn", pgn, None).await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (403, &json!("account_required"))
    );
    let (status, body) = server.get("/api/library", &guest).await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (403, &json!("account_required"))
    );
}

#[tokio::test]
async fn another_players_games_are_not_there_for_them() {
    let server = start().await;
    let alice = server.account("alice").await;
    let mallory = server.account("mallory").await;
    let body = server
        .import_ok(&alice, "a.pgn", many_games(2).into_bytes())
        .await;
    let id = body["games"][0]["id"].as_str().unwrap();
    let path = format!("/api/library/{id}");
    for (method, path) in [
        (reqwest::Method::GET, format!("{path}/viewer")),
        (reqwest::Method::POST, format!("{path}/annotate")),
        (reqwest::Method::DELETE, path.clone()),
    ] {
        let (status, body) = server.send(method, &path, &mallory, None).await;
        assert_eq!(status, 404, "{path}: {body}");
        assert_eq!(body["error"]["code"], "not_found");
    }
    let (_, theirs) = server.get("/api/library", &mallory).await;
    assert_eq!(theirs["total"], 0);
    let batch = body["batch"].as_str().unwrap();
    let (_, theirs) = server
        .get(&format!("/api/library?batch={batch}"), &mallory)
        .await;
    assert_eq!(theirs["total"], 0, "another's batch id finds nothing");
    let (_, mine) = server.get("/api/library", &alice).await;
    assert_eq!(mine["total"], 2, "{mine}");
}

#[tokio::test]
async fn an_oversized_body_is_refused_declared_or_chunked() {
    let server = start().await;
    let alice = server.account("alice").await;
    let mut big = many_games(1).into_bytes();
    big.resize(MAX_IMPORT_BYTES + 1, b' ');
    let (status, _, body) = server.import(Some(&alice), "big.pgn", big, None).await;
    assert_eq!(status, 413, "{body}");
    assert_eq!(body["error"]["code"], "too_large");

    // Chunked, so no length is declared: cut off where the limit is passed.
    let mut stream = tokio::net::TcpStream::connect(&server.host).await.unwrap();
    let head = format!(
        "POST /api/library/import?name=big.pgn HTTP/1.1\r\nHost: {}\r\nCookie: {alice}\r\n\
         Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n",
        server.host
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let chunk = vec![b' '; 1 << 20];
    for _ in 0..(MAX_IMPORT_BYTES >> 20) + 2 {
        let mut frame = format!("{:x}\r\n", chunk.len()).into_bytes();
        frame.extend_from_slice(&chunk);
        frame.extend_from_slice(b"\r\n");
        if stream.write_all(&frame).await.is_err() {
            break; // the server answered and closed
        }
    }
    let _ = stream.write_all(b"0\r\n\r\n").await;
    let mut reply = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut reply)).await;
    let reply = String::from_utf8_lossy(&reply);
    assert!(reply.starts_with("HTTP/1.1 413"), "{reply}");
    assert!(reply.contains("too_large"), "{reply}");
}

#[tokio::test]
async fn a_file_of_more_games_than_an_import_takes_says_which_were_left() {
    let server = start().await;
    let alice = server.account("alice").await;
    let count = MAX_GAMES_PER_IMPORT + 200;
    let body = server
        .import_ok(&alice, "many.pgn", many_games(count).into_bytes())
        .await;
    assert_eq!(
        body["imported"], MAX_GAMES_PER_IMPORT,
        "{}",
        body["not_imported"]
    );
    assert_eq!(body["failed"], 0);
    assert_eq!(
        body["not_imported"],
        json!({"first": MAX_GAMES_PER_IMPORT + 1, "last": count, "reason": "import_cap", "limit": MAX_GAMES_PER_IMPORT})
    );
    let (_, library) = server.get("/api/library", &alice).await;
    assert_eq!(library["size"], MAX_GAMES_PER_IMPORT);
}

#[tokio::test]
async fn a_library_whose_index_claims_millions_of_games_is_read_within_its_bytes() {
    let Some(cbl) = shared_testdata("corpus/games/1989年龙化杯象棋名师邀请赛35局.CBL")
    else {
        return;
    };
    let server = start().await;
    let alice = server.account("alice").await;
    let mut bytes = std::fs::read(cbl).unwrap();
    // The library's capacity (the index entries it claims), at byte 60.
    bytes[60..64].copy_from_slice(&i32::MAX.to_le_bytes());
    let body = server.import_ok(&alice, "claims.CBL", bytes).await;
    let (imported, failed) = (
        body["imported"].as_u64().unwrap(),
        body["failed"].as_u64().unwrap(),
    );
    assert!(imported + failed >= 1, "{body}");
    assert!(
        imported <= 38 && failed <= 38,
        "no more than the file holds: {body}"
    );
    let (_, library) = server.get("/api/library", &alice).await;
    assert_eq!(library["size"].as_u64().unwrap(), imported);
}

/// The first `n` bytes of a real file.
fn cut(path: &Path, n: usize) -> Vec<u8> {
    let bytes = std::fs::read(path).unwrap();
    bytes[..n.min(bytes.len())].to_vec()
}

#[tokio::test]
async fn garbage_and_cut_binary_files_are_reported_not_stored() {
    let server = start().await;
    let alice = server.account("alice").await;
    let garbage: Vec<u8> = (0..50_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let mut files = vec![
        ("garbage.bin".to_string(), garbage.clone()),
        ("garbage.xqf".to_string(), garbage.clone()),
        ("garbage.cbl".to_string(), garbage),
        (
            "cut.XQF".to_string(),
            cut(&fixture("030-黄松轩先胜冯敬如.XQF"), 700),
        ),
        ("cut.cbr".to_string(), cut(&fixture("test.cbr"), 300)),
        ("cut.cbf".to_string(), cut(&fixture("test.cbf"), 1_000)),
    ];
    if let Some(cbl) = shared_testdata("corpus/games/1989年龙化杯象棋名师邀请赛35局.CBL")
    {
        files.push(("cut.CBL".to_string(), cut(&cbl, 40_000)));
    }
    for (name, bytes) in files {
        let body = server.import_ok(&alice, &name, bytes).await;
        let (imported, failed) = (
            body["imported"].as_u64().unwrap(),
            body["failed"].as_u64().unwrap(),
        );
        assert!(failed >= 1, "{name}: an error is reported: {body}");
        for error in body["errors"].as_array().unwrap() {
            assert!(error["index"].as_u64().unwrap() >= 1, "{name}: {error}");
            assert!(
                !error["message"].as_str().unwrap().is_empty(),
                "{name}: {error}"
            );
        }
        let (_, library) = server
            .get(
                &format!("/api/library?batch={}", body["batch"].as_str().unwrap()),
                &alice,
            )
            .await;
        assert_eq!(library["total"].as_u64().unwrap(), imported, "{name}");
    }
    let (status, body) = server.get("/api/library", &alice).await;
    assert_eq!(status, 200, "the server still answers: {body}");
    let (status, _, body) = server
        .import(Some(&alice), "empty.pgn", b"  \n".to_vec(), None)
        .await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (400, &json!("empty_import"))
    );
}

#[tokio::test]
async fn a_flood_of_imports_is_slowed_down() {
    let server = start().await;
    let alice = server.account("alice").await;
    let burst = IMPORTS.count.get();
    for _ in 0..burst {
        server
            .import_ok(&alice, "a.pgn", many_games(1).into_bytes())
            .await;
    }
    let (status, headers, body) = server
        .import(Some(&alice), "a.pgn", many_games(1).into_bytes(), None)
        .await;
    assert_eq!(status, 429, "{body}");
    assert_eq!(body["error"]["code"], "rate_limited");
    let wait: u64 = headers[RETRY_AFTER].to_str().unwrap().parse().unwrap();
    assert!(wait >= 1, "{wait}");
    // Another player is not held back.
    let bob = server.account("bob").await;
    server
        .import_ok(&bob, "a.pgn", many_games(1).into_bytes())
        .await;
}

/// How many games the gamefile crate's reader (the one `xiangqi game
/// check` uses) reads from `path`, and how many it cannot.
fn reader_counts(path: &Path) -> (usize, usize) {
    let games: Vec<_> = Games::open(path, None).unwrap().collect();
    let good = games.iter().filter(|g| g.is_ok()).count();
    (good, games.len() - good)
}

#[tokio::test]
async fn real_files_of_every_format_import_as_many_games_as_the_reader_reads() {
    let server = start().await;
    let alice = server.account("alice").await;
    let mut files = vec![
        (fixture("ccpd-00000520.pgn"), "pgn", Some("big5")),
        (fixture("中炮对列炮黑先平士角炮.pgn"), "pgn", None),
        (fixture("ccpd-00000520.wxf"), "wxf", None),
        (fixture("030-黄松轩先胜冯敬如.XQF"), "xqf", None),
        (fixture("test.cbf"), "cbf", None),
        (fixture("test.cbr"), "cbr", None),
    ];
    for name in [
        "1989年龙化杯象棋名师邀请赛35局.CBL",
        "1956年全国象棋锦标赛93局.CBL",
    ] {
        if let Some(path) = shared_testdata(&format!("corpus/games/{name}")) {
            files.push((path, "cbl", None));
        }
    }
    let mut total = 0;
    for (path, format, encoding) in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let body = server
            .import_ok(&alice, &name, std::fs::read(path).unwrap())
            .await;
        let (good, bad) = reader_counts(path);
        assert!(good >= 1, "{name}");
        assert_eq!(body["format"], *format, "{name}");
        assert_eq!(body["name"], name);
        assert_eq!(
            (
                body["imported"].as_u64().unwrap() as usize,
                body["failed"].as_u64().unwrap() as usize
            ),
            (good, bad),
            "{name}: {body}"
        );
        if let Some(encoding) = encoding {
            assert_eq!(
                body["encoding"].as_str().map(str::to_lowercase),
                Some(encoding.to_string()),
                "{name}"
            );
        }
        total += good;
    }
    let (_, library) = server.get("/api/library", &alice).await;
    assert_eq!(library["size"], total);

    // The Big5 game: names read right, its opening classified.
    let (_, found) = server
        .get(&format!("/api/library?player={}", "楊官"), &alice)
        .await;
    let yang = found["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == "ccpd-00000520.pgn")
        .unwrap_or_else(|| panic!("{found}"));
    assert_eq!(yang["black"], "李義庭");
    assert_eq!(yang["result"], "1-0");
    assert!(yang["ecco"].as_str().unwrap().starts_with('C'), "{yang}");
    let opening = yang["opening"].as_str().unwrap();
    assert!(
        opening.is_ascii() && !opening.is_empty(),
        "English beside coordinates: {yang}"
    );
    let (status, viewer) = server
        .get(
            &format!("/api/library/{}/viewer", yang["id"].as_str().unwrap()),
            &alice,
        )
        .await;
    assert_eq!(status, 200, "{viewer}");
    assert_eq!(viewer["annotation"]["status"], "none");
    assert_eq!(viewer["summary"]["red"], yang["red"]);
    let plies = yang["plies"].as_u64().unwrap() as usize;
    let nodes = viewer["game"]["nodes"].as_array().unwrap();
    assert_eq!(
        nodes.iter().filter(|n| n["mainline"] == true).count(),
        plies + 1
    );
}

#[tokio::test]
async fn the_list_pages_filters_and_deletes() {
    let server = start().await;
    let alice = server.account("alice").await;
    let first = server
        .import_ok(&alice, "first.pgn", many_games(60).into_bytes())
        .await;
    server.clock.advance(1_000);
    let second = server
        .import_ok(
            &alice,
            "second.pgn",
            "[Red \"Lü Qin\"]\n[Black \"Xu Yinchuan\"]\n\n1. h2e2 *\n"
                .as_bytes()
                .to_vec(),
        )
        .await;
    let (_, page1) = server.get("/api/library", &alice).await;
    assert_eq!(
        (page1["total"].as_u64(), page1["per_page"].as_u64()),
        (Some(61), Some(50))
    );
    assert_eq!(page1["games"].as_array().unwrap().len(), 50);
    assert_eq!(
        page1["games"][0]["id"], second["games"][0]["id"],
        "newest import first"
    );
    let (_, page2) = server.get("/api/library?page=2", &alice).await;
    assert_eq!(page2["games"].as_array().unwrap().len(), 11);
    assert_eq!(
        page2["games"][10]["index"], 60,
        "in file order within an import"
    );
    let (status, body) = server.get("/api/library?page=0", &alice).await;
    assert_eq!((status, &body["error"]["code"]), (400, &json!("bad_page")));

    let (_, found) = server.get("/api/library?player=lü", &alice).await;
    assert_eq!(found["total"], 1, "{found}");
    let (_, found) = server.get("/api/library?player=%25", &alice).await;
    assert_eq!(found["total"], 0, "a wildcard is a character: {found}");
    let (_, found) = server.get("/api/library?player=r1", &alice).await;
    assert_eq!(found["total"], 11, "r1, r10-r19: {found}");
    let batch = first["batch"].as_str().unwrap();
    let (_, found) = server
        .get(&format!("/api/library?batch={batch}"), &alice)
        .await;
    assert_eq!(
        (found["total"].as_u64(), found["size"].as_u64()),
        (Some(60), Some(61))
    );

    let id = second["games"][0]["id"].as_str().unwrap();
    let (status, _) = server
        .send(
            reqwest::Method::DELETE,
            &format!("/api/library/{id}"),
            &alice,
            None,
        )
        .await;
    assert_eq!(status, 204);
    let (status, _) = server
        .send(
            reqwest::Method::DELETE,
            &format!("/api/library/{id}"),
            &alice,
            None,
        )
        .await;
    assert_eq!(status, 404);
    let (_, library) = server.get("/api/library", &alice).await;
    assert_eq!(library["size"], 60);
}

#[tokio::test]
async fn an_imported_game_is_reviewed_by_the_engine() {
    let server = start().await;
    let alice = server.account("alice").await;
    let pgn = "[Red \"a\"]\n[Black \"b\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 *\n";
    let body = server
        .import_ok(&alice, "short.pgn", pgn.as_bytes().to_vec())
        .await;
    let id = body["games"][0]["id"].as_str().unwrap();
    let (status, started) = server
        .send(
            reqwest::Method::POST,
            &format!("/api/library/{id}/annotate"),
            &alice,
            None,
        )
        .await;
    assert_eq!(status, 202, "{started}");
    let viewer = format!("/api/library/{id}/viewer");
    let mut data = Value::Null;
    // 200 ms a position: wait for the work, boundedly.
    for _ in 0..400 {
        data = server.get(&viewer, &alice).await.1;
        if data["annotation"]["status"] != "running" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(data["annotation"]["status"], "done", "{data}");
    assert_eq!(data["game"]["has_eval"], true);
    let mainline: Vec<&Value> = data["game"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["mainline"] == true)
        .collect();
    assert_eq!(mainline.len(), 5);
    for node in &mainline[1..] {
        assert!(node["eval"]["text"].is_string(), "{node}");
    }
}
