//! `corpus::read_each_game` on every core: the same answers, in the same
//! order, with the same errors and line numbers, whatever the job count;
//! a failing sink or a dying worker ends the reading without a hang.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use xiangqi_core::random_game;
use xiangqi_gamefile::corpus::{read_each_game, splits, Counts, ReadProgress};
use xiangqi_gamefile::{Format, Game, GameFileError};
use xiangqi_parallel::PoolError;

#[derive(Debug, PartialEq)]
enum Failure {
    Pool(PoolError),
    StoppedAt(usize),
}

impl From<PoolError> for Failure {
    fn from(e: PoolError) -> Failure {
        Failure::Pool(e)
    }
}

/// A PGN file of random games, every 17th with an illegal move (a cut
/// line, a game with errors) and every 29th with a broken tag (an error),
/// big enough to be cut into ranges.
fn corpus(name: &str) -> PathBuf {
    let mut text = String::new();
    for index in 0..900u64 {
        if index % 29 == 3 {
            text.push_str("[Event \"broken\n");
        }
        let _ = write!(text, "[Event \"game {index}\"]\n\n");
        let mut ply = 0;
        random_game(index, 20 + (index as usize % 50), |_, mv| {
            if ply % 2 == 0 {
                let _ = write!(text, "{}. ", ply / 2 + 1);
            }
            let _ = write!(text, "{mv} ");
            ply += 1;
        });
        if index % 17 == 5 {
            text.push_str("a0a9 ");
        }
        text.push_str("*\n\n");
    }
    let dir = std::env::temp_dir().join(format!("corpus-reader-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write the corpus");
    assert!(splits(std::fs::metadata(&path).expect("written").len()));
    path
}

/// What a game gives, with every error and place it names.
fn described(format: Format, index: usize, item: Result<Game, GameFileError>) -> String {
    match item {
        Ok(game) => format!(
            "{format:?} {index} {:?} {} plies, errors {:?}",
            game.tag("Event"),
            game.plies(),
            game.errors
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
        ),
        Err(e) => format!("{index} error {e}"),
    }
}

fn read_all(path: &Path, jobs: usize) -> (Vec<String>, Counts, Vec<ReadProgress>) {
    let (mut answers, mut progress) = (Vec::new(), Vec::new());
    let read = read_each_game(
        path,
        None,
        jobs,
        |at| progress.push(at),
        described,
        |answer| {
            answers.push(answer);
            Ok::<(), Failure>(())
        },
    )
    .expect("no sink error");
    assert!(read.failure.is_none(), "{:?}", read.failure);
    (answers, read.counts, progress)
}

#[test]
fn every_job_count_reads_what_one_job_reads() {
    let path = corpus("jobs.pgn");
    let (one, counts, _) = read_all(&path, 1);
    assert_eq!(counts.games, one.len());
    assert!(counts.errors > 0, "the broken tags are errors");
    assert!(one.iter().any(|a| a.contains("errors [\"")), "cut lines");
    for jobs in [2, 3, 5] {
        let (many, many_counts, progress) = read_all(&path, jobs);
        assert_eq!(many, one, "jobs {jobs}");
        assert_eq!(many_counts, counts, "jobs {jobs}");
        assert!(progress.windows(2).all(|w| w[0].bytes <= w[1].bytes));
        assert_eq!(progress.last().map(|p| p.games), Some(counts.games));
    }
}

#[test]
fn a_sink_error_stops_the_reading() {
    let path = corpus("sink.pgn");
    for jobs in [1, 2, 4] {
        let mut seen = 0;
        let outcome = read_each_game(
            &path,
            None,
            jobs,
            |_| {},
            |_, index, _| index,
            |index| {
                seen += 1;
                match index {
                    100 => Err(Failure::StoppedAt(index)),
                    _ => Ok(()),
                }
            },
        );
        assert_eq!(outcome.unwrap_err(), Failure::StoppedAt(100), "jobs {jobs}");
        assert_eq!(seen, 100, "jobs {jobs}");
    }
}

#[test]
fn a_worker_that_dies_fails_the_reading_without_a_hang() {
    let path = corpus("panic.pgn");
    for jobs in [2, 4] {
        let outcome = read_each_game(
            &path,
            None,
            jobs,
            |_| {},
            |_, index, _| {
                assert!(index != 20, "the worker dies on game {index}");
                index
            },
            |_| Ok::<(), Failure>(()),
        );
        assert_eq!(
            outcome.unwrap_err(),
            Failure::Pool(PoolError::WorkerDied),
            "jobs {jobs}"
        );
    }
}
