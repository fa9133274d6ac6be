//! `xiangqi puzzles build`: a set from a tactics list and a game file, its
//! report, and the exit statuses of docs/cli.md (a bad record beside good
//! ones is 1, nothing kept is 2 with the output left as it was); then the
//! shared tactics, read as users have them.

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

/// Either chariot mates on rank 9 (the soldier holds e8).
const MATE_FEN: &str = "4k4/9/4P4/9/R7R/9/9/9/9/5K3 w - - 0 1";

fn xiangqi(args: &[&str]) -> std::process::Output {
    Command::cargo_bin("xiangqi")
        .unwrap()
        .args(args)
        .output()
        .unwrap()
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_tactics_list_and_a_game_file_make_one_set() {
    let dir = tempfile::tempdir().unwrap();
    let tactics = dir.path().join("t.jsonl");
    std::fs::write(
        &tactics,
        format!(
            "{{\"id\": \"M1\", \"fen\": \"{MATE_FEN}\", \"solution\": [\"a5a9\"], \"mate_in\": 1}}\n\
             {{\"id\": \"BAD\", \"fen\": \"not a fen\", \"solution\": [\"a5a9\"]}}\n"
        ),
    )
    .unwrap();
    let game = dir.path().join("g.pgn");
    std::fs::write(&game, format!("[FEN \"{MATE_FEN}\"]\n\n1. a5a9 1-0\n")).unwrap();
    let out = dir.path().join("set.jsonl");
    let run = xiangqi(&[
        "puzzles",
        "build",
        path(&tactics),
        path(&game),
        "-o",
        path(&out),
        "--min-moves",
        "1",
        "--nodes",
        "5000",
        "-j",
        "1",
        "--json",
    ]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("error: t.jsonl") || stderr.contains("t.jsonl#BAD"),
        "{stderr}"
    );
    let report: Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(report["read"], 2);
    assert_eq!(report["kept"], 1);
    // The game holds the same puzzle as the list.
    assert_eq!(report["duplicates"], 1);
    assert_eq!(report["unusable"], 1);
    let set = std::fs::read_to_string(&out).unwrap();
    let puzzles = xiangqi_puzzles::read_puzzle_set(set.as_bytes()).unwrap();
    assert_eq!(puzzles.len(), 1);
    assert_eq!(puzzles[0].solution, ["a5a9"]);
    assert!(
        puzzles[0].source.ends_with("t.jsonl#M1"),
        "{}",
        puzzles[0].source
    );
}

#[test]
fn nothing_kept_is_an_error_that_leaves_the_output_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("opening.pgn");
    std::fs::write(&game, "[Red \"A\"]\n[Black \"B\"]\n\n1. h2e2 h9g7 *\n").unwrap();
    let out = dir.path().join("set.jsonl");
    std::fs::write(&out, "earlier\n").unwrap();
    let run = xiangqi(&[
        "puzzles",
        "build",
        path(&game),
        "-o",
        path(&out),
        "--nodes",
        "5000",
        "-j",
        "1",
    ]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("no puzzle kept of 1 positions"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "earlier\n");
    assert!(!dir.path().join("set.jsonl.partial").exists());
}

#[test]
fn a_missing_tactics_list_is_a_read_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("set.jsonl");
    let run = xiangqi(&["puzzles", "build", "/nonexistent/t.jsonl", "-o", path(&out)]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("error: /nonexistent/t.jsonl: file: read error"),
        "{stderr}"
    );
}

#[test]
fn the_shared_tactics_give_verified_puzzles() {
    let Some(tactics) = xiangqi_test_support::shared_testdata("tactics.jsonl") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    // The first three records: a few seconds of search.
    let text = std::fs::read_to_string(&tactics).unwrap();
    let three: String = text.lines().take(3).map(|l| format!("{l}\n")).collect();
    let list = dir.path().join("tactics.jsonl");
    std::fs::write(&list, three).unwrap();
    let out = dir.path().join("set.jsonl");
    let run = xiangqi(&[
        "puzzles",
        "build",
        path(&list),
        "-o",
        path(&out),
        "--nodes",
        "20000",
        "-j",
        "1",
        "--json",
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let report: Value = serde_json::from_slice(&run.stdout).unwrap();
    let kept = report["kept"].as_u64().unwrap();
    let dropped = report["dropped"].as_u64().unwrap();
    assert_eq!(kept + dropped + report["duplicates"].as_u64().unwrap(), 3);
    assert!(kept >= 1, "{report}");
    let set = std::fs::read_to_string(&out).unwrap();
    let puzzles = xiangqi_puzzles::read_puzzle_set(set.as_bytes()).unwrap();
    assert_eq!(puzzles.len() as u64, kept);
    for puzzle in &puzzles {
        // Each ends in the manual's mate, from some point of its line.
        assert!(puzzle.mate_in.is_some(), "{puzzle:?}");
        assert!(puzzle.solver_moves() >= 2);
    }
}

#[test]
fn serve_refuses_a_bad_or_empty_puzzle_set_before_listening() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(&bad, "{\"id\": \"x\"}\n").unwrap();
    let empty = dir.path().join("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    let data = dir.path().join("data");
    for (set, words) in [
        (&bad, "line 1: not a puzzle: missing field `fen`"),
        (&empty, "the file holds no puzzle"),
    ] {
        let run = xiangqi(&[
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--data",
            path(&data),
            "--puzzles",
            path(set),
        ]);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(words), "{stderr}");
        assert!(!String::from_utf8_lossy(&run.stdout).contains("open http"));
    }
}
