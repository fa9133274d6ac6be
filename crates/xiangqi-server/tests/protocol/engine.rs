//! A game against the built-in engine: it answers every move on its own.
//! The engine searches in real time (level 0 is a one-ply search); the
//! server's clock stands still meanwhile, so nobody's time runs out.

use serde_json::json;

use crate::harness::TestServer;

/// Plies played at most before the test stops watching.
const MAX_PLIES: u64 = 24;

#[tokio::test]
async fn the_engine_answers_each_move_until_the_game_ends_or_the_test_stops() {
    let server = TestServer::start().await;
    let alice = server.guest().await;
    let mut tab = alice.connect().await;
    tab.send(json!({"t": "play_engine", "level": 0, "tc": "0.5+0", "color": "red"}))
        .await;
    let started = tab.expect("started").await;
    let id = started["game"].as_str().unwrap().to_string();
    let state = tab.watch(&id).await;
    assert_eq!(state["you"], "red");
    assert_eq!(state["summary"]["black"]["engine_level"], 0);
    assert_eq!(state["summary"]["rated"], false);

    let mut legal = state["legal"].clone();
    let mut ply = 0;
    loop {
        // Red plays the first move it is offered; then the engine answers.
        let mv = legal[0].as_str().expect("Red has a move").to_string();
        tab.play(&id, ply, &mv).await;
        server.advance(100);
        let answer = tab.expect("event").await;
        match answer["event"]["kind"].as_str() {
            Some("move") => {
                assert_eq!(answer["event"]["ply"], ply + 1, "{answer}");
                legal = answer["legal"].clone();
            }
            Some("end") => break,
            _ => panic!("expected the engine's move: {answer}"),
        }
        ply += 2;
        if legal.as_array().unwrap().is_empty() {
            tab.expect_event("end").await;
            break;
        }
        if u64::from(ply) >= MAX_PLIES {
            break;
        }
    }
    let summary = server.get_json(&format!("/api/games/{id}")).await;
    assert!(summary["ply"].as_u64().unwrap() >= 2, "{summary}");
    assert_eq!(
        summary["moves"].as_array().unwrap().len() as u64,
        summary["ply"].as_u64().unwrap()
    );
}
