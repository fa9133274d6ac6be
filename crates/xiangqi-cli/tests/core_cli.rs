//! The scripting contract of `xiangqi perft` and `xiangqi moves` (issue 2):
//! JSON fields and values, and bad input (stderr `error: …`, exit status 2,
//! never a panic).

use std::process::{Command, Output};

use serde_json::Value;

fn xiangqi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xiangqi"))
        .args(args)
        .output()
        .expect("the xiangqi binary runs")
}

/// Runs a command that must succeed and print one JSON object on one line.
fn json(args: &[&str]) -> Value {
    let out = xiangqi(args);
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stdout.lines().count(), 1, "one line of JSON: {stdout}");
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{args:?} printed {stdout:?}: {e}"))
}

/// Runs a command that must fail cleanly; returns its stderr.
fn fails(args: &[&str]) -> String {
    let out = xiangqi(args);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stderr.starts_with("error:"), "{args:?}: {stderr:?}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert!(!stderr.contains("RUST_BACKTRACE"), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?} printed to stdout on error");
    stderr
}

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

#[test]
fn perft_json_fields() {
    let v = json(&["perft", "--depth", "3", "--json"]);
    let obj = v.as_object().unwrap();
    let keys: Vec<&str> = obj.keys().map(String::as_str).collect();
    assert_eq!(keys, ["fen", "depth", "nodes", "seconds", "nps"]);
    assert_eq!(v["fen"], START);
    assert_eq!(v["depth"], 3);
    assert_eq!(v["nodes"], 79_666);
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);
    assert!(v["nps"].is_u64());
}

#[test]
fn perft_divide_json_sums_to_nodes() {
    let v = json(&["perft", "--depth", "2", "--divide", "--json"]);
    assert_eq!(v["nodes"], 1_920);
    let divide = v["divide"].as_object().unwrap();
    assert_eq!(divide.len(), 44);
    assert_eq!(
        divide.values().map(|n| n.as_u64().unwrap()).sum::<u64>(),
        1_920
    );
    // Values cross-checked with fairy-stockfish's `go perft 2` (ranks 1-10 there).
    assert_eq!(divide["e0e1"], 44);
    assert_eq!(divide["b0c2"], 43);
    let keys: Vec<&String> = divide.keys().collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted, "divide keys in ICCS order");
}

#[test]
fn perft_from_fen() {
    // The first shared perft position: in check, 2 then 101 leaves.
    let fen = "1nba1abn1/4k4/2r2c3/p5P2/8p/3p1p2P/P1P1P4/R1c3Nr1/2C2K2R/1NBA1AB2 w - - 5 20";
    let v = json(&["perft", "--depth", "2", "--fen", fen, "--json"]);
    assert_eq!(v["fen"], fen);
    assert_eq!(v["nodes"], 101);
}

#[test]
fn perft_text_output() {
    let out = xiangqi(&["perft", "--depth", "1"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("nodes 44"), "{text}");
}

#[test]
fn moves_json_start_position() {
    let v = json(&["moves", "--json"]);
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["fen", "side_to_move", "in_check", "moves"]);
    assert_eq!(v["fen"], START);
    assert_eq!(v["side_to_move"], "red");
    assert_eq!(v["in_check"], false);
    let moves: Vec<&str> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(moves.len(), 44);
    let mut sorted = moves.clone();
    sorted.sort();
    assert_eq!(moves, sorted, "moves sorted");
    assert!(moves.contains(&"h2e2") && moves.contains(&"b0c2"));
}

#[test]
fn moves_json_black_in_check() {
    let fen = "4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1";
    let v = json(&["moves", "--fen", fen, "--json"]);
    assert_eq!(v["side_to_move"], "black");
    assert_eq!(v["in_check"], true);
    // d9 would face Red's general on d0 (R-LEGAL-FACING).
    assert_eq!(v["moves"], serde_json::json!(["e9f9"]));
}

#[test]
fn moves_json_no_legal_moves() {
    // EX-END-STALEMATE after i7i8: Black has no move and is not in check.
    let v = json(&["moves", "--fen", "5k3/8R/9/9/9/9/9/9/9/4K4 b", "--json"]);
    assert_eq!(v["in_check"], false);
    assert_eq!(v["moves"], serde_json::json!([]));
}

#[test]
fn moves_text_output() {
    let out = xiangqi(&["moves", "--fen", "4k4/9/9/9/9/9/9/9/4A4/4K4 w"]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap().trim(), "e0d0 e0f0");
}

#[test]
fn bad_fen_is_a_clean_error() {
    for fen in [
        "",
        "not a fen",
        "9/9 w",
        "4k4/9/9/9/9/9/9/9/9/4K4 w",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
        "\u{1F600}",
    ] {
        for cmd in ["moves", "perft"] {
            let mut args = vec![cmd, "--fen", fen];
            if cmd == "perft" {
                args.extend(["--depth", "1"]);
            }
            let err = fails(&args);
            assert!(err.contains("FEN"), "{err}");
        }
    }
}

#[test]
fn bad_fen_error_names_the_problem() {
    let err = fails(&["moves", "--fen", "4k4/9/9/9/9/9/9/9/9/4K4 w"]);
    assert!(err.contains("face each other"), "{err}");
    let err = fails(&["moves", "--fen", "9/9/9/9/9/9/9/9/9/4K4 w"]);
    assert!(err.contains("no general"), "{err}");
}

#[test]
fn bad_depth_is_a_clean_error() {
    fails(&["perft", "--depth", "0"]);
    fails(&["perft", "--depth", "99"]);
    fails(&["perft", "--depth", "-1"]);
    fails(&["perft", "--depth", "x"]);
    fails(&["perft"]);
}

#[test]
fn unknown_arguments_are_clean_errors() {
    fails(&["perft", "--depth", "1", "--frobnicate"]);
    fails(&["moves", "extra"]);
    fails(&["no-such-command"]);
}
