//! Bench nodes/s with each repetition judge: `cargo run --release --example bench_judges -- [DEPTH]`.

use std::time::Instant;

use xiangqi_core::Position;
use xiangqi_search::{
    AdjudicationJudge, CheckRuleJudge, Engine, Limits, RepetitionJudge, BENCH_POSITIONS,
};

type MakeJudge = fn() -> Box<dyn RepetitionJudge>;

fn main() {
    let depth: u32 = std::env::args()
        .nth(1)
        .and_then(|d| d.parse().ok())
        .unwrap_or(8);
    let judges: [(&str, MakeJudge); 2] = [
        ("adjudication", || Box::new(AdjudicationJudge::default())),
        ("checks-only", || Box::new(CheckRuleJudge)),
    ];
    for (name, make) in judges {
        let mut engine = Engine::new(16);
        engine.set_repetition_judge(make());
        let start = Instant::now();
        let mut nodes = 0;
        for fen in BENCH_POSITIONS {
            engine.new_game();
            let pos = Position::from_fen(fen).expect("valid");
            nodes += engine
                .search(&pos, &[], &Limits::depth(depth), |_| {})
                .nodes;
        }
        let t = start.elapsed().as_secs_f64();
        println!("{name:>13}: {nodes} nodes, {:.0} nodes/s", nodes as f64 / t);
    }
}
