//! `xiangqi analyze --pgn`: every move of every readable game gets an
//! `[%eval]` comment, broken games are skipped with a warning, and an
//! engine that talks nonsense is an `error:`, never a hang.

use std::path::PathBuf;

use assert_cmd::Command;
use serde_json::Value;
use xiangqi_gamefile::pgn::read_str;

fn xiangqi() -> Command {
    Command::cargo_bin("xiangqi").expect("binary built")
}

fn temp_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("xiangqi-analyze-{}-{name}", std::process::id()))
}

const GAMES: &str =
    "[Event \"a\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. h0h6 {kept} c6c5 1-0\n\n\
                     [Event \"broken\"]\n\n1. h2e2 zz!?!? 1-0\n\n\
                     [Event \"b\"]\n[FEN \"5k3/9/9/9/8R/9/9/9/9/4K4 w - - 0 1\"]\n\n1. i5f5 1-0\n";

#[test]
fn every_move_gets_an_evaluation() {
    let input = temp_path("in.pgn");
    let output = temp_path("out.pgn");
    std::fs::write(&input, GAMES).unwrap();
    let out = xiangqi()
        .args([
            "analyze",
            "--pgn",
            input.to_str().unwrap(),
            "-o",
            output.to_str().unwrap(),
        ])
        .args(["--depth", "3", "--json"])
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    // The input holds a game that cannot be read: 1 (docs/cli.md, "Exit status").
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["games"], 2);
    assert_eq!(summary["skipped"], 1);
    assert_eq!(summary["positions"], 9 + 2);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // The broken game reported as every command reports it (docs/cli.md).
    assert!(
        stderr.contains("in.pgn: game 2, line 7, column 11: bad annotation"),
        "{stderr}"
    );
    let text = std::fs::read_to_string(&output).unwrap();
    let games = read_str(&text).collect::<Result<Vec<_>, _>>().unwrap();
    assert_eq!(games.len(), 2);
    for game in &games {
        for node in &game.mainline.moves {
            assert!(node.comments()[0].starts_with("[%eval "), "{text}");
        }
    }
    assert!(text.contains("{kept}"), "{text}");
    // Each player's accuracy: in the PGN tags and, per game of the file, in
    // the summary; game "b" has no Black move, so no Black accuracy.
    let accuracy = summary["accuracy"].as_array().unwrap();
    let numbers: Vec<u64> = accuracy
        .iter()
        .map(|a| a["game"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, [1, 3]);
    for (game, entry) in games.iter().zip(accuracy) {
        for (tag, side) in [("RedAccuracy", "red"), ("BlackAccuracy", "black")] {
            match game.tag(tag) {
                Some(value) => {
                    let value: f64 = value.parse().unwrap();
                    assert!((0.0..=100.0).contains(&value), "{text}");
                    assert_eq!(entry[side].as_f64(), Some(value), "{summary}");
                }
                None => assert!(entry[side].is_null(), "{summary}"),
            }
        }
    }
    assert!(games[0].tag("BlackAccuracy").is_some() && games[1].tag("BlackAccuracy").is_none());
    // The mating move: the position after it is over, Red has won.
    assert!(text.contains("i5f5 {[%eval #+0]}"), "{text}");
    let _ = std::fs::remove_file(input);
    let _ = std::fs::remove_file(output);
}

#[cfg(unix)]
#[test]
fn a_garbage_engine_is_an_error() {
    use std::os::unix::fs::PermissionsExt;
    let fake = temp_path("garbage-engine");
    std::fs::write(
        &fake,
        "#!/bin/sh\nwhile read -r cmd rest; do case \"$cmd\" in uci) echo uciok;; isready) echo readyok;; \
         go) echo 'bestmove hello';; quit) exit 0;; esac; done\n",
    )
    .unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let input = temp_path("garbage.pgn");
    std::fs::write(&input, GAMES).unwrap();
    let out = xiangqi()
        .args([
            "analyze",
            "--pgn",
            input.to_str().unwrap(),
            "-o",
            "-",
            "--depth",
            "2",
        ])
        .args(["--engine", fake.to_str().unwrap()])
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        // Games are named as every command names them: file#number.
        stderr.contains("garbage.pgn#1: engine") && stderr.contains("unreadable move \"hello\""),
        "{stderr}"
    );
    let _ = std::fs::remove_file(fake);
    let _ = std::fs::remove_file(input);
}

#[test]
fn bad_arguments() {
    for args in [
        &["analyze", "--pgn", "x.pgn", "--depth", "2"][..],
        &[
            "analyze", "--pgn", "x.pgn", "-o", "y", "--depth", "2", "--nodes", "5",
        ],
        &[
            "analyze",
            "--pgn",
            "/nonexistent.pgn",
            "-o",
            "y",
            "--depth",
            "2",
        ],
    ] {
        let out = xiangqi().args(args).output().unwrap();
        assert!(!out.status.success(), "{args:?}");
    }
}

#[test]
fn jobs_keep_the_input_order() {
    let input = temp_path("jobs.pgn");
    std::fs::write(&input, GAMES.repeat(4)).unwrap();
    let run = |jobs: &str| {
        let output = temp_path(&format!("jobs-{jobs}.pgn"));
        let out = xiangqi()
            .args([
                "analyze",
                "--pgn",
                input.to_str().unwrap(),
                "-o",
                output.to_str().unwrap(),
            ])
            .args(["--depth", "2", "--jobs", jobs])
            .timeout(std::time::Duration::from_secs(120))
            .output()
            .unwrap();
        // A game of each repeat cannot be read: 1 (docs/cli.md, "Exit status").
        assert_eq!(
            out.status.code(),
            Some(1),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = std::fs::read_to_string(&output).unwrap();
        let _ = std::fs::remove_file(output);
        text
    };
    let one = run("1");
    assert_eq!(one.matches("[Event \"a\"]").count(), 4);
    // Each game is reviewed from a new game in its engine: the same text, in input order.
    assert_eq!(run("3"), one);
    let _ = std::fs::remove_file(input);
}
