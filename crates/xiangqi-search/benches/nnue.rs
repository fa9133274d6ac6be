//! Criterion benchmarks: the NNUE evaluation against the classical one, on
//! the bench positions with a random network of H = 256 (a speed
//! measurement: a random net plays nonsense but costs what a trained one
//! costs). Throughputs are evaluations per second and, for the searches,
//! nodes per second; the run ends with the nodes-per-second ratio.

use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use xiangqi_core::{Move, Position};
use xiangqi_nnue::{AccumulatorStack, FloatNetwork, MoveDelta, Network, Simd};
use xiangqi_search::{evaluate, run_bench_on, Engine, BENCH_POSITIONS};

const HIDDEN: usize = 256;
const SEARCH_DEPTH: u32 = 6;

fn positions() -> Vec<Position> {
    BENCH_POSITIONS
        .iter()
        .map(|f| Position::from_fen(f).expect("bench positions are valid"))
        .collect()
}

fn network() -> Arc<Network> {
    Arc::new(FloatNetwork::random(HIDDEN, 1).quantise())
}

/// Each bench position with each of its legal moves.
fn children(positions: &[Position]) -> Vec<(Position, Vec<Move>)> {
    positions
        .iter()
        .map(|p| (p.clone(), p.legal_move_vec()))
        .collect()
}

fn bench_eval(c: &mut Criterion) {
    let positions = positions();
    let network = network();
    let children = children(&positions);
    let evaluations: usize = children.iter().map(|(_, moves)| moves.len()).sum();
    let mut group = c.benchmark_group("nnue_eval");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("classical_from_scratch", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| evaluate(black_box(p)))
                .sum::<i32>()
        })
    });
    group.bench_function("nnue_h256_from_scratch", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| network.evaluate(black_box(p)))
                .sum::<i32>()
        })
    });
    // After each move, as the search evaluates: make, evaluate, unmake.
    group.throughput(Throughput::Elements(evaluations as u64));
    group.bench_function("classical_after_each_move", |b| {
        b.iter(|| {
            let mut sum = 0;
            for (pos, moves) in &children {
                let mut pos = pos.clone();
                for &mv in moves {
                    let undo = pos.make_move(mv);
                    sum += evaluate(black_box(&pos));
                    pos.unmake_move(mv, undo);
                }
            }
            sum
        })
    });
    for simd in Simd::available() {
        let mut stack = AccumulatorStack::new(simd);
        group.bench_function(format!("nnue_h256_after_each_move_{}", simd.name()), |b| {
            b.iter(|| {
                let mut sum = 0;
                for (pos, moves) in &children {
                    stack.reset(&network, pos);
                    for &mv in moves {
                        let delta = MoveDelta::of_move(pos, mv).expect("legal move");
                        stack.push(&network, delta);
                        sum += stack.evaluate(&network, pos.side_to_move().opposite());
                        stack.pop();
                    }
                }
                black_box(sum)
            })
        });
    }
    group.finish();
}

fn engine(network: Option<&Arc<Network>>) -> Engine {
    let mut engine = Engine::new(16);
    if let Some(network) = network {
        engine.set_network(Some(Arc::clone(network)));
        engine.set_use_nnue(true).expect("a network is set");
    }
    engine
}

fn bench_search(c: &mut Criterion) {
    let network = network();
    let mut group = c.benchmark_group("nnue_search");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    for (name, net) in [("classical", None), ("nnue_h256", Some(&network))] {
        let mut engine = engine(net);
        let nodes = run_bench_on(&mut engine, SEARCH_DEPTH, |_, _| {}).total_nodes;
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(
            format!("bench_positions_depth_{SEARCH_DEPTH}_{name}"),
            |b| {
                b.iter(|| black_box(run_bench_on(&mut engine, SEARCH_DEPTH, |_, _| {}).total_nodes))
            },
        );
    }
    group.finish();
    // The two searches visit different trees, so compare speeds, not times:
    // the best of three runs each.
    let nps = |net: Option<&Arc<Network>>| -> f64 {
        let mut engine = engine(net);
        (0..3)
            .map(|_| {
                let start = Instant::now();
                let nodes = run_bench_on(&mut engine, SEARCH_DEPTH, |_, _| {}).total_nodes;
                nodes as f64 / start.elapsed().as_secs_f64()
            })
            .fold(0.0, f64::max)
    };
    let (classical, nnue) = (nps(None), nps(Some(&network)));
    println!(
        "nodes/s at depth {SEARCH_DEPTH}: classical {classical:.0}, NNUE H={HIDDEN} ({}) {nnue:.0}, ratio NNUE/classical {:.2}",
        Simd::detect().name(),
        nnue / classical
    );
}

criterion_group!(benches, bench_eval, bench_search);
criterion_main!(benches);
