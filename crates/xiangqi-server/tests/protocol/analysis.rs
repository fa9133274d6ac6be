//! The analysis board's live analysis over the socket: MultiPV lines in
//! the player's notation, a forced mate reported as mate, one analysis per
//! player (a new one replaces the old across sockets), `stop_analysis` and
//! a closed socket free the engine slot, and an analysis takes turns with
//! engine games on the test server's single slot. The searches run in real
//! time; the bounds below are generous for a loaded machine.

use std::time::Duration;

use serde_json::{json, Value};

use crate::harness::{Tab, TestServer};

/// How long a test waits for what must happen "promptly".
const PROMPTLY: Duration = Duration::from_secs(20);
/// Red mates at once with b0b9 (the chariot on a8 holds rank 8).
const MATE_IN_ONE: &str = "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1";
const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// The first `analysis` frame for which `done` holds, skipping the others.
async fn analysis_until(tab: &mut Tab, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = tokio::time::Instant::now() + PROMPTLY;
    loop {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        let frame = tab.expect_within("analysis", left).await;
        if done(&frame) {
            return frame;
        }
    }
}

#[tokio::test]
async fn lines_arrive_with_multipv_3_in_the_players_notation() {
    let server = TestServer::start().await;
    let alice = server.guest().await;
    let (status, _) = alice
        .put_json("/api/settings", &json!({"notation": "wxf"}))
        .await;
    assert_eq!(status, 200);
    let mut tab = alice.connect().await;
    tab.send(json!({"t": "analyse", "fen": START, "moves": ["h2e2"], "multipv": 3}))
        .await;
    let frame = analysis_until(&mut tab, |f| f["depth"].as_u64() >= Some(4)).await;
    let lines = frame["lines"].as_array().expect("lines");
    assert_eq!(lines.len(), 3, "{frame}");
    for (index, line) in lines.iter().enumerate() {
        assert_eq!(line["multipv"], index + 1);
        assert!(line["score"]["cp"].is_i64() || line["score"]["mate"].is_i64());
        let (pv, text) = (
            line["pv"].as_array().unwrap(),
            line["pv_text"].as_array().unwrap(),
        );
        assert!(!pv.is_empty() && pv.len() == text.len(), "{line}");
        // WXF text, not ICCS: Black's first moves read like "H8+7".
        assert_ne!(pv[0], text[0], "{line}");
    }
    let firsts: std::collections::HashSet<_> = lines.iter().map(|l| &l["pv"][0]).collect();
    assert_eq!(firsts.len(), 3, "three different first moves: {frame}");
    // The analysed position is the one after the moves: Black to move.
    assert!(
        frame["fen"].as_str().unwrap().ends_with(" b - - 1 1"),
        "{frame}"
    );
    assert!(frame["nodes"].as_u64() > Some(0) && frame["done"] == false);
    let id = frame["id"].as_str().unwrap().to_string();
    tab.send(json!({"t": "stop_analysis", "id": id})).await;
    let end = tab.expect("analysis_end").await;
    assert_eq!(
        (end["id"].as_str(), end["reason"].as_str()),
        (Some(&*id), Some("stopped"))
    );
    assert!(
        server.engine_idle_within(PROMPTLY).await,
        "the slot is freed"
    );
    assert_eq!(server.state.analyses.count(), 0);
}

#[tokio::test]
async fn a_forced_mate_is_reported_as_mate_and_the_analysis_finishes() {
    let server = TestServer::start().await;
    let mut tab = server.guest().await.connect().await;
    tab.send(json!({"t": "analyse", "fen": MATE_IN_ONE, "multipv": 2}))
        .await;
    let last = analysis_until(&mut tab, |f| f["done"] == true).await;
    assert_eq!(last["lines"][0]["score"]["mate"], 1, "{last}");
    assert_eq!(last["lines"][0]["pv"][0], "b0b9", "{last}");
    let end = tab.expect("analysis_end").await;
    assert_eq!(
        (&end["id"], end["reason"].as_str()),
        (&last["id"], Some("finished"))
    );
    assert!(server.engine_idle_within(PROMPTLY).await);
    assert_eq!(server.state.analyses.count(), 0);
}

#[tokio::test]
async fn a_new_analyse_replaces_the_old_one_across_the_players_sockets() {
    let server = TestServer::start().await;
    let alice = server.guest().await;
    let (mut first, mut second) = (alice.connect().await, alice.connect().await);
    first
        .send(json!({"t": "analyse", "fen": START, "multipv": 1}))
        .await;
    let old = analysis_until(&mut first, |_| true).await;
    second
        .send(json!({"t": "analyse", "fen": START, "moves": ["h2e2"], "multipv": 1}))
        .await;
    let end = first.expect("analysis_end").await;
    assert_eq!(
        (&end["id"], end["reason"].as_str()),
        (&old["id"], Some("replaced"))
    );
    let new = analysis_until(&mut second, |_| true).await;
    assert_ne!(new["id"], old["id"]);
    assert!(new["fen"].as_str().unwrap().contains(" b "), "{new}");
    assert_eq!(server.state.analyses.count(), 1);
    assert!(server.engine_searches() <= 1);
    second.send(json!({"t": "stop_analysis"})).await;
    second.expect("analysis_end").await;
    first.expect_silence().await;
}

#[tokio::test]
async fn closing_the_socket_stops_the_analysis_and_frees_the_slot() {
    let server = TestServer::start().await;
    let alice = server.guest().await;
    let mut tab = alice.connect().await;
    tab.send(json!({"t": "analyse", "fen": START, "multipv": 5}))
        .await;
    analysis_until(&mut tab, |_| true).await;
    assert!(server.engine_searches() == 1);
    drop(tab);
    assert!(
        server.engine_idle_within(PROMPTLY).await,
        "the slot is freed"
    );
    assert_eq!(server.state.analyses.running_of(alice.id()), None);
}

#[tokio::test]
async fn an_analysis_takes_turns_with_an_engine_game_on_the_one_slot() {
    let server = TestServer::start().await;
    let mut analyst = server.guest().await.connect().await;
    analyst
        .send(json!({"t": "analyse", "fen": START, "multipv": 5}))
        .await;
    let before = analysis_until(&mut analyst, |_| true).await;
    // Another player's engine game needs the one slot: the engine answers
    // although the analysis has most of its 30 s still to run.
    let bob = server.guest().await;
    let mut player = bob.connect().await;
    player
        .send(json!({"t": "play_engine", "level": 20, "tc": "180+60", "color": "black"}))
        .await;
    let game = player.expect("started").await["game"]
        .as_str()
        .unwrap()
        .to_string();
    player.watch(&game).await;
    let moved = player.expect_event_within("move", PROMPTLY).await;
    assert_eq!(moved["event"]["ply"], 0, "{moved}");
    // The analysis queued again and goes on deepening, unfinished.
    let after = analysis_until(&mut analyst, |f| {
        f["depth"].as_u64() > before["depth"].as_u64() && f["done"] == false
    })
    .await;
    assert_eq!(after["id"], before["id"]);
    analyst.send(json!({"t": "stop_analysis"})).await;
    analyst.expect("analysis_end").await;
    player.send(json!({"t": "resign", "game": game})).await;
    assert!(server.engine_idle_within(PROMPTLY).await);
}

#[tokio::test]
async fn the_position_endpoint_checks_positions_and_plays_moves() {
    let server = TestServer::start().await;
    let alice = server.guest().await;
    let (status, answer) = alice
        .post_json(
            "/api/position",
            &json!({"fen": START, "moves": ["h2e2", "h9g7"]}),
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["valid"], true);
    assert_eq!(answer["side"], "red");
    assert_eq!(answer["moves"][1]["iccs"], "h9g7");
    assert_eq!(answer["legal"].as_array().unwrap().len(), 35, "{answer}");
    // Generals facing on an open file; a black elephant off its points.
    for (fen, problem) in [
        ("4k4/9/9/9/9/9/9/9/9/4K4 w", "generals_facing"),
        ("3k5/9/9/9/4b4/9/9/9/9/4K4 w", "unreachable_square"),
        ("3k5/9/9/9/9/9/9/9/9/9 w", "missing_general"),
        ("3k5/9/9 w", "wrong_rank_count"),
    ] {
        let (status, answer) = alice.post_json("/api/position", &json!({"fen": fen})).await;
        assert_eq!(status, 200, "{answer}");
        assert_eq!(answer["valid"], false, "{fen}: {answer}");
        assert_eq!(answer["problems"][0]["problem"], problem, "{fen}: {answer}");
        assert!(answer["problems"][0]["message"].is_string());
    }
    let (status, answer) = alice
        .post_json("/api/position", &json!({"fen": START, "moves": ["h2h8"]}))
        .await;
    assert_eq!(
        (status, answer["error"]["code"].as_str()),
        (400, Some("illegal_move"))
    );
}

#[tokio::test]
async fn reports_come_at_most_four_a_second() {
    let server = TestServer::start().await;
    let mut tab = server.guest().await.connect().await;
    // A deepening search completes many iterations in its first moments,
    // each with five lines: one report per line would be dozens, one per
    // iteration as many as the depth reached. Throttled to one per 250 ms,
    // the first report already comes several iterations deep.
    tab.send(json!({"t": "analyse", "fen": START, "multipv": 5}))
        .await;
    let window = Duration::from_secs(2);
    let deadline = tokio::time::Instant::now() + window;
    let (mut frames, mut depth) = (0, 0);
    loop {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        let next = tab.expect_within("analysis", left + Duration::from_secs(1));
        match tokio::time::timeout(left, next).await {
            Ok(frame) => {
                frames += 1;
                depth = frame["depth"].as_u64().unwrap_or_default();
            }
            Err(_) => break,
        }
    }
    assert!(frames <= 9, "{frames} reports in {window:?}");
    assert!(frames < depth, "{frames} reports for {depth} iterations");
    tab.send(json!({"t": "stop_analysis"})).await;
    tab.expect("analysis_end").await;
}
