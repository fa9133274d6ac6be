//! `xiangqi explore build` and `query`: the JSON shape of both, the
//! notation column, and a damaged file as an `error:` line.

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

fn xiangqi(args: &[&str]) -> std::process::Output {
    Command::cargo_bin("xiangqi")
        .unwrap()
        .args(args)
        .output()
        .unwrap()
}

fn json_of(out: std::process::Output) -> Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn built(dir: &Path) -> String {
    let pgn = dir.join("games.pgn");
    std::fs::write(
        &pgn,
        "[Red \"A\"]\n[Black \"B\"]\n[RedElo \"2400\"]\n[BlackElo \"2200\"]\n1. h2e2 h9g7 1-0\n\n\
         [Red \"C\"]\n[Black \"D\"]\n1. h2e2 b9c7 0-1\n\n\
         [Red \"E\"]\n[Black \"F\"]\n1. b2e2 h9g7 1/2-1/2\n\n\
         [Red \"G\"]\n1. c3c4 broken!?!?\n",
    )
    .unwrap();
    let db = dir.join("openings.db");
    let out = xiangqi(&[
        "explore",
        "build",
        pgn.to_str().unwrap(),
        "-o",
        db.to_str().unwrap(),
        "--json",
    ]);
    // Built, with one game that could not be read: 1 (docs/cli.md, "Exit status").
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["games"], 4);
    assert_eq!(report["indexed"], 3);
    assert_eq!(report["skipped"], 1);
    assert_eq!(report["problems"].as_array().unwrap().len(), 1);
    db.to_str().unwrap().to_string()
}

#[test]
fn query_json_lists_the_moves_with_counts_score_and_examples() {
    let dir = tempfile::tempdir().unwrap();
    let db = built(dir.path());
    let answer = json_of(xiangqi(&[
        "explore",
        "query",
        &db,
        "--notation",
        "wxf",
        "--json",
    ]));
    assert_eq!(answer["side_to_move"], "red");
    assert_eq!(answer["games"], 3);
    let moves = answer["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 2);
    let first = &moves[0];
    assert_eq!(first["move"], "h2e2");
    assert_eq!(first["text"], "C2=5");
    assert_eq!(
        (
            &first["games"],
            &first["red_wins"],
            &first["draws"],
            &first["black_wins"]
        ),
        (&2.into(), &1.into(), &0.into(), &1.into())
    );
    assert_eq!(first["score"], 50.0);
    assert_eq!(first["mean_rating"], 2300.0);
    let example = &first["examples"][0];
    assert_eq!(example["red"], "A");
    assert_eq!(example["index"], 1);
    assert_eq!(example["result"], "1-0");
    assert_eq!(moves[1]["move"], "b2e2");
    assert_eq!(moves[1]["score"], 50.0);

    // Black to move after h2e2: scores are Black's.
    let after = json_of(xiangqi(&[
        "explore",
        "query",
        &db,
        "--fen",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
        "--json",
    ]));
    let moves = after["moves"].as_array().unwrap();
    let scores: Vec<_> = moves
        .iter()
        .map(|m| (m["move"].as_str().unwrap(), m["score"].as_f64()))
        .collect();
    assert_eq!(scores, [("b9c7", Some(100.0)), ("h9g7", Some(0.0))]);
}

#[test]
fn a_damaged_explorer_is_an_error_line() {
    let dir = tempfile::tempdir().unwrap();
    let db = built(dir.path());
    let bytes = std::fs::read(&db).unwrap();
    std::fs::write(&db, &bytes[..bytes.len() / 2]).unwrap();
    let out = xiangqi(&["explore", "query", &db]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert!(
        stderr.contains(&db) && stderr.contains("truncated or corrupt"),
        "{stderr}"
    );
}

/// A build that reads nothing (files that are not there, a folder of junk)
/// fails with what it met, and leaves an explorer already there untouched:
/// it used to report "0 games indexed" and exit 0 over an empty database.
#[test]
fn a_build_that_indexes_nothing_fails_and_writes_nothing() {
    let dir = std::env::temp_dir().join(format!("xiangqi-explore-nothing-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = built(&dir);
    let before = std::fs::read(&db).unwrap();
    let junk = dir.join("junk");
    std::fs::create_dir_all(&junk).unwrap();
    std::fs::write(junk.join("a.xqf"), b"\x00\x01 not a game file \xff").unwrap();
    let missing = dir.join("missing.pgn");
    for input in [&missing, &junk] {
        let out = xiangqi(&["explore", "build", input.to_str().unwrap(), "-o", &db]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{input:?}: {err}");
        assert!(err.contains("no game indexed"), "{input:?}: {err}");
        assert_eq!(std::fs::read(&db).unwrap(), before, "{input:?}");
    }
}
