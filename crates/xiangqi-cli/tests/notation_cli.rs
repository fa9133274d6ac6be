//! End-to-end tests of `xiangqi convert` and `xiangqi pgn`.

use assert_cmd::Command;

fn xiangqi() -> Command {
    Command::cargo_bin("xiangqi").unwrap()
}

fn torture() -> String {
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../xiangqi-gamefile/tests/fixtures/torture.pgn"
    )
    .to_owned()
}

fn stdout(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn convert_json_reports_input_iccs_output_and_fen_after() {
    let out = stdout(xiangqi().args([
        "convert",
        "--to",
        "chinese",
        "--traditional",
        "--json",
        "C2=5",
        "h9g7",
        "马二进三",
    ]));
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        v["moves"][0],
        serde_json::json!({"input": "C2=5", "iccs": "h2e2", "output": "炮二平五"})
    );
    assert_eq!(v["moves"][1]["output"], "馬8進7");
    assert_eq!(v["moves"][2]["iccs"], "h0g2");
    assert_eq!(v["moves"][2]["output"], "傌二進三");
    assert_eq!(
        v["fen_after"],
        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 2"
    );
}

#[test]
fn convert_text_output_one_move_per_line() {
    let out = stdout(xiangqi().args([
        "convert",
        "--from",
        "iccs",
        "--to",
        "vietnamese",
        "h2e2",
        "h9g7",
    ]));
    assert_eq!(out, "Pháo 2 bình 5\nMã 8 tiến 7\n");
    let out = stdout(xiangqi().args([
        "convert",
        "--to",
        "wxf",
        "Pháo",
        "2",
        "bình",
        "5",
        "Ma 8 tien 7",
    ]));
    assert_eq!(out, "C2=5\nH8+7\n", "unquoted Vietnamese words are grouped");
    let out = stdout(xiangqi().args(["convert", "--to", "chinese", "h2e2"]));
    assert_eq!(out, "炮二平五\n");
}

#[test]
fn convert_wxf_style_fsf_and_fen() {
    let fen = "3k5/9/2P3P2/2P3P2/6P2/9/9/9/9/4K4 w - - 0 1";
    let out = stdout(xiangqi().args(["convert", "--fen", fen, "--to", "wxf", "g5f5"]));
    assert_eq!(out, "3-=4\n");
    let out = stdout(xiangqi().args([
        "convert",
        "--fen",
        fen,
        "--to",
        "wxf",
        "--wxf-style",
        "fsf",
        "g5f5",
    ]));
    assert_eq!(out, "33=4\n");
}

#[test]
fn convert_errors_exit_2_with_a_message() {
    let out = xiangqi()
        .args(["convert", "--to", "wxf", "h2e2", "R1+4"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("error: move 2: \"R1+4\" is illegal here"),
        "{err}"
    );
    let out = xiangqi()
        .args(["convert", "--from", "chinese", "--to", "wxf", "h2e2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("at character 1"));
}

#[test]
fn pgn_check_one_line_per_game_with_the_error_line() {
    let out = xiangqi()
        .args(["pgn", "check", &torture()])
        .output()
        .unwrap();
    // Game 3's illegal move cuts it: read with a warning, not an error.
    assert_eq!(out.status.code(), Some(0), "a cut game is read");
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert_eq!(
        lines[0],
        "1\t红方 vs 黑方 (Torture 1: UTF-8, CRLF, BOM)\t8 plies\t1-0\tchinese"
    );
    assert!(
        lines[2].starts_with(
            "3\t? vs ? (Torture 3: WXF with an illegal move)\t5 plies\t*\twxf\twarning: line 23, column 9: "
        ),
        "{}",
        lines[2]
    );
    assert!(lines[3].starts_with("4\t胡榮華 vs 楊官璘"), "{}", lines[3]);
    // Strict, it is a broken game.
    let strict = xiangqi()
        .args(["pgn", "check", "--strict", &torture()])
        .output()
        .unwrap();
    assert_eq!(
        strict.status.code(),
        Some(2),
        "a broken game fails the check"
    );
    let text = String::from_utf8(strict.stdout).unwrap();
    let line = text.lines().nth(2).unwrap();
    assert!(line.starts_with("3\terror: line 23, column 9: "), "{line}");
    assert!(String::from_utf8_lossy(&strict.stderr).contains("1 of 5 games"));
}

#[test]
fn pgn_check_json_lines() {
    let out = xiangqi()
        .args(["pgn", "check", "--json", &torture()])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 5);
    assert_eq!(rows[0]["plies"], 8);
    assert_eq!(rows[0]["result"], "1-0");
    assert_eq!(rows[1]["result_token"], serde_json::Value::Null);
    assert_eq!(rows[2]["ok"], true);
    assert_eq!(rows[2]["plies"], 5);
    assert_eq!(rows[2]["warnings"][0]["line"], 23);
    assert_eq!(rows[0]["warnings"], serde_json::json!([]));
    assert_eq!(rows[4]["notation"], "vietnamese");
}

#[test]
fn pgn_convert_writes_a_file_that_reads_back() {
    let dir = std::env::temp_dir().join(format!("xiangqi-notation-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out_path = dir.join("out.pgn");
    let out = xiangqi()
        .args([
            "pgn",
            "convert",
            &torture(),
            "--to",
            "wxf",
            "-o",
            out_path.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    // The cut game is written up to its illegal move, with a warning.
    assert_eq!(out.status.code(), Some(0), "the cut game is converted");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with("warning: "), "{stderr}");
    assert!(stderr.contains("torture.pgn: game 3, line 23"), "{stderr}");
    let written = std::fs::read_to_string(&out_path).unwrap();
    assert_eq!(written.matches("[Format \"WXF\"]").count(), 5);
    assert!(written.contains("1. C2=5 H8+7 $1 2. H2+3 $5"), "{written}");
    // The converted file checks clean.
    let check = stdout(xiangqi().args(["pgn", "check", out_path.to_str().unwrap()]));
    assert_eq!(check.lines().count(), 5);
    assert!(!check.contains("warning"), "{check}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn pgn_reads_standard_input() {
    let out = xiangqi()
        .args(["pgn", "convert", "-", "--to", "chinese"])
        .write_stdin("1. h2e2 h9g7 *\n")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .contains("1. 炮二平五 马8进7 *"));
}

/// N-ICCS-RANKS10: `--from iccs10` / `--to iccs10` renumber ranks 1-10
/// explicitly (never detected), and `pgn convert --to iccs10` tags the games.
#[test]
fn ranks_one_to_ten_convert_explicitly() {
    let out = stdout(xiangqi().args([
        "convert", "--from", "iccs10", "--to", "wxf", "h3e3", "h10g8",
    ]));
    assert_eq!(out, "C2=5\nH8+7\n");
    let out = stdout(xiangqi().args(["convert", "--to", "iccs10", "--json", "h2e2", "h9g7"]));
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["moves"][0]["iccs"], "h2e2");
    assert_eq!(v["moves"][0]["output"], "h3e3");
    assert_eq!(v["moves"][1]["output"], "h10g8");
    // Rank 0 does not exist there: an error, not a guess.
    let bad = xiangqi()
        .args(["convert", "--from", "iccs10", "--to", "wxf", "h0g2"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).starts_with("error:"));

    let out = xiangqi()
        .args(["pgn", "convert", "-", "--to", "iccs10"])
        .write_stdin("1. 炮二平五 马8进7 *\n")
        .output()
        .unwrap();
    assert!(out.status.success());
    let written = String::from_utf8(out.stdout).unwrap();
    assert!(written.contains("[Variant \"xiangqi\"]"), "{written}");
    assert!(written.contains("1. h3e3 h10g8 *"), "{written}");
}
