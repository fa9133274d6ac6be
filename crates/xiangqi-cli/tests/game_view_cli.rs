//! `xiangqi game view`: a self-contained viewer page for a file's games, a
//! game list for several, one game with `--game N`, clear errors.

use assert_cmd::Command;

fn xiangqi() -> Command {
    Command::cargo_bin("xiangqi").unwrap()
}

const GAMES: &str =
    "[Red \"Li\"]\n[Black \"Wang\"]\n\n1. h2e2 {[%eval 0.30]} h9g7 (1... b9c7) 1-0\n\n\
                     [Red \"Zhao\"]\n[Black \"Chen\"]\n\n1. c3c4 g6g5 1/2-1/2\n";

/// The data object the page holds (games, notation, explorer tables): the
/// JSON between its data script tags.
fn page_data(page: &str) -> serde_json::Value {
    let start = page.find("id=\"xq-viewer-data\">").unwrap() + "id=\"xq-viewer-data\">".len();
    let end = start + page[start..].find("</script>").unwrap();
    serde_json::from_str(&page[start..end]).unwrap()
}

/// The games' data the page holds.
fn page_games(page: &str) -> serde_json::Value {
    page_data(page)["games"].clone()
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("xiangqi-view-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("games.pgn"), GAMES).unwrap();
    dir
}

#[test]
fn every_game_of_a_file_goes_into_the_list() {
    let dir = scratch("all");
    let out = xiangqi()
        .args(["game", "view"])
        .arg(dir.join("games.pgn"))
        .arg("-o")
        .arg(dir.join("all.html"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("2 games"));
    let page = std::fs::read_to_string(dir.join("all.html")).unwrap();
    // Self-contained: no file or address to load.
    assert!(!page.contains(" src=") && !page.contains("<link"));
    let games = page_games(&page);
    let titles: Vec<&str> = games
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["title"].as_str().unwrap())
        .collect();
    assert_eq!(titles, ["Li vs Wang", "Zhao vs Chen"]);
    assert_eq!(games[0]["has_eval"], true);
    // The start, h2e2, h9g7 and the variation's b9c7.
    assert_eq!(games[0]["nodes"].as_array().unwrap().len(), 4);
}

#[test]
fn game_n_alone_in_the_chosen_notation() {
    let dir = scratch("one");
    xiangqi()
        .args(["game", "view", "--game", "2", "--notation", "chinese"])
        .arg(dir.join("games.pgn"))
        .arg("-o")
        .arg(dir.join("two.html"))
        .assert()
        .success();
    let page = std::fs::read_to_string(dir.join("two.html")).unwrap();
    let games = page_games(&page);
    assert_eq!(games.as_array().unwrap().len(), 1);
    assert_eq!(games[0]["title"], "Zhao vs Chen");
    assert_eq!(games[0]["nodes"][1]["text"][2], "兵七进一");
    assert!(page.contains("\"notation\":\"chinese\""));
}

#[test]
fn a_game_number_out_of_range_is_a_clear_error() {
    let dir = scratch("bad");
    for (n, message) in [("3", "--game 3: "), ("0", "--game counts from 1")] {
        let out = xiangqi()
            .args(["game", "view", "--game", n])
            .arg(dir.join("games.pgn"))
            .arg("-o")
            .arg(dir.join("bad.html"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2)); // the CLI's error status
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(message), "{stderr}");
        if n == "3" {
            assert!(stderr.contains("has 2 games"), "{stderr}");
        }
    }
    assert!(!dir.join("bad.html").exists());
}

#[test]
fn an_explorer_puts_its_tables_of_the_games_positions_into_the_page() {
    let dir = scratch("explorer");
    let db = dir.join("openings.db");
    xiangqi()
        .args(["explore", "build", "--plies", "1", "-o"])
        .arg(&db)
        .arg(dir.join("games.pgn"))
        .assert()
        .success();
    let page = dir.join("explorer.html");
    let done = xiangqi()
        .args(["game", "view", "--game", "1", "--explorer"])
        .arg(&db)
        .arg(dir.join("games.pgn"))
        .arg("-o")
        .arg(&page)
        .assert()
        .success();
    assert!(String::from_utf8_lossy(&done.get_output().stderr).contains("1 explorer table"));
    let data = page_data(&std::fs::read_to_string(&page).unwrap());
    let tables = data["explorer"].as_object().unwrap();
    // One ply indexed: the start only, with both games' first moves.
    assert_eq!(tables.len(), 1);
    let start = &tables[data["games"][0]["nodes"][0]["fen"].as_str().unwrap()];
    assert_eq!(start["games"], 2);
    let moves: Vec<(&str, &str, u64)> = start["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["move"].as_str().unwrap(),
                m["text"][1].as_str().unwrap(),
                m["games"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(moves, [("c3c4", "P7+1", 1), ("h2e2", "C2=5", 1)]);
    assert_eq!(start["moves"][1]["score"], 100.0);

    // Without --explorer the page has none.
    xiangqi()
        .args(["game", "view"])
        .arg(dir.join("games.pgn"))
        .arg("-o")
        .arg(&page)
        .assert()
        .success();
    assert!(page_data(&std::fs::read_to_string(&page).unwrap())["explorer"].is_null());
}

#[test]
fn a_file_that_is_no_explorer_is_a_clear_error() {
    let dir = scratch("bad-explorer");
    let bogus = dir.join("bogus.db");
    // Longer than a database header, so the header itself is judged.
    std::fs::write(&bogus, "not a database at all ".repeat(20)).unwrap();
    let out = xiangqi()
        .args(["game", "view", "--explorer"])
        .arg(&bogus)
        .arg(dir.join("games.pgn"))
        .arg("-o")
        .arg(dir.join("never.html"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("bogus.db") && stderr.contains("not an opening explorer"),
        "{stderr}"
    );
    assert!(!dir.join("never.html").exists());
}

/// `--notation iccs`, as every command spells it; `coordinate`, its former
/// name, still works (CHANGELOG.md).
#[test]
fn iccs_is_the_notation_name_and_coordinate_an_alias() {
    let dir = scratch("iccs");
    for name in ["iccs", "coordinate"] {
        let page = dir.join(format!("{name}.html"));
        xiangqi()
            .args(["game", "view", "--notation", name])
            .arg(dir.join("games.pgn"))
            .arg("-o")
            .arg(&page)
            .assert()
            .success();
        let page = std::fs::read_to_string(page).unwrap();
        assert!(page.contains("\"notation\":\"coordinate\""), "{name}");
    }
}
