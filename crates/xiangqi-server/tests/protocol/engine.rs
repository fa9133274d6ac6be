//! A game against the built-in engine: it answers every move on its own.
//! The engine searches in real time (level 0 is a one-ply search); the
//! server's clock stands still meanwhile, so nobody's time runs out.

use serde_json::json;

use crate::harness::TestServer;

/// Plies played at most before the test stops watching.
const MAX_PLIES: u64 = 24;

#[tokio::test]
async fn the_engine_answers_each_move_until_the_game_ends_or_the_test_stops() {
    let server = TestServer::start().await;
    let alice = server.guest().await;
    let mut tab = alice.connect().await;
    tab.send(json!({"t": "play_engine", "level": 0, "tc": "0.5+0", "color": "red"}))
        .await;
    let started = tab.expect("started").await;
    let id = started["game"].as_str().unwrap().to_string();
    let state = tab.watch(&id).await;
    assert_eq!(state["you"], "red");
    assert_eq!(state["summary"]["black"]["engine_level"], 0);
    assert_eq!(state["summary"]["rated"], false);

    let mut legal = state["legal"].clone();
    let mut ply = 0;
    loop {
        // Red plays the first move it is offered; then the engine answers.
        let mv = legal[0].as_str().expect("Red has a move").to_string();
        tab.play(&id, ply, &mv).await;
        server.advance(100);
        let answer = tab.expect("event").await;
        match answer["event"]["kind"].as_str() {
            Some("move") => {
                assert_eq!(answer["event"]["ply"], ply + 1, "{answer}");
                legal = answer["legal"].clone();
            }
            Some("end") => break,
            _ => panic!("expected the engine's move: {answer}"),
        }
        ply += 2;
        if legal.as_array().unwrap().is_empty() {
            tab.expect_event("end").await;
            break;
        }
        if u64::from(ply) >= MAX_PLIES {
            break;
        }
    }
    let summary = server.get_json(&format!("/api/games/{id}")).await;
    assert!(summary["ply"].as_u64().unwrap() >= 2, "{summary}");
    assert_eq!(
        summary["moves"].as_array().unwrap().len() as u64,
        summary["ply"].as_u64().unwrap()
    );
}

/// Starts a game of `client` against the engine at `level`, the player
/// with `color`, and watches it; the game's id and the first `state`.
async fn engine_game(
    tab: &mut crate::harness::Tab,
    level: u8,
    tc: &str,
    color: &str,
) -> (String, serde_json::Value) {
    tab.send(json!({"t": "play_engine", "level": level, "tc": tc, "color": color}))
        .await;
    let started = tab.expect("started").await;
    let id = started["game"].as_str().unwrap().to_string();
    let state = tab.watch(&id).await;
    assert_eq!(state["you"], color, "{state}");
    (id, state)
}

#[tokio::test]
async fn the_engine_as_red_makes_the_first_move() {
    let server = TestServer::start().await;
    let alice = server.guest().await;
    let mut tab = alice.connect().await;
    let (id, _) = engine_game(&mut tab, 0, "5+0", "black").await;
    let first = tab.expect_event("move").await;
    assert_eq!(first["event"]["ply"], 0, "{first}");
    assert_eq!(first["running"], "black", "{first}");
    // Black answers, and the engine answers that too.
    let reply = first["legal"][0].as_str().expect("Black has a move");
    tab.play(&id, 1, reply).await;
    let second = tab.expect_event("move").await;
    assert_eq!(second["event"]["ply"], 2, "{second}");
}

/// A game against the engine stored as a server leaves it when it stops
/// while the engine thinks: the player's move is stored, the engine's not.
async fn store_engine_to_move(url: &str, player: &str, engine_red: bool) -> String {
    use xiangqi_adjudication::{ClockEvent, TimedEvent};
    use xiangqi_core::Color;
    use xiangqi_server::store::{EventRow, GameRow, Store};

    let store = Store::open(url).await.expect("store");
    let id = "g_restartThink".to_string();
    let engine = "engine-0".to_string();
    let (red, black) = if engine_red {
        (engine, player.to_string())
    } else {
        (player.to_string(), engine)
    };
    let row = GameRow {
        id: id.clone(),
        red,
        black,
        time_control: "5+0".into(),
        rated: false,
        rules: "online".into(),
        start_fen: xiangqi_core::Position::startpos().to_fen(),
        started_at: 1_700_000_000_000,
    };
    store.insert_game(&row).await.expect("game row");
    let player_side = if engine_red { Color::Black } else { Color::Red };
    let mut events = vec![
        (0, ClockEvent::Leave { side: player_side }),
        (400, ClockEvent::Return { side: player_side }),
    ];
    if !engine_red {
        events.push((
            3_000,
            ClockEvent::Move {
                side: Some(Color::Red),
                mv: "h2e2".parse().unwrap(),
            },
        ));
    }
    for (seq, (at, event)) in events.into_iter().enumerate() {
        let row = EventRow::from_timed(seq as i64, &TimedEvent { at, event });
        store.append_event(&id, &row).await.expect("event row");
    }
    id
}

#[tokio::test]
async fn the_engine_moves_after_a_restart_while_it_was_thinking() {
    for engine_red in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let url = format!(
            "sqlite://{}?mode=rwc",
            dir.path().join("xiangqi.db").display()
        );
        let first = TestServer::start_on(&url).await;
        let alice = first.guest().await;
        first.stop().await;
        let id = store_engine_to_move(&url, alice.id(), engine_red).await;

        let second = TestServer::start_on(&url).await;
        assert_eq!(second.resumed, 1);
        let alice = alice.visiting(&second);
        let mut tab = alice.connect().await;
        let state = tab.watch(&id).await;
        let played = state["moves"].as_array().unwrap().len() as u64;
        let engine_move = if played == u64::from(!engine_red) {
            tab.expect_event("move").await["event"].clone()
        } else {
            // The engine's move came before the watch: it is in the state.
            json!({"ply": played - 1})
        };
        assert_eq!(
            engine_move["ply"],
            u64::from(!engine_red),
            "engine red: {engine_red}; {state}"
        );
        tab.close().await;
        second.stop().await;
    }
}

#[tokio::test]
async fn against_the_engine_a_takeback_on_ones_turn_and_a_rematch_are_agreed_at_once() {
    let server = TestServer::start().await;
    let alice = server.guest().await;
    let mut tab = alice.connect().await;
    let (id, _) = engine_game(&mut tab, 0, "5+0", "red").await;
    tab.play(&id, 0, "h2e2").await;
    let reply = tab.expect_event("move").await;
    assert_eq!(reply["event"]["ply"], 1, "{reply}");
    // Red's turn: its move and the engine's reply go back at once.
    tab.send(json!({"t": "offer_takeback", "game": id})).await;
    tab.expect_event("takeback_offer").await;
    let back = tab.expect_event("takeback").await;
    assert_eq!(back["event"]["ply"], 0, "{back}");
    assert_eq!(back["running"], "red", "{back}");
    // Red plays on; the engine answers the new move.
    tab.play(&id, 0, "b2e2").await;
    let reply = tab.expect_event("move").await;
    assert_eq!(reply["event"]["ply"], 1, "{reply}");
    let summary = server.get_json(&format!("/api/games/{id}")).await;
    assert_eq!(summary["moves"][0], "b2e2", "{summary}");

    // After the end the engine takes a rematch: colours swapped.
    tab.send(json!({"t": "resign", "game": id})).await;
    tab.expect_event("end").await;
    tab.send(json!({"t": "offer_rematch", "game": id})).await;
    let started = tab.expect("started").await;
    let new_game = started["game"].as_str().unwrap().to_string();
    let rematch = tab.expect_event("rematch").await;
    assert_eq!(rematch["event"]["game"], new_game.as_str(), "{rematch}");
    let state = tab.watch(&new_game).await;
    assert_eq!(state["you"], "black", "{state}");
    assert_eq!(state["summary"]["red"]["engine_level"], 0, "{state}");
    // The engine, Red now, opens the new game.
    let first = tab.expect_event("move").await;
    assert_eq!(first["game"], new_game.as_str(), "{first}");
}
