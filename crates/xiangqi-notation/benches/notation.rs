//! Throughput of move-text formatting and parsing per notation (moves/s).
//! Baseline in the same run: the core's own ICCS `Display`/`FromStr` plus
//! `check_legal`. Reading PGN files is `xiangqi-gamefile`'s `pgn` bench.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use xiangqi_core::{Move, Position};
use xiangqi_notation::{format_into, parse_with, Notation, Style};

/// Positions and their legal moves from deterministic random playouts.
fn sample() -> Vec<(Position, Vec<Move>)> {
    let mut out = Vec::new();
    for seed in 0..20 {
        xiangqi_core::random_game(seed, 60, |pos, _| {
            out.push((pos.clone(), pos.legal_move_vec()));
        });
    }
    out
}

fn bench_moves(c: &mut Criterion) {
    let sample = sample();
    let total: usize = sample.iter().map(|(_, m)| m.len()).sum();
    let style = Style::default();
    let mut group = c.benchmark_group("format");
    group.throughput(Throughput::Elements(total as u64));
    group.bench_function("baseline_core_check_legal_and_display", |b| {
        let mut s = String::with_capacity(16);
        b.iter(|| {
            for (pos, moves) in &sample {
                for &mv in moves {
                    s.clear();
                    pos.check_legal(mv).unwrap();
                    use std::fmt::Write;
                    write!(s, "{mv}").unwrap();
                    black_box(&s);
                }
            }
        })
    });
    for notation in Notation::ALL {
        group.bench_function(notation.name(), |b| {
            let mut s = String::with_capacity(32);
            b.iter(|| {
                for (pos, moves) in &sample {
                    for &mv in moves {
                        s.clear();
                        format_into(pos, mv, notation, &style, &mut s).unwrap();
                        black_box(&s);
                    }
                }
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("parse");
    group.throughput(Throughput::Elements(total as u64));
    group.bench_function("baseline_core_fromstr_and_check_legal", |b| {
        let texts: Vec<Vec<String>> = sample
            .iter()
            .map(|(_, m)| m.iter().map(|m| m.to_string()).collect())
            .collect();
        b.iter(|| {
            for ((pos, _), texts) in sample.iter().zip(&texts) {
                for t in texts {
                    let mv: Move = t.parse().unwrap();
                    pos.check_legal(mv).unwrap();
                    black_box(mv);
                }
            }
        })
    });
    for notation in Notation::ALL {
        let texts: Vec<Vec<String>> = sample
            .iter()
            .map(|(pos, moves)| {
                moves
                    .iter()
                    .map(|&m| xiangqi_notation::format(pos, m, notation, &style).unwrap())
                    .collect()
            })
            .collect();
        group.bench_function(notation.name(), |b| {
            b.iter(|| {
                for ((pos, _), texts) in sample.iter().zip(&texts) {
                    for t in texts {
                        black_box(parse_with(pos, t, notation, &style).unwrap());
                    }
                }
            })
        });
        group.bench_function(format!("{}_detected", notation.name()), |b| {
            b.iter(|| {
                for ((pos, _), texts) in sample.iter().zip(&texts) {
                    for t in texts {
                        black_box(parse_with(pos, t, None, &style).unwrap());
                    }
                }
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(2)).warm_up_time(std::time::Duration::from_millis(500));
    targets = bench_moves
}
criterion_main!(benches);
