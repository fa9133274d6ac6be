//! `xiangqi nnue gen|merge|train`: a file made in two runs, a refused
//! resume, shards merged, a network trained and written; JSON reports and
//! exit statuses (docs/cli.md).

use std::path::Path;
use std::process::{Command, Output};

fn xiangqi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xiangqi"))
        .args(args)
        .output()
        .unwrap()
}

fn json(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn data_made_in_two_runs_merged_and_trained_on() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.bin");
    let gen = |file: &Path, games: &str, seed: &str| {
        xiangqi(&[
            "nnue",
            "gen",
            "-o",
            path(file),
            "--games",
            games,
            "--nodes",
            "150",
            "--max-plies",
            "40",
            "--seed",
            seed,
            "--jobs",
            "2",
            "--json",
        ])
    };
    let first = json(&gen(&a, "2", "1"));
    assert_eq!(first["games_before"], 0);
    assert_eq!(first["games"], 2);
    let second = json(&gen(&a, "3", "1"));
    assert_eq!(second["games_before"], 2);
    assert_eq!(second["games"], 1);
    assert_eq!(second["games_in_file"], 3);
    assert!(second["positions_per_second"].as_f64().unwrap() > 0.0);

    // Another seed for the same file is refused, the file kept.
    let before = std::fs::read(&a).unwrap();
    let refused = gen(&a, "4", "2");
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.starts_with("error: ") && stderr.contains("made with --seed 1, not 2"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&a).unwrap(), before);

    let b = dir.path().join("b.bin");
    json(&gen(&b, "2", "2"));
    let merged = dir.path().join("all.bin");
    let report = json(&xiangqi(&[
        "nnue",
        "merge",
        path(&a),
        path(&b),
        "-o",
        path(&merged),
        "--json",
    ]));
    assert_eq!(report["games"], 5);
    let positions = first["positions"].as_u64().unwrap()
        + second["positions"].as_u64().unwrap()
        + report["shards"][1]["positions"].as_u64().unwrap();
    assert_eq!(report["positions"].as_u64().unwrap(), positions);

    let net = dir.path().join("first.nnue");
    let trained = json(&xiangqi(&[
        "nnue",
        "train",
        path(&merged),
        "-o",
        path(&net),
        "--hidden",
        "16",
        "--epochs",
        "2",
        "--batch-size",
        "64",
        "--validation-every",
        "3",
        "--json",
    ]));
    let epochs = trained["epochs"].as_array().unwrap();
    assert_eq!(epochs.len(), 2);
    assert!(epochs[1]["validation_loss"].as_f64().is_some());
    assert_eq!(trained["hidden"], 16);
    let network = xiangqi_nnue::Network::load(&net).unwrap();
    assert_eq!(network.hidden(), 16);

    // Not a data file: exit 2 with the file named.
    let junk = dir.path().join("junk.bin");
    std::fs::write(&junk, b"0123456789abcdef0123456789abcdef and more").unwrap();
    let out = xiangqi(&["nnue", "train", path(&junk), "-o", path(&net)]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("junk.bin: not an NNUE data file"),
        "{stderr}"
    );
}

#[test]
fn recorded_games_relabelled_resumed_and_checked() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("games.bin");
    let examples = xiangqi_test_support::workspace_root().join("docs/examples");
    let games = examples.join("games.pgn");
    let relabel = |file: &Path| {
        xiangqi(&[
            "nnue",
            "relabel",
            path(&games),
            "-o",
            path(file),
            "--nodes",
            "120",
            "--jobs",
            "2",
            "--json",
        ])
    };
    let first = json(&relabel(&out));
    assert_eq!(first["games"], 3);
    assert_eq!(first["files"], 1);
    assert!(first["positions"].as_u64().unwrap() > 50);
    // Run again: everything is in the file already.
    let again = json(&relabel(&out));
    assert_eq!(
        (again["games"].as_u64(), again["passed_over"].as_u64()),
        (Some(0), Some(3))
    );

    let check = json(&xiangqi(&["nnue", "check", path(&out), "--json"]));
    let rows = check["evaluations"].as_array().unwrap();
    assert_eq!(rows[0]["evaluation"], "classical");
    assert!(rows[0]["positions"].as_u64().unwrap() > 20);
    assert!(rows[0]["correlation"].as_f64().unwrap() > 0.3, "{check}");

    // A file that is no game file is named, exit status 2.
    let bad = xiangqi(&[
        "nnue",
        "relabel",
        path(&examples.join("none.pgn")),
        "-o",
        path(&out),
    ]);
    assert_eq!(
        bad.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
}
