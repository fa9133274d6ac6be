//! Rematches: after the end a player offers a new game; the opponent
//! accepts (colours swapped, same time control, rating and rules) or
//! declines. Offers by spectators, before the end, answers without an
//! offer and floods of offers are refused or ignored; an offer goes away
//! with its player.

use serde_json::{json, Value};

use crate::harness::{Tab, Table, TestServer};
use crate::lines::OPENING;

fn frame(t: &str, game: &str) -> Value {
    json!({"t": t, "game": game})
}

/// Red resigns after two plies; both players see the end.
async fn finished(table: &mut Table) {
    table.play_line(0, &OPENING[..2]).await;
    table.red.send(frame("resign", &table.id)).await;
    table.red.expect_event("end").await;
    table.black.expect_event("end").await;
}

#[tokio::test]
async fn an_accepted_rematch_swaps_colours_and_keeps_the_terms() {
    let server = TestServer::start().await;
    let alice = server.account("alice_rm").await;
    let bob = server.account("bob_rm").await;
    let mut table = Table::start(&alice, &bob, "3+2", true).await;
    finished(&mut table).await;
    table.black.send(frame("offer_rematch", &table.id)).await;
    for tab in [&mut table.red, &mut table.black] {
        let offer = tab.expect_event("rematch_offer").await;
        assert_eq!(
            offer["event"],
            json!({"kind": "rematch_offer", "by": "black"})
        );
    }
    let state = table.red.watch(&table.id).await;
    assert_eq!(state["rematch_offer"], "black", "{state}");
    table.red.send(frame("accept_rematch", &table.id)).await;
    let mut new_game = String::new();
    for tab in [&mut table.red, &mut table.black] {
        let started = tab.expect("started").await;
        new_game = started["game"].as_str().unwrap().to_string();
        let rematch = tab.expect_event("rematch").await;
        assert_eq!(rematch["event"]["game"], new_game.as_str(), "{rematch}");
    }
    assert_ne!(new_game, table.id);
    let summary = server.get_json(&format!("/api/games/{new_game}")).await;
    assert_eq!(summary["red"]["id"], bob.id(), "{summary}");
    assert_eq!(summary["black"]["id"], alice.id(), "{summary}");
    assert_eq!(summary["tc"], "3+2", "{summary}");
    assert_eq!(summary["rated"], true, "{summary}");
    assert_eq!(summary["rules"], "online", "{summary}");
    // The old game's state names the rematch; it cannot start twice.
    let state = table.black.watch(&table.id).await;
    assert_eq!(state["rematch"], new_game.as_str(), "{state}");
    for tab in [&mut table.red, &mut table.black] {
        tab.send(frame("offer_rematch", &table.id)).await;
        tab.expect_error("rematch_started").await;
    }
    // Bob, Red now, plays the first move of the new game.
    let mut bob_tab = bob.connect().await;
    let state = bob_tab.watch(&new_game).await;
    assert_eq!(state["you"], "red", "{state}");
    bob_tab.play(&new_game, 0, "h2e2").await;
}

#[tokio::test]
async fn forged_and_repeated_rematch_offers_are_refused() {
    let server = TestServer::start().await;
    let (alice, bob, carol) = (
        server.guest().await,
        server.guest().await,
        server.guest().await,
    );
    let mut table = Table::start(&alice, &bob, "5+0", false).await;
    let id = table.id.clone();
    // Not before the end.
    table.red.send(frame("offer_rematch", &id)).await;
    table.red.expect_error("game_not_over").await;
    finished(&mut table).await;

    // A spectator can neither offer nor answer.
    let mut spectator: Tab = carol.connect().await;
    spectator.watch(&id).await;
    for t in ["offer_rematch", "accept_rematch", "decline_rematch"] {
        spectator.send(frame(t, &id)).await;
        let error = spectator.expect_error("not_your_game").await;
        assert_eq!(error["ref"], json!({"game": id}), "{error}");
    }
    // Answers without an offer.
    for t in ["accept_rematch", "decline_rematch"] {
        table.black.send(frame(t, &id)).await;
        table.black.expect_error("no_rematch_offer").await;
    }
    // A flood of offers is one offer; the offerer cannot accept its own.
    for _ in 0..20 {
        table.red.send(frame("offer_rematch", &id)).await;
    }
    table.black.expect_event("rematch_offer").await;
    table.red.expect_event("rematch_offer").await;
    table.black.expect_quiet().await;
    table.red.expect_quiet().await;
    table.red.send(frame("accept_rematch", &id)).await;
    table.red.expect_error("no_rematch_offer").await;
    // Declined: that side offers no more after this game.
    spectator.expect_event("rematch_offer").await;
    table.black.send(frame("decline_rematch", &id)).await;
    for tab in [&mut table.red, &mut table.black, &mut spectator] {
        let declined = tab.expect_event("rematch_declined").await;
        assert_eq!(declined["event"]["by"], "black", "{declined}");
    }
    table.red.send(frame("offer_rematch", &id)).await;
    table.red.expect_error("rematch_declined").await;
    table.black.send(frame("accept_rematch", &id)).await;
    table.black.expect_error("no_rematch_offer").await;

    // Black's offer goes when Black's last socket leaves.
    table.black.send(frame("offer_rematch", &id)).await;
    table.red.expect_event("rematch_offer").await;
    let Table { red, black, .. } = table;
    let mut red = red;
    black.close().await;
    let withdrawn = red.expect_event("rematch_withdrawn").await;
    assert_eq!(withdrawn["event"]["by"], "black", "{withdrawn}");
    red.send(frame("accept_rematch", &id)).await;
    red.expect_error("no_rematch_offer").await;
    // Offering again and again by leaving and coming back is capped.
    for _ in 0..2 {
        let mut black = bob.connect().await;
        black.watch(&id).await;
        black.send(frame("offer_rematch", &id)).await;
        red.expect_event("rematch_offer").await;
        black.close().await;
        red.expect_event("rematch_withdrawn").await;
    }
    // Bob's last socket is gone (the withdrawal says so): offering from a
    // socket that does not watch the game is refused.
    let mut black = bob.connect().await;
    black.send(frame("offer_rematch", &id)).await;
    black.expect_error("not_watching").await;
    black.watch(&id).await;
    black.send(frame("offer_rematch", &id)).await;
    black.expect_error("too_many_offers").await;
    red.expect_quiet().await;
}
