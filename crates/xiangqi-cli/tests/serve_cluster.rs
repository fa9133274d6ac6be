//! Three `xiangqi serve` nodes of one cluster (a real PostgreSQL, a real
//! nats-server, all on 127.0.0.1): players on different nodes play rated
//! games to the end while a spectator on the third follows every move; the
//! node that owns a game in progress is killed with SIGKILL, another node
//! takes the game over, and it goes on with every move kept and the clocks
//! charged nothing for the take-over. Every node then serves the same
//! finished games byte for byte, and the ratings are the Elo of the results;
//! a single process (no bus) on the same database serves them byte for byte
//! the same as the cluster did.
//!
//!
//! And the outages: the bus stopped for 10 s mid-game, PostgreSQL stopped
//! and started again mid-game. A move that cannot be done meanwhile is
//! refused with a code that says why (and is not done); every accepted move
//! is kept; the nodes recover by themselves and the game goes on. And the
//! HAProxy configuration of docs/server.md in front of three nodes, when
//! `haproxy` is installed (skipped with a message otherwise).
//!
//! Needs `XIANGQI_TEST_POSTGRES_URL` and `XIANGQI_TEST_NATS_URL` (and for
//! the outages `XIANGQI_TEST_NATS_SERVER`, `XIANGQI_TEST_POSTGRES_PG_CTL`
//! and `XIANGQI_TEST_POSTGRES_DATA`), which `cargo xtask test` sets (or
//! `cargo xtask postgres -- cargo xtask nats -- cargo test -p xiangqi-cli
//! --test serve_cluster`); skipped with a message without them, failed
//! under `CI=true`. The tests run one at a time: one restarts the shared
//! PostgreSQL.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use xiangqi_server::ws::protocol::session_cookie_pair;
use xiangqi_test_support::databases::{PgSchema, POSTGRES_URL_VAR};
use xiangqi_test_support::serve::{get_json, get_text, Client, ServeProcess, WAIT};

const NATS_URL_VAR: &str = "XIANGQI_TEST_NATS_URL";
const NATS_PROGRAM_VAR: &str = "XIANGQI_TEST_NATS_SERVER";
const PG_CTL_VAR: &str = "XIANGQI_TEST_POSTGRES_PG_CTL";
const PG_DATA_VAR: &str = "XIANGQI_TEST_POSTGRES_DATA";
const PG_RUN_AS_VAR: &str = "XIANGQI_TEST_POSTGRES_RUN_AS";

/// One test at a time (one of them restarts the shared PostgreSQL).
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The variable's value, or `None` with a message (a failure under CI=true).
fn server_from(var: &str) -> Option<String> {
    match std::env::var(var) {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            if std::env::var("CI").is_ok_and(|v| v == "true") {
                panic!("{var} is not set under CI=true: `cargo xtask test` starts the server and sets it");
            }
            eprintln!("SKIPPED: the cluster test needs {var} (`cargo xtask test` sets it)");
            None
        }
    }
}

/// A fresh schema of the test PostgreSQL, as a URL every node opens.
async fn fresh_database(url: &str, name: &str) -> String {
    PgSchema::fresh(url, &format!("c_{name}")).await.url
}

// ---------------------------------------------------------------- the nodes

/// A running node, killed when dropped.
type Node = ServeProcess;

/// A node of the cluster on `database` and `bus`.
fn node(database: &str, bus: &str) -> Node {
    spawn(database, Some(bus))
}

/// A single process (no `--bus`) on the cluster's database.
fn single(database: &str) -> Node {
    spawn(database, None)
}

fn spawn(database: &str, bus: Option<&str>) -> Node {
    let mut args = vec!["--database", database];
    if let Some(bus) = bus {
        args.extend(["--bus", bus]);
    }
    let program = Path::new(env!("CARGO_BIN_EXE_xiangqi"));
    ServeProcess::start(program, args, "warn,xiangqi_server::cluster=info")
}

// ---------------------------------------------------------------- HTTP

async fn register(http: &reqwest::Client, base: &str, name: &str) -> String {
    let pick =
        |set_cookie: &[&str]| session_cookie_pair(set_cookie.iter().copied()).map(str::to_owned);
    xiangqi_test_support::serve::register(http, base, name, pick).await
}

// ---------------------------------------------------------------- WebSocket

/// What this test asks of a socket besides the shared client's calls.
trait ClusterClient {
    /// Follows the lobby until it lists seek `id`.
    async fn sees_seek(&mut self, id: &Value);
}

impl ClusterClient for Client {
    async fn sees_seek(&mut self, id: &Value) {
        self.send(json!({"t": "lobby"})).await;
        loop {
            let frame = self.next("the seek").await;
            let listed = match frame["t"].as_str() {
                Some("lobby") => frame["seeks"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|s| s["id"] == *id),
                Some("seek_added") => frame["seek"]["id"] == *id,
                _ => false,
            };
            if listed {
                return;
            }
        }
    }
}

/// Waits until a watcher has move `mv` at `ply`: its `event`, or a `state`
/// that has it (a replica that missed events while the bus was away sends
/// the state instead); the frame.
async fn sees_move(client: &mut Client, ply: u32, mv: &str) -> Value {
    loop {
        let frame = client.next("a move").await;
        match frame["t"].as_str() {
            Some("event") if frame["event"]["kind"] == "move" && frame["event"]["ply"] == ply => {
                assert_eq!(frame["event"]["move"]["iccs"], mv, "{frame}");
                return frame;
            }
            Some("state") => {
                let moves = frame["moves"].as_array().unwrap();
                if moves.len() > ply as usize {
                    assert_eq!(moves[ply as usize]["iccs"], mv, "{frame}");
                    return frame;
                }
            }
            Some("error") => panic!("waiting for {mv}: {frame}"),
            _ => {}
        }
    }
}

/// Sends `frame` until the game's node accepts it: while a game changes
/// node or a server is out, an action is answered `unavailable` or
/// `internal` (and nothing is done).
async fn until_accepted(client: &mut Client, frame: Value, answer: &str) -> Value {
    let deadline = Instant::now() + WAIT;
    loop {
        client.send(frame.clone()).await;
        loop {
            let reply = client.next(answer).await;
            match reply["t"].as_str() {
                Some(t) if t == answer => return reply,
                Some("error")
                    if (reply["code"] == "unavailable" || reply["code"] == "internal")
                        && Instant::now() < deadline =>
                {
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    break;
                }
                Some("error") => panic!("waiting for {answer}: {reply}"),
                _ => {}
            }
        }
    }
}

/// One game: Red, Black and a spectator, each on a node of its own.
struct Table {
    game: String,
    red: Client,
    black: Client,
    spectator: Client,
    ply: u32,
    /// The clocks after the last move, as its event said.
    clocks: Value,
    /// The version of the last move's event.
    v: u64,
}

impl Table {
    /// Red's player seeks a rated game on `red_node`; Black's sees the seek
    /// in the lobby of `black_node` and accepts it there (so that node
    /// owns the game); the spectator watches on `spectator_node`.
    async fn start(
        red_node: &str,
        black_node: &str,
        spectator_node: &str,
        red_cookie: &str,
        black_cookie: &str,
        spectator_cookie: &str,
    ) -> Table {
        let mut red = Client::open(red_node, red_cookie).await;
        let mut black = Client::open(black_node, black_cookie).await;
        let seek = red.seek_as_red().await;
        black.sees_seek(&seek).await;
        let game = Client::accept_and_watch(&mut red, &mut black, &seek).await;
        let mut spectator = Client::open(spectator_node, spectator_cookie).await;
        // The spectator's node lists the game among those in progress.
        spectator.send(json!({"t": "lobby"})).await;
        loop {
            let frame = spectator.next("the game in the lobby").await;
            let listed = match frame["t"].as_str() {
                Some("lobby") => frame["games"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|g| g["id"] == game),
                Some("game_added") => frame["game"]["id"] == game,
                _ => false,
            };
            if listed {
                break;
            }
        }
        spectator.send(json!({"t": "watch", "game": game})).await;
        assert_eq!(spectator.expect("state").await["you"], Value::Null);
        Table {
            game,
            red,
            black,
            spectator,
            ply: 0,
            clocks: Value::Null,
            v: 0,
        }
    }

    /// Plays `moves` in turn: each acknowledged, seen by the other side and
    /// by the spectator.
    async fn play(&mut self, moves: &[&str]) {
        for mv in moves {
            let (mover, other) = if self.ply % 2 == 0 {
                (&mut self.red, &mut self.black)
            } else {
                (&mut self.black, &mut self.red)
            };
            let frame = json!({"t": "move", "game": self.game, "ply": self.ply, "move": mv});
            let ack = until_accepted(mover, frame, "ack").await;
            assert_eq!(ack["ply"], self.ply);
            let event = other.expect_event("move").await;
            assert_eq!(event["event"]["move"]["iccs"], *mv);
            let seen = sees_move(&mut self.spectator, self.ply, mv).await;
            self.clocks = seen["clocks"].clone();
            self.v = seen["v"].as_u64().unwrap();
            self.ply += 1;
        }
    }

    /// Waits until both sides and the spectator have seen the end.
    async fn ended(&mut self) -> Value {
        let end = self.red.expect_event("end").await;
        self.black.expect_event("end").await;
        self.spectator.expect_event("end").await;
        end["event"]["result"].clone()
    }
}

const OPENING: [&str; 4] = ["h2e2", "h9g7", "h0g2", "i9h9"];

/// Elo as the server computes it (the rating crate's own function): the
/// test checks that the results counted in order, whichever node finished
/// each game.
fn elo(red: i32, black: i32, red_score: f64) -> (i32, i32) {
    xiangqi_rating::online::elo_update(red, black, red_score)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cluster_plays_across_nodes_and_survives_the_death_of_a_games_node() {
    let (Some(postgres), Some(bus)) = (server_from(POSTGRES_URL_VAR), server_from(NATS_URL_VAR))
    else {
        return;
    };
    let _serial = SERIAL.lock().await;
    let database = fresh_database(&postgres, "three_nodes").await;
    let a = node(&database, &bus);
    let b = node(&database, &bus);
    let c = node(&database, &bus);
    let (a_url, b_url, c_url) = (a.base.clone(), b.base.clone(), c.base.clone());
    let http = reqwest::Client::new();
    let alice = register(&http, &a_url, "alice").await;
    let bob = register(&http, &b_url, "bob").await;
    let carol = register(&http, &c_url, "carol").await;

    // Game 1 on node B (Bob accepts there): Alice on A, Carol watching on C.
    let mut first = Table::start(&a_url, &b_url, &c_url, &alice, &bob, &carol).await;
    first.play(&OPENING).await;
    // The players' chat crosses nodes: Alice writes on A, Bob reads on B.
    first
        .red
        .send(json!({"t": "chat", "game": first.game, "channel": "players", "text": "good luck"}))
        .await;
    let chat = first.black.expect("chat").await;
    assert_eq!(chat["message"]["text"], "good luck", "{chat}");
    // A takeback request from A reaches the owner's room on B; declined.
    first
        .red
        .send(json!({"t": "offer_takeback", "game": first.game}))
        .await;
    first.black.expect_event("takeback_offer").await;
    first
        .black
        .send(json!({"t": "decline_takeback", "game": first.game}))
        .await;
    first.red.expect_event("takeback_declined").await;
    first
        .black
        .send(json!({"t": "resign", "game": first.game}))
        .await;
    let result = first.ended().await;
    assert_eq!(result["result"], "1-0");
    let ratings = &result["ratings"];
    let (red_after, black_after) = elo(1500, 1500, 1.0);
    assert_eq!(ratings["red"]["after"], red_after, "{result}");
    assert_eq!(ratings["black"]["after"], black_after, "{result}");

    // Game 2, colours swapped: Bob seeks on A as Red, Alice accepts on B,
    // so B owns it again; Carol watches on C.
    let mut second = Table::start(&a_url, &b_url, &c_url, &bob, &alice, &carol).await;
    second.play(&OPENING).await;
    second.play(&["b2c2"]).await;
    let before_kill = second.clocks.clone();
    let moves_before: Vec<String> = OPENING
        .iter()
        .chain(["b2c2"].iter())
        .map(|m| m.to_string())
        .collect();

    // SIGKILL the owner, B. Alice (Black, on B) loses her socket.
    let killed_at = Instant::now();
    b.kill();
    let Table {
        game,
        red,
        black: _lost,
        spectator,
        ply,
        ..
    } = second;
    // Alice comes back on C and resumes from the version she had.
    let mut black = Client::open(&c_url, &alice).await;
    black.send(json!({"t": "watch", "game": game})).await;
    let state = until_state(&mut black).await;
    let took_over = killed_at.elapsed();
    let moves: Vec<String> = state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["iccs"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(moves, moves_before, "every move kept: {state}");
    assert_eq!(state["summary"]["status"], "playing");
    assert_eq!(state["you"], "black");
    // Black is to move: its clock stood still while the game changed node
    // (charged at most the time from the kill to this state, and not
    // more than the take-over took); Red's did not move.
    let before = |side: &str| before_kill[side].as_u64().unwrap();
    let after = |side: &str| state["clocks"][side].as_u64().unwrap();
    assert_eq!(after("red"), before("red"), "{state} after {before_kill}");
    let charged = before("black").saturating_sub(after("black"));
    assert!(
        charged <= took_over.as_millis() as u64 && after("black") <= before("black"),
        "black was charged {charged} ms of a take-over of {took_over:?}: {state} after {before_kill}"
    );
    eprintln!("take-over after SIGKILL: {took_over:?}, black charged {charged} ms");

    let mut second = Table {
        game,
        red,
        black,
        spectator,
        ply,
        clocks: Value::Null,
        v: 0,
    };
    // The game goes on: Black's move is accepted on C, Red (on A) and the
    // spectator (on C) see it and the rest.
    second.play(&["b9c7", "b0a2", "a9b9"]).await;
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
    // Bob (1500 - 10 = 1490 after game 1) as Red drew with Alice (1510).
    let (bob_after, alice_after) = elo(black_after, red_after, 0.5);
    assert_eq!(result["ratings"]["red"]["after"], bob_after, "{result}");
    assert_eq!(result["ratings"]["black"]["after"], alice_after, "{result}");

    // Every node left serves the same records, byte for byte.
    let games = [first.game.clone(), second.game.clone()];
    for game in &games {
        let on_a = get_text(&http, format!("{a_url}/games/{game}.pgn")).await;
        let on_c = get_text(&http, format!("{c_url}/games/{game}.pgn")).await;
        assert_eq!(on_a, on_c, "the PGN of {game}");
        assert!(on_a.contains("[Result "), "{on_a}");
    }
    let pgn = get_text(&http, format!("{a_url}/games/{}.pgn", second.game)).await;
    assert!(pgn.contains("1/2-1/2"), "{pgn}");
    for (name, rating) in [("alice", alice_after), ("bob", bob_after)] {
        let on_a = get_json(&http, format!("{a_url}/api/players/{name}")).await;
        let on_c = get_json(&http, format!("{c_url}/api/players/{name}")).await;
        assert_eq!(on_a, on_c, "{name}");
        assert_eq!(on_a["player"]["rating"], rating, "{on_a}");
        assert_eq!(on_a["history"].as_array().unwrap().len(), 2, "{on_a}");
    }
    let detail = get_json(&http, format!("{c_url}/api/games/{}", second.game)).await;
    assert_eq!(detail["moves"].as_array().unwrap().len(), 8, "{detail}");

    // What the cluster stored is what a single process stores: with the
    // nodes gone, a plain `xiangqi serve` (no bus) on the same database
    // serves the same games, ratings and histories, byte for byte.
    let served = |base: &str| {
        let (http, base, games) = (http.clone(), base.to_owned(), games.clone());
        async move {
            let mut texts = Vec::new();
            for game in &games {
                texts.push(get_text(&http, format!("{base}/games/{game}.pgn")).await);
                texts.push(
                    get_json(&http, format!("{base}/api/games/{game}"))
                        .await
                        .to_string(),
                );
            }
            for name in ["alice", "bob"] {
                texts.push(
                    get_json(&http, format!("{base}/api/players/{name}"))
                        .await
                        .to_string(),
                );
            }
            texts
        }
    };
    let by_cluster = served(&a_url).await;
    drop((a, c));
    let single = single(&database);
    assert_eq!(served(&single.base).await, by_cluster);
}

/// The `state` a socket gets for `watch`, retried while the game's node
/// is being replaced (`unavailable`).
async fn until_state(client: &mut Client) -> Value {
    let deadline = Instant::now() + WAIT;
    loop {
        let frame = client.next("state").await;
        match frame["t"].as_str() {
            Some("state") => return frame,
            Some("error") if Instant::now() < deadline => {
                let game = frame["ref"]["game"].clone();
                tokio::time::sleep(Duration::from_millis(200)).await;
                client.send(json!({"t": "watch", "game": game})).await;
            }
            Some("error") => panic!("waiting for the state: {frame}"),
            _ => {}
        }
    }
}

/// The first `error` frame (what comes before it is skipped).
async fn refusal(client: &mut Client) -> Value {
    let deadline = Instant::now() + WAIT;
    loop {
        assert!(Instant::now() < deadline, "no error frame in time");
        let frame = client.next("error").await;
        if frame["t"] == "error" {
            return frame;
        }
    }
}

/// The moves of `game` as node `base` has them.
async fn stored_moves(http: &reqwest::Client, base: &str, game: &str) -> Vec<Value> {
    let detail = get_json(http, format!("{base}/api/games/{game}")).await;
    detail["moves"].as_array().unwrap().clone()
}

/// A nats-server of the test's own, to stop and start again on its port.
struct OwnBus {
    program: String,
    port: u16,
    child: Option<Child>,
}

impl OwnBus {
    fn start(program: &str) -> OwnBus {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut bus = OwnBus {
            program: program.to_owned(),
            port,
            child: None,
        };
        bus.resume();
        bus
    }

    fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }

    fn resume(&mut self) {
        let child = Command::new(&self.program)
            .args(["-a", "127.0.0.1", "-p", &self.port.to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("nats-server starts");
        self.child = Some(child);
        let deadline = Instant::now() + WAIT;
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(Instant::now() < deadline, "nats-server does not listen");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Drop for OwnBus {
    fn drop(&mut self) {
        self.stop();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bus_outage_of_ten_seconds_loses_no_move_and_heals_by_itself() {
    let (Some(postgres), Some(program)) =
        (server_from(POSTGRES_URL_VAR), server_from(NATS_PROGRAM_VAR))
    else {
        return;
    };
    let _serial = SERIAL.lock().await;
    let database = fresh_database(&postgres, "bus_outage").await;
    let mut bus = OwnBus::start(&program);
    let a = node(&database, &bus.url());
    let b = node(&database, &bus.url());
    let http = reqwest::Client::new();
    let alice = register(&http, &a.base, "alice").await;
    let bob = register(&http, &b.base, "bob").await;
    let carol = register(&http, &a.base, "carol").await;
    // Alice (Red) on A, Bob (Black) on B, which owns the game; Carol
    // watches on A.
    let mut table = Table::start(&a.base, &b.base, &a.base, &alice, &bob, &carol).await;
    table.play(&OPENING[..2]).await;

    bus.stop();
    let outage = Instant::now();
    tokio::time::sleep(Duration::from_secs(1)).await;
    // A cannot reach the game's node: Alice's move is refused, with why.
    let frame = json!({"t": "move", "game": table.game, "ply": 2, "move": OPENING[2]});
    table.red.send(frame).await;
    let refused = refusal(&mut table.red).await;
    assert_eq!(refused["code"], "unavailable", "{refused}");
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("lost its link"),
        "{refused}"
    );
    tokio::time::sleep(Duration::from_secs(10).saturating_sub(outage.elapsed())).await;
    bus.resume();

    // Back by itself: the same move goes through (the client retries),
    // Bob and Carol see it and the rest, and nothing was lost.
    table.play(&OPENING[2..]).await;
    table
        .black
        .send(json!({"t": "resign", "game": table.game}))
        .await;
    assert_eq!(table.ended().await["result"], "1-0");
    for base in [&a.base, &b.base] {
        let moves = stored_moves(&http, base, &table.game).await;
        assert_eq!(moves.len(), 4, "{moves:?}");
    }
}

/// Runs `pg_ctl ARGS` on the test server (as its user when one is named).
fn pg_ctl(args: &[&str]) {
    let program = std::env::var(PG_CTL_VAR).unwrap();
    let data = std::env::var(PG_DATA_VAR).unwrap();
    let mut command = match std::env::var(PG_RUN_AS_VAR) {
        Ok(user) if !user.is_empty() => {
            let mut command = Command::new("runuser");
            command.args(["-u", &user, "--", &program]);
            command
        }
        _ => Command::new(&program),
    };
    let status = command
        .args(["-D", &data])
        .args(args)
        .stdout(Stdio::null())
        .status()
        .expect("pg_ctl runs");
    assert!(status.success(), "pg_ctl {args:?}");
}

/// The test PostgreSQL, stopped until dropped (started again then, even
/// when the test fails, so the tests after it have their database).
struct Stopped {
    options: String,
}

impl Stopped {
    fn postgres(port: &str) -> Stopped {
        pg_ctl(&["-m", "fast", "-w", "stop"]);
        Stopped {
            options: format!("-c listen_addresses=127.0.0.1 -p {port} -k ''"),
        }
    }
}

impl Drop for Stopped {
    fn drop(&mut self) {
        pg_ctl(&["-o", &self.options, "-w", "-t", "60", "start"]);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_restart_loses_no_accepted_move_and_heals_by_itself() {
    let (Some(postgres), Some(bus), Some(_), Some(_)) = (
        server_from(POSTGRES_URL_VAR),
        server_from(NATS_URL_VAR),
        server_from(PG_CTL_VAR),
        server_from(PG_DATA_VAR),
    ) else {
        return;
    };
    let _serial = SERIAL.lock().await;
    let database = fresh_database(&postgres, "database_restart").await;
    let a = node(&database, &bus);
    let b = node(&database, &bus);
    let http = reqwest::Client::new();
    let alice = register(&http, &a.base, "alice").await;
    let bob = register(&http, &b.base, "bob").await;
    let carol = register(&http, &a.base, "carol").await;
    let mut table = Table::start(&a.base, &b.base, &a.base, &alice, &bob, &carol).await;
    table.play(&OPENING[..2]).await;

    // Down for longer than a lease: no node may take the game for lapsed.
    let port = postgres
        .rsplit_once(':')
        .and_then(|(_, rest)| rest.split('/').next())
        .unwrap()
        .to_owned();
    let down = Stopped::postgres(&port);
    let frame = json!({"t": "move", "game": table.game, "ply": 2, "move": OPENING[2]});
    table.red.send(frame).await;
    // The owner cannot store the move: it says so, or (waiting for the
    // database longer than a forwarded action may take) does not answer.
    let refused = refusal(&mut table.red).await;
    let code = refused["code"].as_str().unwrap();
    assert!(code == "internal" || code == "unavailable", "{refused}");
    tokio::time::sleep(Duration::from_secs(5)).await;
    drop(down);

    // The refused move was not done; played again, it is accepted, and the
    // game ends with its ratings stored.
    table.play(&OPENING[2..]).await;
    table
        .black
        .send(json!({"t": "resign", "game": table.game}))
        .await;
    let result = table.ended().await;
    assert_eq!(result["result"], "1-0");
    assert!(result["ratings"].is_object(), "{result}");
    for base in [&a.base, &b.base] {
        let moves = stored_moves(&http, base, &table.game).await;
        assert_eq!(moves.len(), 4, "{moves:?}");
        let profile = get_json(&http, format!("{base}/api/players/alice")).await;
        assert_eq!(profile["history"].as_array().unwrap().len(), 1, "{profile}");
    }
}

/// The protocol through a replica: what a player's socket on one node gets
/// from a game run on another is what it gets from a local room. (The
/// in-process protocol tests, `crates/xiangqi-server/tests/protocol`, run
/// one server with a hand-moved clock, which a cluster of processes cannot
/// share: these are their representative cases across two nodes, and the
/// bad-input and attack tests concern one socket's node, whichever it is.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_protocol_holds_across_two_nodes() {
    let (Some(postgres), Some(bus)) = (server_from(POSTGRES_URL_VAR), server_from(NATS_URL_VAR))
    else {
        return;
    };
    let _serial = SERIAL.lock().await;
    let database = fresh_database(&postgres, "protocol").await;
    let a = node(&database, &bus);
    let b = node(&database, &bus);
    let http = reqwest::Client::new();
    let alice = register(&http, &a.base, "alice").await;
    let bob = register(&http, &b.base, "bob").await;
    let carol = register(&http, &b.base, "carol").await;

    // B runs the game; Alice (Red) plays from A. The owner's refusals
    // reach her unchanged.
    let mut t = Table::start(&a.base, &b.base, &b.base, &alice, &bob, &carol).await;
    let game = t.game.clone();
    t.red
        .send(json!({"t": "move", "game": game, "ply": 0, "move": "a0a5"}))
        .await;
    let error = t.red.expect_error("illegal_move").await;
    assert_eq!(error["ref"]["ply"], 0, "{error}");
    t.play(&["h2e2"]).await;
    t.red
        .send(json!({"t": "move", "game": game, "ply": 1, "move": "h0g2"}))
        .await;
    t.red.expect_error("not_your_turn").await;
    // A move sent again (a reconnect) is acknowledged again; another one
    // for a past ply is stale.
    t.red
        .send(json!({"t": "move", "game": game, "ply": 0, "move": "h2e2"}))
        .await;
    assert_eq!(t.red.expect("ack").await["ply"], 0);
    t.red
        .send(json!({"t": "move", "game": game, "ply": 0, "move": "b2e2"}))
        .await;
    t.red.expect_error("stale_ply").await;
    // Black has not moved: Red, on the other node, may abort.
    t.red.send(json!({"t": "abort", "game": game})).await;
    let end = t.ended().await;
    assert_eq!(end["status"], "cancelled", "{end}");
    assert_eq!(end["reason"], "aborted", "{end}");

    // A draw offered from A and declined on B; a socket that reconnects on
    // the other node with `since` gets exactly the events it missed.
    let mut t = Table::start(&a.base, &b.base, &b.base, &alice, &bob, &carol).await;
    let game = t.game.clone();
    t.play(&OPENING[..2]).await;
    t.red.send(json!({"t": "offer_draw", "game": game})).await;
    t.black.expect_event("draw_offer").await;
    t.black
        .send(json!({"t": "decline_draw", "game": game}))
        .await;
    let declined = t.red.expect_event("draw_declined").await;
    assert_eq!(declined["event"]["by"], "black");
    t.play(&OPENING[2..3]).await;
    let mut again = Client::open(&a.base, &bob).await;
    again
        .send(json!({"t": "watch", "game": game, "since": t.v - 1}))
        .await;
    let missed = again.expect("event").await;
    assert_eq!(missed["v"], t.v, "{missed}");
    assert_eq!(missed["event"]["move"]["iccs"], OPENING[2]);
    assert!(
        missed["legal"].as_array().unwrap().len() > 1,
        "Black is to move: {missed}"
    );
    again
        .send(json!({"t": "move", "game": game, "ply": 3, "move": OPENING[3]}))
        .await;
    assert_eq!(again.expect("ack").await["ply"], 3);
    t.red.expect_event("move").await;
    t.red.send(json!({"t": "resign", "game": game})).await;
    assert_eq!(t.ended().await["result"], "0-1");

    // An engine game runs on the node that starts it (its slots); a
    // spectator on the other node follows the engine's moves.
    let mut player = Client::open(&a.base, &alice).await;
    player
        .send(json!({"t": "play_engine", "level": 0, "tc": "15+0", "color": "red"}))
        .await;
    let game = player.expect("started").await["game"].clone();
    player.send(json!({"t": "watch", "game": game})).await;
    player.expect("state").await;
    player
        .send(json!({"t": "move", "game": game, "ply": 0, "move": "h2e2"}))
        .await;
    assert_eq!(player.expect("ack").await["ply"], 0);
    let mut spectator = Client::open(&b.base, &carol).await;
    spectator.send(json!({"t": "watch", "game": game})).await;
    let state = spectator.expect("state").await;
    if state["moves"].as_array().unwrap().len() < 2 {
        let reply = spectator.expect_event("move").await;
        assert_eq!(reply["event"]["ply"], 1);
    }
    player.send(json!({"t": "resign", "game": game})).await;
    let end = spectator.expect_event("end").await;
    assert_eq!(end["event"]["result"]["result"], "0-1", "{end}");

    // Bots are a single server's (docs/server.md, "Bots in a cluster"): a
    // token is made on any node (it is in the database), but the bot
    // endpoints say so with 503 `unavailable` rather than half working.
    let made = http
        .post(format!("{}/api/account/tokens", b.base))
        .header(reqwest::header::COOKIE, &carol)
        .json(&json!({"description": "cluster"}))
        .send()
        .await
        .unwrap();
    assert_eq!(made.status(), 201);
    let token: Value = made.json().await.unwrap();
    let token = token["token"].as_str().unwrap().to_owned();
    for (node, path) in [
        (&a.base, "/api/bot/account/upgrade"),
        (&b.base, "/api/challenge/carol"),
    ] {
        let refused = http
            .post(format!("{node}{path}"))
            .bearer_auth(&token)
            .json(&json!({"tc": "1+0"}))
            .send()
            .await
            .unwrap();
        assert_eq!(refused.status(), 503, "{path}");
        let body: Value = refused.json().await.unwrap();
        assert_eq!(body["error"]["code"], "unavailable", "{path}: {body}");
    }
}

/// The HAProxy configuration of docs/server.md ("Three nodes behind one
/// address"), with `listen` and the nodes' addresses in place of its own.
fn proxy_config(listen: &str, nodes: &[&str]) -> String {
    let docs = include_str!("../../../docs/server.md");
    let block = docs
        .split("```haproxy\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("docs/server.md has a haproxy block");
    let mut config = block.replace("bind 127.0.0.1:8080", &format!("bind {listen}"));
    for (i, node) in nodes.iter().enumerate() {
        let example = format!("127.0.0.1:{}", 8081 + i);
        assert!(config.contains(&example), "the example names {example}");
        config = config.replace(&example, node);
    }
    config
}

/// A running haproxy, stopped when dropped.
struct Proxy(Child);

impl Drop for Proxy {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_nodes_behind_the_documented_haproxy_play_a_game() {
    let (Some(postgres), Some(bus)) = (server_from(POSTGRES_URL_VAR), server_from(NATS_URL_VAR))
    else {
        return;
    };
    let haproxy = ["/usr/sbin/haproxy", "/usr/local/sbin/haproxy"]
        .into_iter()
        .find(|p| std::path::Path::new(p).is_file());
    let Some(haproxy) = haproxy else {
        eprintln!("SKIPPED: haproxy is not installed (apt-get install haproxy)");
        return;
    };
    let _serial = SERIAL.lock().await;
    let database = fresh_database(&postgres, "proxy").await;
    let nodes = [
        node(&database, &bus),
        node(&database, &bus),
        node(&database, &bus),
    ];
    let addresses: Vec<&str> = nodes
        .iter()
        .map(|n| n.base.trim_start_matches("http://"))
        .collect();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let listen = format!("127.0.0.1:{port}");
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("haproxy.cfg");
    std::fs::write(&config, proxy_config(&listen, &addresses)).unwrap();
    let child = Command::new(haproxy)
        .arg("-db")
        .arg("-f")
        .arg(&config)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
        .expect("haproxy starts");
    let _proxy = Proxy(child);
    let base = format!("http://{listen}");
    let deadline = Instant::now() + WAIT;
    while std::net::TcpStream::connect(&listen).is_err() {
        assert!(Instant::now() < deadline, "haproxy does not listen");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let http = reqwest::Client::new();
    let alice = register(&http, &base, "alice").await;
    let bob = register(&http, &base, "bob").await;
    let carol = register(&http, &base, "carol").await;
    // Every socket through the one address, wherever the proxy puts it.
    let mut table = Table::start(&base, &base, &base, &alice, &bob, &carol).await;
    table.play(&OPENING).await;
    table
        .black
        .send(json!({"t": "resign", "game": table.game}))
        .await;
    assert_eq!(table.ended().await["result"], "1-0");
    let pgn = get_text(&http, format!("{base}/games/{}.pgn", table.game)).await;
    assert!(pgn.contains("1-0"), "{pgn}");
}
