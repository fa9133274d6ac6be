//! `xiangqi uci`, `ucci`, `analyze` and `bench`: scripted sessions checked line by line.

use assert_cmd::Command;
use xiangqi_core::{Move, Position};

fn xiangqi() -> Command {
    Command::cargo_bin("xiangqi").expect("binary built")
}

/// Runs a protocol session with `script` on stdin; returns stdout lines.
fn session(protocol: &str, script: &str) -> Vec<String> {
    session_of(xiangqi().arg(protocol), script)
}

/// `command` (a protocol session) with `script` on stdin; its stdout lines.
fn session_of(command: &mut Command, script: &str) -> Vec<String> {
    let out = command
        .write_stdin(script)
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("utf-8")
        .lines()
        .map(str::to_string)
        .collect()
}

/// Checks that `line` has the words of an info line in the expected order.
fn assert_uci_info(line: &str, depth: u32) {
    let w: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(&w[..3], ["info", "depth", &depth.to_string()], "{line}");
    let keys = [
        "seldepth", "multipv", "score", "nodes", "nps", "hashfull", "time", "pv",
    ];
    let mut at = 3;
    for k in keys {
        assert_eq!(w.get(at), Some(&k), "{line}: expected {k}");
        at += if k == "score" { 3 } else { 2 };
    }
    assert!(matches!(w[8], "cp" | "mate"), "{line}");
    for m in &w[at - 1..] {
        m.parse::<Move>()
            .unwrap_or_else(|_| panic!("{line}: bad pv move {m}"));
    }
}

/// The `EvalFile` default this build advertises.
fn embedded_net_name() -> &'static str {
    if xiangqi_nnue::embedded::EMBEDDED_NET.is_some() {
        "<embedded>"
    } else {
        "<empty>"
    }
}

fn bestmove(line: &str) -> Move {
    let w: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(w[0], "bestmove", "{line}");
    w[1].parse().unwrap_or_else(|_| panic!("{line}"))
}

#[test]
fn uci_transcript() {
    let lines = session(
        "uci",
        "uci\nisready\nucinewgame\nposition startpos moves h2e2\ngo depth 3\n",
    );
    assert!(lines[0].starts_with("id name xiangqi "));
    assert!(lines[1].starts_with("id author "));
    assert_eq!(
        lines[2],
        "option name Hash type spin default 16 min 1 max 32768"
    );
    assert_eq!(
        lines[3],
        "option name Threads type spin default 1 min 1 max 256"
    );
    assert_eq!(
        lines[4],
        "option name MultiPV type spin default 1 min 1 max 128"
    );
    assert_eq!(lines[5], "option name Clear Hash type button");
    let (low, high) = xiangqi_search::Skill::elo_range();
    let options = [
        "option name Move Overhead type spin default 10 min 0 max 5000".to_string(),
        "option name Ponder type check default false".to_string(),
        "option name UCI_ShowWDL type check default false".to_string(),
        "option name Skill Level type spin default 20 min 0 max 20".to_string(),
        "option name UCI_LimitStrength type check default false".to_string(),
        format!("option name UCI_Elo type spin default {high} min {low} max {high}"),
        format!(
            "option name Use NNUE type check default {}",
            xiangqi_search::Engine::nnue_by_default()
        ),
        format!(
            "option name EvalFile type string default {}",
            embedded_net_name()
        ),
    ];
    assert_eq!(lines[6..14], options);
    assert_eq!(lines[14], "uciok");
    assert_eq!(lines[15], "readyok");
    for (i, d) in (16..19).zip(1..) {
        assert_uci_info(&lines[i], d);
    }
    let mv = bestmove(&lines[19]);
    assert_eq!(lines.len(), 20, "{lines:?}");
    let pos = Position::startpos().after("h2e2".parse().unwrap()).unwrap();
    assert!(pos.is_legal(mv));
}

#[test]
fn uci_garbage_is_reported_and_state_kept() {
    let script = "\
hello world
position startpos moves h2e2
position startpos moves h2e2 h2e3
position fen not-a-fen moves h2e2
position
go depth
go sideways
setoption name Hash value lots
setoption name Threads value 0
setoption name NoSuchOption value 1
setoption name Hash value 8
isready
go depth 2
";
    let lines = session("uci", script);
    let errors: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string error: "))
        .collect();
    assert_eq!(errors.len(), 9, "{lines:?}");
    assert!(errors[0].contains("unknown command \"hello\""));
    assert!(errors[1].contains("h2e3") && errors[1].contains("position unchanged"));
    assert!(errors[2].contains("bad FEN"));
    assert!(lines.iter().any(|l| l == "readyok"));
    // The search ran from the last good position: after h2e2, Black to move.
    let mv = bestmove(lines.last().unwrap());
    let pos = Position::startpos().after("h2e2".parse().unwrap()).unwrap();
    assert!(pos.is_legal(mv), "{mv} is not a Black move after h2e2");
}

#[test]
fn uci_overlong_line_is_skipped() {
    let script = format!("position {}\nisready\n", "x".repeat(100_000));
    let lines = session("uci", &script);
    assert!(
        lines[0].starts_with("info string error: line of 100010 bytes"),
        "{lines:?}"
    );
    assert_eq!(lines[1], "readyok");
}

#[test]
fn uci_stop_and_isready_during_infinite_search() {
    let lines = session(
        "uci",
        "position startpos\ngo infinite\nisready\nstop\nisready\n",
    );
    let ready = lines.iter().position(|l| l == "readyok").expect("readyok");
    let best = lines
        .iter()
        .position(|l| l.starts_with("bestmove"))
        .expect("bestmove");
    // The first readyok comes while searching, before the answer to stop.
    assert!(ready < best, "{lines:?}");
    assert!(Position::startpos().is_legal(bestmove(&lines[best])));
    assert_eq!(lines.iter().filter(|l| *l == "readyok").count(), 2);
}

#[test]
fn uci_clock_and_mate_report() {
    // EX-END-FG: mate in one, found with a clock.
    let lines = session(
        "uci",
        "position fen 5k3/9/9/9/8R/9/9/9/9/4K4 w - - 0 1\ngo wtime 2000 btime 2000 winc 10 binc 10\n",
    );
    assert!(
        lines.iter().any(|l| l.contains(" score mate 1 ")),
        "{lines:?}"
    );
    assert_eq!(bestmove(lines.last().unwrap()).to_string(), "i5f5");
}

#[test]
fn uci_no_legal_move_answers_mate_0_then_none() {
    // Stalemated (f8 covered, e9 faces the red general) and checkmated:
    // both lose in xiangqi (R-END-STALEMATE, R-END-MATE), both are mate 0.
    for fen in [
        "5k3/8R/9/9/9/9/9/9/9/4K4 b - - 0 1",
        "5k3/9/9/9/5R3/9/9/9/9/4K4 b - - 0 1",
    ] {
        let lines = session("uci", &format!("position fen {fen}\ngo depth 3\n"));
        assert_eq!(
            lines,
            ["info depth 0 score mate 0", "bestmove (none)"],
            "{fen}"
        );
    }
    // Also when the search is infinite: the answer waits for stop.
    let lines = session(
        "uci",
        "position fen 5k3/8R/9/9/9/9/9/9/9/4K4 b - - 0 1\ngo infinite\nisready\nstop\n",
    );
    assert_eq!(
        lines,
        ["readyok", "info depth 0 score mate 0", "bestmove (none)"]
    );
}

#[test]
fn a_stray_ponderhit_does_not_keep_an_infinite_search_at_end_of_input() {
    // At the end of input an infinite search is stopped and answers; a
    // `ponderhit` meant for no ponder search must not change that.
    let lines = session("uci", "position startpos\ngo infinite\nponderhit\n");
    // (A session that hangs fails at its 60 s timeout.)
    assert!(Position::startpos().is_legal(bestmove(lines.last().unwrap())));
}

#[test]
fn ucci_no_legal_move_answers_nobestmove() {
    let lines = session(
        "ucci",
        "position fen 5k3/9/9/9/5R3/9/9/9/9/4K4 b - - 0 1\ngo depth 3\n",
    );
    assert_eq!(lines, ["nobestmove"]);
}

#[test]
fn uci_elo_is_on_the_anchored_scale() {
    let (low, high) = xiangqi_search::Skill::elo_range();
    assert_eq!(high, xiangqi_search::FULL_STRENGTH_ELO);
    // The old relative scale's values are refused with the range.
    let lines = session(
        "uci",
        &format!(
            "setoption name UCI_LimitStrength value true\nsetoption name UCI_Elo value 0\n\
             setoption name UCI_Elo value {}\nposition startpos\ngo depth 3\n",
            xiangqi_search::Skill::elo_of_level(5)
        ),
    );
    assert_eq!(
        lines[0],
        format!("info string error: UCI_Elo needs a number from {low} to {high}")
    );
    // A weakened engine searches four lines to pick from: the setting took.
    assert!(lines.iter().any(|l| l.contains(" multipv 4 ")), "{lines:?}");
    assert!(Position::startpos().is_legal(bestmove(lines.last().unwrap())));
}

#[test]
fn the_advertised_hash_default_is_the_hash_in_effect() {
    let uci = session_of(xiangqi().args(["uci", "--hash", "64"]), "uci\n");
    assert!(
        uci.contains(&"option name Hash type spin default 64 min 1 max 32768".to_string()),
        "{uci:?}"
    );
    let ucci = session_of(xiangqi().args(["ucci", "--hash", "64"]), "ucci\n");
    assert!(
        ucci.contains(&"option hashsize type spin min 1 max 32768 default 64".to_string()),
        "{ucci:?}"
    );
    // Out-of-range sizes are clamped, and the clamped size is what is advertised.
    let clamped = session_of(xiangqi().args(["uci", "--hash", "0"]), "uci\n");
    assert!(
        clamped.contains(&"option name Hash type spin default 1 min 1 max 32768".to_string()),
        "{clamped:?}"
    );
    let program = session_of(
        Command::cargo_bin("xiangqi-engine")
            .expect("binary built")
            .args(["--hash", "64"]),
        "uci\n",
    );
    assert!(
        program.contains(&"option name Hash type spin default 64 min 1 max 32768".to_string()),
        "{program:?}"
    );
}

#[test]
fn ucci_transcript() {
    let script = "ucci\nisready\nsetoption hashsize 8\nposition fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2\nbanmoves h9g7 b9c7\ngo depth 2\n";
    let lines = session("ucci", script);
    assert!(lines[0].starts_with("id name xiangqi "));
    assert!(lines[1].starts_with("id author "));
    assert_eq!(lines[2], "option usemillisec type check default false");
    assert_eq!(
        lines[3],
        "option hashsize type spin min 1 max 32768 default 16"
    );
    assert_eq!(lines[4], "option threads type spin min 1 max 256 default 1");
    assert_eq!(
        lines[5],
        format!(
            "option usennue type check default {}",
            xiangqi_search::Engine::nnue_by_default()
        )
    );
    assert_eq!(
        lines[6],
        format!(
            "option evalfile type string default {}",
            embedded_net_name()
        )
    );
    assert_eq!(lines[7], "option newgame type button");
    assert_eq!(lines[8], "ucciok");
    assert_eq!(lines[9], "readyok");
    for (i, d) in (10..12).zip(1..) {
        let w: Vec<&str> = lines[i].split_whitespace().collect();
        assert_eq!(&w[..3], ["info", "depth", &d.to_string()], "{}", lines[i]);
        assert_eq!(
            (w[3], w[5], w[7], w[9], w[11], w[13]),
            ("seldepth", "score", "time", "nodes", "nps", "pv")
        );
        w[6].parse::<i32>().unwrap();
    }
    let mv = bestmove(&lines[12]);
    assert_eq!(lines.len(), 13);
    assert!(
        !["h9g7", "b9c7"].contains(&mv.to_string().as_str()),
        "banned move {mv} played"
    );
}

#[test]
fn ucci_time_bye_and_errors() {
    let script = "position startpos moves h2e2\nbanmoves zz99 a0a5\nsetoption usemillisec true\ngo time 300 increment 0\nfoo\n";
    let lines = session("ucci", script);
    assert!(
        lines[0].contains("banmoves: invalid ICCS move \"zz99\""),
        "{lines:?}"
    );
    assert!(lines[1].contains("a0a5 is not legal"), "{lines:?}");
    assert!(lines
        .iter()
        .any(|l| l == "info string error: unknown command \"foo\""));
    let pos = Position::startpos().after("h2e2".parse().unwrap()).unwrap();
    assert!(pos.is_legal(bestmove(lines.last().unwrap())));
    assert_eq!(session("ucci", "ucci\nbye\n").last().unwrap(), "bye");
    assert_eq!(
        session(
            "ucci",
            "position fen 5k3/8R/9/9/9/9/9/9/9/4K4 b - - 0 1\ngo depth 2\n"
        ),
        ["nobestmove"]
    );
}

#[test]
fn analyze_json() {
    let out = xiangqi()
        .args([
            "analyze",
            "--fen",
            "5k3/9/9/9/8R/9/9/9/9/4K4 w - - 0 1",
            "--depth",
            "3",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["best_move"], "i5f5");
    assert_eq!(v["score"], serde_json::json!({ "mate": 1 }));
    assert_eq!(v["depth"], 3);
    assert_eq!(v["pv"], serde_json::json!(["i5f5"]));
    assert!(v["nodes"].as_u64().unwrap() > 0);

    let out = xiangqi()
        .args([
            "analyze",
            "--moves",
            "h2e2 h9g7",
            "--nodes",
            "2000",
            "--json",
        ])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["score"]["cp"].is_i64());
    let pos = Position::from_fen(v["fen"].as_str().unwrap()).unwrap();
    assert!(pos.is_legal(v["best_move"].as_str().unwrap().parse().unwrap()));
}

#[test]
fn analyze_errors() {
    let out = xiangqi()
        .args(["analyze", "--fen", "bad", "--depth", "2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: cannot read --fen"));
    let out = xiangqi()
        .args(["analyze", "--moves", "h2e2 h2e3", "--depth", "2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("h2e3"));
    // A limit is required.
    let out = xiangqi().args(["analyze"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn bench_signature_is_stable() {
    let run = || {
        let out = xiangqi()
            .args(["bench", "--depth", "2", "--json"])
            .output()
            .unwrap();
        assert!(out.status.success());
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let (a, b) = (run(), run());
    assert_eq!(a["total_nodes"], b["total_nodes"]);
    let sum: u64 = a["positions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["nodes"].as_u64().unwrap())
        .sum();
    assert_eq!(a["total_nodes"].as_u64(), Some(sum));
    assert!(a["nps"].as_u64().unwrap() > 0);
    let text = xiangqi().args(["bench", "--depth", "1"]).output().unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("total nodes: ") && text.contains("nodes/s: "));
}

#[test]
fn analyze_notation() {
    let out = xiangqi()
        .args([
            "analyze",
            "--fen",
            "5k3/9/9/9/8R/9/9/9/9/4K4 w - - 0 1",
            "--depth",
            "2",
            "--notation",
            "wxf",
            "--json",
        ])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["pv"], serde_json::json!(["i5f5"]));
    assert_eq!(v["pv_text"], serde_json::json!(["R1=4"]));
    let out = xiangqi()
        .args(["analyze", "--depth", "1", "--notation", "klingon"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn uci_multipv_reports_each_line_per_iteration() {
    let lines = session(
        "uci",
        "setoption name MultiPV value 3\nposition startpos moves h2e2\ngo depth 3\n",
    );
    assert_eq!(lines.len(), 10, "{lines:?}");
    let pos = Position::startpos().after("h2e2".parse().unwrap()).unwrap();
    for depth in 1..=3u32 {
        let mut first_moves = Vec::new();
        for k in 1..=3usize {
            let line = &lines[(depth as usize - 1) * 3 + k - 1];
            assert_uci_info(line, depth);
            let w: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(w[6], k.to_string(), "{line}");
            let first: Move = w[w.iter().position(|&x| x == "pv").unwrap() + 1]
                .parse()
                .unwrap();
            assert!(pos.is_legal(first), "{line}");
            assert!(!first_moves.contains(&first), "{line}: repeated line");
            first_moves.push(first);
        }
    }
    // The best move is the first line of the last iteration.
    let last_first = lines[6]
        .split_whitespace()
        .skip_while(|&w| w != "pv")
        .nth(1);
    assert_eq!(Some(bestmove(&lines[9]).to_string().as_str()), last_first);
    let errors = session(
        "uci",
        "setoption name MultiPV value 0\nsetoption name MultiPV value 129\nsetoption name Threads value 257\n",
    );
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert!(errors.iter().all(|l| l.starts_with("info string error: ")));
}

#[test]
fn uci_threads_search_and_stop() {
    for script in [
        "setoption name Threads value 2\nposition startpos\ngo depth 4\n",
        "setoption name Threads value 3\nposition startpos\ngo infinite\nisready\nstop\nisready\n",
    ] {
        let lines = session("uci", script);
        let best: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
        assert_eq!(best.len(), 1, "{lines:?}");
        assert!(
            Position::startpos().is_legal(bestmove(best[0])),
            "{lines:?}"
        );
        assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    }
    let ucci = session(
        "ucci",
        "setoption threads 2\nposition startpos\ngo depth 3\nsetoption threads 0\n",
    );
    assert!(ucci.iter().any(|l| l.starts_with("bestmove")), "{ucci:?}");
    assert!(
        ucci.iter()
            .any(|l| l.contains("threads needs a number from 1 to 256")),
        "{ucci:?}"
    );
}

#[test]
fn analyze_multipv_json_lists_the_lines() {
    let out = xiangqi()
        .args([
            "analyze",
            "--fen",
            "5k3/9/9/9/8R/9/9/9/9/4K4 w - - 0 1",
            "--depth",
            "3",
            "--multipv",
            "3",
            "--threads",
            "2",
            "--notation",
            "wxf",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let lines = v["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 3);
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(line["multipv"], i + 1);
        assert!(line["pv"].as_array().is_some_and(|pv| !pv.is_empty()));
        assert_eq!(
            line["pv"].as_array().unwrap().len(),
            line["pv_text"].as_array().unwrap().len()
        );
    }
    assert_eq!(lines[0]["score"], serde_json::json!({ "mate": 1 }));
    assert_eq!(lines[0]["pv"], v["pv"]);
    assert_eq!(lines[0]["score"], v["score"]);
    // One line: the same object as before, with a one-element `lines`.
    let out = xiangqi()
        .args(["analyze", "--depth", "2", "--json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["lines"].as_array().unwrap().len(), 1);
    assert_eq!(v["lines"][0]["pv"], v["pv"]);
    for bad in [["--multipv", "0"], ["--threads", "0"], ["--multipv", "129"]] {
        let out = xiangqi()
            .args(["analyze", "--depth", "1"])
            .args(bad)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
    }
}

/// A client may send `go` the moment it reads `bestmove` (a match at a
/// fixed node count does): the engine must take it, not answer "already
/// searching" and leave the client waiting.
#[test]
fn uci_go_right_after_bestmove_is_taken() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command as Process, Stdio};
    use std::sync::mpsc;
    use std::time::Duration;

    let mut child = Process::new(env!("CARGO_BIN_EXE_xiangqi"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("xiangqi uci starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut position = Position::startpos();
    let mut moves = Vec::new();
    writeln!(stdin, "uci\nisready").unwrap();
    for ply in 0..150 {
        writeln!(
            stdin,
            "position startpos moves {}\ngo nodes 300",
            moves.join(" ")
        )
        .unwrap();
        stdin.flush().unwrap();
        let answer = loop {
            let line = lines
                .recv_timeout(Duration::from_secs(20))
                .unwrap_or_else(|_| panic!("no bestmove at ply {ply}"));
            assert!(!line.contains("already searching"), "ply {ply}: {line}");
            if line.starts_with("bestmove") {
                break line;
            }
        };
        if answer == "bestmove (none)" {
            break;
        }
        let mv = bestmove(&answer);
        position.make_move(mv);
        moves.push(mv.to_string());
    }
    assert!(moves.len() >= 20, "only {} plies", moves.len());
    writeln!(stdin, "quit").unwrap();
    child.wait().unwrap();
}
