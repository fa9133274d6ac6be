//! Moves the room refuses: each gets an `error` with its code and a `ref`
//! naming the game and ply, and changes nothing.

use serde_json::json;

use crate::harness::{Table, TestServer};
use crate::lines::OPENING;

#[tokio::test]
async fn an_illegal_move_is_refused_and_changes_nothing() {
    let server = TestServer::start().await;
    let (alice, bob) = (server.guest().await, server.guest().await);
    let mut table = Table::start(&alice, &bob, "5+0", false).await;
    let id = table.id.clone();
    table.play_line(0, &OPENING[..2]).await;
    let before = table.red.watch(&id).await;
    table.red.expect_quiet().await;
    table.black.expect_quiet().await;

    // A chariot jumping its own soldier, a move onto itself, and no move at all.
    for mv in ["a0a5", "h0h0", "zz"] {
        table
            .red
            .send(json!({"t": "move", "game": id, "ply": 2, "move": mv}))
            .await;
        let error = table.red.expect_error("illegal_move").await;
        assert_eq!(error["ref"], json!({"game": id, "ply": 2}), "{error}");
    }
    table.red.expect_quiet().await;
    table.black.expect_quiet().await;
    let after = table.red.watch(&id).await;
    assert_eq!(after["v"], before["v"]);
    assert_eq!(after["moves"], before["moves"]);
    assert_eq!(after["fen"], before["fen"]);
    assert_eq!(after["turn"], "red");

    // The same player's legal move still goes through.
    table.play_line(2, &OPENING[2..3]).await;
}

#[tokio::test]
async fn moves_out_of_turn_or_in_another_players_game_are_refused() {
    let server = TestServer::start().await;
    let (alice, bob, carol) = (
        server.guest().await,
        server.guest().await,
        server.guest().await,
    );
    let mut table = Table::start(&alice, &bob, "5+0", false).await;
    let id = table.id.clone();

    let mut outsider = carol.connect().await;
    outsider
        .send(json!({"t": "move", "game": id, "ply": 0, "move": "h2e2"}))
        .await;
    let error = outsider.expect_error("not_your_game").await;
    assert_eq!(error["ref"], json!({"game": id, "ply": 0}));
    outsider.send(json!({"t": "resign", "game": id})).await;
    outsider.expect_error("not_your_game").await;

    table
        .black
        .send(json!({"t": "move", "game": id, "ply": 0, "move": "h9g7"}))
        .await;
    let error = table.black.expect_error("not_your_turn").await;
    assert_eq!(error["ref"], json!({"game": id, "ply": 0}));

    // A game that does not exist.
    outsider
        .send(json!({"t": "move", "game": "g_nope", "ply": 0, "move": "h2e2"}))
        .await;
    outsider.expect_error("unknown_game").await;

    table.red.expect_quiet().await;
    let state = table.red.watch(&id).await;
    assert_eq!(state["moves"], json!([]));
    table.play_line(0, &OPENING[..2]).await;
}

#[tokio::test]
async fn a_guest_can_neither_seek_nor_accept_a_rated_game() {
    let server = TestServer::start().await;
    let guest = server.guest().await;
    let account = server.account("dora_g").await;
    let mut guest_tab = guest.connect().await;
    guest_tab
        .send(json!({"t": "seek", "tc": "5+0", "rated": true}))
        .await;
    guest_tab.expect_error("guest_rated").await;

    let mut account_tab = account.connect().await;
    account_tab
        .send(json!({"t": "seek", "tc": "5+0", "rated": true}))
        .await;
    let seek = account_tab.expect("seek_created").await["seek"]["id"].clone();
    guest_tab.send(json!({"t": "accept", "id": seek})).await;
    let error = guest_tab.expect_error("guest_rated").await;
    assert_eq!(error["ref"], json!({"seek": seek}));
    // The seek is still open: the account cancels it.
    account_tab
        .send(json!({"t": "cancel_seek", "id": seek}))
        .await;
    account_tab.expect_quiet().await;
    account_tab
        .send(json!({"t": "cancel_seek", "id": seek}))
        .await;
    account_tab.expect_error("unknown_seek").await;
}
