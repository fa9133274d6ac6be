//! The real files of `../shared/testdata/corpus` against what cchess 1.25.5
//! reads from them (`cchess-reference.jsonl`): the same start position and
//! the same lines, main line first and the variations as a set. The files
//! where the two differ are listed in `docs/gamefile.md` with the reason; a
//! new difference fails this test.

use std::collections::{BTreeMap, BTreeSet};

use xiangqi_test_support::shared_testdata;

use xiangqi_gamefile::Game;
use xiangqi_gamefile::{lines, ErrorKind, Games};

/// Board and side of a FEN, `r` written as `w`.
fn board_and_side(fen: &str) -> String {
    let mut parts = fen.split_whitespace();
    let board = parts.next().unwrap_or("");
    let side = match parts.next() {
        Some("b") => "b",
        _ => "w",
    };
    format!("{board} {side}")
}

fn our_lines(game: &Game) -> Vec<Vec<String>> {
    lines(&game.mainline)
        .into_iter()
        .map(|l| l.iter().map(|m| m.to_string()).collect())
        .collect()
}

/// How a game compares with the reference.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Clone)]
enum Outcome {
    Agree,
    /// A CBL heading: cchess gives an empty board, we skip the record.
    Heading,
    /// A CBL record in a slot the index does not list (a deleted game's
    /// old data): cchess reads every slot, we report it as the library's
    /// warning, not as a game.
    Unlisted,
    /// A CBL game whose title (the index's) is not cchess's (the record's).
    TitleDiffers,
    StartDiffers,
    MainLineDiffers,
    VariationsDiffer,
    OrderDiffers,
    /// cchess plays a move we find illegal: we return the legal part of
    /// each line (every one a beginning of one of cchess's lines) and the
    /// game's first error, named here.
    Cut(String),
    WeFail(String),
}

fn compare(game: &Game, reference: &serde_json::Value) -> Outcome {
    let fen = game.start_position().unwrap().to_fen();
    if board_and_side(&fen) != board_and_side(reference["fen"].as_str().unwrap_or("")) {
        return Outcome::StartDiffers;
    }
    let theirs: Vec<Vec<String>> = match reference["lines"].as_array() {
        Some(lines) => lines
            .iter()
            .map(|l| {
                l.as_array()
                    .map(|l| l.iter().map(|m| m.as_str().unwrap().to_owned()).collect())
                    .unwrap_or_default()
            })
            .collect(),
        None => Vec::new(),
    };
    let ours = our_lines(game);
    if let Some(first) = game.errors.first() {
        let is_beginning_of_theirs =
            |line: &Vec<String>| theirs.iter().any(|t| t.starts_with(line));
        return match ours.iter().all(is_beginning_of_theirs) {
            true => Outcome::Cut(first.kind.to_string()),
            false => Outcome::MainLineDiffers,
        };
    }
    if let Some(title) = reference["info"]["title"].as_str() {
        if reference["file"]
            .as_str()
            .is_some_and(|f| f.ends_with(".CBL"))
            && game.tag("Title") != Some(title.trim())
        {
            return Outcome::TitleDiffers;
        }
    }
    let main = |l: &[Vec<String>]| l.first().cloned().unwrap_or_default();
    if main(&ours) != main(&theirs) {
        return Outcome::MainLineDiffers;
    }
    let rest = |l: &[Vec<String>]| l.iter().skip(1).cloned().collect::<BTreeSet<_>>();
    if rest(&ours) != rest(&theirs) {
        return Outcome::VariationsDiffer;
    }
    // The same set; `lines()` also lists them in the reference's order.
    if ours.len() > 1 && ours != theirs {
        return Outcome::OrderDiffers;
    }
    Outcome::Agree
}

#[test]
fn the_corpus_reads_as_cchess_reads_it() {
    let Some(dir) = shared_testdata("corpus") else {
        return;
    };
    let reference = std::fs::read_to_string(dir.join("cchess-reference.jsonl")).unwrap();
    let mut by_file: BTreeMap<String, Vec<serde_json::Value>> = BTreeMap::new();
    for line in reference.lines() {
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        by_file
            .entry(value["file"].as_str().unwrap().to_owned())
            .or_default()
            .push(value);
    }
    let mut tally: BTreeMap<(String, Outcome), usize> = BTreeMap::new();
    let mut differences = Vec::new();
    for (file, entries) in &by_file {
        let group = format!(
            "{} {}",
            file.split('/').next().unwrap(),
            file.rsplit('.').next().unwrap().to_ascii_uppercase()
        );
        let (games, warnings): (Vec<_>, _) = match Games::open(dir.join(file), None) {
            Ok(mut games) => (games.by_ref().collect(), games.library_warnings()),
            Err(e) => (vec![Err(e)], Vec::new()),
        };
        // cchess reads a library's slots in order, one record each here.
        let unlisted: BTreeSet<usize> = warnings
            .iter()
            .filter_map(|w| match w.kind {
                ErrorKind::UnlistedRecord { slot, .. } => Some(slot),
                _ => None,
            })
            .collect();
        // CBL headings (an empty board) are no games: we skip them.
        let mut ours = games.iter();
        for entry in entries {
            if entry.get("error").is_some() {
                continue; // cchess could not read it (the GBK PGN: see below)
            }
            let index = entry["index"].as_u64().unwrap() as usize;
            if entry["fen"]
                .as_str()
                .is_some_and(|f| f.starts_with("9/9/9/9/9/9/9/9/9/9 "))
            {
                differences.push(format!("{file} #{index}: Heading"));
                *tally.entry((group.clone(), Outcome::Heading)).or_default() += 1;
                continue;
            }
            if unlisted.contains(&index) {
                differences.push(format!("{file} #{index}: Unlisted"));
                *tally.entry((group.clone(), Outcome::Unlisted)).or_default() += 1;
                continue;
            }
            let outcome = match ours.next() {
                Some(Ok(game)) => compare(game, entry),
                Some(Err(e)) => Outcome::WeFail(e.kind.to_string()),
                None => Outcome::WeFail("missing game".to_owned()),
            };
            if outcome != Outcome::Agree {
                differences.push(format!("{file} #{index}: {outcome:?}"));
            }
            *tally.entry((group.clone(), outcome)).or_default() += 1;
        }
    }
    for ((group, outcome), n) in &tally {
        println!("{group}: {outcome:?}: {n}");
    }
    for d in &differences {
        println!("{d}");
    }
    // Each difference is explained in docs/gamefile.md.
    let expected = [
        "games/1989年龙化杯象棋名师邀请赛35局.CBL #0: Heading",
        "games/1989年龙化杯象棋名师邀请赛35局.CBL #21: Heading",
        "games/1989年龙化杯象棋名师邀请赛35局.CBL #37: Unlisted",
        "xqf/现代排局/寸土必争 红先胜.xqf #0: Cut(\"ply 6: illegal move e8d8: it leaves the black general in check (R-LEGAL-SELFCHECK/R-LEGAL-FACING)\")",
    ];
    assert_eq!(differences, expected);
    let agree = |group: &str| {
        tally
            .get(&(group.to_owned(), Outcome::Agree))
            .copied()
            .unwrap_or(0)
    };
    assert_eq!(agree("xqf XQF"), 1154, "of the 1155 files of xqf/");
    assert_eq!(agree("games XQF"), 1);
    assert_eq!(agree("games CBL"), 128);
    assert_eq!(agree("games CBF"), 2);
}

/// CBR files, which cchess does not read: every move of every line is
/// legal (the reader checks), the title is decoded, and the tree of
/// `test.cbr` has its 12 lines.
#[test]
fn the_cbr_files_read_with_their_variations() {
    let Some(dir) = shared_testdata("corpus") else {
        return;
    };
    for (name, title, plies, line_count) in [
        ("test", "黄丹青讲座004-破解新式弃马局的攻防要领", 28, 12),
        ("test2", "Test", 2, 1),
    ] {
        let mut games = Games::open(dir.join(format!("games/{name}.cbr")), None).unwrap();
        let game = games.next().unwrap().unwrap();
        assert!(games.next().is_none());
        assert_eq!(game.tag("Title"), Some(title));
        assert_eq!(game.plies(), plies, "{name}");
        assert_eq!(our_lines(&game).len(), line_count, "{name}");
    }
}

/// The GBK PGN, which cchess cannot decode: its game reads; the line of
/// `=` signs after the game's `*` is text after the last game, a warning on
/// the file (`Games::library_warnings`), not a second, broken game.
#[test]
fn the_gbk_pgn_reads() {
    let Some(dir) = shared_testdata("corpus") else {
        return;
    };
    let mut reader = Games::open(dir.join("games/中炮对列炮黑先平士角炮.pgn"), None).unwrap();
    let games: Vec<_> = reader.by_ref().collect();
    assert_eq!(games.len(), 1);
    let game = games[0].as_ref().unwrap();
    assert_eq!(game.plies(), 23);
    assert_eq!(game.moves().next().unwrap().to_string(), "h2e2");
    let warnings = reader.library_warnings();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let error = &warnings[0];
    assert!(
        matches!(error.kind, xiangqi_gamefile::ErrorKind::AfterLastGame(_)),
        "{error}"
    );
    assert_eq!(
        (error.game, error.location),
        (
            0,
            xiangqi_gamefile::Location::Text {
                line: 29,
                column: 3
            }
        )
    );
}
