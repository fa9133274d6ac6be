//! Reading a game file on every core and applying a function to every game,
//! in file order, on N threads (`xiangqi_parallel`'s ordered map). With one
//! job, or a file too small to split, or standard input (`-`), the games
//! are read on the calling thread and only the per-game work is spread over
//! the workers. Otherwise the file is cut into byte ranges at game starts
//! ([`shards`](crate::shards)) and the workers read the ranges themselves,
//! since reading (move text, legality) is most of the cost of checking a
//! file. Either way every game reaches `work` with its 1-based index in the
//! file and its errors counted from the file's start, and `sink` sees the
//! answers in file order: the answers are the same whatever `jobs` says.
//!
//! ```
//! use xiangqi_gamefile::corpus::for_each_game;
//! use xiangqi_gamefile::GameFileError;
//! use xiangqi_parallel::PoolError;
//!
//! #[derive(Debug)]
//! enum Error {
//!     File(GameFileError),
//!     Pool(PoolError),
//! }
//! impl From<GameFileError> for Error {
//!     fn from(e: GameFileError) -> Error { Error::File(e) }
//! }
//! impl From<PoolError> for Error {
//!     fn from(e: PoolError) -> Error { Error::Pool(e) }
//! }
//!
//! let dir = std::env::temp_dir().join(format!("corpus-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let path = dir.join("two.pgn");
//! std::fs::write(&path, "[Red \"A\"]\n1. h2e2 h9g7 *\n\n[Red \"B\"]\n1. h2e2 *\n").unwrap();
//! let mut plies = Vec::new();
//! let counts = for_each_game(
//!     &path,
//!     None,
//!     2,
//!     |index, game| (index, game.map(|g| g.plies())),
//!     |(index, length)| {
//!         plies.push((index, length?));
//!         Ok::<(), Error>(())
//!     },
//! )
//! .unwrap();
//! assert_eq!(plies, [(1, 2), (2, 1)]);
//! assert_eq!((counts.games, counts.errors), (2, 0));
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```

mod files;
mod indexed;
mod ranges;

use std::path::Path;

use xiangqi_parallel::{ordered_map, worker_count, PoolError};

use crate::{shards, Format, Game, GameFileError, ReaderOptions, ShardReader, TextEncoding};

pub use files::{
    read_collection, read_collection_with, CollectionCursor, CollectionEntry, CollectionOptions,
    CollectionProgress, Event, GameAt, PerGameWork, Pulled, ReadOutcome, Summary, Unreadable,
};
pub use indexed::IndexedGames;

/// The size of the byte ranges the workers read: big enough that opening a
/// range costs nothing next to reading it, small enough that the ranges in
/// flight (as answers) stay small and the workers finish a batch of them at
/// about the same time.
const SHARD_BYTES: u64 = 64 << 10;

/// Games read and games that could not be read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Games read, broken ones included.
    pub games: usize,
    /// Games that could not be read.
    pub errors: usize,
}

/// What reading one file gave: its games counted, and the failure that
/// ended the reading early (the file could not be opened, or stopped being
/// readable), if any.
#[derive(Debug)]
pub struct FileRead {
    /// The games read before the end (or the failure).
    pub counts: Counts,
    /// Why the reading ended before the end of the file, if it did.
    pub failure: Option<GameFileError>,
    /// What the file holds besides its games, as warnings: a CBL library's
    /// records that its index does not list ([`Games::library_warnings`](crate::Games::library_warnings)).
    pub warnings: Vec<GameFileError>,
}

impl FileRead {
    /// A file that could not be read at all.
    pub fn failed(error: GameFileError) -> FileRead {
        FileRead {
            counts: Counts::default(),
            failure: Some(error),
            warnings: Vec::new(),
        }
    }
}

/// How far the reading of a file is, for a progress display: called on the
/// calling thread now and then (every few hundred games or every range).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadProgress {
    /// Bytes of the file read so far.
    pub bytes: u64,
    /// Games (broken ones included) handed to the sink so far.
    pub games: usize,
}

/// What `work` learns of the file a game comes from: its format (sniffed
/// or given) and the encoding of its text ([`Games::encoding`](crate::Games::encoding)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileInfo {
    /// The format read.
    pub format: Format,
    /// The encoding the file's text is read in (the same for every range
    /// of a file read in ranges: decided once, from its start).
    pub encoding: Option<TextEncoding>,
}

/// Whether a file of `len` bytes is worth cutting into ranges for the
/// workers to read (two ranges at least).
pub fn splits(len: u64) -> bool {
    len / SHARD_BYTES >= 2
}

/// Calls `work` on every game or error of the file at `path` (`-`: standard
/// input), with its 1-based index, on `jobs` threads (0: one per core), and
/// `sink` on its answers in file order. A file that cannot be read at all
/// (or stops being readable) is an error once the games before are sunk.
pub fn for_each_game<R, E>(
    path: &Path,
    format: Option<Format>,
    jobs: usize,
    work: impl Fn(usize, Result<Game, GameFileError>) -> R + Sync,
    sink: impl FnMut(R) -> Result<(), E>,
) -> Result<Counts, E>
where
    R: Send,
    E: From<PoolError> + From<GameFileError>,
{
    let read = read_each_game(
        path,
        format,
        jobs,
        |_| {},
        |_, index, item| work(index, item),
        sink,
    )?;
    match read.failure {
        Some(e) => Err(e.into()),
        None => Ok(read.counts),
    }
}

/// [`for_each_game`], with the file's format (sniffed or given) passed to
/// `work`, `progress` called now and then, and the failure that ended the
/// reading returned rather than raised (an error is then the sink's, or the
/// pool's: a worker's death).
pub fn read_each_game<R, E>(
    path: &Path,
    format: Option<Format>,
    jobs: usize,
    progress: impl FnMut(ReadProgress),
    work: impl Fn(Format, usize, Result<Game, GameFileError>) -> R + Sync,
    sink: impl FnMut(R) -> Result<(), E>,
) -> Result<FileRead, E>
where
    R: Send,
    E: From<PoolError>,
{
    let work = |file: FileInfo, index, item| work(file.format, index, item);
    let options = ReaderOptions::default();
    read_each_game_with(path, format, options, jobs, progress, work, sink)
}

/// [`read_each_game`] with reader options (a forced encoding, limits), and
/// the file's format and encoding passed to `work`.
pub fn read_each_game_with<R, E>(
    path: &Path,
    format: Option<Format>,
    options: ReaderOptions,
    jobs: usize,
    progress: impl FnMut(ReadProgress),
    work: impl Fn(FileInfo, usize, Result<Game, GameFileError>) -> R + Sync,
    sink: impl FnMut(R) -> Result<(), E>,
) -> Result<FileRead, E>
where
    R: Send,
    E: From<PoolError>,
{
    let workers = worker_count(jobs);
    if workers > 1 && path.as_os_str() != "-" {
        let len = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        if splits(len) {
            // Sniffed, and the encoding decided, once here, so that the
            // workers' readers and `work` agree.
            let reader = match ShardReader::open_with(path, format, options) {
                Ok(reader) => reader,
                Err(e) => return Ok(FileRead::failed(e)),
            };
            let format = reader.format();
            let options = ReaderOptions {
                encoding: reader.encoding(),
                ..options
            };
            let ranges = match shards(path, Some(format), (len / SHARD_BYTES) as usize) {
                Ok(ranges) => ranges,
                Err(e) => return Ok(FileRead::failed(e)),
            };
            // Binary and XML formats are one range: nothing to split.
            if ranges.iter().filter(|r| !r.is_empty()).count() >= 2 {
                let file = FileInfo {
                    format,
                    encoding: options.encoding,
                };
                let work = |index, item| work(file, index, item);
                let how = (format, options);
                return ranges::read_ranges(path, how, workers, &ranges, progress, work, sink);
            }
        }
    }
    read_here(path, format, options, workers, progress, work, sink)
}

/// Games between two progress calls when the file is read on the calling
/// thread.
const PROGRESS_EVERY_GAMES: usize = 256;

/// [`read_each_game`] reading on the calling thread.
fn read_here<R, E>(
    path: &Path,
    format: Option<Format>,
    options: ReaderOptions,
    workers: usize,
    mut progress: impl FnMut(ReadProgress),
    work: impl Fn(FileInfo, usize, Result<Game, GameFileError>) -> R + Sync,
    sink: impl FnMut(R) -> Result<(), E>,
) -> Result<FileRead, E>
where
    R: Send,
    E: From<PoolError>,
{
    let mut games = match IndexedGames::open_with(path, format, options) {
        Ok(games) => games,
        Err(e) => return Ok(FileRead::failed(e)),
    };
    let format = games.format();
    let items = std::iter::from_fn(|| {
        let (index, item) = games.next()?;
        if index % PROGRESS_EVERY_GAMES == 0 {
            progress(ReadProgress {
                bytes: games.bytes_read(),
                games: index,
            });
        }
        // Known once the first game is read (a text file's is detected then).
        let encoding = games.encoding();
        Some((FileInfo { format, encoding }, index, item))
    });
    ordered_map(
        workers,
        items,
        |(file, index, item)| work(file, index, item),
        sink,
    )?;
    Ok(games.finish())
}
