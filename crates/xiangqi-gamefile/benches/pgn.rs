//! Throughput of PGN reading, in MB/s (10^6 bytes, `Throughput::BytesDecimal`)
//! of move text (the file less its tag lines, 96-98 % of it) for reading the
//! whole file: 200 random games of 120 plies, each written by `write_game`
//! with its `[Event]` and `[Format]` tags, move numbers and moves (no
//! comments), read by `pgn::PgnReader` into `Game`s (every move checked
//! legal and played); the file is 0.17 MB in ICCS and WXF, 0.31 MB in
//! Chinese, 0.43 MB in Vietnamese. The baseline in the same run, splitting
//! the file into lines, counts the whole file.

use std::hint::black_box;
use std::io::BufRead;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use xiangqi_gamefile::pgn::{write_game, PgnReader, WriteOptions};
use xiangqi_gamefile::Game;
use xiangqi_notation::Notation;

/// One of the bench's games: `plies` seeded random legal moves
/// (`xiangqi_core::random_game`) with an `[Event "bench"]` tag.
fn bench_game(seed: u64, plies: usize) -> Game {
    let mut moves = Vec::new();
    xiangqi_core::random_game(seed, plies, |_, mv| moves.push(mv));
    let mut game = Game::from_moves(moves);
    game.set_tag("Event", "bench");
    game
}

/// The bytes of `pgn` that are move text: every line but tag lines, line
/// ends included (what the bench's MB/s counts).
fn move_text_bytes(pgn: &[u8]) -> u64 {
    pgn.split_inclusive(|&b| b == b'\n')
        .filter(|line| !line.starts_with(b"["))
        .map(|line| line.len() as u64)
        .sum()
}

fn bench_pgn(c: &mut Criterion) {
    let games: Vec<Game> = (0..200).map(|seed| bench_game(seed, 120)).collect();
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
        group.throughput(Throughput::BytesDecimal(move_text_bytes(&bytes)));
        group.bench_function(notation.name(), |b| {
            b.iter(|| {
                let n = PgnReader::new(&bytes[..])
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
    targets = bench_pgn
}
criterion_main!(benches);
