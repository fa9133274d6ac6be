//! A manual's diagram of a finished mate, both generals in check, through
//! the CLI: `game check` reads it as a game with a warning saying what is
//! wrong (an error with `--strict`), `game view` shows the board with that
//! note, and nothing plays or searches from it (`moves`, `analyze`).

use assert_cmd::Command;

fn xiangqi() -> Command {
    Command::cargo_bin("xiangqi").unwrap()
}

const FEN: &str = "5ab2/4a4/1R1kb4/2N6/9/6B2/6n2/5K2B/4Ar3/3A5 w - - 0 1";

fn scratch(name: &str) -> std::path::PathBuf {
    let dir =
        std::env::temp_dir().join(format!("xiangqi-diagram-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let text = format!(
        "[Event \"mate\"]\n[FEN \"{FEN}\"]\n\n{{final position}} 1-0\n\n\
         [Event \"game\"]\n\n1. h2e2 h9g7 *\n"
    );
    std::fs::write(dir.join("manual.pgn"), text).unwrap();
    dir
}

#[test]
fn game_check_reads_the_diagram_with_a_warning() {
    let dir = scratch("check");
    let file = dir.join("manual.pgn");
    let out = xiangqi()
        .args(["game", "check"])
        .arg(&file)
        .assert()
        .success()
        .get_output()
        .clone();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(lines[0].starts_with("1\t"), "{stdout}");
    assert!(
        lines[0].contains("0 plies")
            && lines[0].contains("warning: line 2, column 1: the start position is a diagram")
            && lines[0].contains("both generals are in check"),
        "{stdout}"
    );
    assert!(!lines[1].contains("warning"), "{stdout}");

    // JSON, over the folder: the warning and the summary's count.
    let out = xiangqi()
        .args(["game", "check", "--json"])
        .arg(&dir)
        .assert()
        .success()
        .get_output()
        .clone();
    let rows: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows[0]["ok"], true);
    assert_eq!(rows[0]["tags"]["FEN"], FEN);
    let warning = rows[0]["warnings"][0]["error"].as_str().unwrap();
    assert!(warning.contains("both generals are in check"), "{warning}");
    let summary = &rows.last().unwrap()["summary"];
    assert_eq!(
        (summary["games"].as_u64(), summary["warnings"].as_u64()),
        (Some(2), Some(1)),
        "{summary}"
    );

    // Strictly, the diagram is a broken game.
    let out = xiangqi()
        .args(["game", "check", "--strict"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains("1\terror: line 2, column 1: the start position is a diagram"),
        "{stdout}"
    );
}

#[test]
fn game_view_shows_the_diagram_and_what_is_wrong() {
    let dir = scratch("view");
    let page = dir.join("manual.html");
    xiangqi()
        .args(["game", "view", "--game", "1"])
        .arg(dir.join("manual.pgn"))
        .arg("-o")
        .arg(&page)
        .assert()
        .success();
    let page = std::fs::read_to_string(page).unwrap();
    let start = page.find("id=\"xq-viewer-data\">").unwrap() + "id=\"xq-viewer-data\">".len();
    let end = start + page[start..].find("</script>").unwrap();
    let data: serde_json::Value = serde_json::from_str(&page[start..end]).unwrap();
    let game = &data["games"][0];
    assert_eq!(game["nodes"].as_array().unwrap().len(), 1);
    assert_eq!(game["nodes"][0]["fen"], FEN);
    assert_eq!(game["nodes"][0]["comments"][0], "final position");
    assert_eq!(
        game["invalid_start"],
        "both generals are in check (R-LEGAL-POSITION)"
    );
}

#[test]
fn nothing_plays_or_searches_from_it() {
    for args in [
        &["moves", "--fen", FEN][..],
        &["analyze", "--fen", FEN, "--depth", "1"][..],
        &["perft", "--fen", FEN, "--depth", "1"][..],
    ] {
        let out = xiangqi().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(
            stderr.starts_with("error: ") && stderr.contains("the side not to move, is in check"),
            "{args:?}: {stderr}"
        );
    }
}
