//! A restart: the next server over the same database resumes the game in
//! progress. The downtime is charged to nobody; both players count as away
//! from the restart on, so one who never comes back loses 45 s later.

use serde_json::json;

use crate::harness::{Table, TestServer};
use crate::lines::OPENING;

#[tokio::test]
async fn a_restarted_server_resumes_the_game_and_its_clocks() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("xiangqi.db").display()
    );
    let first = TestServer::start_on(&url).await;
    assert_eq!(first.resumed, 0);
    let (alice, bob) = (first.guest().await, first.guest().await);
    let mut table = Table::start(&alice, &bob, "5+0", false).await;
    // Red thinks 3 s, Black 5 s: game time is 8 s when the server stops.
    first.advance(3_000);
    table.play_line(0, &OPENING[..1]).await;
    first.advance(5_000);
    table.play_line(1, &OPENING[1..2]).await;
    let Table { id, red, black } = table;
    red.close().await;
    black.close().await;
    first.stop().await;

    // The new process's clock starts again from 0, younger than the game.
    let second = TestServer::start_on(&url).await;
    assert_eq!(second.resumed, 1);
    let alice = alice.visiting(&second);
    let mut red = alice.connect().await;
    let state = red.watch(&id).await;
    assert_eq!(state["summary"]["status"], "playing", "{state}");
    assert_eq!(state["moves"].as_array().unwrap().len(), 2);
    assert_eq!(state["clocks"], json!({"red": 297_000, "black": 295_000}));

    // Red's clock runs from the restart; Black never comes back.
    second.advance(45_000);
    red.expect_quiet().await;
    let state = red.watch(&id).await;
    assert_eq!(state["clocks"]["red"], 297_000 - 45_000, "{state}");
    assert_eq!(state["away"]["black"], 45_000, "{state}");
    second.advance(1);
    let end = red.expect_event("end").await;
    assert_eq!(end["event"]["result"]["reason"], "abandonment", "{end}");
    assert_eq!(end["event"]["result"]["result"], "1-0", "{end}");
    assert_eq!(
        end["clocks"],
        json!({"red": 297_000 - 45_001, "black": 295_000})
    );
}
