//! Criterion benchmarks: static evaluation and fixed-depth search of the bench positions.
//! Strength and the comparison with fairy-stockfish are in docs/engine-experiments.md.

use std::time::Duration;

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use xiangqi_core::Position;
use xiangqi_search::{evaluate, Engine, Limits, BENCH_POSITIONS};

fn positions() -> Vec<Position> {
    BENCH_POSITIONS
        .iter()
        .map(|f| Position::from_fen(f).expect("bench positions are valid"))
        .collect()
}

fn bench_eval(c: &mut Criterion) {
    let positions = positions();
    c.bench_function("evaluate/bench_positions", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| evaluate(black_box(p)))
                .sum::<i32>()
        })
    });
}

fn bench_search(c: &mut Criterion) {
    let positions = positions();
    let mut group = c.benchmark_group("search");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    group.bench_function("bench_positions_depth_6", |b| {
        let mut engine = Engine::new(16);
        b.iter(|| {
            let mut nodes = 0;
            for p in &positions {
                engine.new_game();
                nodes += engine.search(p, &[], &Limits::depth(6), |_| {}).nodes;
            }
            black_box(nodes)
        })
    });
    group.finish();
}

criterion_group!(benches, bench_eval, bench_search);
criterion_main!(benches);
