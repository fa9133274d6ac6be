//! Criterion benchmarks: legal move generation, bulk-counted perft, and the
//! single-move legality test `is_legal` (the PGN reader's per-ply check)
//! against its peer, generating the legal moves and searching them.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use std::time::Duration;
use xiangqi_core::{perft, Move, MoveList, Position};

const FENS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "1nba1abn1/4k4/2r2c3/p5P2/8p/3p1p2P/P1P1P4/R1c3Nr1/2C2K2R/1NBA1AB2 w - - 5 20",
    "r1bakab1r/6c2/7C1/2p1p1p1p/pn7/2B1c4/P1P3PCP/9/3K2R2/RN1A1ABN1 b - - 7 11",
    "9/6R2/4k4/1P7/4P3P/2P6/9/3A5/9/4K4 w - - 5 41",
];

fn bench_movegen(c: &mut Criterion) {
    let positions: Vec<Position> = FENS
        .iter()
        .map(|f| Position::from_fen(f).unwrap())
        .collect();
    let mut group = c.benchmark_group("movegen");
    group.measurement_time(Duration::from_secs(3));
    group.bench_function("legal_moves", |b| {
        let mut list = MoveList::new();
        b.iter(|| {
            let mut n = 0;
            for p in &positions {
                p.legal_moves(&mut list);
                n += list.len();
            }
            black_box(n)
        })
    });
    group.bench_function("count_legal_moves", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| black_box(p).count_legal_moves())
                .sum::<usize>()
        })
    });
    group.finish();
}

fn bench_perft(c: &mut Criterion) {
    let start = Position::startpos();
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    group.bench_function("startpos_depth_4", |b| {
        b.iter(|| perft(black_box(&start), 4))
    });
    group.finish();
}

/// Every ply of the PGN benchmark's games (random legal games of up to 120
/// plies, the same as xiangqi-notation's PGN bench reads), as the position
/// before the move and the move.
fn game_plies() -> Vec<(Position, Move)> {
    let mut plies = Vec::new();
    for seed in 0..200u64 {
        xiangqi_core::random_game(seed, 120, |pos, mv| plies.push((pos.clone(), mv)));
    }
    plies
}

fn bench_is_legal(c: &mut Criterion) {
    // Every 8th ply keeps an iteration short while covering all game phases.
    let plies: Vec<(Position, Move)> = game_plies().into_iter().step_by(8).collect();
    let mut group = c.benchmark_group("is_legal");
    group.measurement_time(Duration::from_secs(3));
    group.bench_function("is_legal", |b| {
        b.iter(|| {
            plies
                .iter()
                .filter(|(pos, mv)| black_box(pos).is_legal(black_box(*mv)))
                .count()
        })
    });
    group.bench_function("legal_moves_contains", |b| {
        let mut list = MoveList::new();
        b.iter(|| {
            plies
                .iter()
                .filter(|(pos, mv)| {
                    black_box(pos).legal_moves(&mut list);
                    list.contains(black_box(*mv))
                })
                .count()
        })
    });
    group.finish();
}

criterion_group!(benches, bench_movegen, bench_perft, bench_is_legal);
criterion_main!(benches);
