//! `xiangqi nnue gen -o FILE`: self-play data (see `xiangqi_nnue_train::generate`).

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use serde_json::json;
use xiangqi_nnue_train::{generate, GenConfig, GenEvent};

use super::{bar, say_resumed};
use crate::common::print_json;
use crate::options::JobsArg;

#[derive(clap::Args)]
pub struct Args {
    /// The data file: created, or resumed with the same settings when it exists.
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// Whole games the file holds at the end (games already in it count).
    #[arg(long, value_name = "N", default_value_t = GenConfig::default().games)]
    games: u32,
    /// Nodes searched for every position.
    #[arg(long, value_name = "N", default_value_t = GenConfig::default().nodes)]
    nodes: u32,
    /// Seed of the openings: one seed per shard.
    #[arg(long, default_value_t = GenConfig::default().seed)]
    seed: u64,
    /// Random plies of each opening.
    #[arg(long, value_name = "N", default_value_t = GenConfig::default().opening_plies)]
    opening_plies: u8,
    /// Keep an opening when a short search scores it within this many centipawns.
    #[arg(long, value_name = "CP", default_value_t = GenConfig::default().balanced_cp)]
    balanced_cp: u16,
    /// Stop a game still going after this many plies, as a draw.
    #[arg(long, value_name = "N", default_value_t = GenConfig::default().max_plies)]
    max_plies: u16,
    /// Hash table of each engine, MB.
    #[arg(long, value_name = "MB", default_value_t = GenConfig::default().hash_mb)]
    hash: usize,
    #[command(flatten)]
    jobs: JobsArg,
    /// Machine-readable report (one JSON object).
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<()> {
    let config = GenConfig {
        games: args.games,
        nodes: args.nodes,
        seed: args.seed,
        opening_plies: args.opening_plies,
        balanced_cp: args.balanced_cp,
        max_plies: args.max_plies,
        jobs: args.jobs.jobs,
        hash_mb: args.hash,
    };
    let threads = xiangqi_parallel::worker_count(config.jobs);
    let progress = bar(0, "games");
    let started = Instant::now();
    let file = args.output.display();
    let report = generate(&args.output, &config, |event| match event {
        GenEvent::Opened(Some(resumed)) => say_resumed(
            &progress,
            &file.to_string(),
            &resumed,
            &format!("after {} games", resumed.games),
        ),
        GenEvent::Opened(None) => {}
        GenEvent::Game(p) => {
            progress.set_length(u64::from(p.of));
            progress.set_position(u64::from(p.games));
            progress.set_message(format!("{} positions", p.positions));
        }
    })?;
    progress.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    let before = report.resumed.map_or(0, |r| r.games);
    let per_second = report.positions as f64 / seconds.max(1e-9);
    let threads_used = threads.min(report.games.max(1) as usize);
    if args.json {
        return print_json(&json!({
            "file": args.output,
            "games_before": before,
            "games": report.games,
            "positions": report.positions,
            "games_in_file": before + report.games,
            "cut_bytes": report.resumed.map_or(0, |r| r.tail.partial_bytes),
            "cut_records": report.resumed.map_or(0, |r| r.tail.unfinished_records),
            "seconds": seconds,
            "threads": threads_used,
            "positions_per_second": per_second,
            "endings": report.endings.to_string(),
        }));
    }
    if report.games == 0 {
        eprintln!("{file}: already holds {before} games, nothing to do");
        return Ok(());
    }
    println!(
        "{file}: {} games, {} positions in {seconds:.1} s ({per_second:.0} positions/s on {threads_used} threads, {:.0} per thread); {} games in the file",
        report.games,
        report.positions,
        per_second / threads_used as f64,
        before + report.games
    );
    println!("endings: {}", report.endings);
    Ok(())
}
