//! End-to-end tests of `xiangqi game` (alias `pgn`) with the binary and
//! XML formats, and `adjudicate --pgn` on them.

use std::path::PathBuf;
use xiangqi_test_support::shared_testdata;

use assert_cmd::Command;

fn xiangqi() -> Command {
    Command::cargo_bin("xiangqi").unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xiangqi-game-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const PGN: &str =
    "[Red \"甲\"]\n[Black \"乙\"]\n\n1. h2e2 {centre} h9g7 (1... b9c7 2. h0g2) 2. h0g2 1-0\n";

fn output(cmd: &mut Command) -> (Option<i32>, String, String) {
    let out = cmd.output().unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn pgn_to_xqf_and_back_keeps_the_variations() {
    let dir = scratch("roundtrip");
    let xqf = dir.join("game.xqf");
    let (code, _, err) = output(
        xiangqi()
            .args(["game", "convert", "-", "--output-format", "xqf", "-o"])
            .arg(&xqf)
            .write_stdin(PGN),
    );
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(&std::fs::read(&xqf).unwrap()[..3], b"XQ\x0a");
    let (code, pgn, err) = output(
        xiangqi()
            .args(["game", "convert", "--to", "iccs"])
            .arg(&xqf),
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(pgn.contains("[Red \"甲\"]"), "{pgn}");
    assert!(
        pgn.contains("1. h2e2 {centre} 1... h9g7 (1... b9c7 2. h0g2) 2. h0g2 1-0"),
        "{pgn}"
    );

    let (code, json, err) = output(xiangqi().args(["pgn", "check", "--json"]).arg(&xqf));
    assert_eq!(code, Some(0), "{err}");
    let row: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(
        (row["ok"].as_bool(), row["plies"].as_u64()),
        (Some(true), Some(3))
    );
    assert_eq!(row["moves_with_variations"], 5);

    let (code, out, err) = output(xiangqi().args(["adjudicate", "--pgn"]).arg(&xqf));
    assert_eq!(code, Some(0), "{err}");
    // Which game, the players, the recorded result, our verdict, whether they agree.
    assert!(
        out.contains("甲 vs 乙\trecorded 1-0\tverdict * ongoing after ply 3\tundecided"),
        "{out}"
    );
}

#[test]
fn a_broken_xqf_is_reported_with_its_byte_offset() {
    let dir = scratch("broken");
    let xqf = dir.join("game.xqf");
    output(
        xiangqi()
            .args(["game", "convert", "-", "--output-format", "xqf", "-o"])
            .arg(&xqf)
            .write_stdin(PGN),
    );
    let mut bytes = std::fs::read(&xqf).unwrap();
    bytes.truncate(1030);
    std::fs::write(&xqf, bytes).unwrap();
    let (code, json, _) = output(xiangqi().args(["game", "check", "--json"]).arg(&xqf));
    assert_eq!(code, Some(2));
    let row: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    assert_eq!(row["ok"], false);
    assert_eq!(row["byte"], 1028);
    assert!(
        row["error"]
            .as_str()
            .unwrap()
            .contains("the file ends inside"),
        "{row}"
    );
}

#[test]
fn xqf_output_needs_a_file_or_a_directory_for_many_games() {
    let two = format!("{PGN}\n{PGN}");
    let (code, _, err) = output(
        xiangqi()
            .args(["game", "convert", "-", "--output-format", "xqf"])
            .write_stdin(two.as_str()),
    );
    assert_eq!(code, Some(2));
    assert!(err.contains("-o FILE or -o DIRECTORY"), "{err}");
    let dir = scratch("many");
    let (code, _, err) = output(
        xiangqi()
            .args(["game", "convert", "-", "--output-format", "xqf", "-o"])
            .arg(&dir)
            .write_stdin(two.as_str()),
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(dir.join("0001.xqf").exists() && dir.join("0002.xqf").exists());
}

/// The README's `-o xqf-dir/`: a folder that does not exist yet, named as
/// one by its trailing separator, is made (it was "Is a directory").
#[test]
fn xqf_output_to_a_new_folder_named_with_a_trailing_slash() {
    let two = format!("{PGN}\n{PGN}");
    let dir = scratch("new-folder").join("xqf-dir");
    assert!(!dir.exists());
    let (code, _, err) = output(
        xiangqi()
            .args(["game", "convert", "-", "--output-format", "xqf", "-o"])
            .arg(format!("{}/", dir.display()))
            .write_stdin(two.as_str()),
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(dir.join("0001.xqf").is_file() && dir.join("0002.xqf").is_file());
}

/// The CBL libraries of the corpus, when it is there.
#[test]
fn a_cbl_library_is_checked_game_by_game() {
    let Some(corpus) = shared_testdata("corpus/games") else {
        return;
    };
    let (code, out, err) = output(
        xiangqi()
            .args(["game", "check"])
            .arg(corpus.join("1956年全国象棋锦标赛93局.CBL")),
    );
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out.lines().count(), 93);
    assert!(
        out.starts_with(
            "1\t保定邓裕如 vs 哈尔滨王嘉良 (1956年全国象棋锦标赛（初赛）)\t82 plies\t0-1\ticcs\n"
        ),
        "{out}"
    );

    // The same library built for 256 slots (issue 30: such a library
    // printed nothing and exited 0): 128 more unused index entries, so the
    // slots start at 137 280.
    let library = std::fs::read(corpus.join("1956年全国象棋锦标赛93局.CBL")).unwrap();
    let mut wide = library[..101_952].to_vec();
    wide[60..64].copy_from_slice(&256u32.to_le_bytes());
    wide.resize(66_624 + 256 * 276, 0);
    wide.extend_from_slice(&library[101_952..]);
    let dir = scratch("cbl256");
    std::fs::write(dir.join("wide.cbl"), &wide).unwrap();
    let (code, wide_out, err) = output(xiangqi().args(["game", "check"]).arg(dir.join("wide.cbl")));
    assert_eq!((code, wide_out.as_str()), (Some(0), out.as_str()), "{err}");
    // Cut where its slots begin: the games its index lists are missing, and it says so.
    std::fs::write(dir.join("cut.cbl"), &wide[..66_624 + 256 * 276]).unwrap();
    let (code, cut_out, err) = output(xiangqi().args(["game", "check"]).arg(dir.join("cut.cbl")));
    assert_ne!(code, Some(0));
    assert!(cut_out.contains("93 missing"), "{cut_out}{err}");
}

/// A library's record that its index does not list (the 1989 library's
/// deleted copy of its last game) is no game: a warning on stderr, counted
/// in a collection's summary; the index's 35 games are checked.
#[test]
fn a_record_the_index_does_not_list_is_a_warning_not_a_game() {
    let Some(corpus) = shared_testdata("corpus/games") else {
        return;
    };
    let library = corpus.join("1989年龙化杯象棋名师邀请赛35局.CBL");
    let (code, out, err) = output(xiangqi().args(["game", "check"]).arg(&library));
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out.lines().count(), 35, "{out}");
    assert!(
        err.contains("warning: ")
            && err.contains("slot 37 holds a record the index does not list")
            && err.contains("old data, not read as a game"),
        "{err}"
    );
    let dir = scratch("unlisted");
    std::fs::copy(&library, dir.join("lib.CBL")).unwrap();
    let (code, _, err) = output(xiangqi().args(["game", "check"]).arg(&dir));
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("games: 35, warnings: 1, errors: 0"), "{err}");
}
