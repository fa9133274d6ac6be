//! The data file end to end: generation is seeded and the same whatever the
//! threads, a run stopped at any byte resumes to the file one run makes,
//! settings are checked on resume, and shards merge.

use std::fs;
use std::path::{Path, PathBuf};

use xiangqi_core::Position;
use xiangqi_nnue_train::data::{
    read_data_file, DataError, DataWriter, Source, HEADER_SIZE, RECORD_SIZE,
};
use xiangqi_nnue_train::{generate, merge, GenConfig, GenEvent};

fn small(games: u32, jobs: usize) -> GenConfig {
    GenConfig {
        games,
        nodes: 150,
        max_plies: 14,
        jobs,
        seed: 7,
        ..GenConfig::default()
    }
}

fn made(dir: &Path, name: &str, config: &GenConfig) -> (PathBuf, Vec<u8>) {
    let path = dir.join(name);
    generate(&path, config, |_| {}).unwrap();
    let bytes = fs::read(&path).unwrap();
    (path, bytes)
}

#[test]
fn the_same_seed_gives_the_same_bytes_whatever_the_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let mut seen = Vec::new();
    let report = generate(&dir.path().join("one.bin"), &small(4, 1), |e| seen.push(e)).unwrap();
    assert_eq!(seen.remove(0), GenEvent::Opened(None));
    let seen: Vec<_> = seen
        .into_iter()
        .map(|e| match e {
            GenEvent::Game(p) => p,
            other => panic!("{other:?}"),
        })
        .collect();
    let (_, two) = made(dir.path(), "two.bin", &small(4, 2));
    let (_, three) = made(dir.path(), "three.bin", &small(4, 3));
    let one = fs::read(dir.path().join("one.bin")).unwrap();
    assert_eq!(one, two);
    assert_eq!(one, three);
    assert_eq!(seen.len(), 4);
    assert_eq!(seen.last().unwrap().positions, report.positions);
    let (_, other) = made(
        dir.path(),
        "other.bin",
        &GenConfig {
            seed: 8,
            ..small(4, 2)
        },
    );
    assert_ne!(one, other, "another seed, other games");

    let data = read_data_file(&dir.path().join("one.bin")).unwrap();
    assert_eq!(data.header, small(4, 1).header());
    assert_eq!(data.games(), 4);
    assert!(data.tail.is_clean());
    assert_eq!(
        one.len(),
        HEADER_SIZE + RECORD_SIZE * data.records.len(),
        "fixed-size records after the header"
    );
    // Every record is a legal position of its game, numbered in order, its
    // move legal there and its result the same for the game's two sides.
    let mut game = 0;
    for record in &data.records {
        assert_eq!(record.game, game);
        let position = Position::from_fen(&record.fen()).unwrap();
        assert_eq!(position.is_check(), record.in_check);
        if let Some(mv) = record.best_move {
            assert!(position.is_legal(mv), "{} {mv}", record.fen());
        }
        if record.last_of_game {
            game += 1;
        }
    }
    assert_eq!(report.endings.games(), 4);
}

#[test]
fn a_run_stopped_anywhere_resumes_to_the_file_one_run_makes() {
    let dir = tempfile::tempdir().unwrap();
    let (_, whole) = made(dir.path(), "whole.bin", &small(3, 1));
    let records = (whole.len() - HEADER_SIZE) / RECORD_SIZE;
    assert!(records > 4);
    // Cut inside a record of the last game, on a record boundary inside a
    // game, and right after the header.
    for cut in [
        whole.len() - RECORD_SIZE - 17,
        HEADER_SIZE + RECORD_SIZE * 2,
        HEADER_SIZE,
    ] {
        let path = dir.path().join(format!("cut{cut}.bin"));
        fs::write(&path, &whole[..cut]).unwrap();
        let report = generate(&path, &small(3, 2), |_| {}).unwrap();
        let resumed = report.resumed.unwrap();
        assert_eq!(
            resumed.tail.partial_bytes as usize,
            (cut - HEADER_SIZE) % RECORD_SIZE
        );
        assert_eq!(fs::read(&path).unwrap(), whole, "cut at byte {cut}");
    }
    // A file made in two runs (two games, then up to three) is the same too,
    // and a run with nothing left to do leaves it alone.
    let path = dir.path().join("grown.bin");
    generate(&path, &small(2, 1), |_| {}).unwrap();
    let report = generate(&path, &small(3, 1), |_| {}).unwrap();
    assert_eq!(report.resumed.unwrap().games, 2);
    assert_eq!(report.games, 1);
    assert_eq!(fs::read(&path).unwrap(), whole);
    let again = generate(&path, &small(3, 1), |_| {}).unwrap();
    assert_eq!(again.games, 0);
    assert_eq!(fs::read(&path).unwrap(), whole);
}

#[test]
fn a_resume_with_other_settings_is_refused_and_the_file_kept() {
    let dir = tempfile::tempdir().unwrap();
    let (path, bytes) = made(dir.path(), "a.bin", &small(1, 1));
    let other = GenConfig {
        nodes: 300,
        ..small(2, 1)
    };
    let err = generate(&path, &other, |_| {}).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "{}: made with --nodes 150, not 300: resume with the file's settings or write another file",
            path.display()
        )
    );
    assert_eq!(fs::read(&path).unwrap(), bytes);
    // Not a data file at all.
    let junk = dir.path().join("junk.bin");
    fs::write(&junk, b"# not data, but long enough for a header\n").unwrap();
    let err = generate(&junk, &small(1, 1), |_| {}).unwrap_err();
    assert!(err.to_string().contains("not an NNUE data file"), "{err}");
}

#[test]
fn shards_of_several_seeds_merge_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let shard = |seed: u64, games: u32| GenConfig {
        seed,
        ..small(games, 1)
    };
    let (a, _) = made(dir.path(), "a.bin", &shard(1, 2));
    let (b, b_bytes) = made(dir.path(), "b.bin", &shard(2, 1));
    // A shard whose run was stopped inside its last game.
    let (c, c_bytes) = made(dir.path(), "c.bin", &shard(3, 2));
    fs::write(&c, &c_bytes[..c_bytes.len() - RECORD_SIZE - 5]).unwrap();
    let out = dir.path().join("merged.bin");
    let shards = merge(&out, &[a.clone(), b.clone(), c.clone()]).unwrap();
    assert_eq!(shards[2].tail.partial_bytes as usize, RECORD_SIZE - 5);
    assert_eq!(shards[2].games, 1);

    let merged = read_data_file(&out).unwrap();
    assert_eq!(merged.header.source, Source::Merged);
    assert_eq!(merged.header.nodes, 150);
    assert_eq!(merged.header.seed, 0);
    assert_eq!(merged.games(), 4);
    let parts: Vec<_> = [&a, &b, &c]
        .iter()
        .flat_map(|p| read_data_file(p).unwrap().records)
        .collect();
    assert_eq!(merged.records, parts);
    // The records are the shards' bytes, unchanged.
    let out_bytes = fs::read(&out).unwrap();
    let a_len = fs::read(&a).unwrap().len() - HEADER_SIZE;
    assert_eq!(
        &out_bytes[HEADER_SIZE + a_len..HEADER_SIZE + a_len + b_bytes.len() - HEADER_SIZE],
        &b_bytes[HEADER_SIZE..]
    );
    // A merged file is no run's to resume.
    let err = generate(&out, &small(9, 1), |_| {}).unwrap_err();
    assert!(err.to_string().contains("cannot be resumed"), "{err}");
    // The output may not be an input.
    assert!(matches!(
        merge(&a, &[a.clone(), b.clone()]),
        Err(DataError::Io { .. })
    ));
}

#[test]
fn a_writer_appends_whole_games() {
    let dir = tempfile::tempdir().unwrap();
    let (path, bytes) = made(dir.path(), "src.bin", &small(2, 1));
    let data = read_data_file(&path).unwrap();
    let copy = dir.path().join("copy.bin");
    let mut writer = DataWriter::create(&copy, &data.header).unwrap();
    let split = data.records.iter().position(|r| r.last_of_game).unwrap() + 1;
    writer.write_game(&data.records[..split]).unwrap();
    writer.write_game(&data.records[split..]).unwrap();
    drop(writer);
    assert_eq!(fs::read(&copy).unwrap(), bytes);
}
