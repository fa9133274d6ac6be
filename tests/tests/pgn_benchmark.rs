//! Benchmark harness, not a test: a 1 GiB synthetic PGN file read by
//! `xiangqi pgn check` under `/usr/bin/time -v`, reporting peak memory (the
//! goal is under 50 MB whatever the file size). It writes the file under the
//! temporary directory (never committed) and takes minutes, so it is ignored;
//! run it with
//!
//! ```text
//! cargo test --release -p xiangqi-tests --test pgn_benchmark -- --ignored --nocapture
//! ```
//!
//! `XIANGQI_BIN` picks another binary; `PGN_BENCH_BYTES` another size.

mod common;

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Instant;

use common::{xiangqi_bin, Rng};

/// Games in every notation, with comments, NAGs and variations.
const GAMES: &[&str] = &[
    "[Event \"Synthetic {n}\"]\n[Red \"Red {n}\"]\n[Black \"Black {n}\"]\n[Result \"1-0\"]\n\n\
     1. h2e2 h9g7 2. h0g2 {a comment on the horse} i9h9 (2... c6c5 3. i0h0 $1) 3. i0h0 b9c7! \
     4. c3c4 b7b6 5. b0c2 a9b9 6. i3i4 ; line comment\n6... g6g5 7. a0b0 h7h3 1-0\n\n",
    "[Event \"Synthetic {n}\"]\n[Format \"WXF\"]\n\n\
     1. C2=5 H8+7 2. H2+3 R9=8 3. R1=2 C8=9 4. R2+6 P7+1 5. P7+1 H2+3 *\n\n",
    "[Event \"Synthetic {n}\"]\n[Red \"红\"]\n[Black \"黑\"]\n\n\
     1. 炮二平五 马8进7 2. 马二进三 车9平8 3. 车一平二 炮8平9 {中局} 4. 兵七进一 (4. 车二进六 炮2平1) 卒7进1 1/2-1/2\n\n",
    "[Event \"Synthetic {n}\"]\n[Format \"Vietnamese\"]\n\n\
     1. Pháo 2 bình 5 Mã 8 tiến 7 2. Mã 2 tiến 3 Xe 9 bình 8 0-1\n\n",
];

fn synthetic_file(bytes: u64) -> PathBuf {
    let path = std::env::temp_dir().join(format!("xiangqi-synthetic-{bytes}.pgn"));
    if std::fs::metadata(&path).is_ok_and(|m| m.len() >= bytes) {
        return path;
    }
    let mut out =
        BufWriter::with_capacity(1 << 20, File::create(&path).expect("create the PGN file"));
    let mut rng = Rng::new(1);
    let (mut written, mut n) = (0u64, 0u64);
    while written < bytes {
        n += 1;
        let game = rng
            .choose(GAMES)
            .expect("games")
            .replace("{n}", &n.to_string());
        out.write_all(game.as_bytes()).expect("write");
        written += game.len() as u64;
    }
    out.flush().expect("flush");
    path
}

#[test]
#[ignore = "benchmark: writes 1 GiB and takes minutes; run explicitly"]
fn pgn_check_of_1_gib_stays_small() {
    let bytes: u64 = std::env::var("PGN_BENCH_BYTES")
        .ok()
        .and_then(|b| b.parse().ok())
        .unwrap_or(1 << 30);
    let file = synthetic_file(bytes);
    let bin = xiangqi_bin();
    let start = Instant::now();
    let out = Command::new("/usr/bin/time")
        .arg("-v")
        .arg(&bin)
        .args(["pgn", "check"])
        .arg(&file)
        .stdout(Stdio::null())
        .output()
        .expect("run /usr/bin/time -v xiangqi pgn check");
    let elapsed = start.elapsed();
    let report = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "pgn check failed:\n{report}");
    let peak_kb: u64 = report
        .lines()
        .find_map(|l| {
            l.trim()
                .strip_prefix("Maximum resident set size (kbytes): ")
        })
        .and_then(|v| v.trim().parse().ok())
        .expect("/usr/bin/time -v reports the peak RSS");
    let mib = bytes as f64 / (1 << 20) as f64;
    println!(
        "pgn check of {mib:.0} MiB ({}): peak RSS {:.1} MB, {:.1} s, {:.0} MiB/s",
        bin.display(),
        peak_kb as f64 / 1000.0,
        elapsed.as_secs_f64(),
        mib / elapsed.as_secs_f64()
    );
    assert!(peak_kb < 50_000, "peak RSS {peak_kb} kB is over 50 MB");
}
