//! Every command that reads games, on each kind of bad input: the same
//! exit status and the same wording everywhere (docs/cli.md, "Exit
//! status"). The inputs imitate what users meet: a path mistyped, a folder
//! of junk under game-file names, an XQF cut short (written by our own
//! writer, then truncated), a `[FEN]` tag that is no FEN, a move that
//! cannot be played.

use std::path::{Path, PathBuf};
use std::process::Command;

const GOOD: &str = "[Red \"A\"]\n[Black \"B\"]\n\n1. h2e2 h9g7 2. h0g2 i9h9 1-0\n";
const BAD_FEN: &str = "[Event \"t\"]\n[FEN \"junk fen\"]\n\n1. h2e2 h9g7 *\n";
const ILLEGAL: &str = "[Red \"A\"]\n[Black \"B\"]\n\n1. h2e2 h2e2 2. h0g2 1-0\n";

/// The inputs, made once per test in a folder of its own.
struct Inputs {
    dir: tempfile::TempDir,
}

impl Inputs {
    fn new() -> Inputs {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path();
        std::fs::write(path.join("good.pgn"), GOOD).unwrap();
        std::fs::write(path.join("badfen.pgn"), BAD_FEN).unwrap();
        std::fs::write(path.join("illegal.pgn"), ILLEGAL).unwrap();
        // Junk under game-file names: seeded bytes, no signature.
        std::fs::create_dir(path.join("junk")).unwrap();
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        for (name, len) in [("a.xqf", 2000), ("b.xqf", 900)] {
            let mut bytes: Vec<u8> = (0..len)
                .map(|_| {
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    (rng >> 24) as u8
                })
                .collect();
            // Never the signature by chance.
            bytes[0] = 0;
            std::fs::write(path.join("junk").join(name), bytes).unwrap();
        }
        // A real XQF, cut short inside its header.
        let xqf = path.join("whole.xqf");
        let out = xiangqi(&[
            "game",
            "convert",
            path.join("good.pgn").to_str().unwrap(),
            "--output-format",
            "xqf",
            "-o",
            xqf.to_str().unwrap(),
        ]);
        assert_eq!(out.0, Some(0), "{}", out.1);
        let bytes = std::fs::read(&xqf).unwrap();
        std::fs::write(path.join("trunc.xqf"), &bytes[..200]).unwrap();
        Inputs { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
}

/// Runs `xiangqi ARGS`: the status and stdout and stderr together.
fn xiangqi(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_xiangqi"))
        .args(args)
        .output()
        .expect("xiangqi runs");
    let mut all = out.stdout.clone();
    all.extend_from_slice(&out.stderr);
    // Never a raw control byte, whatever the input held.
    assert!(
        !all.iter().any(|&b| b < 0x20 && b != b'\n' && b != b'\t'),
        "{args:?}: a control byte in {:?}",
        String::from_utf8_lossy(&all)
    );
    (
        out.status.code(),
        String::from_utf8_lossy(&all).into_owned(),
    )
}

/// The command lines of every command that reads games, on `input`.
fn commands(input: &Path, scratch: &Path) -> Vec<Vec<String>> {
    let input = input.to_str().unwrap().to_owned();
    let out = |name: &str| scratch.join(name).to_str().unwrap().to_owned();
    let lines: Vec<Vec<&str>> = vec![
        vec!["game", "check", &input],
        vec!["game", "convert", &input, "--to", "iccs"],
        vec!["game", "view", &input, "-o"],
        vec!["adjudicate", "--pgn", &input],
        vec!["explore", "build", &input, "-o"],
        vec!["rate", &input],
        vec!["analyze", "--pgn", &input, "--depth", "1", "-j", "1", "-o"],
    ];
    let outputs = ["", "", "view.html", "", "explorer.db", "", "analyzed.pgn"];
    lines
        .into_iter()
        .zip(outputs)
        .map(|(line, output)| {
            let mut line: Vec<String> = line.into_iter().map(str::to_owned).collect();
            if !output.is_empty() {
                line.push(out(output));
            }
            line
        })
        .collect()
}

/// Every command on `input` exits with `status` and says `wording`.
fn every_command(input: &Path, status: i32, wording: &str) {
    let scratch = tempfile::tempdir().unwrap();
    for line in commands(input, scratch.path()) {
        let args: Vec<&str> = line.iter().map(String::as_str).collect();
        let (code, said) = xiangqi(&args);
        assert_eq!(code, Some(status), "{args:?}:\n{said}");
        assert!(
            said.contains(wording),
            "{args:?} does not say {wording:?}:\n{said}"
        );
    }
}

#[test]
fn a_missing_file() {
    let inputs = Inputs::new();
    let missing = inputs.path("missing.pgn");
    every_command(&missing, 2, "missing.pgn: file: read error: ");
}

#[test]
fn a_folder_of_junk() {
    let inputs = Inputs::new();
    let junk = inputs.path("junk");
    every_command(&junk, 2, "byte 0: not an XQF file: no XQF signature");
}

#[test]
fn a_truncated_xqf() {
    let inputs = Inputs::new();
    let cut = inputs.path("trunc.xqf");
    every_command(&cut, 2, "byte 0: the file ends inside the XQF header");
}

#[test]
fn a_bad_fen_tag_is_reported_at_its_line() {
    let inputs = Inputs::new();
    let bad = inputs.path("badfen.pgn");
    every_command(&bad, 2, "line 2, column 1: FEN tag: invalid FEN");
}

#[test]
fn an_illegal_move_is_a_warning() {
    let inputs = Inputs::new();
    let illegal = inputs.path("illegal.pgn");
    every_command(
        &illegal,
        0,
        "line 4, column 9: move 1...: \"h2e2\" is illegal here",
    );
}

#[test]
fn an_illegal_move_under_strict_is_an_error() {
    let inputs = Inputs::new();
    let illegal = inputs.path("illegal.pgn");
    let scratch = tempfile::tempdir().unwrap();
    for mut line in commands(&illegal, scratch.path()) {
        line.push("--strict".into());
        let args: Vec<&str> = line.iter().map(String::as_str).collect();
        let (code, said) = xiangqi(&args);
        assert_eq!(code, Some(2), "{args:?}:\n{said}");
        assert!(
            said.contains("\"h2e2\" is illegal here"),
            "{args:?}:\n{said}"
        );
    }
}

#[test]
fn a_bad_game_beside_good_ones_gives_1() {
    let inputs = Inputs::new();
    let (good, bad) = (inputs.path("good.pgn"), inputs.path("badfen.pgn"));
    let (good, bad) = (good.to_str().unwrap(), bad.to_str().unwrap());
    for args in [
        vec!["game", "check", good, bad],
        vec!["game", "convert", good, bad, "--to", "wxf"],
        vec!["adjudicate", "--pgn", good, bad],
        vec!["rate", good, bad],
    ] {
        let (code, said) = xiangqi(&args);
        assert_eq!(code, Some(1), "{args:?}:\n{said}");
        assert!(
            said.contains("files: 2, games: 2, warnings: 0, errors: 1"),
            "{args:?}: the summary line:\n{said}"
        );
    }
}
