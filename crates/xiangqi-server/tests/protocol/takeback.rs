//! Takebacks: a player asks to take back its last move (with the reply to
//! it), the opponent agrees or refuses. The agreed takeback is stored as an
//! event, so a restarted server and the PGN export show the moves as
//! finally played. Every forged or repeated request is refused or ignored.

use serde_json::{json, Value};

use crate::harness::{Table, TestServer};
use crate::lines::OPENING;

fn frame(t: &str, game: &str) -> Value {
    json!({"t": t, "game": game})
}

#[tokio::test]
async fn an_agreed_takeback_goes_back_two_plies_and_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("xiangqi.db").display()
    );
    let first = TestServer::start_on(&url).await;
    let alice = first.account("alice_tb").await;
    let bob = first.account("bob_tb").await;
    // Rated: a takeback needs only the opponent's consent.
    let mut table = Table::start(&alice, &bob, "5+0", true).await;
    table.play_line(0, &OPENING[..2]).await;
    first.advance(4_000);
    table.play_line(2, &OPENING[2..3]).await;
    // Black is to move: its takeback takes back its h9g7 and Red's h0g2.
    first.advance(1_000);
    table.black.send(frame("offer_takeback", &table.id)).await;
    for tab in [&mut table.red, &mut table.black] {
        let offer = tab.expect_event("takeback_offer").await;
        assert_eq!(
            offer["event"],
            json!({"kind": "takeback_offer", "by": "black"})
        );
    }
    let state = table.red.watch(&table.id).await;
    assert_eq!(state["takeback_offer"], "black", "{state}");
    first.advance(2_000);
    table.red.send(frame("accept_takeback", &table.id)).await;
    for tab in [&mut table.red, &mut table.black] {
        let back = tab.expect_event("takeback").await;
        assert_eq!(back["event"]["by"], "black", "{back}");
        assert_eq!(back["event"]["ply"], 1, "{back}");
        assert_eq!(
            back["event"]["fen"],
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
            "{back}"
        );
        // Clocks are not wound back: Black's ran 3 s since Red's move and
        // runs on.
        assert_eq!(back["clocks"], json!({"red": 296_000, "black": 297_000}));
        assert_eq!(back["running"], "black");
    }
    // Black plays another move at ply 1.
    table.play_line(1, &["b9c7"]).await;
    let state = table.red.watch(&table.id).await;
    let moves: Vec<&str> = state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["iccs"].as_str().unwrap())
        .collect();
    assert_eq!(moves, ["h2e2", "b9c7"]);
    assert_eq!(state["takeback_offer"], Value::Null, "{state}");
    let Table { id, red, black } = table;
    red.close().await;
    black.close().await;
    first.stop().await;

    let second = TestServer::start_on(&url).await;
    assert_eq!(second.resumed, 1);
    let alice = alice.visiting(&second);
    let mut red = alice.connect().await;
    let state = red.watch(&id).await;
    let moves: Vec<&str> = state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["iccs"].as_str().unwrap())
        .collect();
    assert_eq!(moves, ["h2e2", "b9c7"], "{state}");
    assert_eq!(state["turn"], "red");
    let (status, pgn) = second.get_text(&format!("/games/{id}.pgn")).await;
    assert_eq!(status, 200, "{pgn}");
    assert!(pgn.contains("h2e2") && pgn.contains("b9c7"), "{pgn}");
    assert!(!pgn.contains("h9g7") && !pgn.contains("h0g2"), "{pgn}");
}

#[tokio::test]
async fn forged_and_repeated_takeback_requests_are_refused() {
    let server = TestServer::start().await;
    let (alice, bob, carol) = (
        server.guest().await,
        server.guest().await,
        server.guest().await,
    );
    let mut table = Table::start(&alice, &bob, "5+0", false).await;
    let id = table.id.clone();
    // Nothing played: nothing to take back.
    table.red.send(frame("offer_takeback", &id)).await;
    table.red.expect_error("nothing_to_take_back").await;
    table.play_line(0, &OPENING[..1]).await;
    // Black has no move of its own yet.
    table.black.send(frame("offer_takeback", &id)).await;
    table.black.expect_error("nothing_to_take_back").await;

    // A spectator can neither ask nor answer.
    let mut spectator = carol.connect().await;
    spectator.watch(&id).await;
    for t in ["offer_takeback", "accept_takeback", "decline_takeback"] {
        spectator.send(frame(t, &id)).await;
        let error = spectator.expect_error("not_your_game").await;
        assert_eq!(error["ref"], json!({"game": id}), "{error}");
    }
    // Answers without a request.
    for t in ["accept_takeback", "decline_takeback"] {
        table.black.send(frame(t, &id)).await;
        table.black.expect_error("no_takeback_request").await;
    }

    // A flood of requests is one request.
    for _ in 0..20 {
        table.red.send(frame("offer_takeback", &id)).await;
    }
    table.black.expect_event("takeback_offer").await;
    table.red.expect_event("takeback_offer").await;
    table.black.expect_quiet().await;
    table.red.expect_quiet().await;
    // The requester cannot answer its own request; the opponent cannot
    // ask while it waits.
    table.red.send(frame("accept_takeback", &id)).await;
    table.red.expect_error("no_takeback_request").await;
    table.black.send(frame("offer_takeback", &id)).await;
    table.black.expect_error("takeback_pending").await;

    // Refused: not again for four plies.
    table.black.send(frame("decline_takeback", &id)).await;
    for tab in [&mut table.red, &mut table.black] {
        let declined = tab.expect_event("takeback_declined").await;
        assert_eq!(declined["event"]["by"], "black", "{declined}");
    }
    spectator.expect_event("takeback_offer").await;
    spectator.expect_event("takeback_declined").await;
    table.red.send(frame("offer_takeback", &id)).await;
    let error = table.red.expect_error("takeback_too_soon").await;
    assert!(
        error["message"].as_str().unwrap().contains("4 more plies"),
        "{error}"
    );
    table.play_line(1, &OPENING[1..5]).await;
    table.red.send(frame("offer_takeback", &id)).await;
    table.red.expect_event("takeback_offer").await;
    table.black.expect_event("takeback_offer").await;
    // The opponent moving on refuses it too.
    table.play_line(5, &OPENING[5..6]).await;
    table.red.expect_quiet().await;
    let state = table.red.watch(&id).await;
    assert_eq!(state["takeback_offer"], Value::Null, "{state}");
    assert_eq!(state["moves"].as_array().unwrap().len(), 6);
}
