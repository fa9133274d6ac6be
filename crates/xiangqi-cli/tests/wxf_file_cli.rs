//! End-to-end tests of WXF game files (`FORMAT WXF … START{ }END`) in
//! `xiangqi pgn check` and `xiangqi pgn convert`.

use assert_cmd::Command;

fn xiangqi() -> Command {
    Command::cargo_bin("xiangqi").unwrap()
}

/// Two games, the second from a FEN with Black to move, then a broken one.
const FILE: &str = "FORMAT  WXF\nRED     Chen ; 1810 ;;\nBLACK   Wu\nRESULT  1-0\nSTART{\n \
                    1. C2.5 h8+7   2. H2+3 {solid} r9.8\n}END\n\
                    FORMAT  WXF\nFEN     rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RHEAKAEHR b\n\
                    START{\n 1. ... H8+7   2. H2+3\n}END\n\
                    FORMAT  WXF\nSTART{\n 1. C2.5 h8+6\n}END\n";

fn run(args: &[&str], stdin: &str) -> (Option<i32>, String, String) {
    let out = xiangqi().args(args).write_stdin(stdin).output().unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn pgn_check_detects_a_wxf_file() {
    // Game 3's h8+6 names no horse move: the game is cut before it.
    let (code, out, err) = run(&["pgn", "check", "-"], FILE);
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert_eq!(lines[0], "1\tChen vs Wu\t4 plies\t1-0\twxf");
    assert_eq!(lines[1], "2\t? vs ?\t2 plies\t*\twxf");
    assert!(
        lines[2].starts_with(
            "3\t? vs ?\t1 plies\t*\twxf\twarning: line 15, column 10: move 1...: \"h8+6\""
        ),
        "{out}"
    );
    let (code, out, err) = run(&["pgn", "check", "--strict", "-"], FILE);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        out.lines()
            .nth(2)
            .unwrap()
            .starts_with("3\terror: line 15, column 10: move 1...: \"h8+6\""),
        "{out}"
    );
    assert!(err.starts_with("error:"), "{err}");

    let (_, json, _) = run(&["pgn", "check", "--json", "-"], FILE);
    let first: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    assert_eq!(first["tags"]["RedElo"], "1810");
    assert_eq!(first["notation"], "wxf");
    // Forced the other way, the WXF file is no PGN.
    let (code, out, _) = run(&["pgn", "check", "--input-format", "pgn", "-"], FILE);
    assert_eq!(code, Some(2));
    assert!(out.contains("error:"), "{out}");
}

#[test]
fn pgn_convert_reads_and_writes_wxf_files() {
    // WXF file to PGN in Chinese.
    let (code, pgn, err) = run(&["pgn", "convert", "-", "--to", "chinese"], FILE);
    assert_eq!(code, Some(0), "the cut game is converted: {err}");
    assert!(
        err.starts_with("warning: game 3, line 15, column 10"),
        "{err}"
    );
    assert!(pgn.contains("[Red \"Chen\"]\n[RedElo \"1810\"]"), "{pgn}");
    assert!(
        pgn.contains("1. 炮二平五 马8进7 2. 马二进三 {solid} 2... 车9平8 1-0"),
        "{pgn}"
    );

    // PGN to a WXF game file, which reads back as the same games.
    let (code, wxf, err) = run(&["pgn", "convert", "-", "--output-format", "wxf"], &pgn);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        wxf.starts_with("FORMAT  WXF\nRED     Chen ; 1810 ;;\n"),
        "{wxf}"
    );
    assert!(
        wxf.contains("START{\n 1. C2.5 h8+7   2. H2+3 {solid}\n 2. ... r9.8\n}END\n"),
        "{wxf}"
    );
    assert!(
        wxf.contains("START{\n 1. ... h8+7   2. H2+3\n}END\n"),
        "{wxf}"
    );
    let (code, again, err) = run(&["pgn", "convert", "-", "--to", "chinese"], &wxf);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(again, pgn);

    // Other notations are refused for WXF output; --to is needed for PGN.
    let (code, _, err) = run(
        &[
            "pgn",
            "convert",
            "-",
            "--output-format",
            "wxf",
            "--to",
            "iccs",
        ],
        FILE,
    );
    assert_eq!(code, Some(2));
    assert!(
        err.starts_with("error: WXF game files hold WXF moves"),
        "{err}"
    );
    let (code, _, err) = run(&["pgn", "convert", "-"], FILE);
    assert_eq!(code, Some(2));
    assert!(err.starts_with("error: --to is required"), "{err}");
}

#[test]
fn variations_are_refused_or_dropped() {
    let pgn = "1. h2e2 (1. h0g2) h9g7 *\n";
    let (code, _, err) = run(&["pgn", "convert", "-", "--output-format", "wxf"], pgn);
    assert_eq!(code, Some(2));
    assert!(err.contains("variations"), "{err}");
    let (code, wxf, err) = run(
        &[
            "pgn",
            "convert",
            "-",
            "--output-format",
            "wxf",
            "--drop-variations",
            "--wxf-style",
            "fsf",
        ],
        pgn,
    );
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        wxf,
        "FORMAT  WXF\nWXFSTYLE fsf\nRESULT  *\nSTART{\n 1. C2.5 h8+7\n}END\n"
    );
}
