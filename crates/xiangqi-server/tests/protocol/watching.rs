//! Watching a game: spectators, reconnecting with `since`, a player's second
//! tab, and a move resent because its `ack` was lost.

use std::time::Duration;

use serde_json::{json, Value};

use crate::harness::{Table, TestServer};
use crate::lines::{CHECKMATE, OPENING};

#[tokio::test]
async fn a_spectator_sees_every_move_in_order() {
    let server = TestServer::start().await;
    let (alice, bob, carol) = (
        server.guest().await,
        server.guest().await,
        server.guest().await,
    );
    let mut table = Table::start(&alice, &bob, "5+0", false).await;
    let mut spectator = carol.connect().await;
    let state = spectator.watch(&table.id).await;
    assert_eq!(state["you"], Value::Null);
    assert_eq!(state["legal"], json!([]));

    table.play_line(0, OPENING).await;
    let mut last_v = state["v"].as_u64().unwrap();
    for (ply, mv) in OPENING.iter().enumerate() {
        let event = spectator.expect_event("move").await;
        let v = event["v"].as_u64().unwrap();
        assert!(v > last_v, "versions grow: {v} after {last_v}");
        last_v = v;
        assert_eq!(event["event"]["ply"], ply);
        assert_eq!(event["event"]["move"]["iccs"], *mv);
        assert_eq!(event["legal"], json!([]), "a spectator has no moves");
    }
    spectator.expect_quiet().await;
}

#[tokio::test]
async fn watching_since_a_version_resumes_with_the_events_after_it() {
    let server = TestServer::start().await;
    let (alice, bob) = (server.guest().await, server.guest().await);
    let mut table = Table::start(&alice, &bob, "5+0", false).await;
    let seen = table.play_line(0, &OPENING[..2]).await;
    let Table { id, mut red, black } = table;
    let seen_v = seen["v"].as_u64().unwrap();
    black.close().await;
    red.expect_event("away").await;
    red.play(&id, 2, OPENING[2]).await;

    let mut black = bob.connect().await;
    black
        .send(json!({"t": "watch", "game": id, "since": seen_v}))
        .await;
    let away = black.expect("event").await;
    assert_eq!(away["v"], seen_v + 1, "{away}");
    assert_eq!(away["event"], json!({"kind": "away", "side": "black"}));
    let missed = black.expect("event").await;
    assert_eq!(missed["v"], seen_v + 2);
    assert_eq!(missed["event"]["move"]["iccs"], OPENING[2]);
    assert!(
        !missed["legal"].as_array().unwrap().is_empty(),
        "Black's turn"
    );
    let back = black.expect("event").await;
    assert_eq!(back["v"], seen_v + 3);
    assert_eq!(back["event"], json!({"kind": "back", "side": "black"}));
    black.expect_quiet().await;
    let mut table = Table { id, red, black };
    table.play_line(3, &OPENING[3..4]).await;
}

#[tokio::test]
async fn watching_since_a_forgotten_version_gives_the_full_state() {
    let server = TestServer::start().await;
    let (alice, bob) = (server.guest().await, server.guest().await);
    let mut table = Table::start(&alice, &bob, "5+0", false).await;
    let id = table.id.clone();
    // More events than the room keeps for reconnects: offers and refusals.
    for _ in 0..30 {
        table.red.send(json!({"t": "offer_draw", "game": id})).await;
        table.black.expect_event("draw_offer").await;
        table
            .black
            .send(json!({"t": "decline_draw", "game": id}))
            .await;
        table.red.expect_event("draw_offer").await;
        table.red.expect_event("draw_declined").await;
        table.black.expect_event("draw_declined").await;
    }
    let mut tab = bob.connect().await;
    tab.send(json!({"t": "watch", "game": id, "since": 1}))
        .await;
    let state = tab.expect("state").await;
    assert!(state["v"].as_u64().unwrap() > 60, "{state}");
    assert_eq!(state["you"], "black");
    assert_eq!(state["moves"], json!([]));
    // A version from the future is no place to resume from either.
    tab.send(json!({"t": "watch", "game": id, "since": 10_000}))
        .await;
    assert_eq!(tab.expect("state").await["v"], state["v"]);
}

#[tokio::test]
async fn a_second_tab_sees_the_same_game() {
    let server = TestServer::start().await;
    let (alice, bob) = (server.guest().await, server.guest().await);
    let mut table = Table::start(&alice, &bob, "5+0", false).await;
    let id = table.id.clone();
    table.play_line(0, &OPENING[..3]).await;

    let mut second = bob.connect().await;
    let state = second.watch(&id).await;
    let first = table.black.watch(&id).await;
    assert_eq!(state, first);
    assert_eq!(state["you"], "black");
    assert_eq!(state["moves"].as_array().unwrap().len(), 3);

    // Either tab may move; both hear of it.
    second.play(&id, 3, OPENING[3]).await;
    let event = table.black.expect_event("move").await;
    assert_eq!(event["event"]["move"]["iccs"], OPENING[3]);
    table.red.expect_event("move").await;

    // Closing one of two tabs does not make the player away.
    table.red.expect_quiet().await;
    second.close().await;
    table.red.expect_silence().await;
    let state = table.red.watch(&id).await;
    assert_eq!(
        state["away"],
        json!({"red": null, "black": null}),
        "{state}"
    );
    table.play_line(4, &OPENING[4..5]).await;
}

#[tokio::test]
async fn a_resent_move_is_acknowledged_again_and_played_once() {
    let server = TestServer::start().await;
    let (alice, bob) = (server.guest().await, server.guest().await);
    let mut table = Table::start(&alice, &bob, "5+0", false).await;
    let id = table.id.clone();
    table.play_line(0, &OPENING[..1]).await;

    // The ack was lost: the same move at the same ply again.
    let resent = json!({"t": "move", "game": id, "ply": 0, "move": OPENING[0]});
    table.red.send(resent).await;
    let ack = table.red.expect("ack").await;
    assert_eq!(ack, json!({"t": "ack", "game": id, "ply": 0}));
    table.red.expect_quiet().await;
    table.black.expect_quiet().await;

    // Another move at a played ply is stale.
    let other = json!({"t": "move", "game": id, "ply": 0, "move": "b2e2"});
    table.red.send(other).await;
    table.red.expect_error("stale_ply").await;

    let state = table.red.watch(&id).await;
    assert_eq!(state["moves"].as_array().unwrap().len(), 1);
    assert_eq!(state["turn"], "black");
    table.play_line(1, &OPENING[1..2]).await;
}

#[tokio::test]
async fn a_player_who_missed_the_end_hears_of_it_from_the_stored_game() {
    let server = TestServer::start().await;
    let (alice, bob) = (server.guest().await, server.guest().await);
    let mut table = Table::start(&alice, &bob, "5+0", false).await;
    let seen = table.play_line(0, &CHECKMATE[..4]).await;
    let seen_v = seen["v"].as_u64().unwrap();
    let Table { id, mut red, black } = table;
    black.close().await;
    red.expect_event("away").await;
    red.play(&id, 4, CHECKMATE[4]).await;
    let end = red.expect_event("end").await;
    red.close().await;
    // Finished and unwatched, the room stops; the game lives in the store.
    server.rooms_stopped().await;

    let mut black = bob.connect().await;
    black
        .send(json!({"t": "watch", "game": id, "since": seen_v}))
        .await;
    let away = black.expect("event").await;
    assert_eq!(away["v"], seen_v + 1, "{away}");
    assert_eq!(away["event"], json!({"kind": "away", "side": "black"}));
    let mate = black.expect("event").await;
    assert_eq!(mate["v"], seen_v + 2, "{mate}");
    assert_eq!(mate["event"]["move"]["iccs"], CHECKMATE[4]);
    let missed_end = black.expect("event").await;
    assert_eq!(missed_end["v"], end["v"], "{missed_end}");
    assert_eq!(missed_end["event"], end["event"]);
    black.expect_silence().await;

    // From scratch, the stored game's state carries the result and version.
    let state = black.watch(&id).await;
    assert_eq!(state["v"], end["v"]);
    assert_eq!(state["result"], end["event"]["result"]);
}

#[tokio::test]
async fn each_player_reads_moves_in_their_own_notation() {
    let server = TestServer::start().await;
    let (alice, bob) = (server.guest().await, server.guest().await);
    let (status, me) = bob
        .put_json("/api/settings", &json!({"notation": "wxf"}))
        .await;
    assert_eq!((status, me["notation"].as_str()), (200, Some("wxf")));
    let mut table = Table::start(&alice, &bob, "5+0", false).await;
    table.red.play(&table.id, 0, "h2e2").await;
    let seen_by_black = table.black.expect_event("move").await;
    assert_eq!(seen_by_black["event"]["move"]["text"], "C2=5");

    // A change of setting applies to the game in progress at once.
    let (status, _) = alice
        .put_json("/api/settings", &json!({"notation": "chinese"}))
        .await;
    assert_eq!(status, 200);
    let black_move = table.black.play(&table.id, 1, "h9g7").await;
    assert_eq!(black_move["event"]["move"]["text"], "H8+7");
    let seen_by_red = table.red.expect_event("move").await;
    assert_eq!(seen_by_red["event"]["move"]["text"], "马8进7");
    let state = table.red.watch(&table.id).await;
    assert_eq!(state["moves"][0]["text"], "炮二平五");
}

/// A tab that stops answering (a page frozen, or kept in a browser's
/// back/forward cache with its socket open) is not at the board: the server
/// closes the silent socket, and the side is away well before the 45 s of
/// R-CLOCK-ABANDON would have run out.
#[tokio::test]
async fn a_tab_that_stops_answering_is_closed_and_its_side_is_away() {
    let server = TestServer::start().await;
    let (alice, bob) = (server.guest().await, server.guest().await);
    let Table {
        mut red, mut black, ..
    } = Table::start(&alice, &bob, "5+0", false).await;
    // From here on Black's tab reads nothing, so it answers no ping; Red's
    // answers every ping while it waits.
    let away = red
        .expect_event_within("away", Duration::from_secs(40))
        .await;
    assert_eq!(away["event"], json!({"kind": "away", "side": "black"}));
    let (code, reason) = black.closed_by_server(Duration::from_secs(5)).await;
    assert_eq!((code, reason.as_str()), (1000, "silent too long"));
    drop(black);
    red.close().await;
    server.stop().await;
}
