//! The `xiangqi-engine` program: the UCI/UCCI loop with no subcommand (the
//! protocol chosen by the first command: `ucci` is UCCI, anything else UCI,
//! as GUIs and Pikafish clients start an engine), and `bench`, the search
//! signature in Pikafish's words (`Nodes searched  : N`), which tools such
//! as OpenBench read.

use std::io::{self, Cursor, Read};
use std::time::Instant;

use anyhow::{bail, Result};
use xiangqi_search::{run_bench, BENCH_DEPTH, DEFAULT_HASH_MB, MAX_HASH_MB};

use super::engine_protocol::first_line;
use super::{ucci, uci};

#[derive(clap::Parser)]
#[command(
    name = "xiangqi-engine",
    version,
    about = "The xiangqi engine for GUIs: UCI (or UCCI after `ucci`) on stdin/stdout"
)]
pub struct Args {
    /// Initial transposition-table size in MiB (also `setoption name Hash`).
    #[arg(long, default_value_t = DEFAULT_HASH_MB)]
    hash: usize,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Search the bench positions to a fixed depth and print the node count
    /// (the search's signature) and speed, as Pikafish's `bench` does.
    Bench {
        /// Depth in plies for every position.
        #[arg(default_value_t = BENCH_DEPTH)]
        depth: u32,
    },
}

/// Deeper benches take minutes per position.
const MAX_BENCH_DEPTH: u32 = 20;

pub fn run(args: Args) -> Result<()> {
    match args.command {
        Some(Command::Bench { depth }) => bench(depth),
        None => serve(args.hash.clamp(1, MAX_HASH_MB)),
    }
}

/// Reads the first command, picks the protocol and hands it the whole input.
fn serve(hash_mb: usize) -> Result<()> {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let Some(first) = first_line(&mut input)? else {
        return Ok(());
    };
    let replay = Cursor::new(first.clone().into_bytes()).chain(input);
    if first.split_whitespace().next() == Some("ucci") {
        ucci::serve(hash_mb, replay)
    } else {
        uci::serve(hash_mb, replay)
    }
}

fn bench(depth: u32) -> Result<()> {
    if depth == 0 || depth > MAX_BENCH_DEPTH {
        bail!("the bench depth must be between 1 and {MAX_BENCH_DEPTH}, got {depth}");
    }
    let start = Instant::now();
    let report = run_bench(depth, |done, total| {
        eprintln!("Position: {done}/{total}");
    });
    let ms = start.elapsed().as_millis().max(1);
    eprintln!();
    eprintln!("===========================");
    eprintln!("Total time (ms) : {ms}");
    eprintln!("Nodes searched  : {}", report.total_nodes);
    eprintln!("Nodes/second    : {}", report.nps);
    Ok(())
}
