//! `cargo run --release -p xiangqi-core --example perft -- DEPTH [FEN]`: a bare perft timer.
fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().and_then(|d| d.parse().ok()).unwrap_or(5);
    let fen = args
        .next()
        .unwrap_or_else(|| xiangqi_core::START_FEN.to_owned());
    let pos = match xiangqi_core::Position::from_fen(&fen) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let t = std::time::Instant::now();
    let n = xiangqi_core::perft(&pos, depth);
    let s = t.elapsed().as_secs_f64();
    println!("nodes {n} time {s:.3}s nps {:.0}", n as f64 / s);
}
