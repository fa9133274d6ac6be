//! Attacks on the live analysis: a flood of `analyse` queues no work (each
//! replaces the last, so a player holds at most one search, running or
//! waiting), a huge FEN or move list is refused by code, and ids that are
//! not the player's own (forged, or another player's) stop nothing.

use std::time::Duration;

use serde_json::json;

use crate::harness::TestServer;

const PROMPTLY: Duration = Duration::from_secs(20);
const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
/// Frames sent in one burst: within the flood gate's burst of 100, so the
/// socket stays open and every one is handled.
const BURST: usize = 80;

#[tokio::test]
async fn a_flood_of_analyse_keeps_one_search_for_the_player() {
    let server = TestServer::start().await;
    let alice = server.guest().await;
    let mut tab = alice.connect().await;
    let replies = ["h2e2", "b2e2", "h0g2", "c3c4"];
    for i in 0..BURST {
        let moves = [replies[i % replies.len()]];
        tab.send(json!({"t": "analyse", "fen": START, "moves": moves, "multipv": 5}))
            .await;
        let slots = &server.state.engine_slots;
        assert!(slots.running() + slots.waiting() <= 1, "frame {i}");
    }
    // Every analysis but the last was replaced; the last one reports.
    for _ in 0..BURST - 1 {
        let end = tab.expect("analysis_end").await;
        assert_eq!(end["reason"], "replaced", "{end}");
    }
    let last_move = replies[(BURST - 1) % replies.len()];
    let mut frame = tab.expect_within("analysis", PROMPTLY).await;
    // Reports of replaced analyses may come before their end; the last one's after.
    while Some(frame["id"].as_str().unwrap().to_string())
        != server.state.analyses.running_of(alice.id())
    {
        frame = tab.expect_within("analysis", PROMPTLY).await;
    }
    let position = xiangqi_core::Position::startpos()
        .after_moves([last_move.parse().unwrap()])
        .unwrap();
    assert_eq!(frame["fen"], position.to_fen());
    assert_eq!(server.state.analyses.count(), 1);
    assert!(server.engine_searches() <= 1);
    assert_eq!(server.state.engine_slots.waiting(), 0);
    tab.send(json!({"t": "stop_analysis"})).await;
    tab.expect("analysis_end").await;
    assert!(server.engine_idle_within(PROMPTLY).await);
}

#[tokio::test]
async fn huge_fens_and_move_lists_are_refused_by_code() {
    let server = TestServer::start().await;
    let mut tab = server.guest().await.connect().await;
    // Just under the 16 KiB frame limit: the FEN reader refuses it by length.
    let huge = "9/".repeat(7_000);
    tab.send(json!({"t": "analyse", "fen": huge})).await;
    let error = tab.expect_error("bad_fen").await;
    assert_eq!(error["args"]["problem"], "too_long", "{error}");
    assert!(error["message"].as_str().unwrap().len() < 300, "{error}");
    let many = vec!["h2e2"; 700];
    tab.send(json!({"t": "analyse", "fen": START, "moves": many}))
        .await;
    tab.expect_error("too_many_moves").await;
    // Over the frame limit: refused before it is read as a message.
    let over = "9/".repeat(9_000);
    tab.send(json!({"t": "analyse", "fen": over})).await;
    tab.expect_error("too_large").await;
    assert_eq!(server.state.analyses.count(), 0);
    assert_eq!(server.engine_searches(), 0);
}

#[tokio::test]
async fn forged_ids_and_other_players_cannot_stop_an_analysis() {
    let server = TestServer::start().await;
    let alice = server.guest().await;
    let mut tab = alice.connect().await;
    tab.send(json!({"t": "analyse", "fen": START, "multipv": 2}))
        .await;
    let id = tab.expect_within("analysis", PROMPTLY).await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut mallory = server.guest().await.connect().await;
    for forged in [json!(id), json!("a_forged"), json!(null)] {
        mallory
            .send(json!({"t": "stop_analysis", "id": forged}))
            .await;
        mallory.expect_error("unknown_analysis").await;
    }
    tab.send(json!({"t": "stop_analysis", "id": "a_forged"}))
        .await;
    tab.expect_error("unknown_analysis").await;
    assert_eq!(
        server.state.analyses.running_of(alice.id()),
        Some(id.clone())
    );
    tab.send(json!({"t": "stop_analysis", "id": id})).await;
    let end = tab.expect("analysis_end").await;
    assert_eq!(end["reason"], "stopped");
    assert!(server.engine_idle_within(PROMPTLY).await);
}

#[tokio::test]
async fn a_flood_of_position_checks_is_limited_per_address() {
    let server = TestServer::start().await;
    let alice = server.guest().await;
    let body = json!({"fen": START, "moves": ["h2e2", "h9g7"]});
    let burst = xiangqi_server::analysis::POSITION_CHECKS.count.get();
    // The burst passes; then, as the limit refills at ten a second while
    // the requests come much faster, a refusal comes well within a second burst.
    let mut accepted = 0;
    let answer = loop {
        let (status, answer) = alice.post_json("/api/position", &body).await;
        if status != 200 {
            assert_eq!(status, 429, "{answer}");
            break answer;
        }
        accepted += 1;
        assert!(accepted < 2 * burst, "no limit after {accepted} checks");
    };
    assert!(accepted >= burst, "refused after {accepted}");
    assert_eq!(answer["error"]["code"], "rate_limited");
    assert!(
        answer["error"]["args"]["seconds"].as_u64() >= Some(1),
        "{answer}"
    );
}
