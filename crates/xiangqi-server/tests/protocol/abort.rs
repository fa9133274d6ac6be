//! Aborting a game before each side has moved: either side may, the game
//! is cancelled and changes no rating; once both sides have moved it is
//! refused. A game that changed no rating says `[Rated "no"]` in its PGN,
//! whichever way it ended without counting (aborted, cancelled by the
//! clock, resigned before both sides moved).

use serde_json::{json, Value};

use crate::harness::{Client, Table, TestServer};
use crate::lines::OPENING;

/// Both players' ratings and rating histories as their pages show them.
async fn ratings(server: &TestServer, players: [&Client; 2]) -> Vec<(Value, usize)> {
    let mut out = Vec::new();
    for player in players {
        let page = server
            .get_json(&format!("/api/players/{}", player.name()))
            .await;
        let history = page["history"].as_array().unwrap().len();
        out.push((page["player"]["rating"].clone(), history));
    }
    out
}

/// The game's PGN export.
async fn pgn(server: &TestServer, id: &str) -> String {
    let (status, pgn) = server.get_text(&format!("/games/{id}.pgn")).await;
    assert_eq!(status, 200, "{pgn}");
    pgn
}

/// The end event both players see, checked to be an unrated cancellation
/// for `reason`.
async fn assert_unrated_end(table: &mut Table, reason: &str) -> Value {
    let mut end = Value::Null;
    for tab in [&mut table.red, &mut table.black] {
        end = tab.expect_event("end").await;
        let result = &end["event"]["result"];
        assert_eq!(result["result"], "*", "{end}");
        assert_eq!(result["status"], "cancelled", "{end}");
        assert_eq!(result["reason"], reason, "{end}");
        assert_eq!(result["ratings"], Value::Null, "{end}");
    }
    end
}

#[tokio::test]
async fn either_side_may_abort_before_both_have_moved_and_nothing_is_rated() {
    let server = TestServer::start().await;
    let alice = server.account("alice_ab").await;
    let bob = server.account("bob_ab").await;
    let before = ratings(&server, [&alice, &bob]).await;
    assert_eq!(before, vec![(json!(1500), 0), (json!(1500), 0)]);

    // Black aborts at ply 0.
    let mut table = Table::start(&alice, &bob, "5+0", true).await;
    table
        .black
        .send(json!({"t": "abort", "game": table.id}))
        .await;
    let end = assert_unrated_end(&mut table, "aborted").await;
    assert_eq!(
        end["event"]["result"]["text"],
        "Black aborted the game before both sides moved; it is not rated.",
        "{end}"
    );
    assert_eq!(end["event"]["result"]["aborted_by"], "black", "{end}");
    assert_eq!(end["event"]["result"].get("move"), None, "{end}");
    let summary = server.get_json(&format!("/api/games/{}", table.id)).await;
    assert_eq!(
        (&summary["status"], &summary["reason"], &summary["result"]),
        (&json!("cancelled"), &json!("aborted"), &json!("*")),
        "{summary}"
    );
    let text = pgn(&server, &table.id).await;
    assert!(text.contains("[Rated \"no\"]"), "{text}");
    assert!(text.contains("[Termination \"aborted\"]"), "{text}");
    assert!(text.contains("[Result \"*\"]"), "{text}");

    // Red has moved, Black has not: Red may still abort.
    let mut table = Table::start(&alice, &bob, "5+0", true).await;
    table.play_line(0, &OPENING[..1]).await;
    table
        .red
        .send(json!({"t": "abort", "game": table.id}))
        .await;
    assert_unrated_end(&mut table, "aborted").await;
    assert!(pgn(&server, &table.id).await.contains("[Rated \"no\"]"));

    assert_eq!(ratings(&server, [&alice, &bob]).await, before);
}

#[tokio::test]
async fn abort_is_refused_once_both_sides_have_moved() {
    let server = TestServer::start().await;
    let alice = server.account("alice_al").await;
    let bob = server.account("bob_al").await;
    let mut table = Table::start(&alice, &bob, "5+0", true).await;
    table.play_line(0, &OPENING[..2]).await;
    for tab in [&mut table.red, &mut table.black] {
        tab.send(json!({"t": "abort", "game": table.id})).await;
        let error = tab.expect_error("not_abortable").await;
        assert_eq!(error["ref"], json!({"game": table.id}), "{error}");
    }
    // The game goes on.
    table.play_line(2, &OPENING[2..3]).await;
    let summary = server.get_json(&format!("/api/games/{}", table.id)).await;
    assert_eq!(summary["status"], "playing", "{summary}");
}

#[tokio::test]
async fn a_resignation_before_both_sides_moved_changes_no_rating() {
    let server = TestServer::start().await;
    let alice = server.account("alice_rz").await;
    let bob = server.account("bob_rz").await;
    let before = ratings(&server, [&alice, &bob]).await;
    // The farming loop of the report: resign at ply 0, again and again.
    for _ in 0..3 {
        let mut table = Table::start(&alice, &bob, "5+0", true).await;
        table
            .black
            .send(json!({"t": "resign", "game": table.id}))
            .await;
        for tab in [&mut table.red, &mut table.black] {
            let end = tab.expect_event("end").await;
            let result = &end["event"]["result"];
            assert_eq!(result["reason"], "resignation", "{end}");
            assert_eq!(result["ratings"], Value::Null, "{end}");
        }
        assert!(pgn(&server, &table.id).await.contains("[Rated \"no\"]"));
    }
    assert_eq!(ratings(&server, [&alice, &bob]).await, before);
}

#[tokio::test]
async fn a_cancelled_game_exports_as_not_rated() {
    let server = TestServer::start().await;
    let alice = server.account("alice_cx").await;
    let bob = server.account("bob_cx").await;
    let mut table = Table::start(&alice, &bob, "1+0", true).await;
    // Red's clock runs out before Red's first move (R-CLOCK-CANCEL).
    server.advance(60_000);
    assert_unrated_end(&mut table, "cancelled").await;
    let text = pgn(&server, &table.id).await;
    assert!(text.contains("[Rated \"no\"]"), "{text}");
    assert!(text.contains("[Termination \"cancelled\"]"), "{text}");
}

#[tokio::test]
async fn a_rated_game_both_sides_played_still_exports_as_rated() {
    let server = TestServer::start().await;
    let alice = server.account("alice_ry").await;
    let bob = server.account("bob_ry").await;
    let mut table = Table::start(&alice, &bob, "5+0", true).await;
    table.play_line(0, &OPENING[..2]).await;
    table
        .red
        .send(json!({"t": "resign", "game": table.id}))
        .await;
    let end = table.black.expect_event("end").await;
    assert_ne!(end["event"]["result"]["ratings"], Value::Null, "{end}");
    assert!(pgn(&server, &table.id).await.contains("[Rated \"yes\"]"));
}
