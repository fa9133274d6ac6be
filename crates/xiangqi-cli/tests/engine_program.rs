//! `xiangqi-engine`, driven as a Pikafish client drives an engine: started
//! with no arguments, every read with a deadline, legal moves learnt from
//! `go perft 1`, a whole game played through the protocol alone.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};
use xiangqi_test_support::shared_testdata;

use xiangqi_core::{perft, Position, SplitMix64, START_FEN};

/// How long any one answer may take (debug builds on a busy machine).
const DEADLINE: Duration = Duration::from_secs(60);

/// The engine process, its stdin and a channel of its stdout lines.
struct Client {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_xiangqi-engine"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("xiangqi-engine starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Client {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("engine reads its input");
        self.stdin.flush().expect("flush");
    }

    /// Lines up to and including the first for which `last` holds.
    fn read_until(&mut self, last: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + DEADLINE;
        let mut out = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|e| panic!("no answer in time ({e}); so far: {out:?}"));
            let done = last(&line);
            out.push(line);
            if done {
                return out;
            }
        }
    }

    fn handshake(&mut self) {
        self.send("uci");
        let lines = self.read_until(|l| l == "uciok");
        assert!(lines.iter().any(|l| l.starts_with("id name xiangqi")));
        for option in [
            "Move Overhead",
            "Ponder",
            "UCI_ShowWDL",
            "Skill Level",
            "UCI_Elo",
        ] {
            assert!(
                lines
                    .iter()
                    .any(|l| l.starts_with(&format!("option name {option} type"))),
                "{option} is offered: {lines:?}"
            );
        }
        self.sync();
    }

    fn sync(&mut self) {
        self.send("isready");
        self.read_until(|l| l == "readyok");
    }

    /// `go perft depth`: the `move: count` pairs and the total.
    fn perft(&mut self, depth: u32) -> (Vec<(String, u64)>, u64) {
        self.send(&format!("go perft {depth}"));
        let lines = self.read_until(|l| l.starts_with("Nodes searched:"));
        let total = lines
            .last()
            .and_then(|l| l.strip_prefix("Nodes searched:"))
            .and_then(|n| n.trim().parse().ok())
            .expect("a total");
        let split = lines
            .iter()
            .filter(|l| !l.starts_with("Nodes searched"))
            .filter_map(|l| {
                let (mv, n) = l.split_once(": ")?;
                Some((mv.to_string(), n.trim().parse().ok()?))
            })
            .collect();
        (split, total)
    }

    /// The engine's move after `go …`.
    fn bestmove(&mut self) -> (String, Vec<String>) {
        let lines = self.read_until(|l| l.starts_with("bestmove"));
        let best = lines.last().expect("bestmove line");
        let mv = best.split_whitespace().nth(1).expect("a move").to_string();
        (mv, lines)
    }

    fn quit(mut self) {
        self.send("quit");
        let deadline = Instant::now() + DEADLINE;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().expect("wait") {
                assert!(status.success(), "exit {status}");
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        panic!("the engine did not quit");
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

#[test]
fn a_pikafish_client_plays_a_whole_game_through_the_protocol() {
    let mut engine = Client::start();
    engine.handshake();
    engine.send("ucinewgame");
    engine.sync();
    let mut moves: Vec<String> = Vec::new();
    let mut rng = SplitMix64::new(11);
    let mut ended = false;
    // The client plays Black with moves drawn from `go perft 1`; the engine
    // plays Red with each kind of `go` in turn. It mates a random player
    // long before this many plies.
    for ply in 0..400 {
        let position = if moves.is_empty() {
            format!("position fen {START_FEN}")
        } else {
            format!("position fen {START_FEN} moves {}", moves.join(" "))
        };
        engine.send(&position);
        let (legal, total) = engine.perft(1);
        assert_eq!(legal.len() as u64, total, "one line per move");
        assert!(legal.iter().all(|(_, n)| *n == 1));
        if legal.is_empty() {
            ended = true;
            break;
        }
        let mv = if ply % 2 == 0 {
            let go = match ply % 6 {
                0 => "go movetime 30".to_string(),
                2 => {
                    let red = 60_000u64.saturating_sub(ply as u64 * 100);
                    format!("go wtime {red} btime 60000 winc 100 binc 100")
                }
                _ => {
                    engine.send("go infinite");
                    std::thread::sleep(Duration::from_millis(30));
                    "stop".to_string()
                }
            };
            engine.send(&go);
            let (mv, _) = engine.bestmove();
            assert!(
                legal.iter().any(|(m, _)| *m == mv),
                "ply {ply}: the engine's {mv} is among the perft moves"
            );
            mv
        } else {
            legal[rng.below(legal.len())].0.clone()
        };
        moves.push(mv);
    }
    assert!(ended, "the game ended: {}", moves.join(" "));
    assert_eq!(moves.len() % 2, 1, "Red (the engine) gave the mate");
    engine.quit();
}

#[test]
fn go_perft_equals_the_core_on_the_shared_perft_file() {
    let Some(path) = shared_testdata("perft.jsonl") else {
        return;
    };
    let text = std::fs::read_to_string(&path).expect("the perft file reads");
    // Deeper counts are left to the core's release-mode perft tests.
    let limit: u64 = if cfg!(debug_assertions) {
        200_000
    } else {
        5_000_000
    };
    let mut engine = Client::start();
    engine.handshake();
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let record: serde_json::Value = serde_json::from_str(line).expect("JSON line");
        let fen = record["fen"].as_str().expect("fen");
        let pos = Position::from_fen(fen).expect("valid FEN");
        engine.send(&format!("position fen {fen}"));
        let counts = record["counts"].as_array().expect("counts");
        for (i, want) in counts.iter().enumerate() {
            let want = want.as_u64().expect("count");
            if want > limit {
                continue;
            }
            let depth = i as u32 + 1;
            let (split, total) = engine.perft(depth);
            assert_eq!(total, want, "{} depth {depth}", record["id"]);
            assert_eq!(total, perft(&pos, depth));
            let core: Vec<(String, u64)> = xiangqi_core::divide(&pos, depth)
                .into_iter()
                .map(|(m, n)| (m.to_string(), n))
                .collect();
            assert_eq!(split, core, "{} depth {depth}: the divide", record["id"]);
            checked += 1;
        }
    }
    assert!(checked >= 5, "{checked} counts checked");
    engine.quit();
}

#[test]
fn ponder_then_ponderhit_or_stop_answers() {
    let mut engine = Client::start();
    engine.handshake();
    engine.send("setoption name Ponder value true");
    // The engine moved h2e2 and predicts h9g7; it ponders on it.
    engine.send("position startpos moves h2e2 h9g7");
    engine.send("go ponder wtime 1000 btime 1000 winc 0 binc 0");
    // Pondering knows no clock: long after its time it still searches.
    std::thread::sleep(Duration::from_millis(1500));
    engine.sync();
    engine.send("ponderhit");
    let (mv, _) = engine.bestmove();
    let after = Position::startpos()
        .after("h2e2".parse().unwrap())
        .and_then(|p| p.after("h9g7".parse().unwrap()))
        .unwrap();
    assert!(after.is_legal(mv.parse().unwrap()), "{mv}");

    // `stop` during a ponder search gives a move too.
    engine.send("go ponder movetime 50");
    std::thread::sleep(Duration::from_millis(300));
    engine.send("stop");
    let (mv, _) = engine.bestmove();
    assert!(after.is_legal(mv.parse().unwrap()), "{mv}");
    engine.quit();
}

#[test]
fn a_ponder_search_does_not_answer_before_ponderhit() {
    let mut engine = Client::start();
    engine.handshake();
    engine.send("position startpos");
    engine.send("go ponder depth 1");
    engine.sync();
    std::thread::sleep(Duration::from_millis(300));
    engine.send("isready");
    let lines = engine.read_until(|l| l == "readyok");
    assert!(
        lines.iter().all(|l| !l.starts_with("bestmove")),
        "a finished ponder search waits: {lines:?}"
    );
    engine.send("ponderhit");
    engine.bestmove();
    engine.quit();
}

#[test]
fn extensions_d_eval_flip_and_wdl() {
    let mut engine = Client::start();
    engine.handshake();
    engine.send("position startpos moves h2e2");
    engine.send("d");
    let board = engine.read_until(|l| l.starts_with("Checkers:"));
    let fen = Position::startpos()
        .after("h2e2".parse().unwrap())
        .unwrap()
        .to_fen();
    assert!(board.contains(&format!("Fen: {fen}")), "{board:?}");
    assert!(board.iter().any(|l| l.starts_with("Key: ")));
    engine.send("eval");
    let eval = engine.read_until(|l| l.starts_with("Final evaluation"));
    assert!(eval.last().unwrap().ends_with("(white side)"));
    engine.send("flip");
    engine.send("d");
    let flipped = engine.read_until(|l| l.starts_with("Checkers:"));
    let want = Position::from_fen(&fen).unwrap().color_flipped().to_fen();
    assert!(flipped.contains(&format!("Fen: {want}")), "{flipped:?}");

    engine.send("setoption name UCI_ShowWDL value true");
    engine.send("position startpos");
    engine.send("go depth 3");
    let (_, lines) = engine.bestmove();
    let info = lines
        .iter()
        .find(|l| l.starts_with("info depth 3"))
        .expect("a depth-3 report");
    let words: Vec<&str> = info.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "wdl").expect("wdl shown");
    let wdl: Vec<u32> = words[at + 1..at + 4]
        .iter()
        .map(|w| w.parse().unwrap())
        .collect();
    assert_eq!(wdl.iter().sum::<u32>(), 1000, "{info}");
    engine.quit();
}

#[test]
fn ucci_when_the_first_command_is_ucci() {
    let mut engine = Client::start();
    engine.send("ucci");
    engine.read_until(|l| l == "ucciok");
    engine.send("position startpos");
    engine.send("go depth 2");
    let (mv, _) = engine.bestmove();
    assert!(Position::startpos().is_legal(mv.parse().unwrap()));
    engine.send("bye");
    engine.read_until(|l| l == "bye");
}

#[test]
fn bench_prints_the_signature_as_pikafish_does() {
    let out = Command::new(env!("CARGO_BIN_EXE_xiangqi-engine"))
        .args(["bench", "3"])
        .output()
        .expect("runs");
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    let nodes: u64 = err
        .lines()
        .find_map(|l| l.strip_prefix("Nodes searched  :"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no signature in {err}"));
    let expected = xiangqi_search::run_bench(3, |_, _| {}).total_nodes;
    assert_eq!(nodes, expected);
}
