//! `xiangqi bot` against a real `xiangqi serve` on 127.0.0.1: two accounts
//! registered, a token each, both made bots by `--upgrade`; one bot waits
//! with our `xiangqi-engine`, the other challenges it with Debian's
//! Fairy-Stockfish (our engine again when it is not installed, said on
//! stderr; under CI=true its absence fails, as `cargo xtask test` installs
//! it) and plays one whole game to a result. The server then shows a
//! finished bot game with the moves both bots reported.
//!
//! The game is a 0.25+0 one (15 s each), so it ends within about half a
//! minute whatever the engines do; every wait is bounded.

use std::ffi::OsStr;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use xiangqi_server::ws::protocol::session_cookie_pair;
use xiangqi_test_support::serve::{register, ServeProcess};

const FAIRY_STOCKFISH: &str = "/usr/games/fairy-stockfish";
/// The longest the whole game may take (two 15 s clocks and their overheads).
const GAME_BOUND: Duration = Duration::from_secs(150);

/// A child process killed when dropped.
struct Process(Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Registers `name` and makes it a token; the token.
async fn account_token(http: &reqwest::Client, base: &str, name: &str) -> String {
    let cookie = register(http, base, name, |set_cookie| {
        session_cookie_pair(set_cookie.iter().copied()).map(str::to_string)
    })
    .await;
    let response = http
        .post(format!("{base}/api/account/tokens"))
        .header(reqwest::header::COOKIE, cookie)
        .json(&json!({"description": "bot test"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 201, "a token for {name}");
    let body: Value = response.json().await.unwrap();
    body["token"].as_str().unwrap().to_string()
}

/// A `xiangqi bot --json` process and the JSON lines it prints.
struct Bot {
    process: Process,
    lines: mpsc::Receiver<Value>,
    seen: Vec<Value>,
}

impl Bot {
    fn start(base: &str, token: &str, engine: &str, extra: &[&str]) -> Bot {
        let mut child = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
            .args([
                "bot",
                "--server",
                base,
                "--engine",
                engine,
                "--upgrade",
                "--json",
            ])
            .args(["--move-overhead", "500"])
            .args(extra)
            .env("XIANGQI_BOT_TOKEN", token)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("xiangqi bot starts");
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in stdout.lines().map_while(Result::ok) {
                let value: Value = serde_json::from_str(&line)
                    .unwrap_or_else(|e| panic!("--json printed {line:?}: {e}"));
                if tx.send(value).is_err() {
                    return;
                }
            }
        });
        Bot {
            process: Process(child),
            lines,
            seen: Vec::new(),
        }
    }

    /// Reads lines until one has `"event": event`.
    fn wait_for(&mut self, event: &str, bound: Duration) -> Value {
        let deadline = Instant::now() + bound;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no {event} line; lines so far: {:#?}", self.seen));
            self.seen.push(line.clone());
            if line["event"] == event {
                return line;
            }
        }
    }

    fn moves(&self) -> Vec<String> {
        self.seen
            .iter()
            .filter(|l| l["event"] == "move")
            .map(|l| l["move"].as_str().unwrap().to_string())
            .collect()
    }
}

#[test]
fn two_bots_play_a_whole_game_on_a_real_server() {
    let fairy = Path::new(FAIRY_STOCKFISH).is_file();
    if !fairy {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{FAIRY_STOCKFISH} is missing under CI=true (cargo xtask test installs it)"
        );
        eprintln!(
            "note: {FAIRY_STOCKFISH} is not installed (apt-get install fairy-stockfish): \
             both bots play with xiangqi-engine"
        );
    }
    let our_engine = env!("CARGO_BIN_EXE_xiangqi-engine");
    let challenger_engine = if fairy { FAIRY_STOCKFISH } else { our_engine };
    let data = std::env::temp_dir().join(format!("xiangqi-bot-cli-{}", std::process::id()));
    let server = ServeProcess::start(
        Path::new(env!("CARGO_BIN_EXE_xiangqi")),
        [OsStr::new("--data"), data.as_os_str()],
        "warn",
    );
    let base = server.base.clone();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let http = reqwest::Client::new();
    let (waiting_token, challenger_token) = runtime.block_on(async {
        (
            account_token(&http, &base, "waitingbot").await,
            account_token(&http, &base, "challengerbot").await,
        )
    });

    let mut waiting = Bot::start(&base, &waiting_token, our_engine, &["--max-games", "1"]);
    waiting.wait_for("connected", Duration::from_secs(30));
    let mut challenger = Bot::start(
        &base,
        &challenger_token,
        challenger_engine,
        &[
            "--challenge",
            "waitingbot",
            "--tc",
            "0.25+0",
            "--games",
            "1",
        ],
    );
    let start = waiting.wait_for("game_start", Duration::from_secs(60));
    let game = start["game"].as_str().unwrap().to_string();
    assert_eq!(start["opponent"], "challengerbot");
    let finish = challenger.wait_for("game_finish", GAME_BOUND);
    assert_eq!(finish["game"], game.as_str());
    let stopped = challenger.wait_for("stopped", Duration::from_secs(30));
    assert_eq!(stopped["reason"], "games_played");
    assert_eq!(stopped["games"], 1);
    let status = challenger.process.0.wait().unwrap();
    assert!(
        status.success(),
        "the challenger exits 0 after its games: {status}"
    );
    let waiting_finish = waiting.wait_for("game_finish", Duration::from_secs(30));
    assert_eq!(waiting_finish["result"], finish["result"]);

    // Ctrl-C: the waiting bot stops cleanly.
    #[cfg(unix)]
    {
        // SAFETY: signalling a child process this test started.
        unsafe { libc::kill(waiting.process.0.id() as i32, libc::SIGINT) };
        let stopped = waiting.wait_for("stopped", Duration::from_secs(30));
        assert_eq!(stopped["reason"], "shutdown");
        assert!(waiting.process.0.wait().unwrap().success());
    }

    let summary: Value = runtime.block_on(async {
        http.get(format!("{base}/api/games/{game}"))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    });
    assert_eq!(summary["bot"], true, "{summary}");
    assert!(
        finish["result"] != "*" && summary["result"] == finish["result"],
        "a result, the same the bots saw: {summary} {finish}"
    );
    // Every move the server kept was played by one of the two bots.
    let server_moves: Vec<String> = summary["moves"]
        .as_array()
        .expect("the game's moves")
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    let mut played = waiting.moves();
    played.extend(challenger.moves());
    assert_eq!(played.len(), server_moves.len(), "{summary}");
    for mv in &server_moves {
        assert!(played.contains(mv), "{mv} was not reported by a bot");
    }
    let _ = std::fs::remove_dir_all(&data);
}
