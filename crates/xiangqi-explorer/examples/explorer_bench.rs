//! The explorer benchmark's two tools (`cargo xtask bench explorer` runs
//! them; see docs/explorer.md):
//!
//! * `explorer_bench generate N FILE`: N generated games as PGN, engine-free:
//!   each move drawn among the legal ones with a skew towards the first
//!   ones generated (index `n·u³` for a uniform `u`), so that games share
//!   openings and transpose as real corpora do; 80 plies at most, a result
//!   and both ratings in every record. Seeded: the same N gives the same file.
//! * `explorer_bench query DB N`: N queries on walks from the start through
//!   the explorer (each step a move the corpus played, drawn by its games),
//!   12 plies deep at most; prints the latency p50, p99 and mean as JSON.

use std::fmt::Write as _;
use std::io::{BufWriter, Write};
use std::time::Instant;

use xiangqi_core::{Position, SplitMix64};
use xiangqi_explorer::Explorer;

const PLIES: usize = 80;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["generate", n, file] => generate(parse(n), file),
        ["query", db, n] => query(db, parse(n)),
        _ => Err("usage: explorer_bench generate N FILE | query DB N".to_string()),
    };
    if let Err(e) = result {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
}

fn parse(n: &str) -> usize {
    n.replace('_', "").parse().unwrap_or_else(|_| {
        eprintln!("error: {n:?} is not a count");
        std::process::exit(2)
    })
}

/// A uniform draw in [0, 1).
fn uniform(rng: &mut SplitMix64) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

fn generate(games: usize, file: &str) -> Result<(), String> {
    let out = std::fs::File::create(file).map_err(|e| format!("{file}: {e}"))?;
    let mut out = BufWriter::with_capacity(1 << 20, out);
    let mut rng = SplitMix64::new(0x5851_4558);
    let mut text = String::new();
    for game in 1..=games {
        text.clear();
        let mut position = Position::startpos();
        let mut moves = String::new();
        for ply in 0..PLIES {
            let legal = position.legal_move_vec();
            if legal.is_empty() {
                break;
            }
            let u = uniform(&mut rng);
            let mv = legal[((legal.len() as f64) * u * u * u) as usize];
            if ply % 2 == 0 {
                write!(moves, "{}. ", ply / 2 + 1).expect("a String takes writes");
            }
            write!(moves, "{mv} ").expect("a String takes writes");
            position.make_move(mv);
        }
        let result = ["1-0", "0-1", "1/2-1/2"][(rng.next_u64() % 3) as usize];
        let red_elo = 1500 + rng.next_u64() % 1200;
        let black_elo = 1500 + rng.next_u64() % 1200;
        write!(
            text,
            "[Event \"generated\"]\n[Red \"R{}\"]\n[Black \"B{}\"]\n[RedElo \"{red_elo}\"]\n[BlackElo \"{black_elo}\"]\n[Result \"{result}\"]\n\n{moves}{result}\n\n",
            game % 5000,
            game % 4999,
        )
        .expect("a String takes writes");
        out.write_all(text.as_bytes())
            .map_err(|e| format!("{file}: {e}"))?;
    }
    out.flush().map_err(|e| format!("{file}: {e}"))
}

fn query(db: &str, queries: usize) -> Result<(), String> {
    let explorer = Explorer::open(db).map_err(|e| e.to_string())?;
    let mut rng = SplitMix64::new(7);
    let mut latencies = Vec::with_capacity(queries);
    let mut position = Position::startpos();
    let mut depth = 0;
    while latencies.len() < queries {
        let started = Instant::now();
        let stats = explorer.query(&position).map_err(|e| e.to_string())?;
        latencies.push(started.elapsed().as_secs_f64() * 1e6);
        depth += 1;
        let total = stats.total.games;
        if total == 0 || depth > 12 {
            position = Position::startpos();
            depth = 0;
            continue;
        }
        let mut pick = rng.next_u64() % total;
        for m in &stats.moves {
            if pick < m.results.games {
                position.make_move(m.mv);
                break;
            }
            pick -= m.results.games;
        }
    }
    latencies.sort_by(f64::total_cmp);
    let at = |q: f64| latencies[((latencies.len() - 1) as f64 * q) as usize];
    let mean = latencies.iter().sum::<f64>() / latencies.len() as f64;
    println!(
        "{{\"queries\": {}, \"p50_us\": {:.1}, \"p99_us\": {:.1}, \"mean_us\": {:.1}}}",
        latencies.len(),
        at(0.5),
        at(0.99),
        mean
    );
    Ok(())
}
