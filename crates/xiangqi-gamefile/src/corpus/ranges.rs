//! Reading the byte ranges of one file on the workers of the ordered map.
//! A worker takes the next range, reads it, and publishes how many games and
//! line feeds it holds on the [`OriginBoard`]. Once the ranges before it
//! are all published its origin (games and lines before it) is known: the
//! worker numbers its games, moves their errors to "counted from the file's
//! start" and works on them. The map hands the ranges out in file order, so
//! every range before a worker's is already in another worker's hands and
//! being read: the wait is short and cannot close a cycle.

use std::path::Path;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::thread;

use xiangqi_parallel::{ordered_map_with, PoolError};

use super::{Counts, FileRead, ReadProgress};
use crate::{Format, Game, GameFileError, RangeOrigin, ReaderOptions, Shard, ShardReader};

/// The games of one range as its reader yields them (errors counted from
/// the range's start), the line feeds the range holds, and the read
/// failure that ended the games early, if any.
struct RangeGames {
    items: Vec<Result<Game, GameFileError>>,
    line_feeds: usize,
    read_failure: Option<GameFileError>,
    /// What the range holds besides its games (text after the file's last game).
    warnings: Vec<GameFileError>,
}

/// A worker's reader of the file, opened on its first range.
type WorkerReader = Option<Result<ShardReader, GameFileError>>;

/// Reads `range` with a worker's reader of the file (or the error that
/// opening it gave).
fn read_range(reader: &mut Result<ShardReader, GameFileError>, range: Shard) -> RangeGames {
    let mut out = RangeGames {
        items: Vec::new(),
        line_feeds: 0,
        read_failure: None,
        warnings: Vec::new(),
    };
    let shard = match reader {
        Ok(reader) => reader.read(range),
        Err(e) => Err(e.clone()),
    };
    match shard {
        Ok(shard) => {
            // A failed read leaves the lines after it counted from the range.
            out.line_feeds = shard.line_feeds;
            let mut games = shard.games;
            for item in games.by_ref() {
                match item {
                    Err(e) if e.is_io() => {
                        out.read_failure = Some(e);
                        break;
                    }
                    item => out.items.push(item),
                }
            }
            out.warnings = games.library_warnings();
        }
        Err(e) => out.read_failure = Some(e),
    }
    out
}

/// The games and line feeds before each range, known as the ranges are read.
struct Origins {
    /// Games and line feeds of each range, once read.
    sizes: Vec<Option<(usize, usize)>>,
    /// `known[r]`: games and line feeds before range `r`, for every range
    /// up to `known.len() - 1`.
    known: Vec<(usize, usize)>,
    /// A worker died: its range will never be published.
    abandoned: bool,
}

/// Where the workers publish their ranges' sizes and wait for their origin.
struct OriginBoard {
    origins: Mutex<Origins>,
    published: Condvar,
}

impl OriginBoard {
    fn new(ranges: usize) -> OriginBoard {
        OriginBoard {
            origins: Mutex::new(Origins {
                sizes: vec![None; ranges],
                known: vec![(0, 0)],
                abandoned: false,
            }),
            published: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Origins> {
        self.origins.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Records range `r`'s games and line feeds, then waits until the
    /// ranges before it are all recorded: its origin, or `None` when a
    /// worker died before recording its range.
    fn publish_and_wait(
        &self,
        ranges: &[Shard],
        r: usize,
        size: (usize, usize),
    ) -> Option<RangeOrigin> {
        let mut origins = self.lock();
        origins.sizes[r] = Some(size);
        let before = origins.known.len();
        while let Some(&Some((games, lines))) = origins.sizes.get(origins.known.len() - 1) {
            let &(g, l) = origins.known.last().expect("the first range's origin");
            origins.known.push((g + games, l + lines));
        }
        if origins.known.len() > before {
            self.published.notify_all();
        }
        loop {
            if let Some(&(games, lines)) = origins.known.get(r) {
                return Some(RangeOrigin {
                    games,
                    lines,
                    byte: ranges[r].start,
                });
            }
            if origins.abandoned {
                return None;
            }
            origins = self
                .published
                .wait(origins)
                .unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Wakes the workers waiting for an origin that will never come.
    fn abandon(&self) {
        self.lock().abandoned = true;
        self.published.notify_all();
    }
}

/// Abandons the board when a worker dies (a panic), so that nobody waits
/// for the range it held; the map then fails with `PoolError::WorkerDied`.
struct AbandonOnPanic<'a>(&'a OriginBoard);

impl Drop for AbandonOnPanic<'_> {
    fn drop(&mut self) {
        if thread::panicking() {
            self.0.abandon();
        }
    }
}

/// One range's answers, in order, for the sink.
struct RangeDone<R> {
    range: usize,
    /// What the range holds besides its games.
    warnings: Vec<GameFileError>,
    answers: Vec<R>,
    counts: Counts,
    read_failure: Option<GameFileError>,
}

/// Why the sink stopped the map early.
enum Halt<E> {
    /// The caller's sink failed, or the pool did.
    Sink(E),
    /// The file stopped being readable: the games after are not read.
    ReadFailed(GameFileError),
}

impl<E: From<PoolError>> From<PoolError> for Halt<E> {
    fn from(e: PoolError) -> Halt<E> {
        Halt::Sink(e.into())
    }
}

/// [`read_each_game`](super::read_each_game) with `workers` threads
/// reading `ranges` of the file, `work` numbering from the file's start.
pub(super) fn read_ranges<R, E>(
    path: &Path,
    (format, options): (Format, ReaderOptions),
    workers: usize,
    ranges: &[Shard],
    mut progress: impl FnMut(ReadProgress),
    work: impl Fn(usize, Result<Game, GameFileError>) -> R + Sync,
    mut sink: impl FnMut(R) -> Result<(), E>,
) -> Result<FileRead, E>
where
    R: Send,
    E: From<PoolError>,
{
    let board = OriginBoard::new(ranges.len());
    let work_range = |reader: &mut WorkerReader, r: usize| -> Option<RangeDone<R>> {
        let _abandon_on_panic = AbandonOnPanic(&board);
        let reader =
            reader.get_or_insert_with(|| ShardReader::open_with(path, Some(format), options));
        let games = read_range(reader, ranges[r]);
        let origin = board.publish_and_wait(ranges, r, (games.items.len(), games.line_feeds))?;
        let mut errors = 0;
        let count = games.items.len();
        let answers = games
            .items
            .into_iter()
            .enumerate()
            .map(|(k, item)| {
                let item = item
                    .map(|game| game.counted_from_file_start(origin))
                    .map_err(|e| {
                        errors += 1;
                        e.counted_from_file_start(origin)
                    });
                work(origin.games + k + 1, item)
            })
            .collect();
        let warnings = games.warnings;
        Some(RangeDone {
            range: r,
            warnings: warnings
                .into_iter()
                .map(|e| e.counted_from_file_start(origin))
                .collect(),
            answers,
            counts: Counts {
                games: count,
                errors,
            },
            read_failure: games
                .read_failure
                .map(|e| e.counted_from_file_start(origin)),
        })
    };
    let mut counts = Counts::default();
    let mut warnings = Vec::new();
    let outcome = ordered_map_with(
        (0..workers).map(|_| WorkerReader::None).collect(),
        0..ranges.len(),
        work_range,
        |done| -> Result<(), Halt<E>> {
            // `None` only once a worker died: the map fails after this.
            let Some(done) = done else {
                return Err(PoolError::WorkerDied.into());
            };
            counts.games += done.counts.games;
            counts.errors += done.counts.errors;
            warnings.extend(done.warnings);
            for answer in done.answers {
                sink(answer).map_err(Halt::Sink)?;
            }
            if let Some(e) = done.read_failure {
                return Err(Halt::ReadFailed(e));
            }
            progress(ReadProgress {
                bytes: ranges[done.range].end,
                games: counts.games,
            });
            Ok(())
        },
    );
    match outcome {
        Ok(()) => Ok(FileRead {
            counts,
            failure: None,
            warnings,
        }),
        Err(Halt::ReadFailed(e)) => Ok(FileRead {
            counts,
            failure: Some(e),
            warnings,
        }),
        Err(Halt::Sink(e)) => Err(e),
    }
}
