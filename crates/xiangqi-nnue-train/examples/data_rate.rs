//! Positions per second of data generation and relabelling, in a release
//! build of the library alone (the CLI's `xiangqi nnue gen` and `relabel`
//! run the same functions):
//!
//! ```text
//! cargo run --release -p xiangqi-nnue-train --example data_rate -- gen OUT GAMES NODES SEED JOBS
//! cargo run --release -p xiangqi-nnue-train --example data_rate -- relabel OUT NODES JOBS INPUT...
//! ```
//!
//! It prints wall-clock and process CPU time, so that a run on a shared
//! machine still gives the rate of a core that is ours.

use std::path::PathBuf;
use std::time::Instant;

use xiangqi_nnue_train::{generate, relabel, GenConfig, RelabelConfig};

fn cpu_seconds() -> f64 {
    // utime + stime of this process, in clock ticks (Linux); 0 elsewhere.
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    let after_name = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // Fields 14 and 15 of the stat line are the 12th and 13th after the name.
    (ticks(11) + ticks(12)) / 100.0
}

fn number<T: std::str::FromStr>(args: &[String], i: usize, what: &str) -> T {
    args.get(i)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("argument {i}: {what} expected"))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let started = Instant::now();
    let positions = match args.first().map(String::as_str) {
        Some("gen") => {
            let config = GenConfig {
                games: number(&args, 2, "games"),
                nodes: number(&args, 3, "nodes"),
                seed: number(&args, 4, "seed"),
                jobs: number(&args, 5, "jobs"),
                ..GenConfig::default()
            };
            let report = generate(&PathBuf::from(&args[1]), &config, |_| {}).expect("generation");
            println!("games {} positions {}", report.games, report.positions);
            report.positions
        }
        Some("relabel") => {
            let config = RelabelConfig {
                nodes: number(&args, 2, "nodes"),
                jobs: number(&args, 3, "jobs"),
                ..RelabelConfig::default()
            };
            let inputs: Vec<PathBuf> = args[4..].iter().map(PathBuf::from).collect();
            let report =
                relabel(&PathBuf::from(&args[1]), &inputs, &config, |_| {}).expect("relabelling");
            println!(
                "games {} positions {} left out {:?} ({})",
                report.games,
                report.positions,
                report.left_out,
                report.summary.line()
            );
            report.positions
        }
        _ => panic!(
            "usage: data_rate gen OUT GAMES NODES SEED JOBS | relabel OUT NODES JOBS INPUT..."
        ),
    };
    let wall = started.elapsed().as_secs_f64();
    let cpu = cpu_seconds();
    println!(
        "wall {wall:.1} s, cpu {cpu:.1} s: {:.0} positions/s wall, {:.0} positions per CPU second",
        positions as f64 / wall,
        positions as f64 / cpu.max(1e-9)
    );
}
