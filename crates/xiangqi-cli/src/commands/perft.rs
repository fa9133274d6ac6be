//! `xiangqi perft --depth D [--fen FEN] [--divide] [--json]`.

use std::time::Instant;

use anyhow::{bail, Result};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

use crate::common::{divide_lines, print_json, PositionArgs, MAX_PERFT_DEPTH as MAX_DEPTH};

#[derive(clap::Args)]
pub struct Args {
    /// Depth in plies (1-12).
    #[arg(long, short)]
    depth: u32,
    #[command(flatten)]
    start: PositionArgs,
    /// Also print the count below each legal move.
    #[arg(long)]
    divide: bool,
    /// Machine-readable output.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<()> {
    if args.depth == 0 || args.depth > MAX_DEPTH {
        bail!(
            "--depth must be between 1 and {MAX_DEPTH}, got {}",
            args.depth
        );
    }
    let pos = args.start.position()?;
    let start = Instant::now();
    // Progress per root move for long runs; hidden when stderr is not a terminal.
    let bar = if args.depth >= 6 {
        let bar = ProgressBar::new(0);
        bar.set_style(
            ProgressStyle::with_template(
                "perft {pos}/{len} root moves [{elapsed_precise}] {wide_bar}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let split = xiangqi_core::divide_with_progress(&pos, args.depth, |done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    let nodes: u64 = split.iter().map(|(_, n)| n).sum();
    let nps = if seconds > 0.0 {
        (nodes as f64 / seconds).round() as u64
    } else {
        0
    };
    if args.json {
        let mut out = json!({
            "fen": pos.to_fen(),
            "depth": args.depth,
            "nodes": nodes,
            "seconds": seconds,
            "nps": nps,
        });
        if args.divide {
            let map: serde_json::Map<String, serde_json::Value> = split
                .iter()
                .map(|(m, n)| (m.to_string(), json!(n)))
                .collect();
            out["divide"] = serde_json::Value::Object(map);
        }
        print_json(&out)?;
    } else {
        if args.divide {
            for line in divide_lines(&split) {
                println!("{line}");
            }
            println!();
        }
        println!("nodes {nodes}");
        println!("time {seconds:.3} s");
        println!("nps {nps}");
    }
    Ok(())
}
