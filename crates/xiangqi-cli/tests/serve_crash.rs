//! Crash safety of `xiangqi serve`: two accounts play rated games to their
//! end and leave one in progress, the server is killed with SIGKILL in the
//! middle of that game, and a new server on the same data directory has
//! every finished game's PGN byte for byte, the same ratings and rating
//! histories, and the game in progress back with its moves, still playable.

use std::path::Path;

use serde_json::{json, Value};
use xiangqi_server::ws::protocol::session_cookie_pair;
use xiangqi_test_support::serve::{get_json, get_text, Client, ServeProcess};

// ---------------------------------------------------------------- the server

/// Starts `xiangqi serve` on a free loopback port over `data`.
fn start_server(data: &Path) -> ServeProcess {
    let program = Path::new(env!("CARGO_BIN_EXE_xiangqi"));
    ServeProcess::start(program, [Path::new("--data"), data], "warn")
}

/// Registers `name` (a new player) and returns its session cookie.
async fn register(http: &reqwest::Client, base: &str, name: &str) -> String {
    let pick =
        |set_cookie: &[&str]| session_cookie_pair(set_cookie.iter().copied()).map(str::to_owned);
    xiangqi_test_support::serve::register(http, base, name, pick).await
}

// ---------------------------------------------------------------- the game

/// Red and Black of one game, both watching it.
struct Table {
    game: String,
    red: Client,
    black: Client,
    ply: u32,
}

impl Table {
    /// `red_cookie`'s player seeks a rated game as Red, the other accepts,
    /// both watch.
    async fn start(base: &str, red_cookie: &str, black_cookie: &str) -> Table {
        let mut red = Client::open(base, red_cookie).await;
        let mut black = Client::open(base, black_cookie).await;
        let seek = red.seek_as_red().await;
        let game = Client::accept_and_watch(&mut red, &mut black, &seek).await;
        Table {
            game,
            red,
            black,
            ply: 0,
        }
    }

    /// Plays `moves` in turn; each is acknowledged (stored) and seen by the other side.
    async fn play(&mut self, moves: &[&str]) {
        for mv in moves {
            let (mover, other) = if self.ply % 2 == 0 {
                (&mut self.red, &mut self.black)
            } else {
                (&mut self.black, &mut self.red)
            };
            let frame = json!({"t": "move", "game": self.game, "ply": self.ply, "move": mv});
            mover.send(frame).await;
            assert_eq!(mover.expect("ack").await["ply"], self.ply);
            let event = other.expect_event("move").await;
            assert_eq!(event["event"]["move"]["iccs"], *mv);
            self.ply += 1;
        }
    }

    /// Waits until both sides have seen the end; returns Red's view of it.
    async fn ended(&mut self) -> Value {
        let end = self.red.expect_event("end").await;
        self.black.expect_event("end").await;
        end["event"]["result"].clone()
    }
}

// ---------------------------------------------------------------- the test

const OPENING: [&str; 4] = ["h2e2", "h9g7", "h0g2", "i9h9"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_keeps_finished_games_ratings_and_the_game_in_progress() {
    let data = tempfile::tempdir().unwrap();
    let http = reqwest::Client::new();
    let serve = start_server(data.path());
    let base = serve.base.clone();
    let alice = register(&http, &base, "alice").await;
    let bob = register(&http, &base, "bob").await;

    // Game 1: Black resigns.
    let mut first = Table::start(&base, &alice, &bob).await;
    first.play(&OPENING).await;
    first
        .black
        .send(json!({"t": "resign", "game": first.game}))
        .await;
    let result = first.ended().await;
    assert_eq!(result["result"], "1-0");
    assert!(result["ratings"].is_object(), "rated: {result}");

    // Game 2, colours swapped: a draw by agreement.
    let mut second = Table::start(&base, &bob, &alice).await;
    second.play(&OPENING).await;
    second
        .red
        .send(json!({"t": "offer_draw", "game": second.game}))
        .await;
    second.black.expect_event("draw_offer").await;
    second
        .black
        .send(json!({"t": "accept_draw", "game": second.game}))
        .await;
    let result = second.ended().await;
    assert_eq!(result["result"], "1/2-1/2");
    assert!(result["ratings"].is_object(), "rated: {result}");

    // Game 3 stays in progress.
    let mut third = Table::start(&base, &alice, &bob).await;
    third.play(&["b2e2", "b9c7", "b0c2"]).await;

    let finished = [first.game.clone(), second.game.clone()];
    let mut pgns = Vec::new();
    for game in &finished {
        let pgn = get_text(&http, format!("{base}/games/{game}.pgn")).await;
        assert!(pgn.contains("[Result "), "{pgn}");
        pgns.push(pgn);
    }
    let mut profiles = Vec::new();
    for name in ["alice", "bob"] {
        let profile = get_json(&http, format!("{base}/api/players/{name}")).await;
        assert_eq!(profile["history"].as_array().unwrap().len(), 2, "{profile}");
        profiles.push(profile);
    }
    // Alice won the first game and drew the second: she is rated above Bob.
    let rating = |profile: &Value| profile["player"]["rating"].as_i64().unwrap();
    assert!(rating(&profiles[0]) > rating(&profiles[1]), "{profiles:?}");

    // Mid-game: Black's move is sent but not waited for, then SIGKILL.
    third
        .black
        .send(json!({"t": "move", "game": third.game, "ply": 3, "move": "h9g7"}))
        .await;
    serve.kill();
    let Table { game: third, .. } = third;

    let serve = start_server(data.path());
    let base = serve.base.clone();
    for (game, before) in finished.iter().zip(&pgns) {
        let after = get_text(&http, format!("{base}/games/{game}.pgn")).await;
        assert_eq!(&after, before, "the PGN of {game} changed");
    }
    for (name, before) in ["alice", "bob"].into_iter().zip(&profiles) {
        let after = get_json(&http, format!("{base}/api/players/{name}")).await;
        assert_eq!(after["player"], before["player"], "{name}");
        assert_eq!(after["history"], before["history"], "{name}");
    }

    // The game in progress is back: its moves, its players, still playing.
    // Black's last move may or may not have been stored before the kill.
    let mut red = Client::open(&base, &alice).await;
    red.send(json!({"t": "watch", "game": third})).await;
    let state = red.expect("state").await;
    assert_eq!(state["summary"]["status"], "playing", "{state}");
    assert_eq!(state["you"], "red");
    let moves: Vec<&str> = state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["iccs"].as_str().unwrap())
        .collect();
    assert!(
        moves == ["b2e2", "b9c7", "b0c2"] || moves == ["b2e2", "b9c7", "b0c2", "h9g7"],
        "{moves:?}"
    );
    let summary = get_json(&http, format!("{base}/api/games/{}", third)).await;
    assert_eq!(summary["status"], "playing");
    assert_eq!(summary["red"]["name"], "alice");
    assert_eq!(summary["black"]["name"], "bob");

    // And it goes on: the side to move moves, and is acknowledged.
    let mut black = Client::open(&base, &bob).await;
    black.send(json!({"t": "watch", "game": third})).await;
    black.expect("state").await;
    let (mover, ply, mv) = if moves.len() == 3 {
        (&mut black, 3, "h9g7")
    } else {
        (&mut red, 4, "h0g2")
    };
    mover
        .send(json!({"t": "move", "game": third, "ply": ply, "move": mv}))
        .await;
    assert_eq!(mover.expect("ack").await["ply"], ply);
    serve.kill();
}
