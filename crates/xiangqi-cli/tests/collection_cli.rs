//! `game check` and `game convert` over collections: several files,
//! directories walked recursively in sorted order, patterns; a file that
//! cannot be read reported in its place; the summary; `Source` tags; the
//! same bytes for any `--jobs`. The trees are built from the reference
//! corpus's files, so these tests skip without it (and fail under CI).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use xiangqi_test_support::shared_testdata;

fn xiangqi(args: &[&str]) -> Output {
    xiangqi_in(None, args)
}

fn xiangqi_in(dir: Option<&Path>, args: &[&str]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_xiangqi"));
    if let Some(dir) = dir {
        cmd.current_dir(dir);
    }
    cmd.args(args).output().expect("xiangqi runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

const PGN: &str = "[Red \"甲\"]\n[Black \"乙\"]\n\n1. h2e2 h9g7 2. h0g2 1-0\n";

/// The files of the tree, in the order a walk yields them (byte order of
/// the names, a folder's files where its name sorts), with their games.
const TREE: [(&str, usize); 7] = [
    ("C.cbr", 1),
    ("a b/x.pgn", 1),
    ("a.cbf", 1),
    ("b/a/test.cbr", 1),
    ("b/z.XQF", 1),
    ("c.xqf", 1),
    ("lib.CBL", 93),
];
const TREE_GAMES: usize = 99;

/// A fresh folder holding the files of [`TREE`] (copies of corpus files)
/// and files that are not game files.
fn tree(corpus: &Path, name: &str) -> PathBuf {
    let root = std::env::temp_dir().join(format!(
        "xiangqi-collection-cli-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&root);
    for folder in ["a b", "b/a", "empty"] {
        std::fs::create_dir_all(root.join(folder)).unwrap();
    }
    let games = corpus.join("games");
    let copies = [
        (games.join("test2.cbr"), "C.cbr"),
        (games.join("test.cbf"), "a.cbf"),
        (games.join("test.cbr"), "b/a/test.cbr"),
        (games.join("030-黄松轩先胜冯敬如.XQF"), "b/z.XQF"),
        (
            corpus.join("xqf/中局攻杀谱/01三次献车 攻杀紧凑.XQF"),
            "c.xqf",
        ),
        (games.join("1956年全国象棋锦标赛93局.CBL"), "lib.CBL"),
    ];
    for (from, to) in copies {
        std::fs::copy(&from, root.join(to)).unwrap_or_else(|e| panic!("{}: {e}", from.display()));
    }
    std::fs::write(root.join("a b/x.pgn"), PGN).unwrap();
    std::fs::write(root.join("notes.txt"), "not a game file").unwrap();
    std::fs::write(root.join("b/README"), "not a game file").unwrap();
    root
}

/// The first column of each report line: the file.
fn files_column(out: &str) -> Vec<String> {
    out.lines()
        .map(|l| l.split('\t').next().unwrap().to_owned())
        .collect()
}

/// The files of `TREE` under `root`, each repeated once per game.
fn tree_lines(root: &Path) -> Vec<String> {
    TREE.iter()
        .flat_map(|(name, games)| vec![root.join(name).display().to_string(); *games])
        .collect()
}

#[test]
fn a_directory_is_walked_recursively_in_sorted_order() {
    let Some(corpus) = shared_testdata("corpus") else {
        return;
    };
    let root = tree(&corpus, "walk");
    let out = xiangqi(&["game", "check", root.to_str().unwrap()]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(files_column(&stdout), tree_lines(&root));
    // Every game keeps its number in its file.
    let lib: Vec<&str> = stdout.lines().filter(|l| l.contains("lib.CBL\t")).collect();
    assert!(
        lib[0].contains("\t1\t保定邓裕如 vs 哈尔滨王嘉良"),
        "{}",
        lib[0]
    );
    assert!(lib[92].contains("\t93\t"), "{}", lib[92]);
    assert_eq!(
        text(&out.stderr),
        format!("files: 7, games: {TREE_GAMES}, warnings: 0, errors: 0\n")
    );
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn patterns_and_files_are_read_in_the_order_given() {
    let Some(corpus) = shared_testdata("corpus") else {
        return;
    };
    let root = tree(&corpus, "glob");
    let r = root.to_str().unwrap();
    let out = xiangqi(&[
        "game",
        "check",
        &format!("{r}/**/*.{{xqf,XQF}}"),
        &format!("{r}/a.cbf"),
        &format!("{r}/notes.txt"),
    ]);
    assert_eq!(
        files_column(&text(&out.stdout)),
        [
            root.join("b/z.XQF"),
            root.join("c.xqf"),
            root.join("a.cbf"),
            root.join("notes.txt")
        ]
        .map(|p| p.display().to_string())
    );
    // A file named is read whatever its name: here a broken PGN game.
    assert!(text(&out.stdout)
        .lines()
        .nth(3)
        .unwrap()
        .contains("\t1\terror: line 1"));
    // Some games read, one broken: 1 (docs/cli.md, "Exit status").
    assert_eq!(out.status.code(), Some(1));

    // The CLI expands a pattern itself, relative to the current folder.
    let out = xiangqi_in(Some(&root), &["game", "check", "b/*/*.cbr", "*.cbf"]);
    assert_eq!(files_column(&text(&out.stdout)), ["b/a/test.cbr", "a.cbf"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));

    // A pattern or a directory that yields nothing is an error naming it,
    // before anything is read.
    for (input, says) in [
        (format!("{r}/*.wxf"), "no file matches this pattern"),
        (format!("{r}/empty"), "no game file in this directory"),
    ] {
        let out = xiangqi(&["game", "check", &format!("{r}/a.cbf"), &input]);
        assert_eq!(out.status.code(), Some(2));
        assert!(out.stdout.is_empty());
        assert_eq!(
            text(&out.stderr),
            format!(
                "error: {input}: {says}{}\n",
                if says.contains("directory") {
                    " (none named *.pgn, *.wxf, *.xqf, *.cbf, *.cbr or *.cbl)"
                } else {
                    ""
                }
            )
        );
    }
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn a_file_that_cannot_be_read_is_reported_and_the_run_goes_on() {
    let Some(corpus) = shared_testdata("corpus") else {
        return;
    };
    let root = tree(&corpus, "broken");
    // A broken game: the XQF cut short.
    let mut cut = std::fs::read(root.join("c.xqf")).unwrap();
    cut.truncate(1030);
    std::fs::write(root.join("b/cut.xqf"), cut).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&root, root.join("b/a/loop")).unwrap();
    let r = root.to_str().unwrap();
    let missing = format!("{r}/missing.pgn");
    let args = ["game", "check", &missing, r, &format!("{r}/a b/x.pgn")];
    let out = xiangqi(&args);
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines[0],
        format!("{missing}\t0\terror: file: read error: No such file or directory (os error 2)")
    );
    let cut = lines.iter().position(|l| l.contains("cut.xqf")).unwrap();
    assert!(
        lines[cut].starts_with(&format!(
            "{}\t1\terror: byte ",
            root.join("b/cut.xqf").display()
        )),
        "{}",
        lines[cut]
    );
    // The walk goes on after the loop, and after the broken files.
    assert_eq!(*lines.last().unwrap(), lines[2]);
    assert!(lines[1].starts_with(&format!("{}\t1\t", root.join("C.cbr").display())));
    let (errors, folders) =
        if cfg!(unix) {
            let looped = lines
                .iter()
                .position(|l| l.contains("link back to"))
                .unwrap();
            assert!(lines[looped]
                .starts_with(&format!("{}\t0\terror: ", root.join("b/a/loop").display())));
            assert!(lines[looped + 1]
                .starts_with(&format!("{}\t1\t", root.join("b/a/test.cbr").display())));
            (3, 1)
        } else {
            (2, 0)
        };
    assert_eq!(lines.len(), 1 + TREE_GAMES + 1 + folders + 1);
    let games = TREE_GAMES + 2;
    assert_eq!(
        text(&out.stderr),
        format!(
            "files: 10, games: {games}, warnings: 0, errors: {errors}\n\
             error: 1 of {games} games could not be read; {} files or folders could not be read\n",
            errors - 1
        )
    );
    // Some games read, some not: 1 (docs/cli.md, "Exit status").
    assert_eq!(out.status.code(), Some(1));

    // JSON: one object per game or unreadable file, then the summary.
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let out = xiangqi(&json_args);
    let rows: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), lines.len() + 1);
    assert_eq!(
        rows[0],
        serde_json::json!({
            "file": missing,
            "game": 0,
            "ok": false,
            "error": "read error: No such file or directory (os error 2)",
        })
    );
    assert_eq!(rows[1]["file"], root.join("C.cbr").to_str().unwrap());
    assert_eq!(
        (rows[1]["game"].as_u64(), rows[1]["ok"].as_bool()),
        (Some(1), Some(true))
    );
    assert_eq!(rows[cut]["byte"], 1028);
    assert_eq!(
        *rows.last().unwrap(),
        serde_json::json!({ "summary": {
            "files": 10,
            "games": games,
            "warnings": 0,
            "errors": errors,
        }})
    );
    assert_eq!(out.status.code(), Some(1));
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn any_job_count_gives_the_same_bytes() {
    let Some(corpus) = shared_testdata("corpus") else {
        return;
    };
    let root = tree(&corpus, "jobs");
    // A file big enough to be read in ranges between the small ones.
    let lib = xiangqi(&[
        "game",
        "convert",
        "--to",
        "chinese",
        root.join("lib.CBL").to_str().unwrap(),
    ]);
    let big = lib.stdout.repeat(4);
    assert!(big.len() > 200 << 10);
    std::fs::write(root.join("b/big.pgn"), big).unwrap();
    // A broken game (a bad annotation) and a game cut at an illegal move.
    std::fs::write(root.join("b/broken.pgn"), "1. h2e2 x9x9!?!? *\n").unwrap();
    std::fs::write(root.join("b/cut.pgn"), "1. h2e2 a0a9 *\n").unwrap();
    let r = root.to_str().unwrap();
    for args in [
        vec!["game", "check", r],
        vec!["game", "check", "--json", r, &format!("{r}/*.cbf")],
        vec!["game", "convert", r, "--to", "wxf"],
        vec![
            "game",
            "convert",
            r,
            "--output-format",
            "wxf",
            "--drop-variations",
        ],
    ] {
        let run = |jobs: &str| {
            let mut all = args.clone();
            all.extend(["--jobs", jobs]);
            xiangqi(&all)
        };
        let one = run("1");
        // Some games read, one broken: 1 (docs/cli.md, "Exit status").
        assert_eq!(one.status.code(), Some(1), "{args:?}: the broken game");
        if args[1] == "check" {
            let lines = text(&one.stdout).lines().count();
            assert!(lines > TREE_GAMES + 4 * 93, "{args:?}: {lines} lines");
        }
        for jobs in ["2", "3"] {
            let other = run(jobs);
            assert_eq!(
                other.status.code(),
                one.status.code(),
                "{args:?} --jobs {jobs}"
            );
            assert!(
                other.stdout == one.stdout,
                "{args:?} --jobs {jobs}: stdout differs"
            );
            assert_eq!(
                text(&other.stderr),
                text(&one.stderr),
                "{args:?} --jobs {jobs}"
            );
        }
    }
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn convert_writes_one_pgn_with_source_tags_that_read_back() {
    let Some(corpus) = shared_testdata("corpus") else {
        return;
    };
    let root = tree(&corpus, "source");
    let r = root.to_str().unwrap();
    let all = root.join("all.pgn");
    let convert = || {
        xiangqi(&[
            "game",
            "convert",
            r,
            "--to",
            "iccs",
            "-o",
            all.to_str().unwrap(),
        ])
    };
    let out = convert();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stderr),
        format!("files: 7, games: {TREE_GAMES}, warnings: 0, errors: 0\n")
    );
    let written = std::fs::read(&all).unwrap();
    // Run again: the output, now in the folder read, is not read.
    let again = convert();
    assert_eq!(text(&again.stderr), text(&out.stderr));
    assert!(std::fs::read(&all).unwrap() == written);

    let back = xiangqi(&["game", "check", "--json", all.to_str().unwrap()]);
    assert_eq!(back.status.code(), Some(0), "{}", text(&back.stderr));
    let sources: Vec<String> = text(&back.stdout)
        .lines()
        .map(|l| {
            let row: serde_json::Value = serde_json::from_str(l).unwrap();
            row["tags"]["Source"].as_str().unwrap().to_owned()
        })
        .collect();
    let mut expected: Vec<String> = [
        "C.cbr",
        "a b/x.pgn#1",
        "a.cbf",
        "b/a/test.cbr",
        "b/z.XQF",
        "c.xqf",
    ]
    .map(String::from)
    .to_vec();
    expected.extend((1..=93).map(|n| format!("lib.CBL#{n}")));
    assert_eq!(sources, expected);

    // Files named are named as given.
    let out = xiangqi_in(
        Some(&root),
        &["game", "convert", "--to", "iccs", "c.xqf", "a b/x.pgn"],
    );
    let pgn = text(&out.stdout);
    assert!(
        pgn.contains("[Source \"c.xqf\"]") && pgn.contains("[Source \"a b/x.pgn#1\"]"),
        "{pgn}"
    );
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn xqf_output_of_a_collection_is_named_after_the_inputs() {
    let Some(corpus) = shared_testdata("corpus") else {
        return;
    };
    let root = tree(&corpus, "xqf-in");
    // Inside the folder read: left out of the inputs on the second run.
    let out_dir = root.join("out");
    let convert = || {
        xiangqi(&[
            "game",
            "convert",
            root.to_str().unwrap(),
            "--output-format",
            "xqf",
            "-o",
            out_dir.to_str().unwrap(),
        ])
    };
    let out = convert();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let again = convert();
    assert_eq!(text(&again.stderr), text(&out.stderr));
    assert!(!out_dir.join("out").exists());
    let mut expected: Vec<String> = [
        "C.xqf",
        "a b/x-1.xqf",
        "a.xqf",
        "b/a/test.xqf",
        "b/z.xqf",
        "c~2.xqf",
    ]
    .map(String::from)
    .to_vec();
    expected.extend((1..=93).map(|n| format!("lib-{n}.xqf")));
    for name in &expected {
        assert!(out_dir.join(name).is_file(), "{name} missing");
    }
    let back = xiangqi(&["game", "check", out_dir.to_str().unwrap()]);
    assert_eq!(back.status.code(), Some(0), "{}", text(&back.stderr));
    assert_eq!(text(&back.stdout).lines().count(), TREE_GAMES);
    std::fs::remove_dir_all(root).unwrap();
}

#[test]
fn the_shared_xqf_manuals_are_checked_whole() {
    let Some(corpus) = shared_testdata("corpus") else {
        return;
    };
    let out = xiangqi(&["game", "check", corpus.join("xqf").to_str().unwrap()]);
    let stdout = text(&out.stdout);
    assert_eq!(stdout.lines().count(), 1155);
    // One file plays an illegal move (docs/gamefile.md, agreement with
    // cchess): read up to it, with a warning.
    assert!(!stdout.contains("\terror: "));
    let cut: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains("\twarning: "))
        .collect();
    assert_eq!(cut.len(), 1);
    assert!(
        cut[0].contains("寸土必争 红先胜.xqf\t1\t? vs ?\t5 plies\t*\ticcs\twarning: byte 1072: ply 6: illegal move e8d8"),
        "{}",
        cut[0]
    );
    assert_eq!(
        text(&out.stderr),
        "files: 1155, games: 1155, warnings: 1, errors: 0\n"
    );
    assert_eq!(out.status.code(), Some(0));
    // Strict, the same game is an error.
    let strict = xiangqi(&[
        "game",
        "check",
        "--strict",
        corpus.join("xqf").to_str().unwrap(),
    ]);
    let broken: Vec<String> = text(&strict.stdout)
        .lines()
        .filter(|l| l.contains("\terror: "))
        .map(str::to_owned)
        .collect();
    assert_eq!(broken.len(), 1);
    assert!(
        broken[0].contains("寸土必争 红先胜.xqf\t1\terror: byte 1072: ply 6"),
        "{}",
        broken[0]
    );
    assert_eq!(
        text(&strict.stderr),
        "files: 1155, games: 1155, warnings: 0, errors: 1\n\
         error: 1 of 1155 games could not be read\n"
    );
    assert_eq!(strict.status.code(), Some(2));
}
