//! The bot against a small fake of `xiangqi serve`'s bot API on 127.0.0.1:
//! the lines it writes are the protocol crate's types (as the real
//! server's), and each connection of a stream follows a script: an HTTP
//! error, garbage, silence, a line without end, a stream cut mid-game.
//! Every test is bounded in time.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use tokio::sync::{broadcast, mpsc, watch};
use xiangqi_bot::{Backoff, BotConfig, BotEngine, BotError, Policy, Report, Reporter};
use xiangqi_core::{Move, Position, START_FEN};
use xiangqi_server_protocol::bot::{
    to_line, BotEvent, Challenge, DeclineReason, GameFull, GameRef, GameStatus, GameStreamLine,
    PlayerInfo, StreamState,
};
use xiangqi_server_protocol::server::Side;
use xiangqi_server_protocol::ColorChoice;

const TOKEN: &str = "xqb_fake_token";
const GAME: &str = "g_1";
/// The fake game ends after this many plies, drawn.
const END_PLIES: usize = 6;
/// The longest any test may take.
const TEST_BOUND: Duration = Duration::from_secs(60);

/// What one connection of a stream answers.
#[derive(Clone)]
enum Script {
    /// An HTTP error with this body (and `Retry-After: 0` if asked).
    Status(u16, &'static str),
    /// These lines, then the live events, keep-alives between.
    Lines(Vec<String>),
    /// The headers, then silence.
    Silent,
    /// These bytes (no newline at the end), then silence.
    Raw(String),
    /// The game's stream until the game has this many plies, then half a
    /// line and a broken connection.
    CutAfter(usize),
}

struct Fake {
    event_scripts: Mutex<VecDeque<Script>>,
    game_scripts: Mutex<VecDeque<Script>>,
    /// Lines for every open event stream (a game start after an accept).
    events: broadcast::Sender<String>,
    game: watch::Sender<StreamState>,
    /// `METHOD path body` of every request but the streams.
    requests: Mutex<Vec<String>>,
    /// The bot's colour in the fake game.
    bot_color: Side,
}

fn player(name: &str, bot: bool) -> PlayerInfo {
    PlayerInfo {
        name: name.into(),
        rating: Some(1500),
        bot,
    }
}

fn challenge(id: &str, tc: &str, rated: bool) -> Challenge {
    Challenge {
        id: id.into(),
        challenger: player("ana", false),
        dest: player("fakebot", true),
        tc: tc.into(),
        rated,
        rules: "online".into(),
        color: ColorChoice::Random,
    }
}

fn game_start(color: Side) -> String {
    to_line(&BotEvent::GameStart {
        game: GameRef {
            id: GAME.into(),
            color,
            opponent: player("ana", false),
        },
    })
}

fn start_state() -> StreamState {
    StreamState {
        moves: String::new(),
        red_ms: 3_000,
        black_ms: 3_000,
        status: GameStatus::Started,
        result: None,
        reason: None,
        draw_offer: None,
        takeback_offer: None,
    }
}

impl Fake {
    fn new(events: Vec<Script>, games: Vec<Script>, bot_color: Side) -> Arc<Fake> {
        Arc::new(Fake {
            event_scripts: Mutex::new(events.into()),
            game_scripts: Mutex::new(games.into()),
            events: broadcast::channel(16).0,
            game: watch::channel(start_state()).0,
            requests: Mutex::new(Vec::new()),
            bot_color,
        })
    }

    fn requests(&self) -> Vec<String> {
        self.requests.lock().unwrap().clone()
    }

    fn position(&self, state: &StreamState) -> Position {
        let start = Position::from_fen(START_FEN).unwrap();
        let moves: Vec<Move> = state
            .moves
            .split_whitespace()
            .map(|m| m.parse().unwrap())
            .collect();
        start.after_moves(moves).unwrap()
    }

    /// The fake opponent's reply: the first legal move.
    fn reply(&self, state: &mut StreamState) {
        let position = self.position(state);
        let mv = position.legal_move_vec()[0];
        push_move(state, &mv.to_string());
    }
}

fn push_move(state: &mut StreamState, mv: &str) {
    if !state.moves.is_empty() {
        state.moves.push(' ');
    }
    state.moves.push_str(mv);
    if state.moves.split_whitespace().count() >= END_PLIES {
        state.status = GameStatus::Ended;
        state.result = Some("1/2-1/2".into());
        state.reason = Some("agreement".into());
    }
}

fn error(status: u16, code: &str, message: &str) -> Response {
    let body = format!(r#"{{"error":{{"code":"{code}","message":"{message}"}}}}"#);
    (StatusCode::from_u16(status).unwrap(), body).into_response()
}

fn authorised(headers: &HeaderMap) -> bool {
    headers.get("authorization").and_then(|v| v.to_str().ok()) == Some(&format!("Bearer {TOKEN}"))
}

/// A streaming NDJSON answer fed by the returned sender; an `Err` breaks
/// the connection.
fn ndjson() -> (Lines, Response) {
    let (tx, rx) = mpsc::channel::<Result<Bytes, std::io::Error>>(64);
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|item| (item, rx))
    });
    let response = Response::builder()
        .header("content-type", "application/x-ndjson")
        .body(Body::from_stream(stream))
        .unwrap();
    (tx, response)
}

type Lines = mpsc::Sender<Result<Bytes, std::io::Error>>;

/// A script's answer: whole now, or a stream whose lines the caller sends.
enum Answer {
    Whole(Response),
    Streaming(Lines, Response, Script),
}

fn scripted(script: Script) -> Answer {
    match script {
        Script::Status(status, body) => {
            let mut response = (StatusCode::from_u16(status).unwrap(), body).into_response();
            response
                .headers_mut()
                .insert("retry-after", "0".parse().unwrap());
            Answer::Whole(response)
        }
        other => {
            let (tx, response) = ndjson();
            Answer::Streaming(tx, response, other)
        }
    }
}

async fn event_stream(State(fake): State<Arc<Fake>>, headers: HeaderMap) -> Response {
    if !authorised(&headers) {
        return error(401, "bad_token", "unknown token");
    }
    let script = fake
        .event_scripts
        .lock()
        .unwrap()
        .pop_front()
        .unwrap_or(Script::Lines(Vec::new()));
    let (tx, response, script) = match scripted(script) {
        Answer::Whole(response) => return response,
        Answer::Streaming(tx, response, script) => (tx, response, script),
    };
    let mut live = fake.events.subscribe();
    tokio::spawn(async move {
        match script {
            Script::Silent => {
                tokio::time::sleep(TEST_BOUND).await;
                return;
            }
            Script::Raw(text) => {
                let _ = tx.send(Ok(Bytes::from(text))).await;
                tokio::time::sleep(TEST_BOUND).await;
                return;
            }
            Script::Lines(lines) => {
                for line in lines {
                    if tx.send(Ok(Bytes::from(line))).await.is_err() {
                        return;
                    }
                }
            }
            Script::Status(..) | Script::CutAfter(_) => unreachable!(),
        }
        let mut keep_alive = tokio::time::interval(Duration::from_millis(100));
        loop {
            let line = tokio::select! {
                line = live.recv() => match line { Ok(line) => line, Err(_) => return },
                _ = keep_alive.tick() => "\n".to_string(),
            };
            if tx.send(Ok(Bytes::from(line))).await.is_err() {
                return;
            }
        }
    });
    response
}

async fn game_stream(
    State(fake): State<Arc<Fake>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    if !authorised(&headers) {
        return error(401, "bad_token", "unknown token");
    }
    if id != GAME {
        return error(404, "no_game", "no such game");
    }
    let script = fake
        .game_scripts
        .lock()
        .unwrap()
        .pop_front()
        .unwrap_or(Script::Lines(Vec::new()));
    let (tx, response, script) = match scripted(script) {
        Answer::Whole(response) => return response,
        Answer::Streaming(tx, response, script) => (tx, response, script),
    };
    let mut states = fake.game.subscribe();
    let bot_color = fake.bot_color;
    tokio::spawn(async move {
        let cut_after = match script {
            Script::CutAfter(plies) => Some(plies),
            Script::Lines(lines) => {
                for line in lines {
                    if tx.send(Ok(Bytes::from(line))).await.is_err() {
                        return;
                    }
                }
                None
            }
            _ => unreachable!(),
        };
        let (red, black) = match bot_color {
            Side::Red => (player("fakebot", true), player("ana", false)),
            Side::Black => (player("ana", false), player("fakebot", true)),
        };
        let full = GameStreamLine::GameFull(Box::new(GameFull {
            id: GAME.into(),
            rated: false,
            rules: "online".into(),
            tc: "1+0".into(),
            red,
            black,
            initial_fen: START_FEN.into(),
            state: states.borrow_and_update().clone(),
        }));
        if tx.send(Ok(Bytes::from(to_line(&full)))).await.is_err() {
            return;
        }
        let mut keep_alive = tokio::time::interval(Duration::from_millis(100));
        loop {
            tokio::select! {
                changed = states.changed() => {
                    if changed.is_err() { return; }
                    let state = states.borrow_and_update().clone();
                    let plies = state.moves.split_whitespace().count();
                    let line = to_line(&GameStreamLine::GameState(state));
                    if cut_after.is_some_and(|n| plies >= n) {
                        // Half a line, then the connection breaks.
                        let _ = tx.send(Ok(Bytes::from(line[..line.len() / 2].to_string()))).await;
                        let _ = tx.send(Err(std::io::Error::other("cut"))).await;
                        return;
                    }
                    if tx.send(Ok(Bytes::from(line))).await.is_err() { return; }
                }
                _ = keep_alive.tick() => {
                    if tx.send(Ok(Bytes::from("\n"))).await.is_err() { return; }
                }
            }
        }
    });
    response
}

async fn game_move(
    State(fake): State<Arc<Fake>>,
    Path((id, mv)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    if !authorised(&headers) {
        return error(401, "bad_token", "unknown token");
    }
    fake.requests
        .lock()
        .unwrap()
        .push(format!("POST /api/bot/game/{id}/move/{mv}"));
    let mut refused = None;
    fake.game.send_modify(|state| {
        let position = fake.position(state);
        let Ok(parsed) = mv.parse::<Move>() else {
            refused = Some("illegal_move");
            return;
        };
        if state.status == GameStatus::Ended {
            refused = Some("game_over");
        } else if position.check_legal(parsed).is_err() {
            refused = Some("illegal_move");
        } else {
            push_move(state, &mv);
            if state.status == GameStatus::Started {
                fake.reply(state);
            }
        }
    });
    match refused {
        Some(code) => error(400, code, "refused"),
        None => (StatusCode::OK, r#"{"ok":true}"#).into_response(),
    }
}

/// Any other action: recorded, answered `{"ok": true}`; accepting the
/// challenge `c_1` starts the game.
async fn action(
    State(fake): State<Arc<Fake>>,
    Path(path): Path<String>,
    headers: HeaderMap,
    body: String,
) -> Response {
    if !authorised(&headers) {
        return error(401, "bad_token", "unknown token");
    }
    fake.requests
        .lock()
        .unwrap()
        .push(format!("POST /api/{path} {body}").trim_end().to_string());
    if path == "challenge/c_1/accept" {
        let _ = fake.events.send(game_start(fake.bot_color));
    }
    (StatusCode::OK, r#"{"ok":true}"#).into_response()
}

async fn serve(fake: Arc<Fake>) -> SocketAddr {
    let app = Router::new()
        .route("/api/stream/event", get(event_stream))
        .route("/api/bot/game/stream/{id}", get(game_stream))
        .route("/api/bot/game/{id}/move/{mv}", post(game_move))
        .route("/api/{*path}", post(action))
        .with_state(fake);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    addr
}

/// The bot's reports, collected; `wait_for` blocks until one matches.
#[derive(Clone)]
struct Reports {
    seen: Arc<Mutex<Vec<Report>>>,
    tx: watch::Sender<usize>,
}

impl Reports {
    fn new() -> Reports {
        Reports {
            seen: Arc::default(),
            tx: watch::channel(0).0,
        }
    }

    fn reporter(&self) -> Reporter {
        let this = self.clone();
        Arc::new(move |report| {
            this.seen.lock().unwrap().push(report);
            this.tx.send_modify(|n| *n += 1);
        })
    }

    fn all(&self) -> Vec<Report> {
        self.seen.lock().unwrap().clone()
    }

    async fn wait_for(&self, what: &str, wanted: impl Fn(&Report) -> bool) {
        let mut rx = self.tx.subscribe();
        let found = tokio::time::timeout(TEST_BOUND, async {
            loop {
                if self.all().iter().any(&wanted) {
                    return;
                }
                rx.changed().await.unwrap();
            }
        })
        .await;
        assert!(
            found.is_ok(),
            "no {what} report; reports: {:#?}",
            self.all()
        );
    }
}

fn config(addr: SocketAddr, engine: BotEngine) -> BotConfig {
    let mut config = BotConfig::new(&format!("http://{addr}/"), TOKEN, engine);
    config.backoff = Backoff::new(Duration::from_millis(50), Duration::from_millis(400));
    config.stream_idle = Duration::from_millis(700);
    config.move_overhead = Duration::from_millis(50);
    config
}

fn builtin() -> BotEngine {
    BotEngine::Builtin { hash_mb: 4 }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plays_a_game_through_server_errors_garbage_and_a_cut_stream() {
    let fake = Fake::new(
        vec![
            Script::Status(503, r#"{"error":{"code":"unavailable","message":"busy"}}"#),
            Script::Status(500, "<html>Internal Server Error</html>"),
            Script::Lines(vec![
                "this is not json\n".into(),
                "{\"type\":\"dance\",\"steps\":3}\n".into(),
                "\n".into(),
                to_line(&BotEvent::Challenge {
                    challenge: challenge("c_1", "1+0", false),
                }),
            ]),
        ],
        vec![Script::CutAfter(2), Script::Lines(Vec::new())],
        Side::Red,
    );
    let addr = serve(fake.clone()).await;
    let reports = Reports::new();
    let (stop, shutdown) = watch::channel(false);
    let bot = tokio::spawn(xiangqi_bot::run(
        config(addr, builtin()),
        reports.reporter(),
        shutdown,
    ));
    reports
        .wait_for("game_finish", |r| matches!(r, Report::GameFinish { .. }))
        .await;
    stop.send_replace(true);
    let summary = tokio::time::timeout(TEST_BOUND, bot)
        .await
        .expect("the bot stops on shutdown")
        .unwrap()
        .expect("no fatal error");
    assert_eq!(
        (summary.games, summary.reason),
        (1, "shutdown"),
        "{:#?}",
        reports.all()
    );

    let all = reports.all();
    let event_retries: Vec<u64> = all
        .iter()
        .filter_map(|r| match r {
            Report::Reconnecting {
                stream, retry_ms, ..
            } if stream == "event stream" => Some(*retry_ms),
            _ => None,
        })
        .collect();
    assert_eq!(event_retries, [50, 100], "503 then 500, waits doubling");
    let errors: Vec<String> = all
        .iter()
        .filter_map(|r| match r {
            Report::Reconnecting { error, .. } => Some(error.clone()),
            _ => None,
        })
        .collect();
    assert!(
        errors[0].contains("HTTP 503 unavailable: busy"),
        "{errors:?}"
    );
    assert!(errors[1].contains("HTTP 500"), "{errors:?}");
    assert!(
        errors.iter().any(|e| e.contains("cannot reach the server")),
        "the cut game stream is reopened: {errors:?}"
    );
    let warnings: Vec<String> = all
        .iter()
        .filter_map(|r| match r {
            Report::Warning { message, .. } => Some(message.clone()),
            _ => None,
        })
        .collect();
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("line 1 is not a valid event") && w.contains("this is not json")),
        "{warnings:?}"
    );
    assert!(
        warnings.iter().any(|w| w.contains("dance")),
        "an unknown event type is skipped with a warning: {warnings:?}"
    );
    assert!(all
        .iter()
        .any(|r| matches!(r, Report::Challenge { accepted: true, .. })));
    let moves: Vec<usize> = all
        .iter()
        .filter_map(|r| match r {
            Report::Move { ply, .. } => Some(*ply),
            _ => None,
        })
        .collect();
    assert_eq!(moves, [1, 3, 5], "Red's moves, each once, across the cut");
    let finish = all
        .iter()
        .find(|r| matches!(r, Report::GameFinish { .. }))
        .unwrap();
    assert_eq!(
        finish,
        &Report::GameFinish {
            game: GAME.into(),
            result: "1/2-1/2".into(),
            reason: "agreement".into()
        }
    );
    let requests = fake.requests();
    assert!(requests.contains(&"POST /api/challenge/c_1/accept".to_string()));
    assert_eq!(
        requests.iter().filter(|r| r.contains("/move/")).count(),
        3,
        "{requests:?}"
    );
    assert_eq!(
        fake.game.borrow().moves.split_whitespace().count(),
        END_PLIES
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_token_stops_the_bot_with_its_reason() {
    let fake = Fake::new(Vec::new(), Vec::new(), Side::Red);
    let addr = serve(fake).await;
    let mut config = config(addr, builtin());
    config.token = "xqb_revoked".into();
    let (_stop, shutdown) = watch::channel(false);
    let error = tokio::time::timeout(
        TEST_BOUND,
        xiangqi_bot::run(config, Reports::new().reporter(), shutdown),
    )
    .await
    .expect("no retrying a refused token")
    .unwrap_err();
    assert!(matches!(error, BotError::BadToken { ref code, .. } if code == "bad_token"));
    assert!(error.to_string().contains("refused the token"), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn declines_by_policy_with_the_reason() {
    let fake = Fake::new(
        vec![Script::Lines(vec![
            to_line(&BotEvent::Challenge {
                challenge: challenge("c_2", "5+3", true),
            }),
            to_line(&BotEvent::Challenge {
                challenge: challenge("c_3", "60+0", false),
            }),
        ])],
        Vec::new(),
        Side::Red,
    );
    let addr = serve(fake.clone()).await;
    let mut config = config(addr, builtin());
    config.policy = Policy {
        rated: false,
        max_base_ms: 10 * 60_000,
        ..Policy::default()
    };
    let reports = Reports::new();
    let (stop, shutdown) = watch::channel(false);
    let bot = tokio::spawn(xiangqi_bot::run(config, reports.reporter(), shutdown));
    reports
        .wait_for(
            "second challenge",
            |r| matches!(r, Report::Challenge { id, .. } if id == "c_3"),
        )
        .await;
    stop.send_replace(true);
    tokio::time::timeout(TEST_BOUND, bot)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    let requests = fake.requests();
    assert!(
        requests.contains(&r#"POST /api/challenge/c_2/decline {"reason":"casual"}"#.to_string()),
        "{requests:?}"
    );
    assert!(
        requests.contains(&r#"POST /api/challenge/c_3/decline {"reason":"tc"}"#.to_string()),
        "{requests:?}"
    );
    assert_eq!(DeclineReason::Casual.name(), "casual");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_stream_is_reopened_and_an_endless_line_is_an_error() {
    let fake = Fake::new(
        vec![
            Script::Silent,
            Script::Raw("x".repeat(xiangqi_bot::MAX_LINE_BYTES + 10)),
        ],
        Vec::new(),
        Side::Red,
    );
    let addr = serve(fake).await;
    let reports = Reports::new();
    let (_stop, shutdown) = watch::channel(false);
    let error = tokio::time::timeout(
        TEST_BOUND,
        xiangqi_bot::run(config(addr, builtin()), reports.reporter(), shutdown),
    )
    .await
    .expect("neither hangs")
    .unwrap_err();
    assert!(matches!(error, BotError::LineTooLong { .. }), "{error}");
    assert!(reports.all().iter().any(|r| matches!(
        r,
        Report::Reconnecting { error, .. } if error.contains("nothing from the server for")
    )));
}

/// An engine that answers the handshake and then writes a move that is no
/// move: the bot says so and resigns rather than let its clock run out.
#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_writing_garbage_resigns_the_resumed_game() {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("xiangqi-bot-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("garbage-engine.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    uci) echo 'id name Garbage'; echo uciok ;;\n    isready) echo readyok ;;\n    go*) echo 'bestmove zz99' ;;\n    quit) exit 0 ;;\n  esac\ndone\n",
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    // The game is in progress when the bot connects: game_start on connect.
    let fake = Fake::new(
        vec![Script::Lines(vec![game_start(Side::Red)])],
        Vec::new(),
        Side::Red,
    );
    let addr = serve(fake.clone()).await;
    let spec = script.to_str().unwrap().parse().unwrap();
    let reports = Reports::new();
    let (stop, shutdown) = watch::channel(false);
    let bot = tokio::spawn(xiangqi_bot::run(
        config(addr, BotEngine::External(spec)),
        reports.reporter(),
        shutdown,
    ));
    reports
        .wait_for("engine failure", |r| {
            matches!(r, Report::Warning { message, .. } if message.contains("unreadable move \"zz99\""))
        })
        .await;
    let resigned = tokio::time::timeout(TEST_BOUND, async {
        while !fake.requests().iter().any(|r| r.ends_with("/g_1/resign")) {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    stop.send_replace(true);
    tokio::time::timeout(TEST_BOUND, bot)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(resigned.is_ok(), "requests: {:?}", fake.requests());
}

/// A challenge accepted and then withdrawn before its game started frees
/// its place: the next challenge is accepted, not declined `later`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_withdrawn_accepted_challenge_frees_its_place() {
    let fake = Fake::new(
        vec![Script::Lines(vec![
            to_line(&BotEvent::Challenge {
                challenge: challenge("c_9", "5+3", false),
            }),
            to_line(&BotEvent::ChallengeCanceled {
                challenge: challenge("c_9", "5+3", false),
            }),
            to_line(&BotEvent::Challenge {
                challenge: challenge("c_10", "5+3", false),
            }),
        ])],
        Vec::new(),
        Side::Red,
    );
    let addr = serve(fake.clone()).await;
    let reports = Reports::new();
    let (stop, shutdown) = watch::channel(false);
    let bot = tokio::spawn(xiangqi_bot::run(
        config(addr, builtin()),
        reports.reporter(),
        shutdown,
    ));
    reports
        .wait_for(
            "the second challenge",
            |r| matches!(r, Report::Challenge { id, .. } if id == "c_10"),
        )
        .await;
    stop.send_replace(true);
    tokio::time::timeout(TEST_BOUND, bot)
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    let requests = fake.requests();
    assert!(
        requests.contains(&"POST /api/challenge/c_10/accept".to_string()),
        "{requests:?}"
    );
}
