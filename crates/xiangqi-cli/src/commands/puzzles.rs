//! `xiangqi puzzles build INPUT… -o FILE`: a puzzle set from tactics lists
//! (`*.jsonl`: fen, solution) and game files (each game's start and main
//! line), every candidate verified by `xiangqi-puzzles`' `Verifier` on
//! `--jobs` engines (docs/puzzles.md). This reads, hands candidates to the
//! workers, writes the kept puzzles in input order and reports.

use std::collections::{BTreeMap, HashSet};
use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::json;
use xiangqi_puzzles::{
    read_tactics, write_puzzle, Candidate, CandidateError, Verdict, Verifier, VerifyOptions,
    DEFAULT_MARGIN_CP, DEFAULT_MAX_PLIES, DEFAULT_MIN_MOVES, DEFAULT_NODES,
};
use xiangqi_search::Limits;

use crate::collection::{
    conclude, for_each_game_with, report_game_problems, report_unreadable, Collection, Event,
    Summary,
};
use crate::common::print_json;
use crate::exit::Failed;
use crate::options::{JobsArg, ReadArgs, INPUTS_HELP};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Make a puzzle set from tactics lists (*.jsonl) and game files.
    Build(BuildArgs),
}

#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("limit").args(["nodes", "movetime"])))]
struct BuildArgs {
    /// Tactics lists (`*.jsonl`, one {"fen", "solution"} object a line),
    /// read first in the order named; then the game files.
    #[arg(required = true, value_name = "INPUT", help = INPUTS_HELP)]
    inputs: Vec<PathBuf>,
    #[command(flatten)]
    read: ReadArgs,
    /// The puzzle-set file to write (JSON Lines; replaced once the build succeeds).
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// Nodes of each search (one per step of a solution).
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
    /// Milliseconds of each search, instead of a node count (not reproducible).
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// Centipawns by which the solver's move must beat the second best.
    #[arg(long, value_name = "CP", default_value_t = DEFAULT_MARGIN_CP)]
    margin: i32,
    /// The longest puzzle in plies: of a longer line only the end is kept.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_PLIES)]
    max_plies: usize,
    /// The fewest moves of the solver in a puzzle.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MIN_MOVES)]
    min_moves: usize,
    /// Transposition table of each engine, in MiB.
    #[arg(long, value_name = "MB", default_value_t = 16)]
    hash: usize,
    #[command(flatten)]
    jobs: JobsArg,
    /// Machine-readable report (one JSON object).
    #[arg(long)]
    json: bool,
    /// Say on stderr why each position was dropped or cut.
    #[arg(long, short)]
    verbose: bool,
}

pub fn run(args: Args) -> Result<()> {
    match args.command {
        Command::Build(a) => run_build(a),
    }
}

/// A tactics list is named by its extension; everything else is a game file.
fn is_tactics_list(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("jsonl"))
}

/// What the build counts.
#[derive(Default)]
struct Totals {
    /// Candidates verified (tactics records and games).
    read: usize,
    kept_whole: usize,
    kept_end: usize,
    /// Kept, but the same puzzle as one before (a game filed twice).
    duplicates: usize,
    /// Why the rest were dropped, and why kept ends were cut.
    dropped: BTreeMap<&'static str, usize>,
    cut: BTreeMap<&'static str, usize>,
    /// Records or games that are no candidate (bad FEN, illegal move).
    unusable: usize,
    ids: HashSet<String>,
    verbose: bool,
}

impl Totals {
    fn kept(&self) -> usize {
        self.kept_whole + self.kept_end
    }

    /// Counts `verdict` and writes its puzzle unless it is a duplicate.
    fn add(&mut self, source: &str, verdict: Verdict, out: &mut impl Write) -> Result<()> {
        self.read += 1;
        if self.verbose {
            match &verdict {
                Verdict::Dropped(reason) => {
                    eprintln!("dropped: {source}: {} ({reason})", reason.key())
                }
                Verdict::Kept {
                    cut: Some(reason),
                    from_ply,
                    ..
                } => {
                    eprintln!(
                        "kept from ply {}: {source}: {} before ({reason})",
                        from_ply + 1,
                        reason.key()
                    )
                }
                Verdict::Kept { .. } => {}
            }
        }
        match verdict {
            Verdict::Kept {
                puzzle,
                from_ply,
                cut,
            } => {
                if !self.ids.insert(puzzle.id.clone()) {
                    self.duplicates += 1;
                    return Ok(());
                }
                if from_ply == 0 {
                    self.kept_whole += 1;
                } else {
                    self.kept_end += 1;
                }
                if let Some(reason) = cut {
                    *self.cut.entry(reason.key()).or_default() += 1;
                }
                write_puzzle(out, &puzzle).context("cannot write -o")?;
            }
            Verdict::Dropped(reason) => *self.dropped.entry(reason.key()).or_default() += 1,
        }
        Ok(())
    }

    fn unusable(&mut self, error: &CandidateError) {
        eprintln!("error: {error}");
        self.unusable += 1;
    }
}

fn bar(label: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(&format!(
        "[{{elapsed_precise}}] {label}: {{pos}} positions verified {{msg}}"
    )) {
        bar.set_style(style);
    }
    bar
}

fn run_build(args: BuildArgs) -> Result<()> {
    let (tactics, games): (Vec<PathBuf>, Vec<PathBuf>) = args
        .inputs
        .iter()
        .cloned()
        .partition(|p| is_tactics_list(p));
    let collection = match games.is_empty() {
        true => None,
        false => Some(args.read.collection(&games, None)?),
    };
    let limits = match (args.nodes, args.movetime) {
        (_, Some(ms)) => Limits::move_time(Duration::from_millis(ms)),
        (nodes, None) => Limits::nodes(nodes.unwrap_or(DEFAULT_NODES)),
    };
    let options = VerifyOptions {
        limits,
        margin_cp: args.margin,
        max_plies: args.max_plies,
        min_moves: args.min_moves,
        ..VerifyOptions::default()
    };
    let jobs = xiangqi_parallel::worker_count(args.jobs.jobs);
    let verifiers = || {
        (0..jobs)
            .map(|_| Verifier::new(options.clone(), args.hash))
            .collect::<Vec<_>>()
    };
    let partial = args.output.with_extension("jsonl.partial");
    let mut out = BufWriter::new(
        File::create(&partial).with_context(|| format!("cannot create {}", partial.display()))?,
    );
    let started = Instant::now();
    let mut totals = Totals {
        verbose: args.verbose,
        ..Totals::default()
    };
    let mut unreadable_lists = 0usize;
    let progress = bar("puzzles");
    for path in &tactics {
        let candidates = match File::open(path)
            .and_then(|file| read_tactics(BufReader::new(file), &path.display().to_string()))
        {
            Ok(candidates) => candidates,
            Err(e) => {
                eprintln!("error: {}: file: read error: {e}", path.display());
                unreadable_lists += 1;
                continue;
            }
        };
        xiangqi_parallel::ordered_map_with(
            verifiers(),
            candidates.into_iter(),
            |verifier, candidate| candidate.map(|c| (c.source.clone(), verifier.verify(&c))),
            |verdict| -> Result<()> {
                progress.inc(1);
                match verdict {
                    Ok((source, verdict)) => totals.add(&source, verdict, &mut out)?,
                    Err(e) => totals.unusable(&e),
                }
                progress.set_message(format!("{} kept", totals.kept()));
                Ok(())
            },
        )?;
    }
    progress.finish_and_clear();
    let unusable_records = totals.unusable;
    let summary = match &collection {
        Some(collection) => Some(verify_games(
            collection,
            verifiers(),
            &mut totals,
            &mut out,
        )?),
        None => None,
    };
    out.flush().context("cannot write -o")?;
    drop(out);
    let seconds = started.elapsed().as_secs_f64();
    report(&args, &totals, jobs, seconds)?;
    if totals.kept() == 0 {
        let _ = std::fs::remove_file(&partial);
        return Err(Failed::new(
            2,
            format!(
                "no puzzle kept of {} positions; {} left as it was",
                totals.read,
                args.output.display()
            ),
        )
        .into());
    }
    std::fs::rename(&partial, &args.output)
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    if let (Some(summary), Some(collection)) = (summary, &collection) {
        conclude(&summary, collection, " and were left out")?;
    }
    if unusable_records > 0 || unreadable_lists > 0 {
        let status = if args.read.strict { 2 } else { 1 };
        return Err(Failed::new(
            status,
            format!(
                "{unusable_records} tactics records were no position with a line, {unreadable_lists} tactics lists could not be read"
            ),
        )
        .into());
    }
    Ok(())
}

/// Verifies every game of `collection` on the verifiers' threads, in
/// collection order.
fn verify_games(
    collection: &Collection,
    verifiers: Vec<Verifier>,
    totals: &mut Totals,
    out: &mut impl Write,
) -> Result<Summary> {
    let unusable_before = totals.unusable;
    let mut summary = for_each_game_with(
        collection,
        verifiers,
        |verifier, at, item| {
            let name = at.name();
            match item {
                Ok(game) => {
                    let warnings = game.errors.clone();
                    let verdict = Candidate::from_game(name, &game)
                        .map(|c| (c.source.clone(), verifier.verify(&c)));
                    (Ok(warnings), Some(verdict))
                }
                Err(e) => (Err(e), None),
            }
        },
        |event| -> Result<()> {
            let (problems, verdict) = match event {
                Event::Game(answer) => answer,
                Event::Unreadable(what) => {
                    report_unreadable(&what);
                    return Ok(());
                }
            };
            report_game_problems(&problems);
            match verdict {
                Some(Ok((source, verdict))) => totals.add(&source, verdict, out)?,
                Some(Err(e)) => totals.unusable(&e),
                None => {}
            }
            Ok(())
        },
    )?;
    // A game read but unusable (its start cannot be played) is an error of this command.
    summary.broken_games += totals.unusable - unusable_before;
    Ok(summary)
}

fn report(args: &BuildArgs, totals: &Totals, jobs: usize, seconds: f64) -> Result<()> {
    let dropped: usize = totals.dropped.values().sum();
    if args.json {
        return print_json(&json!({
            "output": args.output.display().to_string(),
            "read": totals.read,
            "kept": totals.kept(),
            "kept_whole": totals.kept_whole,
            "kept_end": totals.kept_end,
            "duplicates": totals.duplicates,
            "dropped": dropped,
            "dropped_by_reason": totals.dropped,
            "cut_by_reason": totals.cut,
            "unusable": totals.unusable,
            "jobs": jobs,
            "seconds": seconds,
        }));
    }
    let list = |counts: &BTreeMap<&str, usize>| {
        counts
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    eprintln!(
        "puzzles: {} positions verified with {jobs} engine(s) in {seconds:.1} s: {} kept ({} whole, {} the end of their line; {} duplicates left out), {dropped} dropped ({})",
        totals.read,
        totals.kept(),
        totals.kept_whole,
        totals.kept_end,
        totals.duplicates,
        list(&totals.dropped),
    );
    if !totals.cut.is_empty() {
        eprintln!("cut before the kept end: {}", list(&totals.cut));
    }
    if totals.kept() > 0 {
        println!(
            "{} puzzles written to {}",
            totals.kept(),
            args.output.display()
        );
    }
    Ok(())
}
