//! How a game ends: on the board (checkmate, perpetual check), by the clock
//! (timeout, cancellation before a first move), by leaving (abandonment, or
//! not, for a player back in time), and by the players (resignation, draw).

use serde_json::{json, Value};

use crate::harness::{Table, TestServer};
use crate::lines::{CHECKMATE, OPENING, PERPETUAL_CHECK};

/// The status a game ended for `reason` has.
fn status_of(reason: &str) -> &'static str {
    if reason == "cancelled" {
        "cancelled"
    } else {
        "finished"
    }
}

/// Checks the `end` event's result and returns it.
fn assert_end(event: &Value, result: &str, reason: &str, text: &str) -> Value {
    let end = &event["event"]["result"];
    assert_eq!(end["result"], result, "{event}");
    assert_eq!(end["reason"], reason, "{event}");
    assert_eq!(end["text"], text, "{event}");
    assert_eq!(end["status"], status_of(reason), "{event}");
    assert_eq!(
        event["running"],
        Value::Null,
        "clocks stop at the end: {event}"
    );
    assert_eq!(event["legal"], json!([]), "{event}");
    end.clone()
}

/// Checks what `GET /api/games/{id}` says of a finished game.
async fn assert_stored(server: &TestServer, game: &str, result: &str, reason: &str, ply: u64) {
    let summary = server.get_json(&format!("/api/games/{game}")).await;
    assert_eq!(summary["result"], result, "{summary}");
    assert_eq!(summary["reason"], reason, "{summary}");
    assert_eq!(summary["ply"], ply, "{summary}");
    assert_eq!(summary["status"], status_of(reason), "{summary}");
}

#[tokio::test]
async fn checkmate_ends_the_game_for_the_mating_side() {
    let server = TestServer::start().await;
    let (alice, bob) = (server.guest().await, server.guest().await);
    let mut table = Table::start(&alice, &bob, "5+0", false).await;
    table.play_line(0, CHECKMATE).await;
    let text = "Red wins by checkmate (c5c9).";
    let end = assert_end(
        &table.red.expect_event("end").await,
        "1-0",
        "checkmate",
        text,
    );
    assert_eq!(end["ratings"], Value::Null, "a casual game moves no rating");
    // The words' parts, for a client writing its own sentence.
    assert_eq!(end["move"], "c5c9", "{end}");
    assert_eq!(end.get("aborted_by"), None, "{end}");
    assert_end(
        &table.black.expect_event("end").await,
        "1-0",
        "checkmate",
        text,
    );
    assert_stored(&server, &table.id, "1-0", "checkmate", 5).await;
    let summary = server.get_json(&format!("/api/games/{}", table.id)).await;
    assert_eq!(summary["moves"], json!(CHECKMATE));

    // The mating move resent (its ack lost) is acknowledged, not replayed.
    let resent = json!({"t": "move", "game": table.id, "ply": 4, "move": "c5c9"});
    table.red.send(resent).await;
    assert_eq!(table.red.expect("ack").await["ply"], 4);
    table.red.expect_quiet().await;

    // Nothing is played after the end.
    table
        .black
        .send(json!({"t": "move", "game": table.id, "ply": 5, "move": "e9f9"}))
        .await;
    table.black.expect_error("game_over").await;
}

#[tokio::test]
async fn the_side_that_checks_perpetually_loses() {
    let server = TestServer::start().await;
    let (alice, bob) = (server.guest().await, server.guest().await);
    let mut table = Table::start(&alice, &bob, "5+0", false).await;
    let last = PERPETUAL_CHECK.len() as u64;
    table.play_line(0, PERPETUAL_CHECK).await;
    for tab in [&mut table.red, &mut table.black] {
        let end = tab.expect_event("end").await;
        assert_end(
            &end,
            "0-1",
            "perpetual_check",
            "Red checked perpetually: Black wins (c9a7).",
        );
    }
    assert_stored(&server, &table.id, "0-1", "perpetual_check", last).await;
}

#[tokio::test]
async fn a_player_away_for_more_than_45_seconds_loses() {
    let server = TestServer::start().await;
    let (alice, bob) = (server.guest().await, server.guest().await);
    let mut table = Table::start(&alice, &bob, "5+0", false).await;
    table.play_line(0, &OPENING[..2]).await;
    let Table { id, mut red, black } = table;
    black.close().await;
    let away = red.expect_event("away").await;
    assert_eq!(away["event"]["side"], "black");

    server.advance(45_000);
    red.expect_quiet().await;
    let summary = server.get_json(&format!("/api/games/{id}")).await;
    assert_eq!(summary["status"], "playing", "45 000 ms away is allowed");

    server.advance(1);
    let end = red.expect_event("end").await;
    assert_end(
        &end,
        "1-0",
        "abandonment",
        "Black left the game for more than 45 seconds: Red wins.",
    );
    // Red's clock ran the whole time; Black's stood still.
    assert_eq!(
        end["clocks"],
        json!({"red": 300_000 - 45_001, "black": 300_000})
    );
    assert_stored(&server, &id, "1-0", "abandonment", 2).await;
}

#[tokio::test]
async fn a_player_back_within_45_seconds_keeps_the_game() {
    let server = TestServer::start().await;
    let (alice, bob) = (server.guest().await, server.guest().await);
    let mut table = Table::start(&alice, &bob, "5+0", false).await;
    table.play_line(0, &OPENING[..2]).await;
    let Table { id, mut red, black } = table;
    black.close().await;
    red.expect_event("away").await;

    server.advance(44_000);
    let mut black = bob.connect().await;
    let state = black.watch(&id).await;
    assert_eq!(state["away"]["black"], 44_000, "{state}");
    assert_eq!(state["summary"]["status"], "playing");
    let back = red.expect_event("back").await;
    assert_eq!(back["event"]["side"], "black");

    // 46 s after leaving, with a return in between: still playing.
    server.advance(2_000);
    red.expect_quiet().await;
    let summary = server.get_json(&format!("/api/games/{id}")).await;
    assert_eq!(summary["status"], "playing", "{summary}");
    let mut table = Table { id, red, black };
    table.play_line(2, &OPENING[2..4]).await;
}

#[tokio::test]
async fn running_out_of_time_before_a_first_move_cancels_a_rated_game() {
    let server = TestServer::start().await;
    let alice = server.account("alice_c").await;
    let bob = server.account("bob_c").await;
    let ratings_before = [alice.me["rating"].clone(), bob.me["rating"].clone()];
    let mut table = Table::start(&alice, &bob, "1+0", true).await;
    // Red moves; Black never does, and its minute runs out.
    table.play_line(0, &OPENING[..1]).await;
    server.advance(59_999);
    table.red.expect_quiet().await;
    server.advance(1);
    for tab in [&mut table.red, &mut table.black] {
        let end = tab.expect_event("end").await;
        let result = assert_end(
            &end,
            "*",
            "cancelled",
            "The game was cancelled before both sides moved; it is not rated.",
        );
        assert_eq!(result["ratings"], Value::Null, "{end}");
    }
    assert_stored(&server, &table.id, "*", "cancelled", 1).await;
    for (player, before) in [&alice, &bob].into_iter().zip(ratings_before) {
        let profile = server
            .get_json(&format!("/api/players/{}", player.name()))
            .await;
        assert_eq!(profile["player"]["rating"], before, "{profile}");
        assert_eq!(profile["history"], json!([]), "{profile}");
        assert_eq!(profile["games"][0]["id"], table.id.as_str(), "{profile}");
        assert_eq!(profile["games"][0]["status"], "cancelled", "{profile}");
    }
}

#[tokio::test]
async fn the_side_whose_clock_runs_out_after_moving_loses_on_time() {
    let server = TestServer::start().await;
    let (alice, bob) = (server.guest().await, server.guest().await);
    let mut table = Table::start(&alice, &bob, "1+0", false).await;
    table.play_line(0, &OPENING[..2]).await;
    server.advance(59_999);
    table.red.expect_quiet().await;
    server.advance(1);
    let end = table.black.expect_event("end").await;
    assert_end(&end, "0-1", "timeout", "Red ran out of time: Black wins.");
    assert_eq!(end["clocks"], json!({"red": 0, "black": 60_000}));
    assert_stored(&server, &table.id, "0-1", "timeout", 2).await;
}

#[tokio::test]
async fn resigning_gives_the_opponent_the_game() {
    let server = TestServer::start().await;
    let (alice, bob) = (server.guest().await, server.guest().await);
    let mut table = Table::start(&alice, &bob, "5+0", false).await;
    table.play_line(0, &OPENING[..3]).await;
    table
        .black
        .send(json!({"t": "resign", "game": table.id}))
        .await;
    for tab in [&mut table.red, &mut table.black] {
        let end = tab.expect_event("end").await;
        assert_end(&end, "1-0", "resignation", "Black resigned: Red wins.");
    }
    assert_stored(&server, &table.id, "1-0", "resignation", 3).await;
}

#[tokio::test]
async fn a_draw_offer_can_be_declined_and_a_second_one_accepted() {
    let server = TestServer::start().await;
    let (alice, bob) = (server.guest().await, server.guest().await);
    let mut table = Table::start(&alice, &bob, "5+0", false).await;
    let id = table.id.clone();
    table.play_line(0, &OPENING[..2]).await;

    // Accepting or declining nothing is refused.
    table
        .black
        .send(json!({"t": "accept_draw", "game": id}))
        .await;
    table.black.expect_error("no_draw_offer").await;
    table
        .black
        .send(json!({"t": "decline_draw", "game": id}))
        .await;
    table.black.expect_error("no_draw_offer").await;

    table.red.send(json!({"t": "offer_draw", "game": id})).await;
    for tab in [&mut table.red, &mut table.black] {
        let offer = tab.expect_event("draw_offer").await;
        assert_eq!(offer["event"]["by"], "red");
    }
    // Offering again changes nothing: no event, no error, nothing stored.
    let stored_events = || async {
        let stored = server.state.store.game(&id).await.unwrap().unwrap();
        stored.events.len()
    };
    let events_before = stored_events().await;
    table.red.send(json!({"t": "offer_draw", "game": id})).await;
    table.red.expect_quiet().await;
    table.black.expect_quiet().await;
    assert_eq!(stored_events().await, events_before);
    assert_eq!(table.black.watch(&id).await["draw_offer"], "red");
    table
        .black
        .send(json!({"t": "decline_draw", "game": id}))
        .await;
    for tab in [&mut table.red, &mut table.black] {
        let declined = tab.expect_event("draw_declined").await;
        assert_eq!(declined["event"]["by"], "black");
    }
    assert_eq!(table.red.watch(&id).await["draw_offer"], Value::Null);

    table.red.send(json!({"t": "offer_draw", "game": id})).await;
    for tab in [&mut table.red, &mut table.black] {
        tab.expect_event("draw_offer").await;
    }
    table
        .black
        .send(json!({"t": "accept_draw", "game": id}))
        .await;
    for tab in [&mut table.red, &mut table.black] {
        let end = tab.expect_event("end").await;
        assert_end(&end, "1/2-1/2", "agreement", "Draw by agreement.");
    }
    assert_stored(&server, &id, "1/2-1/2", "agreement", 2).await;
}
