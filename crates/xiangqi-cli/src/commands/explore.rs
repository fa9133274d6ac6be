//! `xiangqi explore build FILES… -o DB` and `xiangqi explore query DB
//! [--fen FEN] [--notation N] [--json]`: the opening explorer of
//! `xiangqi-explorer` over your own games (docs/explorer.md).

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::json;
use xiangqi_adjudication::{Preset, RuleSet};
use xiangqi_explorer::{build, BuildOptions, Explorer, MoveStats, DEFAULT_BATCH_ENTRIES};
use xiangqi_notation::{Notation, Style};

use crate::collection::{conclude, Collection};
use crate::common::{print_json, PositionArgs};
use crate::options::{JobsArg, LegacyEncoding, ReadArgs, INPUTS_HELP};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Index the games of files, directories and patterns into an explorer file.
    Build(BuildArgs),
    /// The moves played from a position, with counts, score and example games.
    Query(QueryArgs),
}

#[derive(clap::Args)]
struct BuildArgs {
    #[arg(required = true, value_name = "INPUT", help = INPUTS_HELP)]
    inputs: Vec<PathBuf>,
    #[command(flatten)]
    read: ReadArgs,
    #[command(flatten)]
    legacy: LegacyEncoding,
    /// The explorer file to write (replaced once the build succeeds).
    #[arg(short, long, value_name = "DB")]
    output: PathBuf,
    /// Index the positions before each of a game's first N moves (plies).
    #[arg(long, value_name = "N", default_value_t = BuildOptions::default().max_plies)]
    plies: usize,
    #[command(flatten)]
    jobs: JobsArg,
    /// Rule preset deciding games whose record has no result: online, asian, pikafish, fairy or plain.
    #[arg(long, default_value_t = Preset::Online)]
    rules: Preset,
    /// Positions and moves tallied in memory before a sorted run goes to disk (the memory bound).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_BATCH_ENTRIES)]
    batch_entries: usize,
    /// Machine-readable report (one JSON object).
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
struct QueryArgs {
    /// The explorer file (`xiangqi explore build`).
    #[arg(value_name = "DB")]
    database: PathBuf,
    #[command(flatten)]
    position: PositionArgs,
    /// Moves (ICCS) played from the start (or `--fen`) to the position
    /// asked about; from the start they also name its ECCO opening, which
    /// is defined on move orders, not on positions (docs/ecco.md).
    #[arg(long, value_name = "MOVE", num_args = 1..)]
    moves: Vec<String>,
    /// Notation of the move column besides ICCS: iccs, wxf, chinese or vietnamese.
    #[arg(long, default_value = "iccs")]
    notation: Notation,
    /// Machine-readable output (one JSON object).
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<()> {
    match args.command {
        Command::Build(a) => run_build(a),
        Command::Query(a) => run_query(a),
    }
}

fn run_build(args: BuildArgs) -> Result<()> {
    // Listed here as every command lists its inputs (an input that yields
    // nothing is an error before any work), read again by the build.
    let collection: Collection = args.read.collection(&args.inputs, Some(&args.legacy))?;
    let options = BuildOptions {
        max_plies: args.plies,
        jobs: args.jobs.jobs,
        rules: RuleSet::preset(args.rules),
        batch_entries: args.batch_entries,
        encoding: collection.encoding,
        format: collection.format,
        strict: collection.strict,
    };
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("explore: {msg} [{elapsed_precise}]")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    let started = Instant::now();
    let report = build(&args.inputs, &args.output, &options, |at| {
        bar.set_message(format!("{} games read, {} files", at.games, at.files));
    });
    bar.finish_and_clear();
    let report = report?;
    let seconds = started.elapsed().as_secs_f64();
    if args.json {
        print_json(&json!({
            "output": args.output.display().to_string(),
            "plies": args.plies,
            "files": report.files,
            "games": report.games,
            "indexed": report.indexed,
            "skipped": report.skipped,
            "partial": report.partial,
            "unreadable": report.unreadable,
            "entries": report.entries,
            "runs": report.runs,
            "problems": report.problems.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "seconds": seconds,
        }))?;
    } else {
        // As every command reports them (docs/cli.md).
        for problem in &report.problems {
            let level = if problem.is_error { "error" } else { "warning" };
            eprintln!("{level}: {problem}");
        }
        println!(
            "{} games indexed of {} read from {} files ({} skipped, {} partly, {} unreadable files): {} positions and moves in {} ({seconds:.1} s)",
            report.indexed,
            report.games,
            report.files,
            report.skipped,
            report.partial,
            report.unreadable,
            report.entries,
            args.output.display(),
        );
    }
    conclude(&report.read, &collection, " and were skipped")
}

fn run_query(args: QueryArgs) -> Result<()> {
    let start = args.position.position()?;
    let moves = args
        .moves
        .iter()
        .map(|m| m.parse::<xiangqi_core::Move>())
        .collect::<Result<Vec<_>, _>>()?;
    let (position, _) = start.replay(&moves)?;
    let opening = xiangqi_ecco::classify(&start, &moves)?;
    let explorer = Explorer::open(&args.database)?;
    let stats = explorer.query(&position)?;
    let side = position.side_to_move();
    let style = Style::default();
    let text = |m: &MoveStats| {
        xiangqi_notation::format(&position, m.mv, args.notation, &style)
            .unwrap_or_else(|_| m.mv.to_string())
    };
    if args.json {
        let moves: Vec<_> = stats
            .moves
            .iter()
            .map(|m| {
                json!({
                    "move": m.mv.to_string(),
                    "text": text(m),
                    "games": m.results.games,
                    "red_wins": m.results.red_wins,
                    "draws": m.results.draws,
                    "black_wins": m.results.black_wins,
                    "score": m.results.score(side),
                    "mean_rating": m.mean_rating,
                    "examples": m.examples,
                })
            })
            .collect();
        return print_json(&json!({
            "fen": position.to_fen(),
            "side_to_move": side.name(),
            "games": stats.total.games,
            "red_wins": stats.total.red_wins,
            "draws": stats.total.draws,
            "black_wins": stats.total.black_wins,
            "score": stats.total.score(side),
            "opening": opening.map(|o| json!({
                "code": o.code,
                "name": o.name,
                "name_traditional": o.name_traditional,
                "name_en": o.name_en,
                "ply": o.ply,
            })),
            "moves": moves,
        }));
    }
    if let Some(o) = &opening {
        println!(
            "opening: {} {} ({}), from ply {}",
            o.code, o.name, o.name_en, o.ply
        );
    }
    if stats.moves.is_empty() {
        println!(
            "no games in {} reach this position",
            args.database.display()
        );
        return Ok(());
    }
    println!(
        "{:<6} {:<12} {:>8} {:>6} {:>6} {:>6} {:>7} {:>7}  example",
        "move", "text", "games", "red%", "draw%", "black%", "score", "rating"
    );
    for m in &stats.moves {
        print_row(
            &m.mv.to_string(),
            &text(m),
            &m.results,
            side,
            m.mean_rating,
            example(m),
        );
    }
    print_row("total", "", &stats.total, side, None, String::new());
    Ok(())
}

fn print_row(
    mv: &str,
    text: &str,
    results: &xiangqi_explorer::Results,
    side: xiangqi_core::Color,
    rating: Option<f64>,
    example: String,
) {
    let percent = |n: u64| match results.decided() {
        0 => "-".to_string(),
        d => format!("{:.1}", 100.0 * n as f64 / d as f64),
    };
    let score = results
        .score(side)
        .map_or("-".to_string(), |s| format!("{s:.1}%"));
    let rating = rating.map_or("-".to_string(), |r| format!("{r:.0}"));
    println!(
        "{mv:<6} {text:<12} {:>8} {:>6} {:>6} {:>6} {score:>7} {rating:>7}  {example}",
        results.games,
        percent(results.red_wins),
        percent(results.draws),
        percent(results.black_wins),
    );
}

/// The first example game, as `Red - Black (file#index)`.
fn example(m: &MoveStats) -> String {
    let Some(game) = m.examples.first() else {
        return String::new();
    };
    let name = |n: &Option<String>| n.clone().unwrap_or_else(|| "?".to_string());
    format!(
        "{} - {} ({}#{})",
        name(&game.red),
        name(&game.black),
        game.file,
        game.index
    )
}
