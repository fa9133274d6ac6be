//! `xiangqi analyze --pgn IN -o OUT (--movetime MS|--depth N|--nodes N)
//! [--engine SPEC] [--jobs N]`: reviews every game of a game file (PGN or
//! any format `xiangqi-gamefile` reads; written back as PGN) with an
//! engine (default: this program's own engine over UCI) and writes each
//! game back with `[%eval …]` comments, `?!`/`?`/`??`, the engine's line
//! for mistakes and the players' accuracy tags. The review is `xiangqi-engine-client`'s `annotate` module;
//! this only reads, hands games to `--jobs` engine processes (one thread
//! each, on `xiangqi_parallel`'s ordered map), writes them back in input
//! order and reports progress.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use anyhow::{bail, Context, Result};
use serde_json::json;
use xiangqi_engine_client::annotate::accuracy::Accuracy;
use xiangqi_engine_client::annotate::pgn::{annotate_game, AnnotateError};
use xiangqi_engine_client::annotate::{Judgement, MoveReview, ReviewOptions};
use xiangqi_engine_client::{Engine, EngineSpec, Limit, Protocol, SearchOptions};
use xiangqi_gamefile::corpus::CollectionEntry;
use xiangqi_gamefile::pgn::{write_game, WriteOptions};
use xiangqi_gamefile::Game;

use crate::collection::{
    conclude, for_each_game_with, report_game_problems, report_unreadable, Collection, Event,
    Summary,
};
use crate::common::{print_json, start_engine as start_named_engine};

/// What `analyze --pgn` needs from the command line.
pub struct AnnotateArgs<'a> {
    /// The games to review, read as every command reads them.
    pub collection: Collection,
    pub output: &'a Path,
    pub limit: Limit,
    pub engine: Option<&'a str>,
    pub hash_mb: usize,
    /// Engine processes working at once (0: one per core).
    pub jobs: usize,
    pub json: bool,
}

/// This program's own engine, driven over UCI like any other.
fn own_engine(hash_mb: usize) -> Result<EngineSpec> {
    let exe = std::env::current_exe().context("cannot find this program to run its engine")?;
    let argv = vec![
        exe.display().to_string(),
        "uci".to_string(),
        "--hash".to_string(),
        hash_mb.to_string(),
    ];
    Ok(EngineSpec::new(argv, Protocol::Uci))
}

/// A worker's answer for a game: the annotated PGN text
/// and its review, or why the game was skipped, or an engine failure.
enum Done {
    Annotated(String, Vec<MoveReview>),
    /// The game could not be read (reported as every command reports it).
    Unread,
    Skipped(String),
    EngineFailed(String),
}

fn start_engine(spec: &EngineSpec, limit: Limit) -> Result<Engine> {
    let engine = start_named_engine(spec, None)?;
    if !engine.supports(limit) {
        bail!(
            "engine {:?}: {} engines cannot search {}",
            spec.command,
            spec.protocol.name(),
            limit.describe()
        );
    }
    Ok(engine)
}

fn review(engine: &mut Engine, mut game: Game, options: &ReviewOptions) -> Done {
    match annotate_game(engine, &mut game, options, |_, _| {}) {
        Ok(reviews) => match write_game(&game, &WriteOptions::new(game.notation)) {
            Ok(text) => Done::Annotated(text, reviews),
            Err(e) => Done::Skipped(format!("cannot write it: {e}")),
        },
        Err(AnnotateError::Game(e)) => Done::Skipped(e.to_string()),
        Err(AnnotateError::Engine(e)) => {
            Done::EngineFailed(format!("engine {:?}: {e}", engine.name()))
        }
    }
}

#[derive(Default)]
struct Totals {
    games: usize,
    /// Games not annotated: not read, or not reviewable.
    skipped: usize,
    /// Games read whose review failed (their start cannot be played).
    unreviewable: usize,
    positions: usize,
    /// ?!, ?, ??
    judged: [usize; 3],
    /// Each annotated game's number in the file and its players' accuracy.
    accuracy: Vec<(usize, Accuracy)>,
}

impl Totals {
    fn add(&mut self, game: usize, reviews: &[MoveReview]) {
        self.games += 1;
        self.accuracy.push((game, Accuracy::of_reviews(reviews)));
        self.positions += reviews.len() + 1;
        for r in reviews {
            match r.judgement {
                Some(Judgement::Inaccuracy) => self.judged[0] += 1,
                Some(Judgement::Mistake) => self.judged[1] += 1,
                Some(Judgement::Blunder) => self.judged[2] += 1,
                None => {}
            }
        }
    }
}

/// A worker's engine, quit when the map is over however it ends; gone
/// once it failed, so no later game waits on a broken engine.
struct Reviewer {
    engine: Option<Engine>,
    /// Why the engine failed, repeated for the games it is handed after
    /// (they come after the failed one, which stops the map first).
    failure: String,
}

impl Reviewer {
    fn review(&mut self, game: Game, options: &ReviewOptions) -> Done {
        let Some(engine) = self.engine.as_mut() else {
            return Done::EngineFailed(self.failure.clone());
        };
        let done = review(engine, game, options);
        if let Done::EngineFailed(why) = &done {
            self.failure = why.clone();
            self.quit();
        }
        done
    }

    fn quit(&mut self) {
        if let Some(engine) = self.engine.take() {
            engine.quit();
        }
    }
}

impl Drop for Reviewer {
    fn drop(&mut self) {
        self.quit();
    }
}

/// The engine to review with: `--engine`, or this program's own.
fn engine_spec(args: &AnnotateArgs<'_>) -> Result<EngineSpec> {
    match args.engine {
        Some(text) => Ok(text.parse::<EngineSpec>()?),
        None => own_engine(args.hash_mb),
    }
}

fn open_output(path: &Path) -> Result<Box<dyn Write>> {
    Ok(if path == Path::new("-") {
        Box::new(io::stdout().lock())
    } else {
        Box::new(BufWriter::new(File::create(path).with_context(|| {
            format!("cannot create -o {}", path.display())
        })?))
    })
}

/// Reviews every game of `collection` on one thread per reviewer and
/// writes them to `out` in input order, counting what was done.
fn review_all(
    reviewers: Vec<Reviewer>,
    collection: &Collection,
    options: &ReviewOptions,
    out: &mut dyn Write,
) -> Result<(Totals, Summary)> {
    let mut totals = Totals::default();
    let mut written = 0usize;
    let summary = for_each_game_with(
        collection,
        reviewers,
        |reviewer, at, item| {
            let name = at.name();
            match item {
                Ok(game) => {
                    let warnings = game.errors.clone();
                    (name, Ok(warnings), reviewer.review(game, options))
                }
                Err(e) => (name, Err(e), Done::Unread),
            }
        },
        |event| -> Result<()> {
            let (name, problems, done) = match event {
                Event::Game(answer) => answer,
                Event::Unreadable(what) => {
                    report_unreadable(&what);
                    return Ok(());
                }
            };
            report_game_problems(&problems);
            // Games are numbered in input order, broken ones included.
            written += 1;
            match done {
                Done::Annotated(text, reviews) => {
                    out.write_all(text.as_bytes()).context("cannot write -o")?;
                    totals.add(written, &reviews);
                }
                // Reported above as every command reports a broken game.
                Done::Unread => totals.skipped += 1,
                Done::Skipped(why) => {
                    eprintln!("error: {name}: cannot be reviewed: {why}");
                    totals.skipped += 1;
                    totals.unreviewable += 1;
                }
                // The first failure in input order, whatever engine failed first.
                Done::EngineFailed(why) => bail!("{name}: {why}"),
            }
            Ok(())
        },
    )?;
    Ok((totals, summary))
}

fn report(totals: Totals, jobs: usize, json: bool) -> Result<()> {
    let Totals {
        games,
        skipped,
        unreviewable: _,
        positions,
        judged,
        accuracy,
    } = totals;
    if json {
        // One decimal, as the PGN tags have it.
        let tenths = |v: Option<f64>| v.map(|v| (v * 10.0).round() / 10.0);
        let accuracy: Vec<_> = accuracy
            .iter()
            .map(|(game, a)| json!({"game": game, "red": tenths(a.red), "black": tenths(a.black)}))
            .collect();
        print_json(&json!({
            "games": games,
            "skipped": skipped,
            "positions": positions,
            "inaccuracies": judged[0],
            "mistakes": judged[1],
            "blunders": judged[2],
            "accuracy": accuracy,
            "jobs": jobs,
        }))?;
    } else {
        eprintln!(
            "annotated {games} game(s), {positions} positions with {jobs} engine(s); {} ?!, {} ?, {} ??; {skipped} skipped",
            judged[0], judged[1], judged[2]
        );
    }
    Ok(())
}

/// One reviewer per job, every engine started now, so that a wrong
/// command is an error before any work.
fn start_reviewers(spec: &EngineSpec, limit: Limit, jobs: usize) -> Result<Vec<Reviewer>> {
    (0..jobs)
        .map(|_| {
            Ok(Reviewer {
                engine: Some(start_engine(spec, limit)?),
                failure: String::new(),
            })
        })
        .collect()
}

pub fn run(args: AnnotateArgs<'_>) -> Result<()> {
    if args.json && args.output == Path::new("-") {
        bail!("--json prints a summary on stdout: write the games to a file with -o FILE");
    }
    let spec = engine_spec(&args)?;
    let missing = |entry: &CollectionEntry| matches!(entry, Ok(file) if file.path != Path::new("-") && !file.path.exists());
    if args.collection.files.iter().all(missing) {
        // Nothing to review: reported as every command reports it, before
        // any engine starts and before -o is created.
        let summary = for_each_game_with(
            &args.collection,
            vec![()],
            |_, _, _| (),
            |event| {
                if let Event::Unreadable(what) = event {
                    report_unreadable(&what);
                }
                Ok(())
            },
        )?;
        return conclude(&summary, &args.collection, "");
    }
    let jobs = xiangqi_parallel::worker_count(args.jobs);
    let reviewers = start_reviewers(&spec, args.limit, jobs)?;
    let mut out = open_output(args.output)?;
    let options = ReviewOptions::new(SearchOptions::new(args.limit));
    let (totals, mut summary) = review_all(reviewers, &args.collection, &options, &mut out)?;
    out.flush().context("cannot write -o")?;
    // A game read but not reviewed (its start cannot be played) is an error of this command.
    summary.broken_games += totals.unreviewable;
    report(totals, jobs, args.json)?;
    conclude(&summary, &args.collection, " and were left out")
}
