//! The games of the files, directories and patterns of a command line, for
//! every command that reads games. Reading is the game-file library's one
//! collection reader (`xiangqi_gamefile::corpus::read_collection`); this
//! adds what a terminal needs: the progress bars, warnings on stderr, the
//! summary line and the exit status (docs/cli.md, "Reading games").

use std::path::{Path, PathBuf};

use anyhow::Result;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::json;
use xiangqi_gamefile::collection::{collect, CollectedFile};
use xiangqi_gamefile::corpus::{
    read_collection, read_collection_with, CollectionEntry, CollectionOptions, CollectionProgress,
    Event as ReadEvent, PerGameWork, ReadOutcome, ReadProgress,
};
use xiangqi_gamefile::{Format, Game, GameFileError, ReaderOptions, TextEncoding};

pub use xiangqi_gamefile::corpus::{GameAt, Summary, Unreadable};

use crate::exit::Failed;
use crate::progress;

/// Collections of at least this many files get a progress bar of files
/// read (when stderr is a terminal).
const PROGRESS_MIN_FILES: usize = 64;

/// The game files a command line names.
pub struct Collection {
    /// The files in order, and the folders that could not be walked in their place.
    pub files: Vec<CollectionEntry>,
    /// Exactly one file was named (no directory, no pattern): the command
    /// then reports as it does on one file, without file names or summary.
    pub single: bool,
    /// `--strict`: a game read with errors (`Game::errors`) is a broken game.
    pub strict: bool,
    /// `--encoding`: the encoding every file's text is read in, instead of
    /// the one detected per file.
    pub encoding: Option<TextEncoding>,
    /// `--input-format`: the format of every file, or sniffed.
    pub format: Option<Format>,
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
            format: None,
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

    fn options(&self, jobs: usize, work: PerGameWork) -> CollectionOptions {
        CollectionOptions {
            format: self.format,
            reader: ReaderOptions {
                encoding: self.encoding,
                strict: self.strict,
                ..ReaderOptions::default()
            },
            jobs,
            work,
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

/// The terminal's progress bars: files of a big collection, bytes of a big
/// file, games done when each game's work is long (an engine's review).
struct Bars {
    files: ProgressBar,
    file: Option<ProgressBar>,
    games: ProgressBar,
    show: bool,
}

impl Bars {
    fn new(collection: &Collection) -> Bars {
        Bars {
            files: files_progress(collection.files.len(), !collection.single),
            file: None,
            games: ProgressBar::hidden(),
            show: !collection.single,
        }
    }

    /// The bars of long work per game: a count of games done, with the
    /// time spent (drawn only when stderr is a terminal).
    fn for_long_work(collection: &Collection) -> Bars {
        let games = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        games.set_style(
            ProgressStyle::with_template("[{elapsed_precise}] {pos} games done {msg}")
                .expect("valid template"),
        );
        Bars {
            games,
            ..Bars::new(collection)
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.file {
            bar.finish_and_clear();
        }
        self.files.finish_and_clear();
        self.games.finish_and_clear();
    }
}

impl CollectionProgress for Bars {
    fn big_file(&mut self, file: &CollectedFile) {
        self.file = Some(progress::file_bar(&file.path, self.show));
    }

    fn reading(&mut self, at: ReadProgress) {
        if let Some(bar) = &self.file {
            progress::advance(bar, at);
        }
    }

    fn file_done(&mut self, _file: Option<&CollectedFile>, summary: &Summary) {
        if let Some(bar) = self.file.take() {
            bar.finish_and_clear();
        }
        self.files.inc(1);
        self.files.set_message(format!("{} games", summary.games));
    }

    fn game_done(&mut self, summary: &Summary) {
        self.games.set_position(summary.games as u64);
    }
}

/// A file's warnings (what it holds besides its games) on stderr.
fn print_warning(warning: &GameFileError) {
    eprintln!("warning: {warning}");
}

/// The reader's event as this crate's: a file's own warnings printed here,
/// games and unreadable files handed to the command's sink.
fn forward<'a, R>(
    event: ReadEvent<'a, R>,
    sink: &mut impl FnMut(Event<'a, R>) -> Result<()>,
) -> Result<()> {
    match event {
        ReadEvent::File(_) => Ok(()),
        ReadEvent::Game(answer) => sink(Event::Game(answer)),
        ReadEvent::Warning(_, warning) => {
            print_warning(&warning);
            Ok(())
        }
        ReadEvent::Unreadable(what) => sink(Event::Unreadable(what)),
    }
}

/// Calls `work` on every game or broken game of every file of `collection`,
/// with where it is, on `jobs` threads, and `sink` on the answers and on
/// the files that could not be read, in collection order. An error of
/// `sink` stops the run and is returned.
pub fn for_each_game_of_files<'a, R: Send>(
    collection: &'a Collection,
    jobs: usize,
    work: impl Fn(GameAt<'a>, Result<Game, GameFileError>) -> R + Sync,
    mut sink: impl FnMut(Event<'a, R>) -> Result<()>,
) -> Result<Summary> {
    let mut bars = Bars::new(collection);
    let options = collection.options(jobs, PerGameWork::Light);
    let summary = read_collection(&collection.files, &options, &mut bars, work, |event| {
        forward(event, &mut sink)
    });
    bars.finish();
    summary
}

/// [`for_each_game_of_files`] for work much costlier than reading, with a
/// state per worker (an engine): the games are read on this thread and
/// handed to the workers one at a time.
pub fn for_each_game_with<'a, W: Send, R: Send>(
    collection: &'a Collection,
    states: Vec<W>,
    work: impl Fn(&mut W, GameAt<'a>, Result<Game, GameFileError>) -> R + Sync,
    mut sink: impl FnMut(Event<'a, R>) -> Result<()>,
) -> Result<Summary> {
    let mut bars = Bars::for_long_work(collection);
    let options = collection.options(states.len(), PerGameWork::Heavy);
    let summary = read_collection_with(
        &collection.files,
        &options,
        states,
        &mut bars,
        work,
        |event| forward(event, &mut sink),
    );
    bars.finish();
    summary
}

/// The last object of a `--json` run.
pub fn summary_json(summary: &Summary) -> serde_json::Value {
    json!({ "summary": {
        "files": summary.files,
        "games": summary.games,
        "warnings": summary.warnings,
        "errors": summary.errors(),
    }})
}

/// A game's problems on stderr, the same in every command that reads
/// games: each of a game's errors (it was read up to them) as
/// `warning: …`, a game that could not be read as `error: …`.
pub fn report_game_problems(item: &Result<Vec<GameFileError>, GameFileError>) {
    match item {
        Ok(warnings) => warnings.iter().for_each(print_warning),
        Err(e) => eprintln!("error: {e}"),
    }
}

/// A file or folder that could not be read: reported on stderr as
/// `error: …`, and the run goes on (its status says so at the end).
pub fn report_unreadable(what: &Unreadable<'_>) {
    eprintln!("error: {what}");
}

/// Ends a run that read games (docs/cli.md, "Exit status"): the summary
/// line on stderr for a collection, then the exit status: 0 when
/// everything was read (warnings allowed), 1 when some games or files had
/// errors (2 with `--strict`), 2 when nothing could be read. `and_then`
/// says what became of the broken games (` and were left out`).
pub fn conclude(summary: &Summary, collection: &Collection, and_then: &str) -> Result<()> {
    if !collection.single {
        eprintln!("{}", summary.line());
    }
    let failure = || {
        let mut parts = Vec::new();
        if summary.broken_games > 0 {
            let place = match (collection.single, collection.files.as_slice()) {
                (true, [Ok(file)]) => format!(" in {}", file.path.display()),
                _ => String::new(),
            };
            parts.push(format!(
                "{} of {} games{place} could not be read{and_then}",
                summary.broken_games, summary.games
            ));
        }
        if summary.unreadable > 0 {
            parts.push(format!(
                "{} files or folders could not be read",
                summary.unreadable
            ));
        }
        parts.join("; ")
    };
    match summary.outcome() {
        ReadOutcome::AllRead => Ok(()),
        ReadOutcome::NothingRead => {
            Err(Failed::new(2, format!("nothing read: {}", failure())).into())
        }
        ReadOutcome::SomeErrors => {
            let status = if collection.strict { 2 } else { 1 };
            Err(Failed::new(status, failure()).into())
        }
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
