//! Reading the real files of `../shared/testdata/corpus`: the 1 155 XQF
//! files of `xqf/` and the two CBL libraries, from disk (cached) to games,
//! every move checked. `benches/cchess_peer.py` times cchess on the same
//! files; docs/gamefile.md has the figures and the ratio.

use std::path::{Path, PathBuf};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use xiangqi_gamefile::Games;

fn corpus() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/testdata/corpus");
    dir.join("xqf").is_dir().then_some(dir)
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_under(&path, out);
        } else if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("xqf"))
        {
            out.push(path);
        }
    }
}

/// Reads every game of `files`; returns the number read (errors included).
fn read_all(files: &[PathBuf]) -> usize {
    files
        .iter()
        .map(|f| Games::open(f, None).map_or(1, |games| games.count()))
        .sum()
}

fn bench(c: &mut Criterion) {
    let Some(dir) = corpus() else {
        eprintln!("skipped: no corpus beside the repository");
        return;
    };
    let mut xqf = Vec::new();
    files_under(&dir.join("xqf"), &mut xqf);
    xqf.sort();
    let cbl: Vec<PathBuf> = [
        "1956年全国象棋锦标赛93局.CBL",
        "1989年龙化杯象棋名师邀请赛35局.CBL",
    ]
    .iter()
    .map(|n| dir.join("games").join(n))
    .collect();
    let mut group = c.benchmark_group("read");
    group.sample_size(20);
    for (name, files) in [("xqf_dir", &xqf), ("cbl_libraries", &cbl)] {
        let bytes: u64 = files
            .iter()
            .map(|f| std::fs::metadata(f).unwrap().len())
            .sum();
        let games = read_all(files);
        eprintln!(
            "{name}: {} files, {games} games, {bytes} bytes",
            files.len()
        );
        group.throughput(Throughput::Elements(games as u64));
        group.bench_function(name, |b| b.iter(|| read_all(files)));
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
