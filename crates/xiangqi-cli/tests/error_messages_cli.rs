//! Every error the CLI prints says each thing once. An error chain is
//! printed as `error: outer: inner: …`; a message that repeats a clause
//! (a cause written into its error's text and also returned as its
//! `source()`, or a context naming what the error already names) fails here.
//! The convention that prevents it is in ARCHITECTURE.md (invariants).

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xiangqi-error-messages-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_string_lossy().into_owned()
}

/// The clauses of a message: its parts between `": "`.
fn clauses(message: &str) -> Vec<&str> {
    message.split(": ").map(str::trim).collect()
}

/// The quoted texts of a clause (`"h0g2"`, `"/bin/engine"`).
fn quoted(clause: &str) -> Vec<&str> {
    clause.split('"').skip(1).step_by(2).collect()
}

/// Why `message` says something twice, if it does: a clause that occurs
/// twice, a clause found whole inside another one (`cannot open x.pgn:
/// x.pgn`, `move 2 ("h0g2"): "h0g2": …`), or a text quoted in two clauses
/// (`engine "x": cannot start engine "x"`).
fn repetition(message: &str) -> Option<String> {
    let parts = clauses(message);
    for (i, a) in parts.iter().enumerate() {
        for b in &parts[i + 1..] {
            if let Some(text) = quoted(a).into_iter().find(|t| quoted(b).contains(t)) {
                return Some(format!("{text:?} is quoted in {a:?} and in {b:?}"));
            }
        }
    }
    for (i, a) in parts.iter().enumerate() {
        for (j, b) in parts.iter().enumerate() {
            if i == j || b.len() < 4 {
                continue;
            }
            if a == b && i < j {
                return Some(format!("the clause {a:?} occurs twice"));
            }
            // Shorter clauses are words such as "file" (a location).
            if b.len() >= 6 && a.len() > b.len() && contains_whole(a, b) {
                return Some(format!("the clause {a:?} contains the clause {b:?}"));
            }
        }
    }
    None
}

/// True when `inner` occurs in `outer` as whole words (not inside a word).
fn contains_whole(outer: &str, inner: &str) -> bool {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    outer.match_indices(inner).any(|(at, _)| {
        let before = outer[..at].chars().next_back();
        let after = outer[at + inner.len()..].chars().next();
        !before.is_some_and(is_word) && !after.is_some_and(is_word)
    })
}

/// The error messages a run printed: `error: …` lines on stderr, and the
/// lines of stdout that report a failure (per-game errors).
fn messages(args: &[String], stdin: Option<&str>) -> Vec<String> {
    let mut cmd = Command::cargo_bin("xiangqi").unwrap();
    cmd.args(args).timeout(std::time::Duration::from_secs(60));
    if let Some(text) = stdin {
        cmd.write_stdin(text.to_string());
    }
    let out = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let mut found: Vec<String> = stderr
        .lines()
        .filter_map(|l| l.strip_prefix("error: "))
        .map(str::to_string)
        .collect();
    for line in stdout.lines() {
        if let Ok(value) = serde_json::from_str::<serde_json::Value>(line) {
            if let Some(e) = value.get("error").and_then(|e| e.as_str()) {
                found.push(e.to_string());
            }
        } else if line.contains("error") {
            found.push(line.to_string());
        }
    }
    found
}

#[test]
fn repeated_clauses_are_recognised() {
    let issue = "move 2 (\"h0g2\"): \"h0g2\" is illegal here: illegal move h0g2: no black piece on h0: illegal move h0g2: no black piece on h0";
    assert!(repetition(issue).is_some());
    assert!(repetition("cannot open --pgn games.pgn: games.pgn: no such file").is_some());
    assert!(repetition("move 3 (\"P2-5\"): \"P2-5\": red has no soldier on file 2").is_some());
    assert!(repetition("engine \"x\" (uci): cannot start engine \"x\": not found").is_some());
    assert!(repetition(
        "move 2: \"h0g2\" is illegal here: illegal move h0g2: no black piece on h0"
    )
    .is_none());
}

#[test]
fn no_cli_error_says_the_same_thing_twice() {
    let dir = scratch();
    let missing = dir.join("missing.pgn").to_string_lossy().into_owned();
    let illegal_pgn = write(
        &dir,
        "illegal.pgn",
        b"[Event \"a\"]\n\n1. h2e2 h9g7 2. h2e2 *\n\n[Event \"b\"]\n[FEN \"not a fen\"]\n\n1. h2e2 *\n",
    );
    let garbage_xqf = write(&dir, "garbage.xqf", b"XQ\x0a\x00garbage");
    let bad_events = write(
        &dir,
        "events.jsonl",
        b"{\"at\":0,\"event\":\"move\",\"move\":\"a0a5\"}\n",
    );
    let unknown_event = write(&dir, "unknown.jsonl", b"{\"at\":0,\"event\":\"dance\"}\n");
    let bad_openings = write(&dir, "openings.txt", b"h2e2 h2e2\nnot a fen w - - 0 1\n");
    let annotated = dir.join("annotated.pgn").to_string_lossy().into_owned();
    let view_page = dir.join("view.html").to_string_lossy().into_owned();
    let bad_fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w - - 0 1";
    let not_to_move_in_check = "4k4/9/9/9/9/9/9/9/4R4/3K5 w - - 0 1";
    let cases: Vec<Vec<&str>> = vec![
        // Move text in every notation, through convert.
        vec![
            "convert",
            "--from",
            "iccs",
            "--to",
            "vietnamese",
            "h2e2",
            "h0g2",
        ],
        vec!["convert", "--from", "iccs", "--to", "wxf", "h2e2", "h2e2"],
        vec!["convert", "--to", "wxf", "zz99"],
        vec![
            "convert", "--from", "wxf", "--to", "iccs", "C2.5", "C2.5", "C2.5",
        ],
        vec!["convert", "--from", "wxf", "--to", "iccs", "K5+2"],
        vec![
            "convert",
            "--from",
            "chinese",
            "--to",
            "iccs",
            "炮二平五",
            "炮２平５",
            "炮二平五",
        ],
        vec![
            "convert",
            "--from",
            "vietnamese",
            "--to",
            "iccs",
            "P2-5",
            "P2-5",
        ],
        vec!["convert", "--to", "wxf", "--fen", bad_fen, "h2e2"],
        vec![
            "convert",
            "--to",
            "wxf",
            "--fen",
            not_to_move_in_check,
            "e1e2",
        ],
        // Positions.
        vec!["moves", "--fen", bad_fen],
        vec!["moves", "--fen", not_to_move_in_check],
        vec!["moves", "--fen", "only one field"],
        vec!["perft", "--depth", "1", "--fen", bad_fen],
        vec!["play", "--fen", bad_fen],
        // Adjudication.
        vec!["adjudicate", "--moves", "h2e2 h2e2"],
        vec!["adjudicate", "--moves", "h2e2 zz"],
        vec!["adjudicate", "--fen", bad_fen, "--moves", "h2e2"],
        vec!["adjudicate", "--pgn", &missing],
        vec!["adjudicate", "--pgn", &illegal_pgn],
        vec!["adjudicate", "--pgn", &illegal_pgn, "--json"],
        vec!["adjudicate", "--pgn", &garbage_xqf],
        vec!["adjudicate", "--clock", "1000", "--events", &bad_events],
        vec!["adjudicate", "--clock", "1000", "--events", &unknown_event],
        vec!["adjudicate", "--clock", "1000", "--events", &missing],
        vec!["adjudicate", "--clock", "fast", "--events", &bad_events],
        // Analysis.
        vec!["analyze", "--depth", "1", "--moves", "h2e2 h2e2"],
        vec!["analyze", "--depth", "1", "--moves", "h2e2 zz"],
        vec!["analyze", "--depth", "1", "--fen", bad_fen],
        vec!["analyze", "--depth", "1", "--notation", "klingon"],
        vec![
            "analyze", "--depth", "1", "--pgn", &missing, "-o", &annotated,
        ],
        vec![
            "analyze",
            "--depth",
            "1",
            "--pgn",
            &illegal_pgn,
            "-o",
            &annotated,
            "--engine",
            "/nonexistent/engine",
        ],
        // Game files.
        vec!["game", "check", &missing],
        vec!["game", "check", &illegal_pgn],
        vec!["game", "check", &illegal_pgn, "--json"],
        vec!["game", "check", &garbage_xqf],
        vec!["game", "convert", &illegal_pgn, "--to", "wxf"],
        vec!["game", "view", &missing, "-o", &view_page],
        vec!["game", "view", &garbage_xqf, "-o", &view_page],
        vec![
            "game",
            "view",
            &illegal_pgn,
            "--game",
            "9",
            "-o",
            &view_page,
        ],
        vec!["game", "convert", &illegal_pgn, "--output-format", "wxf"],
        vec!["rate", &missing],
        vec!["rate", &illegal_pgn],
        // Engines.
        vec![
            "match",
            "--engine",
            "/nonexistent/engine",
            "--engine",
            "/nonexistent/other",
            "--depth",
            "1",
            "--games",
            "1",
        ],
        vec![
            "match",
            "--engine",
            "/bin/true,proto=klingon",
            "--engine",
            "/bin/true",
            "--depth",
            "1",
        ],
        vec![
            "match",
            "--engine",
            "/nonexistent/engine",
            "--engine",
            "/nonexistent/other",
            "--depth",
            "1",
            "--openings",
            &missing,
        ],
        vec![
            "match",
            "--engine",
            "/nonexistent/engine",
            "--engine",
            "/nonexistent/other",
            "--depth",
            "1",
            "--openings",
            &bad_openings,
        ],
    ];
    let mut failures = Vec::new();
    for case in &cases {
        let args: Vec<String> = case.iter().map(|s| s.to_string()).collect();
        let found = messages(&args, None);
        if found.is_empty() {
            failures.push(format!("`xiangqi {}` printed no error", case.join(" ")));
        }
        for message in found {
            if let Some(why) = repetition(&message) {
                failures.push(format!("`xiangqi {}`: {why}: {message}", case.join(" ")));
            }
        }
    }
    // The protocol loops report errors in their own way; a bad position
    // there must also be said once.
    for (protocol, script) in [
        ("uci", format!("position fen {bad_fen}\nposition startpos moves h2e2 h2e2\nposition startpos moves h2e2 zz\nquit\n")),
        ("ucci", format!("position fen {bad_fen}\nposition startpos moves h2e2 h2e2\nposition startpos moves zz\nbanmoves zz99\nquit\n")),
    ] {
        let mut cmd = Command::cargo_bin("xiangqi").unwrap();
        let out = cmd.arg(protocol).write_stdin(script).output().unwrap();
        for line in String::from_utf8_lossy(&out.stdout)
            .lines()
            .chain(String::from_utf8_lossy(&out.stderr).lines())
        {
            if let Some(why) = repetition(line) {
                failures.push(format!("`xiangqi {protocol}`: {why}: {line}"));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
