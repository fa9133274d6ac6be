//! Classifying a whole corpus against reading it: every game of the shared
//! `ccpd` folder (4 729 Big5 PGN files) read from disk (cached) into game
//! records, and the same games classified, in one run; the ratio is
//! printed at the end. docs/ecco.md has the figures.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use xiangqi_gamefile::collection::collect;
use xiangqi_gamefile::{Game, Games};

fn ccpd() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/testdata/ccpd");
    dir.is_dir().then_some(dir)
}

fn read_all(files: &[PathBuf]) -> Vec<Game> {
    files
        .iter()
        .flat_map(|f| Games::open(f, None).unwrap().flatten())
        .collect()
}

fn classify_all(games: &[Game]) -> usize {
    games
        .iter()
        .filter(|g| matches!(xiangqi_ecco::classify_game(g), Ok(Some(_))))
        .count()
}

fn bench(c: &mut Criterion) {
    let Some(dir) = ccpd() else {
        eprintln!("skipped: no shared testdata beside the repository");
        return;
    };
    let files: Vec<PathBuf> = collect(&[dir])
        .unwrap()
        .into_iter()
        .map(|f| f.unwrap().path)
        .collect();
    let games = read_all(&files);
    eprintln!(
        "ccpd: {} files, {} games, {} classified",
        files.len(),
        games.len(),
        classify_all(&games)
    );
    let mut group = c.benchmark_group("ccpd");
    group.sample_size(10);
    group.throughput(Throughput::Elements(games.len() as u64));
    group.bench_function("read", |b| b.iter(|| black_box(read_all(&files))));
    group.bench_function("classify", |b| b.iter(|| classify_all(black_box(&games))));
    group.finish();

    // The ratio, measured here in one run: best of five of each.
    let best = |f: &mut dyn FnMut()| {
        (0..5)
            .map(|_| {
                let start = Instant::now();
                f();
                start.elapsed().as_secs_f64()
            })
            .fold(f64::INFINITY, f64::min)
    };
    let read = best(&mut || {
        black_box(read_all(&files));
    });
    let classify = best(&mut || {
        black_box(classify_all(&games));
    });
    eprintln!(
        "ccpd ratio: read {:.1} ms, classify {:.1} ms: classifying takes {:.3} of reading",
        read * 1e3,
        classify * 1e3,
        classify / read
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
