//! A rated game between two accounts: both ratings move, the profile pages
//! show it, and the PGN export carries the clocks and the result.

use serde_json::json;
use xiangqi_rating::online::elo_update;

use crate::harness::{Table, TestServer};
use crate::lines::CHECKMATE;

#[tokio::test]
async fn a_rated_game_moves_both_ratings_and_exports_with_clocks() {
    let server = TestServer::start().await;
    let alice = server.account("alice_r").await;
    let bob = server.account("bob_r").await;
    let before = [
        alice.me["rating"].as_i64().unwrap() as i32,
        bob.me["rating"].as_i64().unwrap() as i32,
    ];
    let (red_after, black_after) = elo_update(before[0], before[1], 1.0);
    assert!(red_after > before[0] && black_after < before[1]);

    let mut table = Table::start(&alice, &bob, "5+3", true).await;
    // Red thinks 2 s a move, Black 4 s.
    for (ply, mv) in CHECKMATE.iter().enumerate() {
        server.advance(if ply % 2 == 0 { 2_000 } else { 4_000 });
        table.play_line(ply as u32, &[mv]).await;
    }
    let end = table.black.expect_event("end").await;
    let result = &end["event"]["result"];
    assert_eq!(result["result"], "1-0", "{end}");
    assert_eq!(
        result["ratings"],
        json!({"red": {"before": before[0], "after": red_after},
               "black": {"before": before[1], "after": black_after}})
    );

    for (player, was, now) in [
        (&alice, before[0], red_after),
        (&bob, before[1], black_after),
    ] {
        let profile = server
            .get_json(&format!("/api/players/{}", player.name()))
            .await;
        assert_eq!(profile["player"]["rating"], now, "{profile}");
        let history = &profile["history"];
        assert_eq!(history.as_array().unwrap().len(), 1, "{profile}");
        assert_eq!(history[0]["game"], table.id.as_str());
        assert_eq!(
            (history[0]["before"].clone(), history[0]["after"].clone()),
            (json!(was), json!(now))
        );
        assert_eq!(profile["games"][0]["result"], "1-0");
        // The session sees the new rating too.
        assert_eq!(player.get_json("/api/me").await["rating"], now);
    }

    // Reloaded from the store once nobody watches, the result is the same,
    // and so is the game's summary: its sides as they stood when it was
    // played (the ratings before it), not their ratings of today.
    let Table { id, red, black } = table;
    let live = server.get_json(&format!("/api/games/{id}")).await;
    assert_eq!(live["red"]["rating"], before[0], "{live}");
    red.close().await;
    black.close().await;
    server.rooms_stopped().await;
    let mut tab = alice.connect().await;
    let state = tab.watch(&id).await;
    assert_eq!(state["result"], end["event"]["result"], "{state}");
    assert_eq!(state["v"], end["v"]);
    assert_eq!(server.get_json(&format!("/api/games/{id}")).await, live);

    let (status, pgn) = server.get_text(&format!("/games/{id}.pgn")).await;
    assert_eq!(status, 200, "{pgn}");
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    assert!(pgn.contains("[Red \"alice_r\"]"), "{pgn}");
    assert!(pgn.contains("[Rated \"yes\"]"), "{pgn}");
    assert!(
        pgn.contains(&format!("[RedElo \"{}\"]", before[0])),
        "{pgn}"
    );
    assert!(pgn.contains("[Termination \"checkmate\"]"), "{pgn}");
    assert_eq!(pgn.matches("[%clk ").count(), CHECKMATE.len(), "{pgn}");
    // Red: 300 s - 2 s + 3 s; Black: 300 s - 4 s + 3 s.
    let first = pgn.find("[%clk 0:05:01]").expect("Red's first clock");
    let second = pgn.find("[%clk 0:04:59]").expect("Black's first clock");
    assert!(first < second, "{pgn}");
    assert!(pgn.trim_end().ends_with("1-0"), "{pgn}");
}
