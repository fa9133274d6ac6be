//! The one collection reader (`corpus::read_collection`): events in
//! collection order, a bad file reported in its place and the run going on,
//! the summary and its outcome, the same for any number of workers and for
//! the per-worker-state reader (`read_collection_with`).

use std::path::Path;

use xiangqi_gamefile::collection::collect;
use xiangqi_gamefile::corpus::{
    read_collection, read_collection_with, CollectionOptions, Event, PerGameWork, ReadOutcome,
    Summary,
};
use xiangqi_gamefile::ReaderOptions;
use xiangqi_parallel::PoolError;

fn write(dir: &Path, name: &str, bytes: &[u8]) {
    std::fs::write(dir.join(name), bytes).unwrap();
}

/// A scratch folder, removed when dropped.
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A folder with a good file, a file with a broken game, a file with a cut
/// line, and junk named as XQF.
fn folder(name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("collection-reader-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let dir = Scratch(dir);
    let path = dir.path();
    write(
        path,
        "a.pgn",
        b"[Red \"A\"]\n1. h2e2 h9g7 1-0\n\n[Red \"B\"]\n1. c3c4 *\n",
    );
    write(
        path,
        "b.pgn",
        b"[Red \"C\"]\n1. h2e2 ??? *\n\n[Red \"D\"]\n1. b2e2 *\n",
    );
    write(path, "c.pgn", b"[Red \"E\"]\n1. h2e2 h2e2 *\n");
    write(path, "d.xqf", &[0u8, 1, 2, 3, 4, 5, 6, 7]);
    dir
}

/// The events of a run as text, and its summary.
fn events(dir: &Path, options: &CollectionOptions, per_worker: bool) -> (Vec<String>, Summary) {
    let files = collect([dir]).unwrap();
    let mut seen = Vec::new();
    let describe =
        |at: xiangqi_gamefile::corpus::GameAt<'_>,
         item: Result<xiangqi_gamefile::Game, xiangqi_gamefile::GameFileError>| {
            match item {
                Ok(game) => format!(
                    "{} ok {} plies {} warnings",
                    at.name(),
                    game.plies(),
                    game.errors.len()
                ),
                Err(e) => format!("{} error {}", at.name(), e.message()),
            }
        };
    let mut sink = |event: Event<'_, String>| {
        seen.push(match event {
            Event::File(file) => format!("file {}", file.name),
            Event::Game(text) => text,
            Event::Warning(file, w) => format!("warning {} {}", file.name, w.message()),
            Event::Unreadable(what) => format!("unreadable {what}"),
        });
        Ok::<(), PoolError>(())
    };
    let summary = if per_worker {
        let states = vec![0usize; 3];
        read_collection_with(
            &files,
            options,
            states,
            &mut (),
            |count, at, item| {
                *count += 1;
                describe(at, item)
            },
            &mut sink,
        )
    } else {
        read_collection(&files, options, &mut (), describe, &mut sink)
    }
    .unwrap();
    (seen, summary)
}

#[test]
fn every_game_in_collection_order_and_the_run_goes_on() {
    let dir = folder("order");
    let (seen, summary) = events(dir.path(), &CollectionOptions::default(), false);
    assert_eq!(seen[0], "file a.pgn");
    assert_eq!(seen[1], "a.pgn#1 ok 2 plies 0 warnings");
    assert_eq!(seen[2], "a.pgn#2 ok 1 plies 0 warnings");
    assert_eq!(seen[3], "file b.pgn");
    assert!(seen[4].starts_with("b.pgn#1 error "), "{seen:?}");
    assert_eq!(seen[5], "b.pgn#2 ok 1 plies 0 warnings");
    assert_eq!(seen[6], "file c.pgn");
    assert_eq!(seen[7], "c.pgn#1 ok 1 plies 1 warnings");
    assert_eq!(seen[8], "file d.xqf");
    assert_eq!(seen[9], "d.xqf error not an XQF file: no XQF signature");
    assert_eq!(seen.len(), 10);
    assert_eq!(
        summary,
        Summary {
            files: 4,
            games: 6,
            warnings: 1,
            broken_games: 2,
            unreadable: 0,
        }
    );
    assert_eq!(summary.outcome(), ReadOutcome::SomeErrors);
    assert_eq!(summary.line(), "files: 4, games: 6, warnings: 1, errors: 2");
}

#[test]
fn the_same_events_whatever_the_workers_and_the_work() {
    let dir = folder("workers");
    let one = CollectionOptions {
        jobs: 1,
        ..CollectionOptions::default()
    };
    let expected = events(dir.path(), &one, false);
    for jobs in [2, 4, 0] {
        for work in [PerGameWork::Light, PerGameWork::Heavy] {
            let options = CollectionOptions {
                jobs,
                work,
                ..CollectionOptions::default()
            };
            assert_eq!(
                events(dir.path(), &options, false),
                expected,
                "{jobs} {work:?}"
            );
        }
        let options = CollectionOptions {
            jobs,
            ..CollectionOptions::default()
        };
        assert_eq!(
            events(dir.path(), &options, true),
            expected,
            "{jobs} per worker"
        );
    }
}

#[test]
fn strict_reading_makes_a_cut_line_an_error_and_a_missing_file_is_unreadable() {
    let dir = folder("strict");
    let strict = CollectionOptions {
        reader: ReaderOptions {
            strict: true,
            ..ReaderOptions::default()
        },
        ..CollectionOptions::default()
    };
    let (seen, summary) = events(dir.path(), &strict, false);
    assert!(seen[7].starts_with("c.pgn#1 error "), "{seen:?}");
    assert_eq!((summary.warnings, summary.broken_games), (0, 3));

    let missing = dir.path().join("missing.pgn");
    let files = collect([&missing]).unwrap();
    let mut unreadable = Vec::new();
    let summary = read_collection(
        &files,
        &CollectionOptions::default(),
        &mut (),
        |_, _| (),
        |event| {
            if let Event::Unreadable(what) = event {
                unreadable.push(what.to_string());
            }
            Ok::<(), PoolError>(())
        },
    )
    .unwrap();
    assert_eq!(unreadable.len(), 1);
    assert!(
        unreadable[0].contains("missing.pgn: file: read error"),
        "{unreadable:?}"
    );
    assert_eq!(summary.outcome(), ReadOutcome::NothingRead);
}
