//! End-to-end tests of `xiangqi game ecco` and `game convert --add-opening`.

use std::path::PathBuf;

use assert_cmd::Command;
use xiangqi_test_support::shared_testdata;

fn xiangqi() -> Command {
    Command::cargo_bin("xiangqi").unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xiangqi-ecco-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Three games: the screen horses with the crossing chariot and both
/// seventh pawns (C30 from ply 9, the Chinese moves as the CCPD files
/// write them), a game from a diagram (no code), and the same-direction
/// cannons with a wrong `[ECCO]` tag of its own.
const PGN: &str = "[Red \"甲\"]\n[Black \"乙\"]\n\n\
1. 炮二平五 马8进7 2. 马二进三 车9平8 3. 车一平二 卒7进1 4. 车二进六 马2进3 5. 兵七进一 炮2进1 *\n\n\
[FEN \"4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1\"]\n\n1. d0d1 *\n\n\
[ECCO \"A00\"]\n[Opening \"其他\"]\n\n1. h2e2 h7e7 2. h0g2 h9g7 *\n";

#[test]
fn one_line_per_game_with_code_names_and_ply() {
    let dir = scratch("lines");
    let file = dir.join("games.pgn");
    std::fs::write(&file, PGN).unwrap();
    let out = xiangqi()
        .args(["game", "ecco"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(
        lines[0].starts_with("1\tC30\t中炮过河车互进七兵对屏风马\t"),
        "{}",
        lines[0]
    );
    assert_eq!(lines[1], "2\t-");
    assert!(
        lines[2].starts_with("3\tD00\t顺炮缓开车对其他\t"),
        "{}",
        lines[2]
    );
}

#[test]
fn json_has_the_tags_of_game_check_and_the_opening() {
    let dir = scratch("json");
    let file = dir.join("games.pgn");
    std::fs::write(&file, PGN).unwrap();
    let out = xiangqi()
        .args(["game", "ecco", "--json"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success());
    let rows: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows[0]["game"], 1);
    assert_eq!(rows[0]["tags"]["Red"], "甲");
    assert_eq!(rows[0]["code"], "C30");
    assert_eq!(rows[0]["name_traditional"], "中炮過河車互進七兵對屏風馬");
    assert_eq!(
        rows[0]["name_en"],
        "Central Cannon Crossing Chariot Both Pawns 7 Forward vs Screen Horses"
    );
    // Decided by Red's fifth move, 兵七进一: Black's fifth is none the C3x
    // variations name.
    assert_eq!(rows[0]["ply"], 9);
    assert!(rows[1]["code"].is_null());
    assert_eq!(rows[2]["tags"]["ECCO"], "A00");
    assert_eq!(rows[2]["code"], "D00");
}

#[test]
fn convert_adds_the_opening_and_keeps_or_replaces_a_files_own_tags() {
    let dir = scratch("convert");
    let file = dir.join("games.pgn");
    std::fs::write(&file, PGN).unwrap();
    let run = |extra: &[&str]| {
        let out = xiangqi()
            .args(["game", "convert", "--to", "iccs"])
            .args(extra)
            .arg(&file)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let kept = run(&["--add-opening"]);
    assert!(
        kept.contains("[ECCO \"C30\"]\n[Opening \"中炮过河车互进七兵对屏风马\"]"),
        "{kept}"
    );
    assert_eq!(
        kept.matches("[ECCO ").count(),
        2,
        "no code for the diagram: {kept}"
    );
    assert!(
        kept.contains("[ECCO \"A00\"]\n[Opening \"其他\"]"),
        "{kept}"
    );
    let replaced = run(&["--add-opening", "--replace-opening"]);
    assert!(
        replaced.contains("[ECCO \"D00\"]\n[Opening \"顺炮缓开车对其他\"]"),
        "{replaced}"
    );
    assert!(!run(&[]).contains("[Opening \"中炮"), "only when asked");
}

#[test]
fn ccpd_files_read_in_big5_get_their_databases_code() {
    let Some(dir) = shared_testdata("ccpd/對局/大師對局/以棋手分類/呂欽") else {
        return;
    };
    let out = xiangqi()
        .args(["game", "ecco", "--json"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success());
    let rows: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let agree = rows
        .iter()
        .filter(|r| r["tags"]["ECCO"] == r["code"])
        .count();
    assert!(rows.len() > 100, "{} games", rows.len());
    assert!(agree * 100 >= rows.len() * 95, "{agree} of {}", rows.len());
}

#[test]
fn explore_query_names_the_opening_of_the_moves_asked_about() {
    let dir = scratch("explore");
    let file = dir.join("games.pgn");
    std::fs::write(
        &file,
        "[Red \"A\"]\n[Black \"B\"]\n\n1. h2e2 h9g7 2. h0g2 b9c7 3. i0h0 1-0\n",
    )
    .unwrap();
    let db = dir.join("openings.db");
    let built = xiangqi()
        .args(["explore", "build"])
        .arg(&file)
        .arg("-o")
        .arg(&db)
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let query = |extra: &[&str]| {
        xiangqi()
            .args(["explore", "query"])
            .arg(&db)
            .args(extra)
            .output()
            .unwrap()
    };
    let out = query(&["--moves", "h2e2", "h9g7", "h0g2", "b9c7"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with(
            "opening: C00 中炮对屏风马 (Central Cannon vs Screen Horses), from ply 4\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("i0h0"),
        "the table of the position after the moves: {text}"
    );
    let out = query(&["--moves", "h2e2", "--json"]);
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(answer["opening"]["code"], "B00");
    assert_eq!(answer["opening"]["ply"], 1);
    // A position alone (a FEN) has no ECCO code: the codes are defined on move orders.
    let out = query(&[
        "--fen",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
        "--json",
    ]);
    let answer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(answer["opening"].is_null());
    let out = query(&["--moves", "h2e2", "h2e2"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("move 2 (h2e2) cannot be played"));
}
