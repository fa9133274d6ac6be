//! `build`: a corpus into an explorer file, streaming under a fixed memory
//! bound. Games are read in input order on every core; each game's
//! positions and moves are tallied in a bounded batch; a full batch is
//! written to disk as a sorted run; at the end the runs are merged in key
//! order into the database, which is written once, appending.

use std::fs;
use std::path::{Path, PathBuf};

use xiangqi_adjudication::RuleSet;
use xiangqi_gamefile::collection::collect;
use xiangqi_gamefile::corpus::{read_collection, CollectionOptions, Event, Summary};
use xiangqi_gamefile::{Format, ReaderOptions, TextEncoding};

use crate::batch::Batch;
use crate::error::ExplorerError;
use crate::indexed_game::{index_game, IndexedGame};
use crate::runs::{merge_runs, write_run, Run};
use crate::schema::FORMAT_VERSION;
use crate::tally::EXAMPLES_PER_MOVE;
use crate::writer::Writer;

/// Positions and moves tallied in memory before a sorted run is written:
/// 7/8 of 2^19, so the hash table (allocated once) never grows. About
/// 40 MiB of tallies.
pub const DEFAULT_BATCH_ENTRIES: usize = 458_752;

/// Problems kept in [`BuildReport::problems`]; the rest are only counted.
const MAX_PROBLEMS: usize = 100;

/// How a build reads the corpus.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Positions before each of a game's first `max_plies` moves are indexed.
    pub max_plies: usize,
    /// Worker threads (0: one per core).
    pub jobs: usize,
    /// The rules that decide a game whose record has no result.
    pub rules: RuleSet,
    /// Positions and moves tallied in memory at most (the memory bound).
    pub batch_entries: usize,
    /// The encoding of the files' text, forced; `None` detects it once per
    /// file (`xiangqi_gamefile::ReaderOptions::encoding`).
    pub encoding: Option<TextEncoding>,
    /// The format of every file, forced; `None` sniffs each.
    pub format: Option<Format>,
    /// A game read with errors (a line cut at a move that cannot be
    /// played) is skipped as broken, not indexed up to its error.
    pub strict: bool,
}

impl Default for BuildOptions {
    fn default() -> BuildOptions {
        BuildOptions {
            max_plies: 30,
            jobs: 0,
            rules: RuleSet::default(),
            batch_entries: DEFAULT_BATCH_ENTRIES,
            encoding: None,
            format: None,
            strict: false,
        }
    }
}

/// What a build read and wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct BuildReport {
    /// Game files read (the folders that could not be walked not included).
    pub files: u64,
    /// Games read, broken ones included.
    pub games: u64,
    /// Games indexed.
    pub indexed: u64,
    /// Games that could not be read or whose start cannot be played.
    pub skipped: u64,
    /// Games indexed as far as their record reads: it had errors (a line
    /// cut at a move that cannot be played), each also a problem line.
    pub partial: u64,
    /// Files or folders that could not be read (or read to their end).
    pub unreadable: u64,
    /// The first problems met, one line each, in the game-file reader's
    /// wording (file, game, place, what).
    pub problems: Vec<String>,
    /// What the collection reader counted: files, games, warnings,
    /// broken games, unreadable files (the same summary as every command
    /// that reads games).
    #[cfg_attr(feature = "serde", serde(skip))]
    pub read: Summary,
    /// Rows written: distinct positions and moves.
    pub entries: u64,
    /// Sorted runs written to disk (0: the corpus fit in one batch).
    pub runs: usize,
}

/// How far a build is, for a progress display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildProgress {
    pub files: u64,
    pub games: u64,
}

/// Builds the explorer of the game files, directories and patterns
/// `inputs` (listed as `xiangqi_gamefile::collection` lists them) into a
/// new file at `output`, replacing it only once the build has succeeded; a
/// build that indexes no game fails (`ExplorerError::NothingIndexed`) and
/// leaves `output` as it was.
/// Files and games that cannot be read are counted and skipped.
pub fn build(
    inputs: &[PathBuf],
    output: &Path,
    options: &BuildOptions,
    mut progress: impl FnMut(BuildProgress),
) -> Result<BuildReport, ExplorerError> {
    if options.max_plies == 0 || options.max_plies > 1000 {
        return Err(ExplorerError::Options(format!(
            "plies {} is not between 1 and 1000",
            options.max_plies
        )));
    }
    if options.batch_entries < options.max_plies {
        return Err(ExplorerError::Options(format!(
            "a batch of {} entries cannot hold one game of {} plies",
            options.batch_entries, options.max_plies
        )));
    }
    let files = collect(inputs)?;
    let scratch = Scratch::beside(output);
    scratch.clear()?;
    let mut build = Building {
        writer: Writer::create(&scratch.database)?,
        batch: Batch::new(options.batch_entries),
        runs: Vec::new(),
        scratch: &scratch,
        report: BuildReport {
            files: files.iter().filter(|f| f.is_ok()).count() as u64,
            ..BuildReport::default()
        },
        file: 0,
        file_name: String::new(),
    };
    let reading = CollectionOptions {
        format: options.format,
        reader: ReaderOptions {
            encoding: options.encoding,
            strict: options.strict,
            ..ReaderOptions::default()
        },
        jobs: options.jobs,
        ..CollectionOptions::default()
    };
    let read = read_collection(
        &files,
        &reading,
        &mut (),
        |at, item| {
            let answer = match item {
                Ok(game) => match index_game(&game, options.max_plies, &options.rules) {
                    Some(indexed) => Ok((indexed, game.errors.first().map(ToString::to_string))),
                    None => Err(None),
                },
                Err(e) => Err(Some(e.to_string())),
            };
            (at.index, answer)
        },
        |event| {
            build.accept(event)?;
            if build.report.games % 1024 == 0 {
                progress(BuildProgress {
                    files: build.file,
                    games: build.report.games,
                });
            }
            Ok::<(), ExplorerError>(())
        },
    )?;
    build.report.read = read;
    let report = build.finish(options)?;
    if report.indexed == 0 {
        return Err(ExplorerError::NothingIndexed {
            files: report.files,
            games: report.games,
            skipped: report.skipped,
            unreadable: report.unreadable,
            first_problem: report.problems.first().cloned(),
        });
    }
    fs::rename(&scratch.database, output).map_err(|e| ExplorerError::io(output, e))?;
    Ok(report)
}

/// The files a build writes beside its output: the database until it is
/// complete, and the folder of sorted runs. Removed when the build ends,
/// whichever way.
struct Scratch {
    database: PathBuf,
    runs: PathBuf,
}

impl Scratch {
    fn beside(output: &Path) -> Scratch {
        let name = output
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "explorer".to_string());
        let sibling =
            |what: &str| output.with_file_name(format!(".{name}.{what}-{}", std::process::id()));
        Scratch {
            database: sibling("building"),
            runs: sibling("runs"),
        }
    }

    fn clear(&self) -> Result<(), ExplorerError> {
        match fs::remove_file(&self.database) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                Err(ExplorerError::io(&self.database, e))
            }
            _ => Ok(()),
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        // Best effort: after a successful build the database was renamed.
        let _ = fs::remove_file(&self.database);
        let _ = fs::remove_dir_all(&self.runs);
    }
}

struct Building<'a> {
    writer: Writer,
    batch: Batch,
    runs: Vec<PathBuf>,
    scratch: &'a Scratch,
    report: BuildReport,
    /// The current file's id (1-based) and name.
    file: u64,
    file_name: String,
}

/// A game read (`Ok`), or why it was skipped (`Err(Some)`: it could not be
/// read; `Err(None)`: its start position cannot be played).
/// A game indexed, with the first error of its record if it had any; or
/// why it was skipped (`None`: its start cannot be played).
type Answer = Result<(IndexedGame, Option<String>), Option<String>>;

impl Building<'_> {
    fn accept(&mut self, event: Event<'_, (usize, Answer)>) -> Result<(), ExplorerError> {
        match event {
            Event::File(file) => {
                self.file += 1;
                self.writer.add_file(self.file, &file.name)?;
                self.file_name = file.name.clone();
            }
            Event::Warning(_, warning) => self.problem(warning.to_string()),
            Event::Game((index, answer)) => {
                self.report.games += 1;
                match answer {
                    Ok((game, error)) => {
                        if let Some(error) = error {
                            // The reader's own wording names the file, game and place.
                            self.report.partial += 1;
                            self.problem(format!("{error} (indexed up to there)"));
                        }
                        self.add(index, game)?
                    }
                    Err(why) => {
                        self.report.skipped += 1;
                        let why = why.unwrap_or_else(|| {
                            format!(
                                "{} game {index}: skipped: its start position cannot be read",
                                self.file_name
                            )
                        });
                        self.problem(why);
                    }
                }
            }
            Event::Unreadable(what) => {
                self.report.unreadable += 1;
                self.problem(what.to_string());
            }
        }
        Ok(())
    }

    fn problem(&mut self, message: String) {
        if self.report.problems.len() < MAX_PROBLEMS {
            self.report.problems.push(message);
        }
    }

    fn add(&mut self, index: usize, game: IndexedGame) -> Result<(), ExplorerError> {
        let id = u32::try_from(self.report.indexed + 1)
            .map_err(|_| ExplorerError::Options(format!("more than {} games", u32::MAX)))?;
        self.writer
            .add_game(id, self.file, index as u64, &game.headers, game.outcome)?;
        if self.batch.is_full(game.moves.len()) {
            self.flush()?;
        }
        self.batch.add(id, &game);
        self.report.indexed += 1;
        Ok(())
    }

    /// Writes the batch as the next sorted run.
    fn flush(&mut self) -> Result<(), ExplorerError> {
        let dir = &self.scratch.runs;
        fs::create_dir_all(dir).map_err(|e| ExplorerError::io(dir, e))?;
        let path = dir.join(format!("run-{:06}", self.runs.len()));
        write_run(&path, &self.batch.drain_sorted()).map_err(|e| ExplorerError::io(&path, e))?;
        self.runs.push(path);
        Ok(())
    }

    /// Merges the runs and the last batch into the database and commits.
    fn finish(mut self, options: &BuildOptions) -> Result<BuildReport, ExplorerError> {
        let mut runs = Vec::with_capacity(self.runs.len() + 1);
        for path in &self.runs {
            runs.push(Run::open(path).map_err(|e| ExplorerError::io(path, e))?);
        }
        if !self.batch.is_empty() {
            runs.push(Run::Memory(self.batch.drain_sorted().into_iter()));
        }
        let writer = &self.writer;
        let mut entries = 0u64;
        let runs_dir = self.scratch.runs.clone();
        merge_runs(runs, |key, tally| {
            entries += 1;
            writer.add_move(key, &tally).map_err(MergeError::Store)
        })
        .map_err(|e: MergeError| e.into_explorer(&runs_dir))?;
        self.report.entries = entries;
        self.report.runs = self.runs.len();
        let facts = [
            ("format_version", FORMAT_VERSION.to_string()),
            ("max_plies", options.max_plies.to_string()),
            ("games", self.report.indexed.to_string()),
            ("examples_per_move", EXAMPLES_PER_MOVE.to_string()),
        ];
        self.writer.finish(&facts)?;
        Ok(self.report)
    }
}

/// The merge fails reading a run or writing the database.
enum MergeError {
    Run(std::io::Error),
    Store(ExplorerError),
}

impl From<std::io::Error> for MergeError {
    fn from(e: std::io::Error) -> MergeError {
        MergeError::Run(e)
    }
}

impl From<ExplorerError> for MergeError {
    fn from(e: ExplorerError) -> MergeError {
        MergeError::Store(e)
    }
}

impl MergeError {
    fn into_explorer(self, runs: &Path) -> ExplorerError {
        match self {
            MergeError::Run(e) => ExplorerError::io(runs, e),
            MergeError::Store(e) => e,
        }
    }
}
