//! `xiangqi bench [--depth N] [--threads N] [--eval-file NET | --classical]
//! [--json]`: searches the fixed bench positions to a fixed depth; with one
//! thread (the default) the total node count is a deterministic signature of
//! the search, nodes/s measures its speed (with more threads: the speed of
//! all threads together).

use anyhow::{bail, Result};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use xiangqi_search::{run_bench_on, Engine, BENCH_DEPTH, BENCH_POSITIONS, MAX_THREADS};

use crate::common::print_json;

#[derive(clap::Args)]
pub struct Args {
    /// Depth in plies for every position.
    #[arg(long, default_value_t = BENCH_DEPTH)]
    depth: u32,
    /// Search threads (more than one: the node count is no signature).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Search with the NNUE evaluation of this net file (docs/engine.md,
    /// "NNUE evaluation") instead of the embedded net.
    #[arg(long, value_name = "PATH", conflicts_with = "classical")]
    eval_file: Option<std::path::PathBuf>,
    /// Search with the classical evaluation instead of the embedded net.
    #[arg(long)]
    classical: bool,
    /// Machine-readable output.
    #[arg(long)]
    json: bool,
}

/// Deeper benches take minutes per position.
const MAX_BENCH_DEPTH: u32 = 20;

pub fn run(args: Args) -> Result<()> {
    if args.depth == 0 || args.depth > MAX_BENCH_DEPTH {
        bail!(
            "--depth must be between 1 and {MAX_BENCH_DEPTH}, got {}",
            args.depth
        );
    }
    if args.threads == 0 || args.threads > MAX_THREADS {
        bail!(
            "--threads must be between 1 and {MAX_THREADS}, got {}",
            args.threads
        );
    }
    let mut engine = if args.classical {
        Engine::classical(16)
    } else {
        Engine::new(16)
    };
    engine.set_threads(args.threads);
    if let Some(path) = &args.eval_file {
        engine.load_eval_file(Some(path))?;
        engine.set_use_nnue(true)?;
    }
    let evaluation = match (&args.eval_file, engine.evaluates_with_nnue()) {
        (Some(path), _) => format!("nnue {}", path.display()),
        (None, true) => "nnue <embedded>".to_string(),
        (None, false) => "classical".to_string(),
    };
    let bar = ProgressBar::new(BENCH_POSITIONS.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("bench {pos}/{len} positions [{elapsed_precise}] {wide_bar}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let report = run_bench_on(&mut engine, args.depth, |done, _| {
        bar.set_position(done as u64)
    });
    bar.finish_and_clear();
    if args.json {
        let positions: Vec<_> = report
            .entries
            .iter()
            .map(|e| {
                json!({
                    "fen": e.fen,
                    "best_move": e.best_move.map(|m| m.to_string()),
                    "nodes": e.nodes,
                    "time_ms": e.time.as_millis() as u64,
                })
            })
            .collect();
        print_json(&json!({
            "depth": report.depth,
            "threads": report.threads,
            "evaluation": evaluation,
            "positions": positions,
            "total_nodes": report.total_nodes,
            "time_ms": report.time.as_millis() as u64,
            "nps": report.nps,
        }))?;
    } else {
        for (i, e) in report.entries.iter().enumerate() {
            let best = e
                .best_move
                .map_or_else(|| "(none)".to_string(), |m| m.to_string());
            println!(
                "position {:>2}/{}: best {best}  nodes {:>10}  {:>6} ms  {}",
                i + 1,
                report.entries.len(),
                e.nodes,
                e.time.as_millis(),
                e.fen
            );
        }
        println!("depth: {}", report.depth);
        println!("threads: {}", report.threads);
        println!("evaluation: {evaluation}");
        println!("total nodes: {}", report.total_nodes);
        println!("time: {} ms", report.time.as_millis());
        println!("nodes/s: {}", report.nps);
    }
    Ok(())
}
