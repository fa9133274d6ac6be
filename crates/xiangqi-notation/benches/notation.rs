//! Throughput of move-text formatting and parsing per notation (moves/s) and
//! of PGN reading. Baselines in the same run: the core's own ICCS
//! `Display`/`FromStr` plus `check_legal`, and splitting the PGN into lines.
//!
//! PGN throughput is in MB/s (10^6 bytes, `Throughput::BytesDecimal`) of
//! move text (the file less its tag lines, 96-98 % of it) for reading the
//! whole file: 200 random games of 120 plies, each written by `write_game`
//! with its `[Event]` and `[Format]` tags, move numbers and moves (no
//! comments), read by `pgn::Reader` into `Game`s (every move checked legal
//! and played); the file is 0.17 MB in ICCS and WXF, 0.31 MB in Chinese,
//! 0.43 MB in Vietnamese. The line-splitting baseline counts the whole file.

#[path = "support/games.rs"]
mod games;

use std::hint::black_box;
use std::io::BufRead;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use xiangqi_core::{Move, Position};
use xiangqi_notation::pgn::{write_game, Game, Reader, WriteOptions};
use xiangqi_notation::{format_into, parse_with, Notation, Style};

/// Positions and their legal moves from deterministic random playouts.
fn sample() -> Vec<(Position, Vec<Move>)> {
    let mut out = Vec::new();
    let mut seed = 0x1234_5678u64;
    for _ in 0..20 {
        let mut pos = Position::startpos();
        for _ in 0..60 {
            let moves = pos.legal_move_vec();
            if moves.is_empty() {
                break;
            }
            out.push((pos.clone(), moves.clone()));
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            pos.make_move(moves[(seed >> 33) as usize % moves.len()]);
        }
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

fn bench_pgn(c: &mut Criterion) {
    let games: Vec<Game> = (0..200).map(|i| games::random_game(i, 120)).collect();
    let mut group = c.benchmark_group("pgn_read");
    for notation in Notation::ALL {
        let mut text = String::new();
        for g in &games {
            text.push_str(&write_game(g, &WriteOptions::new(notation)).unwrap());
        }
        let bytes = text.into_bytes();
        if notation == Notation::Iccs {
            group.throughput(Throughput::BytesDecimal(bytes.len() as u64));
            group.bench_function("baseline_split_lines", |b| {
                b.iter(|| black_box(bytes.lines().map(|l| l.unwrap().len()).sum::<usize>()))
            });
        }
        group.throughput(Throughput::BytesDecimal(games::move_text_bytes(&bytes)));
        group.bench_function(notation.name(), |b| {
            b.iter(|| {
                let n = Reader::new(&bytes[..])
                    .map(|g| g.unwrap().plies())
                    .sum::<usize>();
                black_box(n)
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(2)).warm_up_time(std::time::Duration::from_millis(500));
    targets = bench_moves, bench_pgn
}
criterion_main!(benches);
