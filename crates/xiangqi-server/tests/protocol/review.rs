//! A stored game in the game viewer and the engine's review of it: the
//! viewer's data follows the game's moves, a review is refused without a
//! session and for a game in progress, runs in the background, and its
//! annotated game (an `[%eval]` on every move) is what the viewer shows next.

use std::time::Duration;

use serde_json::{json, Value};

use crate::harness::{Client, Table, TestServer};
use crate::lines::CHECKMATE;

/// Asks `GET /api/games/{game}/viewer` until the review is no longer running.
async fn review_finished(client: &Client, game: &str) -> Value {
    // The review searches for real (200 ms a position): wait for the work.
    for _ in 0..600 {
        let data = client.get_json(&format!("/api/games/{game}/viewer")).await;
        if data["annotation"]["status"] != "running" {
            return data;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the review of {game} did not finish");
}

#[tokio::test]
async fn a_finished_game_is_reviewed_by_the_engine_for_its_viewer() {
    let server = TestServer::start().await;
    let (alice, bob) = (server.guest().await, server.guest().await);
    let mut table = Table::start(&alice, &bob, "5+0", false).await;
    table.play_line(0, &CHECKMATE[..2]).await;
    let annotate = format!("/api/games/{}/annotate", table.id);
    let viewer = format!("/api/games/{}/viewer", table.id);

    // In progress: the viewer's data so far, but no review.
    let data = alice.get_json(&viewer).await;
    assert_eq!(data["game"]["nodes"].as_array().unwrap().len(), 3, "{data}");
    let (status, body) = alice.post_json(&annotate, &json!({})).await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["error"]["code"], "game_in_progress", "{body}");

    table.play_line(2, &CHECKMATE[2..]).await;
    table.red.expect_event("end").await;
    let data = alice.get_json(&viewer).await;
    assert_eq!(data["annotation"]["status"], "none");
    assert_eq!(data["game"]["result"], "1-0");
    assert_eq!(data["game"]["has_eval"], false);
    // The viewer gets the game as a value; it is the game the PGN export
    // writes, read back.
    let (status, pgn) = server.get_text(&format!("/games/{}.pgn", table.id)).await;
    assert_eq!(status, 200);
    let exported = xiangqi_gamefile::pgn::read_str(&pgn)
        .next()
        .unwrap()
        .unwrap();
    let from_text = serde_json::to_value(xiangqi_viewer::viewer_game(&exported).unwrap()).unwrap();
    assert_eq!(data["game"], from_text);

    // Without a session: refused.
    let anonymous = reqwest::Client::new()
        .post(format!("{}{annotate}", server.base))
        .send()
        .await
        .unwrap();
    assert_eq!(anonymous.status().as_u16(), 401);

    let (status, body) = bob.post_json(&annotate, &json!({})).await;
    assert_eq!(status, 202, "{body}");
    assert_eq!(body["annotation"]["status"], "running");
    let data = review_finished(&alice, &table.id).await;
    assert_eq!(data["annotation"]["status"], "done", "{data}");
    let nodes = data["game"]["nodes"].as_array().unwrap();
    let mainline: Vec<&Value> = nodes.iter().filter(|n| n["mainline"] == true).collect();
    assert_eq!(mainline.len(), CHECKMATE.len() + 1);
    for (node, mv) in mainline[1..].iter().zip(CHECKMATE) {
        assert_eq!(node["move"], *mv);
        assert!(node["eval"]["text"].is_string(), "{node}");
        assert!(
            node["clock"].is_string(),
            "the export's clocks stay: {node}"
        );
    }
    // The mate itself: the game is over, won by Red.
    assert_eq!(mainline[CHECKMATE.len()]["eval"]["text"], "#+0");
    assert_eq!(data["game"]["has_eval"], true);
    let stored = server.state.store.review(&table.id).await.unwrap().unwrap();
    assert_eq!(stored.requested_by, bob.id());

    // Another review replaces the first.
    let (status, _) = alice.post_json(&annotate, &json!({})).await;
    assert_eq!(status, 202);
    let data = review_finished(&alice, &table.id).await;
    assert_eq!(data["annotation"]["status"], "done", "{data}");
    let stored = server.state.store.review(&table.id).await.unwrap().unwrap();
    assert_eq!(stored.requested_by, alice.id());

    let (status, body) = alice
        .post_json("/api/games/no-such-game/annotate", &json!({}))
        .await;
    assert_eq!(status, 404, "{body}");
    server.stop().await;
}
