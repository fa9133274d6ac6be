//! End-to-end tests of `xiangqi adjudicate` (rules.md sections 4-8, 11).

use std::path::PathBuf;

use assert_cmd::Command;
use serde_json::Value;

fn xiangqi() -> Command {
    Command::cargo_bin("xiangqi").unwrap()
}

/// Runs `xiangqi adjudicate ARGS --json` and parses each output line.
fn json_lines(args: &[&str]) -> Vec<Value> {
    let out = xiangqi()
        .arg("adjudicate")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn temp_file(name: &str, contents: &str) -> PathBuf {
    let path =
        std::env::temp_dir().join(format!("xiangqi-adjudicate-{}-{name}", std::process::id()));
    std::fs::write(&path, contents).unwrap();
    path
}

const EX_REP_1_FEN: &str = "4k4/9/9/9/9/9/9/9/9/5K2R w - - 0 1";
const EX_REP_1_MOVES: &str = "i0i9 e9e8 i9i8 e8e9 i8i9 e9e8 i9i8 e8e9 i8i9";

#[test]
fn cli_json_perpetual_check_fields() {
    let v = &json_lines(&["--fen", EX_REP_1_FEN, "--moves", EX_REP_1_MOVES])[0];
    assert_eq!(v["outcome"], "black");
    assert_eq!(v["result"], "0-1");
    assert_eq!(v["reason"], "perpetual_check");
    assert_eq!(v["ply"], 9);
    let detail = v["detail"].as_str().unwrap();
    assert!(
        detail.contains("red") && detail.contains("chariot on i9"),
        "{detail}"
    );
    assert_eq!(v["repetition"]["red"]["conduct"], "perpetual_check");
}

#[test]
fn cli_ongoing_game_has_null_reason() {
    let v = &json_lines(&["--moves", "h2e2 h9g7"])[0];
    assert_eq!(v["outcome"], "ongoing");
    assert_eq!(v["result"], "*");
    assert_eq!(v["reason"], Value::Null);
    assert_eq!(v["ply"], 2);
}

#[test]
fn cli_text_output_names_result_reason_and_ply() {
    let (code, out, _) = run(&[
        "adjudicate",
        "--fen",
        "5k3/9/8R/9/9/9/9/9/9/4K4 w - - 0 1",
        "--moves",
        "i7i8",
    ]);
    assert_eq!(code, 0);
    assert!(out.starts_with("1-0 stalemate at ply 1"), "{out}");
}

/// Exit code, stdout and stderr of `xiangqi ARGS`.
fn run(args: &[&str]) -> (i32, String, String) {
    let out = xiangqi().args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn cli_no_capture_plies_overrides_the_preset() {
    let fen = "5k3/9/9/9/8R/9/9/9/9/3K5 w - - 117 80";
    let v = &json_lines(&["--fen", fen, "--moves", "i5i4 f9f8 i4i3"])[0];
    assert_eq!(
        (v["reason"].as_str(), v["ply"].as_u64()),
        (Some("no_capture_rule"), Some(3))
    );
    let v = &json_lines(&[
        "--fen",
        fen,
        "--moves",
        "i5i4 f9f8",
        "--no-capture-plies",
        "119",
    ])[0];
    assert_eq!(
        (v["reason"].as_str(), v["ply"].as_u64()),
        (Some("no_capture_rule"), Some(2))
    );
    let v = &json_lines(&[
        "--fen",
        fen,
        "--moves",
        "i5i4 f9f8 i4i3",
        "--no-capture-plies",
        "0",
    ])[0];
    assert_eq!(v["outcome"], "ongoing");
}

#[test]
fn cli_rules_presets_are_accepted_and_unknown_ones_rejected() {
    for preset in ["online", "asian", "pikafish", "fairy", "plain"] {
        let v = &json_lines(&[
            "--fen",
            EX_REP_1_FEN,
            "--moves",
            EX_REP_1_MOVES,
            "--rules",
            preset,
        ])[0];
        assert_eq!(v["reason"], "perpetual_check", "{preset}");
    }
    let (code, _, err) = run(&["adjudicate", "--rules", "klingon"]);
    assert_ne!(code, 0);
    assert!(err.contains("unknown rule set"), "{err}");
}

#[test]
fn cli_moves_after_the_end_are_an_error_naming_the_ply() {
    let (code, _, err) = run(&[
        "adjudicate",
        "--fen",
        "5k3/9/9/9/8R/9/9/9/9/4K4 w - - 0 1",
        "--moves",
        "i5f5 f9e9",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("error: move f9e9 at ply 2: the game already ended after ply 1"),
        "{err}"
    );
}

#[test]
fn cli_clock_events_give_clocks_and_rated() {
    let events = temp_file(
        "events.jsonl",
        concat!(
            r#"{"at":3000,"event":"move","side":"red","move":"h2e2"}"#,
            "\n",
            r#"{"at":4000,"event":"move","side":"black","move":"h9g7"}"#,
            "\n",
            r#"{"at":4000,"event":"leave","side":"black"}"#,
            "\n",
            r#"{"at":5000,"event":"offer_draw","side":"red"}"#,
            "\n",
            r#"{"at":48000,"event":"return","side":"black"}"#,
            "\n",
            r#"{"at":49001,"event":"poll"}"#,
            "\n",
        ),
    );
    let path = events.to_str().unwrap();
    let v = &json_lines(&["--clock", "60000+1000", "--events", path])[0];
    assert_eq!(v["outcome"], "ongoing");
    assert_eq!(v["clocks"]["red"], 58_000 - 45_001);
    assert_eq!(v["clocks"]["black"], 60_000);
    assert_eq!(v["rated"], Value::Null);

    let events = temp_file(
        "abandon.jsonl",
        concat!(
            r#"{"at":3000,"event":"move","side":"red","move":"h2e2"}"#,
            "\n",
            r#"{"at":4000,"event":"move","side":"black","move":"h9g7"}"#,
            "\n",
            r#"{"at":4000,"event":"leave","side":"black"}"#,
            "\n",
            r#"{"at":49001,"event":"poll"}"#,
            "\n",
        ),
    );
    let v = &json_lines(&["--clock", "600000", "--events", events.to_str().unwrap()])[0];
    assert_eq!(
        (v["outcome"].as_str(), v["reason"].as_str()),
        (Some("red"), Some("abandonment"))
    );
    assert_eq!(v["rated"], true);

    let events = temp_file("cancel.jsonl", "{\"at\":60000,\"event\":\"poll\"}\n");
    let v = &json_lines(&["--clock", "60000", "--events", events.to_str().unwrap()])[0];
    assert_eq!(
        (v["outcome"].as_str(), v["result"].as_str()),
        (Some("cancelled"), Some("*"))
    );
    assert_eq!(v["reason"], "cancelled");
    assert_eq!(v["rated"], false);
}

#[test]
fn cli_clock_events_out_of_time_order_are_an_error() {
    let events = temp_file(
        "order.jsonl",
        concat!(
            r#"{"at":3000,"event":"move","side":"red","move":"h2e2"}"#,
            "\n",
            r#"{"at":2000,"event":"poll"}"#,
            "\n",
        ),
    );
    let (code, _, err) = run(&[
        "adjudicate",
        "--clock",
        "60",
        "--events",
        events.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error:"), "{err}");
    assert!(
        err.contains("line 2: event at 2000 ms comes before the previous event"),
        "{err}"
    );
}

#[test]
fn cli_pgn_with_many_games_gives_one_json_line_per_game() {
    let pgn = temp_file(
        "games.pgn",
        &format!(
            "[Game \"Chinese Chess\"]\n[FEN \"{EX_REP_1_FEN}\"]\n[Format \"ICCS\"]\n\n\
             1. i0i9 e9e8 2. i9i8 e8e9 3. i8i9 e9e8 4. i9i8 e8e9 5. i8i9 0-1\n\n\
             [Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n\n1. h2e2 h9g7 *\n"
        ),
    );
    let lines = json_lines(&["--pgn", pgn.to_str().unwrap()]);
    // One line per game, then the summary (docs/cli.md).
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[2]["summary"]["games"], 2);
    assert_eq!(
        (
            lines[0]["recorded"].as_str(),
            lines[0]["agreement"].as_str()
        ),
        (Some("0-1"), Some("agree"))
    );
    assert_eq!(
        (lines[0]["game"].as_u64(), lines[0]["reason"].as_str()),
        (Some(1), Some("perpetual_check"))
    );
    assert_eq!(
        (lines[1]["game"].as_u64(), lines[1]["outcome"].as_str()),
        (Some(2), Some("ongoing"))
    );
}
