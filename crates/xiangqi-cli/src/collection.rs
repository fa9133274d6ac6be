//! Reading the games of a collection of game files (the files, directories
//! and patterns of a command line, listed by `xiangqi_gamefile::collection`)
//! on every core. Files are spread over the workers, one file a task
//! (`xiangqi_parallel::ordered_map`): a worker reads the whole file and works
//! on its games. A file big enough to be cut into ranges, or standard input,
//! is read alone by `xiangqi_gamefile::corpus::read_each_game`, every worker
//! on its ranges, so
//! its answers are never all held at once. Either way `sink` sees every
//! file's answers in collection order, then the file's failure if it could
//! not be read, and the run goes on with the next file: the output is the
//! same whatever `--jobs` says.

use std::path::{Path, PathBuf};

use anyhow::Result;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::json;
use xiangqi_gamefile::collection::{collect, CollectedFile, CollectionError};
use xiangqi_gamefile::corpus::{read_each_game_with, splits, Counts, FileRead, IndexedGames};
use xiangqi_gamefile::{Format, Game, GameFileError, ReaderOptions, TextEncoding};

use crate::progress;

/// Collections of at least this many files get a progress bar of files
/// read (when stderr is a terminal).
const PROGRESS_MIN_FILES: usize = 64;

/// The game files a command line names.
pub struct Collection {
    /// The files in order, and the folders that could not be walked in their place.
    pub files: Vec<Result<CollectedFile, CollectionError>>,
    /// Exactly one file was named (no directory, no pattern): the command
    /// then reports as it does on one file, without file names or summary.
    pub single: bool,
    /// `--strict`: a game read with errors (`Game::errors`) is a broken game.
    pub strict: bool,
    /// `--encoding`: the encoding every file's text is read in, instead of
    /// the one detected per file.
    pub encoding: Option<TextEncoding>,
}

impl Collection {
    /// The files of `inputs`; an input that yields nothing is an error.
    pub fn of(inputs: &[PathBuf]) -> Result<Collection> {
        let files = collect(inputs)?;
        let single = matches!(
            (inputs, files.as_slice()),
            ([input], [Ok(file)]) if file.path == *input
        );
        Ok(Collection {
            files,
            single,
            strict: false,
            encoding: None,
        })
    }

    /// Leaves out `output` and the files inside it: a run's output file or
    /// folder inside a folder it reads, found there on the next run.
    pub fn leave_out(&mut self, output: &Path) {
        let Ok(output) = output.canonicalize() else {
            return;
        };
        self.files.retain(|entry| match entry {
            Ok(file) => !file
                .path
                .canonicalize()
                .is_ok_and(|path| path.starts_with(&output)),
            Err(_) => true,
        });
    }
}

/// Where a game is: its file, the file's format and encoding, and its
/// 1-based number in it.
#[derive(Clone, Copy)]
pub struct GameAt<'a> {
    pub file: &'a CollectedFile,
    pub format: Format,
    pub encoding: Option<TextEncoding>,
    pub index: usize,
}

impl GameAt<'_> {
    /// The game's name in the collection, for a `Source` tag: `a.xqf`,
    /// `lib.CBL#12`.
    pub fn name(&self) -> String {
        self.file.game_name(self.format, self.index)
    }
}

/// A file that could not be read (opened, or read to its end), or a folder
/// that could not be walked.
pub enum Unreadable<'a> {
    File(&'a CollectedFile, GameFileError),
    Folder(&'a CollectionError),
}

impl std::fmt::Display for Unreadable<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unreadable::File(_, e) => e.fmt(f),
            Unreadable::Folder(e) => e.fmt(f),
        }
    }
}

/// What the sink of [`for_each_game_of_files`] sees, in collection order.
pub enum Event<'a, R> {
    /// The answer for a game (or a broken game).
    Game(R),
    /// A file or folder that could not be read; the run goes on.
    Unreadable(Unreadable<'a>),
}

/// What a run over a collection read.
#[derive(Default)]
pub struct Summary {
    /// Game files listed (the folders that could not be walked not included).
    pub files: usize,
    /// Games read, broken ones included.
    pub games: usize,
    /// Problems recorded on games that were read, and what files hold
    /// besides their games (a CBL library's records its index does not list).
    pub warnings: usize,
    /// Games that could not be read.
    pub broken_games: usize,
    /// Files that could not be opened or read to their end, and folders
    /// that could not be walked.
    pub unreadable: usize,
}

impl Summary {
    /// Broken games, unreadable files and folders.
    pub fn errors(&self) -> usize {
        self.broken_games + self.unreadable
    }

    /// The summary line for stderr.
    pub fn line(&self) -> String {
        format!(
            "files: {}, games: {}, warnings: {}, errors: {}",
            self.files,
            self.games,
            self.warnings,
            self.errors()
        )
    }

    /// The last object of a `--json` run.
    pub fn json(&self) -> serde_json::Value {
        json!({ "summary": {
            "files": self.files,
            "games": self.games,
            "warnings": self.warnings,
            "errors": self.errors(),
        }})
    }

    /// What makes the run fail, if anything: `None` without errors.
    /// Warnings alone do not fail a run.
    pub fn failure(&self, games_were: &str) -> Option<String> {
        let mut parts = Vec::new();
        if self.broken_games > 0 {
            parts.push(format!(
                "{} of {} games could not be read{games_were}",
                self.broken_games, self.games
            ));
        }
        if self.unreadable > 0 {
            parts.push(format!(
                "{} files or folders could not be read",
                self.unreadable
            ));
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }

    fn add(&mut self, counts: &Counts) {
        self.games += counts.games;
        self.broken_games += counts.errors;
    }
}

/// What one game adds to the summary beyond its file's reading counts.
#[derive(Copy, Clone, Default)]
pub struct Tally {
    /// Problems recorded on a game that was read (`Game::errors`).
    warnings: usize,
    /// A game that was read, but has errors and is read strictly: broken.
    strictly_broken: usize,
}

/// `item` as the collection reads it, and what it adds to the summary: a
/// game with errors is a game with warnings, or, read strictly, a broken
/// game. The one place either is decided.
fn tallied(
    item: Result<Game, GameFileError>,
    strict: bool,
) -> (Tally, Result<Game, GameFileError>) {
    match item {
        Ok(game) if !game.errors.is_empty() && strict => {
            let tally = Tally {
                strictly_broken: 1,
                ..Tally::default()
            };
            (tally, game.into_strict())
        }
        Ok(game) => {
            let tally = Tally {
                warnings: game.errors.len(),
                ..Tally::default()
            };
            (tally, Ok(game))
        }
        Err(e) => (Tally::default(), Err(e)),
    }
}

impl Summary {
    fn tally(&mut self, tally: Tally) {
        self.warnings += tally.warnings;
        self.broken_games += tally.strictly_broken;
    }
}

/// A file read on the workers' shared ranges rather than whole by one worker.
fn read_alone(file: &CollectedFile) -> bool {
    file.path.as_os_str() == "-"
        || std::fs::metadata(&file.path).is_ok_and(|m| m.is_file() && splits(m.len()))
}

/// One whole file's answers (with each game's warnings) and what its
/// reading gave, or the folder that could not be walked.
enum FileAnswers<'a, R> {
    File {
        file: &'a CollectedFile,
        answers: Vec<(Tally, R)>,
        read: FileRead,
    },
    Folder(&'a CollectionError),
}

/// Calls `work` on every game or broken game of every file of `collection`
/// (read as `format`, or sniffed), with where it is, on `jobs` threads,
/// and `sink` on the answers and on the files that could not be read, in
/// collection order. An error of `sink` stops the run and is returned.
pub fn for_each_game_of_files<'a, R: Send>(
    collection: &'a Collection,
    format: Option<Format>,
    jobs: usize,
    work: impl Fn(GameAt<'a>, Result<Game, GameFileError>) -> R + Sync,
    mut sink: impl FnMut(Event<'a, R>) -> Result<()>,
) -> Result<Summary> {
    let files = &collection.files;
    let bar = files_progress(files.len(), !collection.single);
    let mut summary = Summary {
        files: files.iter().filter(|f| f.is_ok()).count(),
        ..Summary::default()
    };
    let work = |at: GameAt<'a>, item: Result<Game, GameFileError>| {
        let (tally, item) = tallied(item, collection.strict);
        (tally, work(at, item))
    };
    let alone: Vec<bool> = files
        .iter()
        .map(|f| f.as_ref().is_ok_and(read_alone))
        .collect();
    let options = ReaderOptions {
        encoding: collection.encoding,
        ..ReaderOptions::default()
    };
    let mut at = 0;
    while at < files.len() {
        if let (true, Ok(file)) = (alone[at], &files[at]) {
            let file_bar = progress::file_bar(&file.path, collection.single);
            let read = read_each_game_with(
                &file.path,
                format,
                options,
                jobs,
                |at| progress::advance(&file_bar, at),
                |info, index, item| {
                    let (format, encoding) = (info.format, info.encoding);
                    work(
                        GameAt {
                            file,
                            format,
                            encoding,
                            index,
                        },
                        item,
                    )
                },
                |(tally, answer)| {
                    summary.tally(tally);
                    sink(Event::Game(answer))
                },
            );
            file_bar.finish_and_clear();
            finish_file(&mut summary, file, read?, &mut sink)?;
            at += 1;
            bar.inc(1);
            continue;
        }
        let run = alone[at..].iter().take_while(|a| !**a).count();
        xiangqi_parallel::ordered_map(
            jobs,
            files[at..at + run].iter(),
            |entry| match entry {
                Ok(file) => read_whole(file, format, options, &work),
                Err(e) => FileAnswers::Folder(e),
            },
            |answers| -> Result<()> {
                match answers {
                    FileAnswers::File {
                        file,
                        answers,
                        read,
                    } => {
                        for (tally, answer) in answers {
                            summary.tally(tally);
                            sink(Event::Game(answer))?;
                        }
                        finish_file(&mut summary, file, read, &mut sink)?;
                    }
                    FileAnswers::Folder(e) => {
                        summary.unreadable += 1;
                        sink(Event::Unreadable(Unreadable::Folder(e)))?;
                    }
                }
                bar.inc(1);
                bar.set_message(format!("{} games", summary.games));
                Ok(())
            },
        )?;
        at += run;
    }
    bar.finish_and_clear();
    Ok(summary)
}

/// Reads `file` whole on this thread and works on its games.
fn read_whole<'a, R>(
    file: &'a CollectedFile,
    format: Option<Format>,
    options: ReaderOptions,
    work: &impl Fn(GameAt<'a>, Result<Game, GameFileError>) -> (Tally, R),
) -> FileAnswers<'a, R> {
    let (answers, read) = match IndexedGames::open_with(&file.path, format, options) {
        Ok(mut games) => {
            let format = games.format();
            let mut answers = Vec::new();
            while let Some((index, item)) = games.next() {
                // Known once a game is read (a text file's is detected then).
                let encoding = games.encoding();
                let at = GameAt {
                    file,
                    format,
                    encoding,
                    index,
                };
                answers.push(work(at, item));
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

/// Counts a file read and hands its failure, if any, to the sink.
fn finish_file<'a, R>(
    summary: &mut Summary,
    file: &'a CollectedFile,
    read: FileRead,
    sink: &mut impl FnMut(Event<'a, R>) -> Result<()>,
) -> Result<()> {
    summary.add(&read.counts);
    // What a file holds besides its games (a library's records that its
    // index does not list): warnings, not games.
    for warning in &read.warnings {
        eprintln!("warning: {warning}");
    }
    summary.warnings += read.warnings.len();
    match read.failure {
        Some(e) => {
            summary.unreadable += 1;
            sink(Event::Unreadable(Unreadable::File(file, e)))
        }
        None => Ok(()),
    }
}

fn files_progress(files: usize, show: bool) -> ProgressBar {
    if !show || files < PROGRESS_MIN_FILES {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(files as u64), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} files {per_sec} {msg}")
            .expect("valid template"),
    );
    bar
}
