//! Round trips over the real files: XQF written and read back is the same
//! game; every format written as PGN and read back has the same main line
//! and variations.

use std::path::{Path, PathBuf};
use xiangqi_test_support::shared_testdata;

use xiangqi_gamefile::pgn::{read_str, write_game, WriteOptions};
use xiangqi_gamefile::Game;
use xiangqi_gamefile::{lines, write_xqf, Format, Games};
use xiangqi_notation::Notation;

/// Every game of every file under `dir` that reads.
fn games_under(dir: &Path, out: &mut Vec<(PathBuf, Game)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            games_under(&path, out);
        } else if path.extension().is_some_and(|e| e != "jsonl" && e != "md") {
            for game in Games::open(&path, None).unwrap().flatten() {
                out.push((path.clone(), game));
            }
        }
    }
}

#[test]
fn xqf_written_reads_back_identically_and_pgn_keeps_every_line() {
    let Some(dir) = shared_testdata("corpus") else {
        return;
    };
    let mut games = Vec::new();
    games_under(&dir, &mut games);
    assert!(games.len() > 1280, "{} games", games.len());
    let mut with_variations = 0;
    // Games round-tripped per input format: every binary and XML format of
    // the corpus must be among them, not only the many XQF files.
    let mut per_format = std::collections::HashMap::<Format, usize>::new();
    for (path, game) in &games {
        let xqf = write_xqf(game).unwrap();
        let mut again = Games::from_bytes(&xqf, Some(Format::Xqf));
        let back = again
            .next()
            .unwrap()
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if Format::sniff(&std::fs::read(path).unwrap()) == Format::Xqf {
            // The record round-trips; its reading errors are not written.
            let mut expected = game.clone();
            expected.errors.clear();
            assert_eq!(back, expected, "{}", path.display());
        } else {
            // Other formats' tags may not fit XQF's fields; the moves do.
            assert_eq!(back.mainline, game.mainline, "{}", path.display());
        }

        let pgn = write_game(game, &WriteOptions::new(Notation::Chinese)).unwrap();
        let read = read_str(&pgn)
            .next()
            .unwrap()
            .unwrap_or_else(|e| panic!("{}: {e}\n{pgn}", path.display()));
        let (ours, theirs) = (lines(&game.mainline), lines(&read.mainline));
        assert_eq!(ours, theirs, "{}", path.display());
        assert_eq!(
            read.start_position().unwrap().to_fen(),
            game.start_position().unwrap().to_fen()
        );
        with_variations += usize::from(ours.len() > 1);
        *per_format
            .entry(Format::sniff(&std::fs::read(path).unwrap()))
            .or_default() += 1;
    }
    println!("games round-tripped per format: {per_format:?}");
    for format in [
        Format::Xqf,
        Format::Cbr,
        Format::Cbl,
        Format::Cbf,
        Format::Pgn,
    ] {
        assert!(
            per_format.get(&format).is_some_and(|&n| n > 0),
            "no {format} game round-tripped: {per_format:?}"
        );
    }
    assert!(
        with_variations > 100,
        "{with_variations} games with variations"
    );
}

/// Walking the tree node by node (`NodePath`), children in order, finds the
/// lines `lines()` lists, in the same order, and every child's parent is
/// the node it came from.
#[test]
fn node_paths_walk_the_same_lines() {
    use xiangqi_gamefile::NodePath;
    let Some(dir) = shared_testdata("corpus") else {
        return;
    };
    let mut games = Vec::new();
    games_under(&dir.join("games"), &mut games);
    games_under(&dir.join("xqf/中局攻杀谱"), &mut games);
    for (path, game) in &games {
        let mut leaves = Vec::new();
        let mut stack = vec![NodePath::root()];
        while let Some(node) = stack.pop() {
            let children = node.children(&game.mainline);
            if children.is_empty() {
                leaves.push(node.moves(&game.mainline).unwrap());
            }
            for child in children.iter().rev() {
                assert_eq!(child.parent().as_ref(), Some(&node), "{}", path.display());
                stack.push(child.clone());
            }
        }
        let mut expected = lines(&game.mainline);
        if game.mainline.moves.is_empty() {
            expected = vec![Vec::new()];
        }
        let (mut a, mut b) = (leaves.clone(), expected.clone());
        a.sort();
        b.sort();
        assert_eq!(a, b, "{}", path.display());
        assert_eq!(
            leaves[0],
            expected[0],
            "main line first: {}",
            path.display()
        );
    }
}
