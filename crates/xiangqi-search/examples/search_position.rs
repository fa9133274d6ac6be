//! Searches one position and prints each iteration: `cargo run --release --example search_position -- [FEN] [DEPTH]`.

use xiangqi_core::Position;
use xiangqi_search::{Engine, Limits};

fn main() {
    let mut args = std::env::args().skip(1);
    let fen = args
        .next()
        .unwrap_or_else(|| xiangqi_core::START_FEN.to_string());
    let depth: u32 = args.next().and_then(|d| d.parse().ok()).unwrap_or(10);
    let pos = match Position::from_fen(&fen) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let mut engine = Engine::new(64);
    let r = engine.search(&pos, &[], &Limits::depth(depth), |i| {
        let pv: Vec<String> = i.pv.iter().map(|m| m.to_string()).collect();
        println!(
            "depth {} seldepth {} score {} nodes {} nps {} time {} pv {}",
            i.depth,
            i.seldepth,
            i.score,
            i.nodes,
            i.nps,
            i.time.as_millis(),
            pv.join(" ")
        );
    });
    println!("bestmove {:?} nodes {}", r.best_move, r.nodes);
}
