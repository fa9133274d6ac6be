//! `--encoding` of `xiangqi game check` and `game convert`: the encoding
//! each file was read in (detected once per file, or forced) in
//! `check --json`, and writing GB18030 and Big5.

use std::path::PathBuf;

use assert_cmd::Command;
use xiangqi_test_support::shared_testdata;

fn xiangqi() -> Command {
    Command::cargo_bin("xiangqi").unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "xiangqi-encoding-cli-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn output(cmd: &mut Command) -> (Option<i32>, String, String) {
    let out = cmd.output().unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn json_rows(json_lines: &str) -> Vec<serde_json::Value> {
    json_lines
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

const GAME: &str = "[Event \"全國象棋錦標賽\"]\n[Red \"胡榮華\"]\n\n1. 炮二平五 馬８進７ 2. 馬二進三 車９平８ 1-0\n";

/// A folder of one file in each encoding: each row of `check --json`
/// names the encoding its file was read in.
#[test]
fn check_json_reports_each_files_encoding() {
    let dir = scratch("check");
    let big5 = encoding_rs::BIG5.encode(GAME).0.into_owned();
    let gbk = encoding_rs::GB18030.encode(GAME).0.into_owned();
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(GAME.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    std::fs::write(dir.join("a-big5.pgn"), &big5).unwrap();
    std::fs::write(dir.join("b-gbk.pgn"), &gbk).unwrap();
    std::fs::write(dir.join("c-utf8.pgn"), GAME).unwrap();
    std::fs::write(dir.join("d-utf16.pgn"), &utf16).unwrap();
    let (code, out, err) = output(xiangqi().args(["game", "check", "--json"]).arg(&dir));
    assert_eq!(code, Some(0), "{err}");
    let rows = json_rows(&out);
    let got: Vec<(&str, &str)> = rows[..4]
        .iter()
        .map(|r| {
            (
                r["encoding"].as_str().unwrap(),
                r["tags"]["Red"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("Big5", "胡榮華"),
            ("GB18030", "胡榮華"),
            ("UTF-8", "胡榮華"),
            ("UTF-16LE", "胡榮華")
        ]
    );
    assert!(rows[..4].iter().all(|r| r["plies"] == 4), "{out}");

    // Forced: the Big5 file read as GB18030 is mojibake, and says so.
    let (_, out, _) = output(
        xiangqi()
            .args(["game", "check", "--json", "--encoding", "gbk"])
            .arg(dir.join("a-big5.pgn")),
    );
    let row = &json_rows(&out)[0];
    assert_eq!(row["encoding"], "GB18030", "{out}");
    assert_ne!(row["tags"]["Red"], "胡榮華", "{out}");

    let (code, _, err) = output(
        xiangqi()
            .args(["game", "check", "--encoding", "latin-1"])
            .arg(&dir),
    );
    assert_eq!(code, Some(2));
    assert!(err.contains("unknown encoding \"latin-1\""), "{err}");
}

/// Undecodable bytes: the game is read, with a warning in the report and
/// the summary.
#[test]
fn undecodable_bytes_are_a_warning_in_the_summary() {
    let dir = scratch("undecodable");
    std::fs::write(dir.join("a.pgn"), b"[Red \"\xFF\"]\n1. h2e2 *\n").unwrap();
    std::fs::write(dir.join("b.pgn"), "[Red \"b\"]\n1. h2e2 *\n").unwrap();
    let (code, out, err) = output(
        xiangqi()
            .args(["game", "check", "--json", "--encoding", "utf-8"])
            .arg(&dir),
    );
    assert_eq!(code, Some(0), "{err}");
    let rows = json_rows(&out);
    assert_eq!(rows[0]["plies"], 1);
    let warning = rows[0]["warnings"][0]["error"].as_str().unwrap();
    assert!(warning.contains("not valid UTF-8"), "{warning}");
    assert_eq!(rows[2]["summary"]["warnings"], 1, "{out}");
    assert!(err.contains("warnings: 1"), "{err}");
}

/// `convert --encoding gb18030|big5` writes what the Chinese PC programs
/// read, and it reads back as the same game; a character the encoding
/// cannot hold is an error naming it.
#[test]
fn convert_writes_gb18030_and_big5() {
    let dir = scratch("convert");
    let input = dir.join("in.pgn");
    std::fs::write(&input, GAME).unwrap();
    for (name, encoding, decoded) in [
        ("gb18030", encoding_rs::GB18030, "马8进7"),
        ("big5", encoding_rs::BIG5, "馬8進7"),
    ] {
        let out = dir.join(format!("{name}.pgn"));
        let (code, _, err) = output(
            xiangqi()
                .args([
                    "game",
                    "convert",
                    "--to",
                    "chinese",
                    "--encoding",
                    name,
                    "-o",
                ])
                .arg(&out)
                .arg(&input),
        );
        assert_eq!(code, Some(0), "{name}: {err}");
        let bytes = std::fs::read(&out).unwrap();
        let (text, _, malformed) = encoding.decode(&bytes);
        assert!(!malformed && text.contains(decoded), "{name}: {text}");
        assert!(text.contains("胡榮華"), "{name}: {text}");
        let (code, json, err) = output(xiangqi().args(["game", "check", "--json"]).arg(&out));
        assert_eq!(code, Some(0), "{err}");
        assert_eq!(json_rows(&json)[0]["plies"], 4);
    }
    std::fs::write(&input, GAME.replace("胡榮華", "胡荣华")).unwrap();
    let (code, _, err) = output(
        xiangqi()
            .args(["game", "convert", "--to", "chinese", "--encoding", "big5"])
            .arg(&input),
    );
    assert_eq!(code, Some(2));
    assert!(
        err.contains("'华' (U+534E) cannot be written in Big5"),
        "{err}"
    );
}

/// The shared Big5 sample through the CLI: every file one game, no
/// warning, read as Big5.
#[test]
fn the_ccpd_sample_checks_clean() {
    let Some(dir) = shared_testdata("ccpd") else {
        return;
    };
    let (code, out, err) = output(xiangqi().args(["game", "check", "--json"]).arg(&dir));
    assert_eq!(code, Some(0), "{err}");
    let rows = json_rows(&out);
    let (games, summary) = rows.split_at(rows.len() - 1);
    assert_eq!(
        summary[0]["summary"],
        serde_json::json!({"files": 4729, "games": 4729, "warnings": 0, "errors": 0})
    );
    assert!(games.iter().all(|r| r["encoding"] == "Big5"));
}

/// `game view` reads a Big5 file as such; forced to GB18030 its moves are
/// mojibake (the issue's `"\u{e0d1}\u{e5ed}キき"`): the game is shown as far
/// as it reads (its tags, no move), with the error as a warning.
#[test]
fn view_detects_or_takes_the_encoding() {
    let dir = scratch("view");
    let input = dir.join("big5.pgn");
    std::fs::write(&input, encoding_rs::BIG5.encode(GAME).0).unwrap();
    let page = dir.join("page.html");
    let (code, _, err) = output(
        xiangqi()
            .args(["game", "view"])
            .arg(&input)
            .arg("-o")
            .arg(&page),
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(std::fs::read_to_string(&page).unwrap().contains("胡榮華"));
    let (code, _, err) = output(
        xiangqi()
            .args(["game", "view", "--encoding", "gb18030"])
            .arg(&input)
            .arg("-o")
            .arg(&page),
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("warning:") && err.contains("invalid move \"\\u{e0d1}\\u{e5ed}キき\""),
        "{err}"
    );
    assert!(!std::fs::read_to_string(&page).unwrap().contains("胡榮華"));
}

/// The other commands that read game files detect the encoding too, and
/// take `--encoding`: `adjudicate --pgn`, `rate` (and `analyze --pgn`).
#[test]
fn adjudicate_and_rate_read_big5_and_take_the_encoding() {
    let dir = scratch("others");
    let input = dir.join("big5.pgn");
    std::fs::write(&input, encoding_rs::BIG5.encode(GAME).0).unwrap();
    for forced in [None, Some("big5")] {
        let mut cmd = xiangqi();
        cmd.args(["adjudicate", "--json", "--pgn"]).arg(&input);
        if let Some(name) = forced {
            cmd.args(["--encoding", name]);
        }
        let (code, out, err) = output(&mut cmd);
        assert_eq!(code, Some(0), "{forced:?}: {err}");
        assert_eq!(json_rows(&out)[0]["ply"], 4, "{out}");
    }
    // A wrong encoding: the game reads as far as its first mojibake move,
    // which is a warning, and is judged at ply 0.
    let (_, out, err) = output(
        xiangqi()
            .args(["adjudicate", "--json", "--pgn"])
            .arg(&input)
            .args(["--encoding", "gb18030"]),
    );
    assert_eq!(json_rows(&out)[0]["ply"], 0, "{out}");
    assert!(err.contains("invalid move"), "{err}");
    // Rated: both players named.
    let both = GAME.replace("[Red \"胡榮華\"]", "[Red \"胡榮華\"]\n[Black \"楊官璘\"]");
    std::fs::write(&input, encoding_rs::BIG5.encode(&both).0).unwrap();
    let (code, out, err) = output(
        xiangqi()
            .args(["rate", "--json", "--encoding", "big5"])
            .arg(&input),
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("胡榮華"), "{out}");
}

/// `explore build` detects each file's encoding as `game check` does, and
/// takes `--encoding`: with a wrong one the Big5 game reads only as far as
/// its first move, and the build says so (`partial`, a problem line).
#[test]
fn explore_build_detects_or_takes_the_encoding() {
    let dir = scratch("explore");
    let input = dir.join("big5.pgn");
    std::fs::write(&input, encoding_rs::BIG5.encode(GAME).0).unwrap();
    for (forced, entries, partial) in [(None, 4, 0), (Some("big5"), 4, 0), (Some("gb18030"), 0, 1)]
    {
        let mut cmd = xiangqi();
        cmd.args(["explore", "build", "--json", "-o"])
            .arg(dir.join("openings.db"))
            .arg(&input);
        if let Some(name) = forced {
            cmd.args(["--encoding", name]);
        }
        let (_, out, err) = output(&mut cmd);
        let report: serde_json::Value = serde_json::from_str(out.trim())
            .unwrap_or_else(|e| panic!("{forced:?}: {e}: {out} {err}"));
        assert_eq!(report["games"], 1, "{forced:?}: {out}");
        assert_eq!(report["entries"], entries, "{forced:?}: {out}");
        assert_eq!(report["partial"], partial, "{forced:?}: {out}");
        let problems = report["problems"].as_array().unwrap();
        assert_eq!(problems.len(), partial, "{forced:?}: {out}");
        assert!(
            problems
                .iter()
                .all(|p| p.as_str().unwrap().contains("invalid move")),
            "{out}"
        );
    }
}
