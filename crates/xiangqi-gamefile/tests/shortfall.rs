//! A reader never yields fewer games than the file holds without saying so:
//! for every game file of `../shared/testdata/corpus` (XQF, CBL, CBF, CBR,
//! PGN), the games and errors we yield, plus the CBL headings we skip and
//! count, are at least the games the file holds. What a file holds comes
//! from outside our reader: cchess's reading (`cchess-reference.jsonl`, one
//! line per game, headings included), one for a CBR file (cchess does not
//! read them), and for a PGN file its tag sections.
//!
//! A CBL library must yield exactly the games its index lists (counted
//! here from the index's bytes, not by our reader), headings and errors
//! included; and every record cchess reads (it reads every slot) is either
//! listed or reported as the library's warning.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use xiangqi_test_support::shared_testdata;

use xiangqi_gamefile::Games;

/// Every file under `dir` with a game file's extension.
fn game_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            game_files(&path, out);
        } else if path.extension().is_some_and(|x| {
            ["xqf", "cbl", "cbf", "cbr", "pgn"]
                .iter()
                .any(|e| x.eq_ignore_ascii_case(e))
        }) {
            out.push(path);
        }
    }
}

/// Tag sections of a PGN file: runs of lines starting with `[`.
fn tag_sections(bytes: &[u8]) -> usize {
    let mut sections = 0;
    let mut in_tags = false;
    for line in bytes.split(|&b| b == b'\n') {
        let line = line.trim_ascii_start();
        let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
        let is_tag = line.starts_with(b"[");
        if is_tag && !in_tags {
            sections += 1;
        }
        if !line.is_empty() {
            in_tags = is_tag;
        }
    }
    sections
}

/// Entries of a CBL library's index that list a game: the capacity at 60,
/// 276-byte entries from 66 624, flags with bit 0x02 set (7; 5 is a
/// deleted game). Read here, independently of the reader.
fn index_count(bytes: &[u8]) -> usize {
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let capacity = word(60) as usize;
    (0..capacity)
        .filter(|n| word(66_624 + 276 * n) & 0x02 != 0)
        .count()
}

fn extension(path: &Path) -> String {
    path.extension()
        .map(|x| x.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default()
}

#[test]
fn no_reader_yields_fewer_games_than_the_file_holds() {
    let Some(dir) = shared_testdata("corpus") else {
        return;
    };
    let reference = std::fs::read_to_string(dir.join("cchess-reference.jsonl")).unwrap();
    let mut cchess: BTreeMap<PathBuf, usize> = BTreeMap::new();
    for line in reference.lines() {
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        *cchess
            .entry(dir.join(value["file"].as_str().unwrap()))
            .or_default() += 1;
    }
    let mut files = Vec::new();
    game_files(&dir, &mut files);
    files.sort();
    let mut checked: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut shortfalls = Vec::new();
    for file in &files {
        let kind = extension(file);
        let mut games = Games::open(file, None).unwrap();
        let items: Vec<_> = games.by_ref().collect();
        let yielded = items.len();
        let errors = items.iter().filter(|i| i.is_err()).count();
        let accounted = yielded + games.headings_skipped();
        let held = match kind.as_str() {
            "pgn" => tag_sections(&std::fs::read(file).unwrap()),
            "cbr" => 1,
            _ => *cchess
                .get(file)
                .unwrap_or_else(|| panic!("{}: no reference count", file.display())),
        };
        if kind == "cbl" {
            let bytes = std::fs::read(file).unwrap();
            let listed = index_count(&bytes);
            assert_eq!(games.records_listed(), Some(listed), "{}", file.display());
            // Exactly the index's count, or an error says why not.
            let said = errors > 0;
            assert!(
                accounted == listed || said,
                "{}: {accounted} games, errors and headings for {listed} listed, and no error",
                file.display()
            );
            // What cchess reads beyond the index is reported as old data.
            assert_eq!(
                listed + games.library_warnings().len(),
                held,
                "{}: the index's records and the unlisted ones are not cchess's",
                file.display()
            );
        }
        // A library holds what its index lists (checked above).
        let held = match kind.as_str() {
            "cbl" => held - games.library_warnings().len(),
            _ => held,
        };
        if accounted < held {
            shortfalls.push(format!(
                "{}: {yielded} games and errors + {} headings < {held} held",
                file.display(),
                games.headings_skipped()
            ));
        }
        let tally = checked.entry(kind).or_default();
        tally.0 += 1;
        tally.1 += held;
    }
    for (kind, (files, games)) in &checked {
        println!("{kind}: {files} files, {games} games held");
    }
    assert!(shortfalls.is_empty(), "{shortfalls:#?}");
    // Every kind of file the corpus has was checked (1 163 files).
    assert_eq!(files.len(), 1163);
    assert_eq!(checked.len(), 5);
}
