//! Reading a game file on every core. With one job, or a file too small to
//! split, or standard input, the games are read on the calling thread and
//! only the per-game work is spread over the workers. Otherwise the file is
//! cut into byte ranges at game starts (`xiangqi_gamefile::shards`) and the
//! workers read the ranges themselves, since reading (move text, legality)
//! is most of the cost of `game check`. Either way every game reaches
//! `work` with its index in the file and its errors counted from the file's
//! start, and `sink` sees the answers in file order: the output is the same
//! whatever `--jobs` says.

use std::io;
use std::path::Path;

use anyhow::Result;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use xiangqi_gamefile::{
    count_lines, shards, Format, Game, GameFileError, Games, RangeOrigin, Shard,
};

use crate::parallel;

/// Files at least this big get a progress bar (when stderr is a terminal).
const PROGRESS_MIN_BYTES: u64 = 1 << 20;

/// The size of the byte ranges the workers read: big enough that opening a
/// range costs nothing next to reading it, small enough that a batch of
/// them in memory (as games) stays small and the workers finish a batch at
/// about the same time.
const SHARD_BYTES: u64 = 64 << 10;

/// Ranges read at once per worker (then worked on and written in order).
const SHARDS_PER_WORKER: usize = 4;

fn progress(len: Option<u64>) -> ProgressBar {
    match len {
        Some(len) if len >= PROGRESS_MIN_BYTES => {
            let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template(
                    "{bar:40} {bytes}/{total_bytes} {bytes_per_sec} {msg}",
                )
                .expect("valid template"),
            );
            bar
        }
        _ => ProgressBar::hidden(),
    }
}

/// Opens `path` (`-`: standard input) as a game file, with its size.
pub fn open_games(path: &Path, format: Option<Format>) -> Result<(Games, Option<u64>)> {
    if path.as_os_str() == "-" {
        let games = Games::from_reader(io::stdin(), format, Default::default())?;
        return Ok((games, None));
    }
    let len = std::fs::metadata(path).ok().map(|m| m.len());
    Ok((Games::open(path, format)?, len))
}

/// Games read and games that could not be read.
pub struct Counts {
    pub games: usize,
    pub errors: usize,
}

/// Calls `work` on every game or error of the file (with its 1-based index)
/// on `jobs` threads (the per-game work: formatting, writing, judging) and
/// `sink` on its answers in file order. A file that cannot be read at all
/// (or stops being readable) is an error once the games before are sunk.
pub fn for_each_game<R: Send>(
    path: &Path,
    format: Option<Format>,
    jobs: usize,
    work: impl Fn(usize, Result<Game, GameFileError>) -> R + Sync,
    sink: impl FnMut(R) -> Result<()>,
) -> Result<Counts> {
    let workers = parallel::worker_count(jobs);
    if workers > 1 && path.as_os_str() != "-" {
        let len = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        let wanted = (len / SHARD_BYTES) as usize;
        if wanted >= 2 {
            let ranges = shards(path, format, wanted)?;
            // Binary and XML formats are one range: nothing to split.
            if ranges.iter().filter(|r| !r.is_empty()).count() >= 2 {
                return for_each_game_in_ranges(path, format, workers, &ranges, work, sink);
            }
        }
    }
    for_each_game_read_here(path, format, jobs, work, sink)
}

/// [`for_each_game`] reading on the calling thread.
fn for_each_game_read_here<R: Send>(
    path: &Path,
    format: Option<Format>,
    jobs: usize,
    work: impl Fn(usize, Result<Game, GameFileError>) -> R + Sync,
    sink: impl FnMut(R) -> Result<()>,
) -> Result<Counts> {
    let (games, len) = open_games(path, format)?;
    let mut games = IndexedGames {
        games,
        bar: progress(len),
        index: 0,
        errors: 0,
        read_failure: None,
    };
    parallel::ordered_map(
        jobs,
        games.by_ref(),
        |(index, item)| work(index, item),
        sink,
    )?;
    games.bar.finish_and_clear();
    if let Some(e) = games.read_failure {
        return Err(e.into());
    }
    Ok(Counts {
        games: games.index,
        errors: games.errors,
    })
}

/// The games of a file with their 1-based index, moving a progress bar by
/// bytes read. A failed read ends the games and is kept for the caller.
struct IndexedGames {
    games: Games,
    bar: ProgressBar,
    index: usize,
    errors: usize,
    read_failure: Option<GameFileError>,
}

impl Iterator for IndexedGames {
    type Item = (usize, Result<Game, GameFileError>);

    fn next(&mut self) -> Option<Self::Item> {
        let item = self.games.next()?;
        match item {
            Err(e) if e.is_io() => {
                self.read_failure = Some(e);
                return None;
            }
            Err(_) => self.errors += 1,
            Ok(_) => {}
        }
        self.index += 1;
        if self.index % 256 == 0 {
            self.bar.set_position(self.games.bytes_read());
            self.bar.set_message(format!("{} games", self.index));
        }
        Some((self.index, item))
    }
}

/// The games of one range as its reader yields them (errors counted from
/// the range's start), and the read failure that ended them early, if any.
struct RangeGames {
    items: Vec<Result<Game, GameFileError>>,
    read_failure: Option<GameFileError>,
}

fn read_range(path: &Path, format: Option<Format>, range: Shard) -> RangeGames {
    let mut out = RangeGames {
        items: Vec::new(),
        read_failure: None,
    };
    match Games::open_range(path, format, range.start, range.end) {
        Ok(games) => {
            for item in games {
                match item {
                    Err(e) if e.is_io() => {
                        out.read_failure = Some(e);
                        break;
                    }
                    item => out.items.push(item),
                }
            }
        }
        Err(e) => out.read_failure = Some(e),
    }
    out
}

/// [`for_each_game`] with the workers reading `ranges` of the file, a batch
/// of a few ranges per worker at a time: the batch is read in parallel, its
/// games numbered and its errors placed in the whole file (in order, on
/// this thread: cheap), then worked on in parallel and sunk in order.
fn for_each_game_in_ranges<R: Send>(
    path: &Path,
    format: Option<Format>,
    workers: usize,
    ranges: &[Shard],
    work: impl Fn(usize, Result<Game, GameFileError>) -> R + Sync,
    mut sink: impl FnMut(R) -> Result<()>,
) -> Result<Counts> {
    let bar = progress(ranges.last().map(|r| r.end));
    let mut counts = Counts {
        games: 0,
        errors: 0,
    };
    // Line feeds before `lines_counted_to`: counted only when a range has
    // an error whose line number needs them.
    let (mut lines_counted_to, mut lines) = (0u64, 0usize);
    for batch in ranges.chunks(workers * SHARDS_PER_WORKER) {
        let mut read = Vec::with_capacity(batch.len());
        parallel::ordered_map(
            workers,
            batch.iter().copied(),
            |range| (range, read_range(path, format, range)),
            |done| {
                read.push(done);
                Ok(())
            },
        )?;
        let mut numbered = Vec::new();
        let mut read_failure = None;
        for (range, games) in read {
            let mut origin = RangeOrigin {
                games: counts.games,
                lines: 0,
                byte: range.start,
            };
            if games.items.iter().any(Result::is_err) || games.read_failure.is_some() {
                lines += count_lines(path, lines_counted_to, range.start)?;
                lines_counted_to = range.start;
                origin.lines = lines;
            }
            for item in games.items {
                counts.games += 1;
                let item = item.map_err(|e| {
                    counts.errors += 1;
                    e.counted_from_file_start(origin)
                });
                numbered.push((counts.games, item));
            }
            if let Some(e) = games.read_failure {
                read_failure = Some(e.counted_from_file_start(origin));
                break;
            }
            bar.set_position(range.end);
        }
        bar.set_message(format!("{} games", counts.games));
        parallel::ordered_map(
            workers,
            numbered.into_iter(),
            |(index, item)| work(index, item),
            &mut sink,
        )?;
        if let Some(e) = read_failure {
            bar.finish_and_clear();
            return Err(e.into());
        }
    }
    bar.finish_and_clear();
    Ok(counts)
}
