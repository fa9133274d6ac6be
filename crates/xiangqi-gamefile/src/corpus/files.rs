//! The one collection reader: the files, directories and patterns a user
//! names ([`collect`](crate::collection::collect)), read one game after
//! another in collection order, a file that cannot be read reported in its
//! place and the run going on with the next. The CLI's game commands, the
//! explorer's build and Python's `map_games` all read through
//! [`read_collection`], so `--jobs`, progress, warnings, the summary and
//! what counts as an error are the same in all of them.
//!
//! Work is spread over `xiangqi-parallel`'s ordered map: a file big enough
//! to be cut into ranges is read by every worker on its ranges
//! ([`read_each_game_with`]); a run of smaller files is spread one file a
//! task. Light work (reading, checking, judging) on a small collection runs
//! on the calling thread: starting threads would cost more than the work
//! ([`PerGameWork`]). Whatever the number of workers, the sink sees the same
//! events in the same order.

use xiangqi_parallel::{ordered_map, worker_count, PoolError};

use super::{read_each_game_with, splits, FileInfo, FileRead, IndexedGames, ReadProgress};
use crate::collection::{CollectedFile, CollectionError};
use crate::{Format, Game, GameFileError, ReaderOptions, TextEncoding};

/// One entry of a collection: a game file, or a folder met in a walk that
/// could not be read (listed where it was met).
pub type CollectionEntry = Result<CollectedFile, CollectionError>;

/// How costly the work on each game is next to reading it: it decides
/// whether a small collection is worth a pool of threads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PerGameWork {
    /// About the cost of reading the game (checking, converting, judging,
    /// indexing): a pool only for collections big enough to keep it busy.
    #[default]
    Light,
    /// Much more than reading it (an engine's analysis): every worker
    /// asked for, whatever the collection's size.
    Heavy,
}

/// How a collection is read.
#[derive(Clone, Copy, Debug, Default)]
pub struct CollectionOptions {
    /// The format of every file, or `None` to sniff each.
    pub format: Option<Format>,
    /// The readers' options. With `strict`, a game read with errors (a line
    /// cut at a move that cannot be played) is a broken game.
    pub reader: ReaderOptions,
    /// Worker threads (0: one per core).
    pub jobs: usize,
    /// What the work on each game costs.
    pub work: PerGameWork,
}

/// Where a game is: its file, the file's format and encoding, and its
/// 1-based number in the file.
#[derive(Clone, Copy, Debug)]
pub struct GameAt<'a> {
    /// The file.
    pub file: &'a CollectedFile,
    /// Its format (sniffed or given) and the encoding of its text.
    pub info: FileInfo,
    /// The game's 1-based number in the file.
    pub index: usize,
}

impl GameAt<'_> {
    /// The game's format.
    pub fn format(&self) -> Format {
        self.info.format
    }

    /// The encoding its file's text is read in (`None` for a file not opened).
    pub fn encoding(&self) -> Option<TextEncoding> {
        self.info.encoding
    }

    /// The game's name in the collection, for a `Source` tag or a report:
    /// `a.xqf`, `lib.CBL#12` ([`CollectedFile::game_name`]).
    pub fn name(&self) -> String {
        self.file.game_name(self.info.format, self.index)
    }
}

/// A file that could not be read (opened, or read to its end), or a folder
/// that could not be walked.
#[derive(Debug)]
pub enum Unreadable<'a> {
    /// The file and why; the error's `game` is the game where reading
    /// stopped (0: before any).
    File(&'a CollectedFile, GameFileError),
    /// A folder of the collection that could not be walked.
    Folder(&'a CollectionError),
}

impl Unreadable<'_> {
    /// The file error this is; a folder's names the folder.
    pub fn to_file_error(&self) -> GameFileError {
        match self {
            Unreadable::File(_, e) => e.clone(),
            Unreadable::Folder(e) => {
                let file = match e {
                    CollectionError::Unreadable { path, .. } => Some(path.clone()),
                    _ => None,
                };
                GameFileError {
                    file,
                    game: 0,
                    location: crate::Location::File,
                    kind: crate::ErrorKind::Io(e.to_string()),
                }
            }
        }
    }
}

impl std::fmt::Display for Unreadable<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unreadable::File(_, e) => e.fmt(f),
            Unreadable::Folder(e) => e.fmt(f),
        }
    }
}

/// What the sink of [`read_collection`] sees, in collection order.
#[derive(Debug)]
pub enum Event<'a, R> {
    /// The games that follow, if any, are of this file.
    File(&'a CollectedFile),
    /// The answer of `work` for a game or a broken game.
    Game(R),
    /// What a file holds besides its games, as a warning: a CBL library's
    /// records that its index does not list, text after the last game.
    Warning(&'a CollectedFile, GameFileError),
    /// A file or folder that could not be read; the run goes on.
    Unreadable(Unreadable<'a>),
}

/// What a run over a collection read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Game files listed (the folders that could not be walked not included).
    pub files: usize,
    /// Games read, broken ones included.
    pub games: usize,
    /// Problems recorded on games that were read (`Game::errors`), and
    /// what files hold besides their games.
    pub warnings: usize,
    /// Games that could not be read (with `strict`: also those read with errors).
    pub broken_games: usize,
    /// Files that could not be opened or read to their end, and folders
    /// that could not be walked.
    pub unreadable: usize,
}

/// How a run went, as a whole: what the exit status of a command says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadOutcome {
    /// Every file and every game was read (warnings allowed).
    AllRead,
    /// Some games or files could not be read; others were.
    SomeErrors,
    /// Nothing could be read: no game was read whole, and something failed.
    NothingRead,
}

impl Summary {
    /// Broken games, unreadable files and folders.
    pub fn errors(&self) -> usize {
        self.broken_games + self.unreadable
    }

    /// Games read (not broken).
    pub fn games_read(&self) -> usize {
        self.games - self.broken_games
    }

    /// How the run went.
    pub fn outcome(&self) -> ReadOutcome {
        match (self.errors(), self.games_read()) {
            (0, _) => ReadOutcome::AllRead,
            (_, 0) => ReadOutcome::NothingRead,
            _ => ReadOutcome::SomeErrors,
        }
    }

    /// The summary line: `files: 3, games: 120, warnings: 2, errors: 1`.
    pub fn line(&self) -> String {
        format!(
            "files: {}, games: {}, warnings: {}, errors: {}",
            self.files,
            self.games,
            self.warnings,
            self.errors()
        )
    }
}

/// What a run's progress display learns, on the calling thread. Every
/// method has a default that does nothing; `()` shows nothing.
pub trait CollectionProgress {
    /// A big file is about to be read alone (by every worker on its ranges).
    fn big_file(&mut self, _file: &CollectedFile) {}
    /// How far the reading of that big file is.
    fn reading(&mut self, _at: ReadProgress) {}
    /// A file (or folder) is done; `summary` is the run so far.
    fn file_done(&mut self, _file: Option<&CollectedFile>, _summary: &Summary) {}
}

impl CollectionProgress for () {}

/// The bytes of a run of small files under which light work stays on the
/// calling thread, per worker: a worker is worth starting for every this
/// many bytes.
const BYTES_PER_WORKER: u64 = 256 << 10;

/// A file read on the workers' shared ranges rather than whole by one worker.
fn read_alone(file: &CollectedFile) -> bool {
    file.path.as_os_str() == "-"
        || std::fs::metadata(&file.path).is_ok_and(|m| m.is_file() && splits(m.len()))
}

fn file_len(file: &CollectedFile) -> u64 {
    std::fs::metadata(&file.path).map_or(0, |m| m.len())
}

/// One whole file's answers (with each game's warnings) and what its
/// reading gave, or the folder that could not be walked.
enum FileAnswers<'a, R> {
    File {
        file: &'a CollectedFile,
        answers: Vec<R>,
        read: FileRead,
    },
    Folder(&'a CollectionError),
}

/// Calls `work` on every game or broken game of every file of `files`, with
/// where it is, and `sink` on the events of the run in collection order:
/// each file's [`Event::File`], its games' answers, its warnings, then its
/// failure if it could not be read to its end; folders that could not be
/// walked in their place. An error of `sink` stops the run and is returned;
/// so is the pool's (a worker's death), through `E: From<PoolError>`.
pub fn read_collection<'a, R, E>(
    files: &'a [CollectionEntry],
    options: &CollectionOptions,
    progress: &mut impl CollectionProgress,
    work: impl Fn(GameAt<'a>, Result<Game, GameFileError>) -> R + Sync,
    sink: impl FnMut(Event<'a, R>) -> Result<(), E>,
) -> Result<Summary, E>
where
    R: Send,
    E: From<PoolError>,
{
    match options.work {
        PerGameWork::Light => read_light(files, options, progress, work, sink),
        PerGameWork::Heavy => {
            let states = vec![(); worker_count(options.jobs)];
            let work = |_: &mut (), at, item| work(at, item);
            read_collection_with(files, options, states, progress, work, sink)
        }
    }
}

/// [`read_collection`] for light work: big files read by every worker on
/// their ranges, runs of small files one file a task, on as many workers
/// as the run's size keeps busy.
fn read_light<'a, R, E>(
    files: &'a [CollectionEntry],
    options: &CollectionOptions,
    progress: &mut impl CollectionProgress,
    work: impl Fn(GameAt<'a>, Result<Game, GameFileError>) -> R + Sync,
    mut sink: impl FnMut(Event<'a, R>) -> Result<(), E>,
) -> Result<Summary, E>
where
    R: Send,
    E: From<PoolError>,
{
    let mut summary = Summary {
        files: files.iter().filter(|f| f.is_ok()).count(),
        ..Summary::default()
    };
    // A game read with errors: its errors are warnings (strict reading
    // made it a broken game already).
    let work = |at: GameAt<'a>, item: Result<Game, GameFileError>| {
        let warnings = item.as_ref().map_or(0, |game| game.errors.len());
        (warnings, work(at, item))
    };
    let alone: Vec<bool> = files
        .iter()
        .map(|f| f.as_ref().is_ok_and(read_alone))
        .collect();
    let workers = worker_count(options.jobs);
    let mut at = 0;
    while at < files.len() {
        if let (true, Ok(file)) = (alone[at], &files[at]) {
            sink(Event::File(file))?;
            progress.big_file(file);
            let read = read_each_game_with(
                &file.path,
                options.format,
                options.reader,
                options.jobs,
                |at| progress.reading(at),
                |info, index, item| work(GameAt { file, info, index }, item),
                |(warnings, answer)| {
                    summary.games += 1;
                    summary.warnings += warnings;
                    sink(Event::Game(answer))
                },
            )?;
            finish_file(&mut summary, file, read, &mut sink)?;
            progress.file_done(Some(file), &summary);
            at += 1;
            continue;
        }
        let run = &files[at..at + alone[at..].iter().take_while(|a| !**a).count()];
        // Threads are worth starting only for enough bytes to read.
        let bytes: u64 = run.iter().flatten().map(file_len).sum();
        let useful = usize::try_from(bytes / BYTES_PER_WORKER).unwrap_or(usize::MAX);
        let run_workers = workers.min(useful.max(1)).min(run.len());
        ordered_map(
            run_workers,
            run.iter(),
            |entry| match entry {
                Ok(file) => read_whole(file, options, &work),
                Err(e) => FileAnswers::Folder(e),
            },
            |answers| -> Result<(), E> {
                match answers {
                    FileAnswers::File {
                        file,
                        answers,
                        read,
                    } => {
                        sink(Event::File(file))?;
                        for (warnings, answer) in answers {
                            summary.games += 1;
                            summary.warnings += warnings;
                            sink(Event::Game(answer))?;
                        }
                        finish_file(&mut summary, file, read, &mut sink)?;
                        progress.file_done(Some(file), &summary);
                    }
                    FileAnswers::Folder(e) => {
                        summary.unreadable += 1;
                        sink(Event::Unreadable(Unreadable::Folder(e)))?;
                        progress.file_done(None, &summary);
                    }
                }
                Ok(())
            },
        )?;
        at += run.len();
    }
    Ok(summary)
}

/// Reads `file` whole on this thread and keeps the answers.
fn read_whole<'a, R>(
    file: &'a CollectedFile,
    options: &CollectionOptions,
    work: &impl Fn(GameAt<'a>, Result<Game, GameFileError>) -> R,
) -> FileAnswers<'a, R> {
    let (answers, read) = match IndexedGames::open_with(&file.path, options.format, options.reader)
    {
        Ok(mut games) => {
            let format = games.format();
            let mut answers = Vec::new();
            while let Some((index, item)) = games.next() {
                // Known once a game is read (a text file's is detected then).
                let info = FileInfo {
                    format,
                    encoding: games.encoding(),
                };
                answers.push(work(GameAt { file, info, index }, item));
            }
            (answers, games.finish())
        }
        Err(e) => (Vec::new(), FileRead::failed(e)),
    };
    FileAnswers::File {
        file,
        answers,
        read,
    }
}

/// One step of reading a collection on the calling thread.
enum Step<'a, T> {
    File(&'a CollectedFile),
    /// A game and where it is, or (once worked on) the game's warnings and answer.
    Game(T),
    /// A file read to its end or its failure; whether its `File` step came.
    Finished(&'a CollectedFile, FileRead, bool),
    Folder(&'a CollectionError),
}

/// What a [`CollectionCursor`] read next; files are named by their index
/// in the collection.
#[derive(Debug)]
pub enum Pulled {
    /// The games that follow, if any, are of file `.0`.
    File(usize),
    /// Game `index` (1-based) of file `file`, read or broken.
    Game {
        /// The file's index in the collection.
        file: usize,
        /// The file's format and encoding.
        info: FileInfo,
        /// The game's 1-based number in the file.
        index: usize,
        /// The game, or why it could not be read.
        item: Result<Game, GameFileError>,
    },
    /// File `.0` is read to its end, or to its failure (in the
    /// [`FileRead`], with its warnings); `.2`: whether its `File` came
    /// (a file that could not be opened has none).
    Finished(usize, FileRead, bool),
    /// Entry `.0` is a folder that could not be walked.
    Folder(usize),
}

/// The collection reader pulled one step at a time on the calling thread,
/// for lazy iteration (Python's `read_games` over a collection); the
/// collection is passed to every call, so its owner may hold both.
pub struct CollectionCursor {
    next_file: usize,
    current: Option<(usize, IndexedGames)>,
    options: CollectionOptions,
}

impl CollectionCursor {
    /// A cursor at the start of a collection, reading as `options` say
    /// (`jobs` and `work` do not apply: everything is read here).
    pub fn new(options: CollectionOptions) -> CollectionCursor {
        CollectionCursor {
            next_file: 0,
            current: None,
            options,
        }
    }

    /// The next step of reading `files` (the same collection at every call).
    pub fn next(&mut self, files: &[CollectionEntry]) -> Option<Pulled> {
        if let Some((file, games)) = &mut self.current {
            let file = *file;
            if let Some((index, item)) = games.next() {
                let info = FileInfo {
                    format: games.format(),
                    encoding: games.encoding(),
                };
                return Some(Pulled::Game {
                    file,
                    info,
                    index,
                    item,
                });
            }
            let (file, games) = self.current.take()?;
            return Some(Pulled::Finished(file, games.finish(), true));
        }
        let at = self.next_file;
        let entry = files.get(at)?;
        self.next_file += 1;
        match entry {
            Ok(file) => {
                let options = &self.options;
                match IndexedGames::open_with(&file.path, options.format, options.reader) {
                    Ok(games) => self.current = Some((at, games)),
                    // Never opened: no `File` step before its failure.
                    Err(e) => return Some(Pulled::Finished(at, FileRead::failed(e), false)),
                }
                Some(Pulled::File(at))
            }
            Err(_) => Some(Pulled::Folder(at)),
        }
    }
}

/// The steps of reading `files` one game after another.
struct Steps<'a> {
    files: &'a [CollectionEntry],
    cursor: CollectionCursor,
}

type GameStep<'a> = (GameAt<'a>, Result<Game, GameFileError>);

impl<'a> Iterator for Steps<'a> {
    type Item = Step<'a, GameStep<'a>>;

    fn next(&mut self) -> Option<Self::Item> {
        let files = self.files;
        let file = |at: usize| files[at].as_ref().ok();
        Some(match self.cursor.next(files)? {
            Pulled::File(at) => Step::File(file(at)?),
            Pulled::Game {
                file: at,
                info,
                index,
                item,
            } => Step::Game((
                GameAt {
                    file: file(at)?,
                    info,
                    index,
                },
                item,
            )),
            Pulled::Finished(at, read, announced) => Step::Finished(file(at)?, read, announced),
            Pulled::Folder(at) => Step::Folder(files[at].as_ref().err()?),
        })
    }
}

/// [`read_collection`] with a state per worker (an engine process): the
/// files are read on the calling thread, one game after another, and each
/// game's work is done on a worker with that worker's state, `states.len()`
/// workers. For work that costs much more than reading.
pub fn read_collection_with<'a, W, R, E>(
    files: &'a [CollectionEntry],
    options: &CollectionOptions,
    states: Vec<W>,
    progress: &mut impl CollectionProgress,
    work: impl Fn(&mut W, GameAt<'a>, Result<Game, GameFileError>) -> R + Sync,
    mut sink: impl FnMut(Event<'a, R>) -> Result<(), E>,
) -> Result<Summary, E>
where
    W: Send,
    R: Send,
    E: From<PoolError>,
{
    let mut summary = Summary {
        files: files.iter().filter(|f| f.is_ok()).count(),
        ..Summary::default()
    };
    let steps = Steps {
        files,
        cursor: CollectionCursor::new(*options),
    };
    xiangqi_parallel::ordered_map_with(
        states,
        steps,
        |state, step| match step {
            Step::Game((at, item)) => {
                let warnings = item.as_ref().map_or(0, |game| game.errors.len());
                Step::Game((warnings, work(state, at, item)))
            }
            Step::File(file) => Step::File(file),
            Step::Finished(file, read, announced) => Step::Finished(file, read, announced),
            Step::Folder(e) => Step::Folder(e),
        },
        |step| -> Result<(), E> {
            match step {
                Step::File(file) => sink(Event::File(file)),
                Step::Game((warnings, answer)) => {
                    summary.games += 1;
                    summary.warnings += warnings;
                    sink(Event::Game(answer))
                }
                Step::Finished(file, read, announced) => {
                    if !announced {
                        sink(Event::File(file))?;
                    }
                    finish_file(&mut summary, file, read, &mut sink)?;
                    progress.file_done(Some(file), &summary);
                    Ok(())
                }
                Step::Folder(e) => {
                    summary.unreadable += 1;
                    sink(Event::Unreadable(Unreadable::Folder(e)))?;
                    progress.file_done(None, &summary);
                    Ok(())
                }
            }
        },
    )?;
    Ok(summary)
}

/// Counts a file read and hands its warnings and its failure, if any, to the sink.
fn finish_file<'a, R, E>(
    summary: &mut Summary,
    file: &'a CollectedFile,
    read: FileRead,
    sink: &mut impl FnMut(Event<'a, R>) -> Result<(), E>,
) -> Result<(), E> {
    summary.broken_games += read.counts.errors;
    summary.warnings += read.warnings.len();
    for warning in read.warnings {
        sink(Event::Warning(file, warning))?;
    }
    match read.failure {
        Some(e) => {
            summary.unreadable += 1;
            sink(Event::Unreadable(Unreadable::File(file, e)))
        }
        None => Ok(()),
    }
}
