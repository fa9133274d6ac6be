//! `xiangqi nnue relabel -o FILE GAMES…`: recorded games scored by our
//! search (see `xiangqi_nnue_train::relabel`).

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use serde_json::json;
use xiangqi_gamefile::corpus::{ReadOutcome, Summary};
use xiangqi_nnue_train::{relabel, RelabelConfig, RelabelEvent};

use super::{bar, say, say_resumed};
use crate::common::print_json;
use crate::exit::Failed;
use crate::options::JobsArg;

#[derive(clap::Args)]
pub struct Args {
    /// Game files, folders or patterns, read in this order (every format `xiangqi game check` reads).
    #[arg(required = true, value_name = "GAMES")]
    inputs: Vec<PathBuf>,
    /// The data file: created, or resumed when it exists (same games, same --nodes).
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// Nodes searched for every position.
    #[arg(long, value_name = "N", default_value_t = RelabelConfig::default().nodes)]
    nodes: u32,
    /// Hash table of each engine, MB.
    #[arg(long, value_name = "MB", default_value_t = RelabelConfig::default().hash_mb)]
    hash: usize,
    #[command(flatten)]
    jobs: JobsArg,
    /// Machine-readable report (one JSON object).
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<()> {
    let config = RelabelConfig {
        nodes: args.nodes,
        jobs: args.jobs.jobs,
        hash_mb: args.hash,
    };
    let threads = xiangqi_parallel::worker_count(config.jobs);
    let progress = bar(0, "games");
    let started = Instant::now();
    let file = args.output.display();
    let report = relabel(&args.output, &args.inputs, &config, |event| match event {
        RelabelEvent::Opened(Some(resumed)) => say_resumed(
            &progress,
            &file.to_string(),
            &resumed,
            &format!("after game {} of the collection", resumed.games),
        ),
        RelabelEvent::Opened(None) => {}
        RelabelEvent::Game { games, positions } => {
            progress.set_position(u64::from(games));
            progress.set_message(format!("{positions} positions"));
        }
        RelabelEvent::Unreadable(what) => say(&progress, format!("warning: {what}")),
    })?;
    progress.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let per_second = report.positions as f64 / seconds.max(1e-9);
    let left = report.left_out;
    if args.json {
        print_json(&json!({
            "file": args.output,
            "games": report.games,
            "positions": report.positions,
            "passed_over": report.passed_over,
            "left_out": {
                "unreadable": left.unreadable,
                "damaged": left.damaged,
                "no_result": left.no_result,
                "no_moves": left.no_moves,
            },
            "files": report.summary.files,
            "seconds": seconds,
            "threads": threads,
            "positions_per_second": per_second,
        }))?;
        return outcome(&report.summary);
    }
    println!(
        "{file}: {} games, {} positions in {seconds:.1} s ({per_second:.0} positions/s on {threads} threads, {:.0} per thread)",
        report.games,
        report.positions,
        per_second / threads as f64,
    );
    if report.passed_over > 0 {
        println!(
            "passed over {} games already in the file",
            report.passed_over
        );
    }
    println!(
        "left out {} games: {} unreadable, {} read with errors, {} without a result, {} without a move; {}",
        left.total(),
        left.unreadable,
        left.damaged,
        left.no_result,
        left.no_moves,
        report.summary.line()
    );
    outcome(&report.summary)
}

/// The exit status of the reading, as every command that reads games
/// says it: 1 when some files or games could not be read (what could be
/// read is written), 2 when nothing could.
fn outcome(summary: &Summary) -> Result<()> {
    let failure = || {
        format!(
            "{} games and {} files or folders could not be read",
            summary.broken_games, summary.unreadable
        )
    };
    match summary.outcome() {
        ReadOutcome::AllRead => Ok(()),
        ReadOutcome::NothingRead => {
            Err(Failed::new(2, format!("nothing read: {}", failure())).into())
        }
        ReadOutcome::SomeErrors => Err(Failed::new(1, failure()).into()),
    }
}
