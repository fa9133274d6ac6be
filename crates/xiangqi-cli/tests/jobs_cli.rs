//! `--jobs N` on the corpus commands: the same bytes on stdout and stderr,
//! and the same exit status, for any number of threads.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::{Command, Output};

use xiangqi_core::{MoveList, Position, SplitMix64};

/// A PGN file of `games` random games (random legal moves from the start,
/// fixed seed), with an unreadable game (text that is no move) every 37
/// games and a game cut at an illegal move every 41.
fn random_corpus(games: usize) -> String {
    let mut rng = SplitMix64::new(15);
    let mut text = String::new();
    for index in 1..=games {
        let _ = write!(
            text,
            "[Event \"jobs {index}\"]\n[Red \"R{}\"]\n[Black \"B{}\"]\n\n",
            index % 5,
            index % 7
        );
        let mut position = Position::startpos();
        let plies = 10 + rng.below(150);
        for ply in 0..plies {
            let mut moves = MoveList::new();
            position.legal_moves(&mut moves);
            let Some(&mv) = rng.choose(moves.as_slice()) else {
                break;
            };
            if ply % 2 == 0 {
                let _ = write!(text, "{}. ", ply / 2 + 1);
            }
            let _ = write!(text, "{mv} ");
            position.make_move(mv);
        }
        if index % 37 == 0 {
            text.push_str("x9x9!?!? "); // no annotation: a broken game
        }
        if index % 41 == 0 {
            text.push_str("a0a9 ");
        }
        text.push_str("*\n\n");
    }
    text
}

/// Games in the corpus: enough bytes (about 1.5 MB) that `--jobs` above 1
/// reads it as many ranges, in more than one batch.
const GAMES: usize = 3000;
/// Games that cannot be read.
const BROKEN: usize = GAMES / 37;
/// Games cut at an illegal move (none of them also broken).
const CUT: usize = GAMES / 41 - GAMES / (37 * 41);

fn corpus_file() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xiangqi-jobs-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("corpus.pgn");
    std::fs::write(&path, random_corpus(GAMES)).unwrap();
    // The CLI splits a file into ranges of 64 KiB, 4 per worker at a time.
    assert!(std::fs::metadata(&path).unwrap().len() > 20 * 64 * 1024);
    path
}

fn xiangqi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xiangqi"))
        .args(args)
        .output()
        .expect("xiangqi runs")
}

/// Runs `args` with `--jobs 1`, 2 and 3 and checks the outputs agree;
/// returns the first.
fn same_for_every_job_count(args: &[&str]) -> Output {
    let run = |jobs: &str| {
        let mut all = args.to_vec();
        all.extend(["--jobs", jobs]);
        xiangqi(&all)
    };
    let one = run("1");
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
        assert!(
            other.stderr == one.stderr,
            "{args:?} --jobs {jobs}: stderr differs"
        );
    }
    one
}

/// Checks that the line number after `marker` in the report line `row` of
/// game N (its first field) falls inside game N of `corpus`: counted from
/// the file's start, whatever range the game was read in.
fn assert_line_in_its_game(row: &str, marker: &str, corpus: &str) {
    let number: usize = row.split('\t').next().unwrap().parse().unwrap();
    let line: usize = row
        .split(marker)
        .nth(1)
        .and_then(|rest| rest.split(',').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no line number in {row:?}"));
    let event = format!("[Event \"jobs {number}\"]");
    let game_line = corpus.lines().position(|l| l == event).unwrap() + 1;
    assert!(
        (game_line..game_line + 8).contains(&line),
        "{row:?}: the game starts at line {game_line}"
    );
}

#[test]
fn corpus_commands_give_the_same_bytes_for_any_job_count() {
    let path = corpus_file();
    let file = path.to_str().unwrap();

    let check = same_for_every_job_count(&["game", "check", file]);
    let text = String::from_utf8(check.stdout).unwrap();
    assert_eq!(text.lines().count(), GAMES);
    assert_eq!(
        text.lines().filter(|l| l.contains("\terror: ")).count(),
        BROKEN
    );
    assert!(text
        .lines()
        .nth(36)
        .unwrap()
        .starts_with("37\terror: line "));
    // The last broken game's line number counts from the file's start.
    let corpus = std::fs::read_to_string(&path).unwrap();
    let last = text.lines().nth(37 * BROKEN - 1).unwrap();
    assert_line_in_its_game(last, "error: line ", &corpus);
    assert!(String::from_utf8_lossy(&check.stderr).contains(&format!("{BROKEN} of {GAMES} games")));
    // A cut game is read up to the illegal move, with a warning whose line
    // counts from the file's start too.
    let cut: Vec<&str> = text.lines().filter(|l| l.contains("\twarning: ")).collect();
    assert_eq!(cut.len(), CUT);
    assert!(cut[0].starts_with("41\t"), "{}", cut[0]);
    assert_line_in_its_game(cut[CUT - 1], "warning: line ", &corpus);

    let json = same_for_every_job_count(&["game", "check", "--json", file]);
    assert_eq!(
        String::from_utf8(json.stdout).unwrap().lines().count(),
        GAMES
    );

    let wxf = same_for_every_job_count(&["game", "convert", file, "--output-format", "wxf"]);
    assert_eq!(
        String::from_utf8_lossy(&wxf.stdout)
            .matches("START{")
            .count(),
        GAMES - BROKEN
    );
    // A WXF game file is split at its games too.
    let wxf_path = path.with_extension("wxf");
    std::fs::write(&wxf_path, &wxf.stdout).unwrap();
    let wxf_check = same_for_every_job_count(&["game", "check", wxf_path.to_str().unwrap()]);
    assert_eq!(
        String::from_utf8(wxf_check.stdout).unwrap().lines().count(),
        GAMES - BROKEN
    );

    let pgn = same_for_every_job_count(&["pgn", "convert", file, "--to", "chinese"]);
    assert_eq!(
        String::from_utf8(pgn.stdout)
            .unwrap()
            .matches("[Event ")
            .count(),
        GAMES - BROKEN
    );

    let judged = same_for_every_job_count(&["adjudicate", "--pgn", file, "--json"]);
    let mut lines: Vec<serde_json::Value> = String::from_utf8(judged.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // One object per game, then the summary (docs/cli.md).
    let summary = lines.pop().unwrap();
    assert_eq!(summary["summary"]["games"], GAMES);
    assert_eq!(lines.len(), GAMES);
    let numbers: Vec<u64> = lines.iter().map(|l| l["game"].as_u64().unwrap()).collect();
    assert_eq!(numbers, (1..=GAMES as u64).collect::<Vec<_>>());
    assert_eq!(
        lines.iter().filter(|l| l.get("error").is_some()).count(),
        BROKEN
    );
    // A cut game is judged on its legal part, and says so.
    assert_eq!(
        lines.iter().filter(|l| l.get("warnings").is_some()).count(),
        CUT
    );
    let stderr = String::from_utf8_lossy(&judged.stderr);
    assert_eq!(stderr.matches("warning: ").count(), CUT, "{stderr}");

    let _ = std::fs::remove_dir_all(path.parent().unwrap());
}
