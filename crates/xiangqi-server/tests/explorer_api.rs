//! `GET /api/explorer?fen=…`: the opening explorer's table over HTTP, each
//! move in every notation; a bad FEN and a server without an explorer are
//! JSON errors.

use reqwest::header::COOKIE;
use serde_json::{json, Value};
use xiangqi_explorer::{build, BuildOptions, Explorer};
use xiangqi_server::clock::ManualClock;
use xiangqi_server::store::Store;
use xiangqi_server::Server;

/// A server on a free loopback port, with `explorer` if given; its base URL.
async fn start(explorer: Option<Explorer>) -> String {
    let store = Store::open("sqlite::memory:").await.unwrap();
    let clock = ManualClock::new(1_700_000_000_000);
    let mut server = Server::bind("127.0.0.1:0".parse().unwrap(), store, clock, 1)
        .await
        .unwrap();
    if let Some(explorer) = explorer {
        server = server.with_explorer(explorer);
    }
    let base = format!("http://{}", server.local_addr());
    tokio::spawn(server.run_until(std::future::pending()));
    base
}

fn small_explorer(dir: &std::path::Path) -> Explorer {
    let pgn = dir.join("games.pgn");
    std::fs::write(
        &pgn,
        "[Red \"A\"]\n[Black \"B\"]\n1. h2e2 h9g7 1-0\n\n[Red \"C\"]\n[Black \"D\"]\n1. h2e2 b9c7 0-1\n\n1. c3c4 *\n",
    )
    .unwrap();
    let db = dir.join("openings.db");
    build(&[pgn], &db, &BuildOptions::default(), |_| {}).unwrap();
    Explorer::open(&db).unwrap()
}

async fn get(url: &str, cookie: Option<&str>) -> (u16, Value) {
    let mut request = reqwest::Client::new().get(url);
    if let Some(cookie) = cookie {
        request = request.header(COOKIE, cookie);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap())
}

#[tokio::test]
async fn the_table_of_a_position_in_every_notation() {
    let dir = tempfile::tempdir().unwrap();
    let base = start(Some(small_explorer(dir.path()))).await;
    let (status, start) = get(&format!("{base}/api/explorer"), None).await;
    assert_eq!(status, 200, "{start}");
    assert_eq!(start["games"], 3);
    let moves: Vec<_> = start["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["move"].as_str().unwrap(), m["games"].as_u64().unwrap()))
        .collect();
    assert_eq!(moves, [("h2e2", 2), ("c3c4", 1)]);
    assert_eq!(start["moves"][0]["score"], 50.0);
    assert_eq!(start["moves"][0]["example"]["red"], "A");

    // Each move in every notation of the viewer's menu; the FEN is URL-encoded.
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
    let url =
        reqwest::Url::parse_with_params(&format!("{base}/api/explorer"), [("fen", fen)]).unwrap();
    let (status, after) = get(url.as_str(), None).await;
    assert_eq!(status, 200, "{after}");
    let texts: Vec<_> = after["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let text = m["text"].as_array().unwrap();
            (
                text[0].as_str().unwrap(),
                text[1].as_str().unwrap(),
                text[2].as_str().unwrap(),
                m["score"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        texts,
        [
            ("b9c7", "H2+3", "马2进3", 100.0),
            ("h9g7", "H8+7", "马8进7", 0.0)
        ]
    );
    assert_eq!(after["side_to_move"], "black");
}

#[tokio::test]
async fn a_bad_fen_and_a_server_without_explorer_are_json_errors() {
    let dir = tempfile::tempdir().unwrap();
    let base = start(Some(small_explorer(dir.path()))).await;
    let (status, body) = get(&format!("{base}/api/explorer?fen=nonsense"), None).await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (400, &json!("bad_fen")),
        "{body}"
    );
    // A manual's diagram with both generals in check is no position to
    // look up (issue 39): the same clear error, saying why.
    let diagram = "5ab2%2F4a4%2F1R1kb4%2F2N6%2F9%2F6B2%2F6n2%2F5K2B%2F4Ar3%2F3A5%20w";
    let (status, body) = get(&format!("{base}/api/explorer?fen={diagram}"), None).await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (400, &json!("bad_fen")),
        "{body}"
    );
    assert!(
        body["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("the side not to move, is in check")),
        "{body}"
    );
    let bare = start(None).await;
    let (status, body) = get(&format!("{bare}/api/explorer"), None).await;
    assert_eq!(
        (status, &body["error"]["code"]),
        (404, &json!("not_found")),
        "{body}"
    );
}
