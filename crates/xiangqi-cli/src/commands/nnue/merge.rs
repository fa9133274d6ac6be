//! `xiangqi nnue merge -o OUT SHARD…`: shards in one file (see `xiangqi_nnue_train::merge`).

use std::path::PathBuf;

use anyhow::Result;
use serde_json::json;
use xiangqi_nnue_train::merge;

use super::tail_note;
use crate::common::print_json;

#[derive(clap::Args)]
pub struct Args {
    /// The data files to put together, in this order.
    #[arg(required = true, value_name = "SHARD")]
    inputs: Vec<PathBuf>,
    /// The merged file (replaced).
    #[arg(short, long, value_name = "FILE")]
    output: PathBuf,
    /// Machine-readable report (one JSON object).
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<()> {
    let shards = merge(&args.output, &args.inputs)?;
    for shard in &shards {
        if let Some(note) = tail_note(&shard.tail) {
            eprintln!(
                "warning: {}: left out {note} (a stopped run; resume it to finish the game)",
                shard.path.display()
            );
        }
    }
    let games: usize = shards.iter().map(|s| s.games).sum();
    let records: usize = shards.iter().map(|s| s.records).sum();
    if args.json {
        let rows: Vec<_> = shards
            .iter()
            .map(|s| {
                json!({
                    "file": s.path,
                    "games": s.games,
                    "positions": s.records,
                    "cut_bytes": s.tail.partial_bytes,
                    "cut_records": s.tail.unfinished_records,
                })
            })
            .collect();
        return print_json(&json!({
            "file": args.output,
            "games": games,
            "positions": records,
            "shards": rows,
        }));
    }
    println!(
        "{}: {games} games, {records} positions from {} files",
        args.output.display(),
        shards.len()
    );
    Ok(())
}
