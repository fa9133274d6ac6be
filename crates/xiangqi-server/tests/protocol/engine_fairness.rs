//! The engine shared between players: one engine game per player at a
//! time, a search stops when its game ends, and one player's long searches
//! cannot keep another player's engine from answering (the test server
//! has a single engine slot). The searches run in real time: level 20 at
//! 180+60 would think for about a minute a move if nothing stopped it.

use std::time::Duration;

use serde_json::json;

use crate::harness::{Tab, TestServer};

/// A generous bound for what must happen "promptly" on a loaded machine,
/// far below the minute a greedy search would otherwise hold the slot.
const PROMPTLY: Duration = Duration::from_secs(20);

/// The next event of `kind` (kept or new), waiting up to `wait`; presence
/// news before it is skipped, any other event fails.
async fn next_event(tab: &mut Tab, kind: &str, wait: Duration) -> serde_json::Value {
    loop {
        let event = tab.expect_within("event", wait).await;
        let got = event["event"]["kind"].as_str().unwrap_or_default();
        if got == kind {
            return event;
        }
        assert!(got == "away" || got == "back", "expected {kind:?}: {event}");
    }
}

/// Starts a game against the engine and watches it; its id.
async fn engine_game(tab: &mut Tab, level: u8, tc: &str, color: &str) -> String {
    tab.send(json!({"t": "play_engine", "level": level, "tc": tc, "color": color}))
        .await;
    let id = tab.expect("started").await["game"]
        .as_str()
        .expect("game id")
        .to_string();
    tab.watch(&id).await;
    id
}

#[tokio::test]
async fn a_second_engine_game_is_refused_while_the_first_is_played() {
    let server = TestServer::start().await;
    let alice = server.guest().await;
    let mut tab = alice.connect().await;
    let first = engine_game(&mut tab, 0, "5+0", "red").await;
    for _ in 0..3 {
        tab.send(json!({"t": "play_engine", "level": 20, "tc": "180+60", "color": "black"}))
            .await;
        let error = tab.expect_error("engine_game_in_progress").await;
        assert!(
            error["message"].as_str().unwrap().contains(&first),
            "{error}"
        );
    }
    // Another tab of the same player is the same player.
    let mut other_tab = alice.connect().await;
    other_tab
        .send(json!({"t": "play_engine", "level": 0, "tc": "5+0"}))
        .await;
    other_tab.expect_error("engine_game_in_progress").await;
    // Once the game is over, a new one may start.
    tab.send(json!({"t": "resign", "game": first})).await;
    tab.expect_event("end").await;
    let second = engine_game(&mut tab, 0, "5+0", "red").await;
    assert_ne!(first, second);
}

#[tokio::test]
async fn a_search_stops_when_its_game_ends() {
    let server = TestServer::start().await;
    let alice = server.guest().await;
    let mut tab = alice.connect().await;
    // Alice moves; the engine (Black) starts a search of about a minute.
    let id = engine_game(&mut tab, 20, "180+60", "red").await;
    tab.play(&id, 0, "h2e2").await;
    assert!(
        server.engine_busy_within(PROMPTLY).await,
        "the engine thinks"
    );
    tab.send(json!({"t": "resign", "game": id})).await;
    tab.expect_event("end").await;
    assert!(
        server.engine_idle_within(PROMPTLY).await,
        "the search goes on after the resignation"
    );
}

#[tokio::test]
async fn greedy_players_cannot_keep_the_engine_from_another_player() {
    let server = TestServer::start().await;
    // Three greedy players, each with a full-strength engine at 180+60
    // thinking about its reply.
    let mut greedy = Vec::new();
    for _ in 0..3 {
        let player = server.guest().await;
        let mut tab = player.connect().await;
        let id = engine_game(&mut tab, 20, "180+60", "red").await;
        tab.play(&id, 0, "h2e2").await;
        greedy.push((tab, id));
    }
    assert!(
        server.engine_busy_within(PROMPTLY).await,
        "the engine thinks"
    );
    // The victim's level-0 engine still answers promptly.
    let victim = server.guest().await;
    let mut tab = victim.connect().await;
    let id = engine_game(&mut tab, 0, "5+0", "red").await;
    tab.play(&id, 0, "h2e2").await;
    let reply = next_event(&mut tab, "move", PROMPTLY).await;
    assert_eq!(reply["event"]["ply"], 1, "{reply}");
    // And again: the greedy searches never get the slot back for long.
    let mv = reply["legal"][0].as_str().expect("a move").to_string();
    tab.play(&id, 2, &mv).await;
    let reply = next_event(&mut tab, "move", PROMPTLY).await;
    assert_eq!(reply["event"]["ply"], 3, "{reply}");

    for (mut tab, id) in greedy {
        tab.send(json!({"t": "resign", "game": id})).await;
        // The engine's move may come first: it was stopped to share the slot.
        while tab.expect_within("event", PROMPTLY).await["event"]["kind"] != "end" {}
    }
    tab.send(json!({"t": "resign", "game": id})).await;
    tab.expect_event("end").await;
    assert!(
        server.engine_idle_within(PROMPTLY).await,
        "searches stopped"
    );
}
