//! Malformed arguments to every subcommand of `xiangqi`: the answer is a
//! message on stderr starting with `error:`, exit status 2, and never a panic.

mod common;

use std::ffi::OsString;
use std::process::{Command, Stdio};

use common::xiangqi_bin;

fn args(list: &[&str]) -> Vec<OsString> {
    list.iter().map(OsString::from).collect()
}

fn cases() -> Vec<Vec<OsString>> {
    let long_fen = "rnbakabnr/".repeat(2_000);
    let garbage_file =
        std::env::temp_dir().join(format!("xiangqi-garbage-{}.pgn", std::process::id()));
    std::fs::write(
        &garbage_file,
        b"[Event \"x\n\xff\xfe\x00 1. zz yy {unclosed\n",
    )
    .expect("write temp file");
    let garbage = garbage_file.to_string_lossy().into_owned();
    // A directory is a collection to walk; one without a game file is an error.
    let no_games = std::env::temp_dir().join(format!("xiangqi-garbage-{}-dir", std::process::id()));
    std::fs::create_dir_all(no_games.join("sub")).expect("make temp dir");
    std::fs::write(no_games.join("sub").join("notes.txt"), "no game").expect("write temp file");
    let no_games = no_games.to_string_lossy().into_owned();
    let no_match = format!("{no_games}/*.xqf");
    let mut cases: Vec<Vec<OsString>> = [
        &["frobnicate"][..],
        &["--frobnicate"],
        &["perft"],
        &["perft", "--depth", "x"],
        &["perft", "--depth", "-1"],
        &["perft", "--depth", "99999999999"],
        &["perft", "--depth", "1", "--fen", "garbage"],
        &["perft", "--depth", "1", "--fen", ""],
        &["perft", "--depth", "1", "--fen", &long_fen],
        &[
            "perft",
            "--depth",
            "1",
            "--fen",
            "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
        ],
        &["moves", "--fen", "rnbakabnr/9 w"],
        &["moves", "--fen", "9/9/9/9/9/9/9/9/9/9 w - - 0 1"],
        &["moves", "--bogus"],
        &["convert", "--to", "klingon", "h2e2"],
        &["convert", "--to", "wxf"],
        &["convert", "--to", "wxf", "zz"],
        &["convert", "--to", "iccs", "h2e2", "h2e2"],
        &["convert", "--to", "iccs", "--from", "wxf", "h2e2"],
        &["convert", "--to", "iccs", "--fen", "bad", "h2e2"],
        &["pgn", "check"],
        &["pgn", "check", "/nonexistent/games.pgn"],
        &["pgn", "check", &garbage],
        &["pgn", "check", &no_games],
        &["pgn", "check", &garbage, &no_match],
        &["pgn", "check", &format!("{no_games}/[z")],
        &[
            "pgn",
            "convert",
            &no_games,
            "--to",
            "wxf",
            "-o",
            "/nonexistent/dir/out.pgn",
        ],
        &["pgn", "convert", "/nonexistent/games.pgn", "--to", "wxf"],
        &["pgn", "convert", &garbage, "--to", "klingon"],
        &[
            "pgn",
            "convert",
            &garbage,
            "--to",
            "wxf",
            "--output",
            "/nonexistent/dir/out.pgn",
        ],
        &["adjudicate", "--fen", "bad", "--moves", "h2e2"],
        &["adjudicate", "--moves", "zz"],
        &["adjudicate", "--moves", "h2e2 h2e2"],
        &["adjudicate", "--rules", "klingon", "--moves", "h2e2"],
        &["adjudicate", "--no-capture-plies", "-3", "--moves", "h2e2"],
        &["adjudicate", "--pgn", "/nonexistent/games.pgn"],
        &["adjudicate", "--pgn", &garbage],
        &["adjudicate", "--clock", "abc", "--events", "/nonexistent"],
        &["adjudicate", "--clock", "0", "--events", "/nonexistent"],
        &[
            "adjudicate",
            "--clock",
            "60+1",
            "--events",
            "/nonexistent/events.jsonl",
        ],
        &["adjudicate", "--clock", "60+1", "--events", &garbage],
        &["analyze", "--fen", "bad"],
        &["analyze", "--depth", "abc"],
        &["analyze", "--moves", "zz", "--depth", "1"],
        &["analyze", "--moves", "h2e2 h2e2", "--depth", "1"],
        &["analyze", "--notation", "klingon", "--depth", "1"],
        &["analyze", "--hash", "-1", "--depth", "1"],
        &["play", "--fen", "bad"],
        &["play", "--depth", "0"],
        &["play", "--color", "green"],
        &["play", "--rules", "klingon"],
        &["play", "--notation", "klingon"],
        &["uci", "--hash", "abc"],
        &["uci", "--bogus"],
        &["ucci", "--hash", "-5"],
        &["ucci", "extra"],
        &["match"],
        &["match", "--engine", "x"],
        &[
            "match",
            "--engine",
            "/nonexistent/engine",
            "--engine",
            "/nonexistent/engine",
            "--depth",
            "1",
        ],
        &["match", "--engine", "a", "--engine", "b", "--depth", "0"],
        &[
            "match", "--engine", "a", "--engine", "b", "--depth", "1", "--games", "0",
        ],
        &[
            "match",
            "--engine",
            "a,proto=klingon",
            "--engine",
            "b",
            "--depth",
            "1",
        ],
        &["bench", "--depth", "x"],
        &["bench", "--bogus"],
    ]
    .iter()
    .map(|c| args(c))
    .collect();
    // An argument that is not UTF-8.
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        let bad = OsString::from_vec(vec![0x66, 0xff, 0xfe, 0x65]);
        cases.push(vec![
            "perft".into(),
            "--depth".into(),
            "1".into(),
            "--fen".into(),
            bad.clone(),
        ]);
        cases.push(vec![
            "convert".into(),
            "--to".into(),
            "wxf".into(),
            bad.clone(),
        ]);
        cases.push(vec!["pgn".into(), "check".into(), bad]);
    }
    cases
}

#[test]
fn malformed_arguments_give_error_and_status_2() {
    check(cases());
}

/// A missing subcommand: clap prints the help text to stderr (exit status 2)
/// without the `error:` line the CLI contract asks for.
#[test]
fn missing_subcommand_is_an_error() {
    check(vec![args(&[]), args(&["pgn"])]);
}

fn check(cases: Vec<Vec<OsString>>) {
    let mut failures = Vec::new();
    for case in cases {
        let out = Command::new(xiangqi_bin())
            .args(&case)
            .stdin(Stdio::null())
            .output()
            .expect("run xiangqi");
        let stderr = String::from_utf8_lossy(&out.stderr);
        let shown: Vec<String> = case
            .iter()
            .map(|a| {
                let s = a.to_string_lossy();
                if s.len() > 40 {
                    format!("{}…", &s[..40])
                } else {
                    s.into_owned()
                }
            })
            .collect();
        let problem = if out.status.code() != Some(2) {
            Some(format!("exit status {:?}", out.status.code()))
        } else if !stderr.starts_with("error:") {
            Some("stderr does not start with \"error:\"".to_string())
        } else if stderr.contains("panicked") || stderr.contains("internal error") {
            Some("panicked".to_string())
        } else {
            None
        };
        if let Some(problem) = problem {
            let head: String = stderr.chars().take(300).collect();
            failures.push(format!(
                "xiangqi {}: {problem}; stderr: {head:?}",
                shown.join(" ")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} case(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
