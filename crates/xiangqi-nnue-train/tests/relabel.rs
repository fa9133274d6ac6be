//! Relabelling recorded games: every position of each game's main line is
//! written with the search's score and the recorded result, the same
//! bytes whatever the threads; a stopped run resumes to the file one run
//! makes; another collection or node count is refused; real master games
//! (the CC BY 4.0 CCPD sample, Big5 PGN) are read.

use std::fs;
use std::path::{Path, PathBuf};

use xiangqi_core::Color;
use xiangqi_gamefile::{GameResult, Games};
use xiangqi_nnue_train::data::{read_data_file, DataError, Source, HEADER_SIZE, RECORD_SIZE};
use xiangqi_nnue_train::{relabel, RelabelConfig, RelabelError, RelabelEvent};
use xiangqi_search::wdl::Outcome;
use xiangqi_test_support::{shared_testdata, workspace_root};

fn examples() -> Vec<PathBuf> {
    let dir = workspace_root().join("docs/examples");
    vec![
        dir.join("games.pgn"),
        dir.join("big5"),
        dir.join("game.xqf"),
    ]
}

fn config(jobs: usize) -> RelabelConfig {
    RelabelConfig {
        nodes: 120,
        jobs,
        ..RelabelConfig::default()
    }
}

fn run(path: &Path, inputs: &[PathBuf], config: &RelabelConfig) -> Vec<u8> {
    relabel(path, inputs, config, |_| {}).unwrap();
    fs::read(path).unwrap()
}

#[test]
fn every_main_line_position_is_labelled_with_the_recorded_result() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("one.bin");
    let mut events = Vec::new();
    let report = relabel(&path, &examples(), &config(1), |e| events.push(e)).unwrap();
    assert_eq!(events[0], RelabelEvent::Opened(None));
    assert!(report.games >= 5, "{report:?}");
    let data = read_data_file(&path).unwrap();
    assert_eq!(data.header.source, Source::Relabelled);
    assert_eq!(data.header.nodes, 120);
    assert_eq!(data.records.len() as u64, report.positions);
    assert_eq!(data.games(), report.games as usize);
    // The first game of games.pgn, position by position.
    let game = Games::open(&examples()[0], None)
        .unwrap()
        .next()
        .unwrap()
        .unwrap();
    let red_points = match game.outcome() {
        GameResult::RedWins => 1.0,
        GameResult::BlackWins => 0.0,
        _ => 0.5,
    };
    let mut pos = game.start_position().unwrap();
    let first: Vec<_> = data.records.iter().filter(|r| r.game == 0).collect();
    assert_eq!(first.len(), game.plies());
    for (record, mv) in first.iter().zip(game.moves()) {
        assert_eq!(
            record.fen().split(' ').next(),
            pos.to_fen().split(' ').next()
        );
        assert_eq!(record.side_to_move, pos.side_to_move());
        assert_eq!(record.in_check, pos.is_check());
        let points = match pos.side_to_move() {
            Color::Red => red_points,
            Color::Black => 1.0 - red_points,
        };
        assert_eq!(record.result.score(), points);
        let best = record
            .best_move
            .expect("a position with a move has a best move");
        assert!(pos.is_legal(best));
        pos.make_move(mv);
    }
    assert!(first.last().unwrap().last_of_game);
    assert!(first[..first.len() - 1].iter().all(|r| !r.last_of_game));
    assert!(data.records.iter().any(|r| r.result != Outcome::Draw));
}

#[test]
fn the_bytes_do_not_depend_on_the_threads() {
    let dir = tempfile::tempdir().unwrap();
    let one = run(&dir.path().join("one.bin"), &examples(), &config(1));
    let three = run(&dir.path().join("three.bin"), &examples(), &config(3));
    assert_eq!(one, three);
}

#[test]
fn a_stopped_run_resumes_to_the_bytes_of_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let whole = run(&dir.path().join("whole.bin"), &examples(), &config(2));
    let records = (whole.len() - HEADER_SIZE) / RECORD_SIZE;
    // Cut inside the records of a later game, 17 bytes into a record.
    for cut_records in [records / 2, 1, records - 1] {
        let path = dir.path().join(format!("cut-{cut_records}.bin"));
        fs::write(
            &path,
            &whole[..HEADER_SIZE + cut_records * RECORD_SIZE + 17],
        )
        .unwrap();
        let report = relabel(&path, &examples(), &config(2), |_| {}).unwrap();
        assert!(report.resumed.is_some());
        assert_eq!(
            fs::read(&path).unwrap(),
            whole,
            "cut after {cut_records} records"
        );
        let passed = report.passed_over + report.games + report.left_out.total();
        assert_eq!(passed as usize, report.summary.games);
    }
    // Resuming a whole file adds nothing.
    let path = dir.path().join("again.bin");
    fs::write(&path, &whole).unwrap();
    let report = relabel(&path, &examples(), &config(1), |_| {}).unwrap();
    assert_eq!((report.games, report.positions), (0, 0));
    assert_eq!(fs::read(&path).unwrap(), whole);
}

#[test]
fn a_resume_with_other_nodes_or_other_games_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("data.bin");
    let before = run(&path, &examples(), &config(1));
    let other_nodes = RelabelConfig {
        nodes: 121,
        ..config(1)
    };
    let err = relabel(&path, &examples(), &other_nodes, |_| {}).unwrap_err();
    assert!(
        matches!(
            &err,
            RelabelError::Data(DataError::Settings {
                field: "--nodes",
                ..
            })
        ),
        "{err}"
    );
    let err = relabel(&path, &examples()[..1], &config(1), |_| {}).unwrap_err();
    assert!(err.to_string().contains("input games"), "{err}");
    assert_eq!(fs::read(&path).unwrap(), before);
}

#[test]
fn master_games_of_the_ccpd_sample_are_relabelled() {
    let Some(folder) = shared_testdata("ccpd/全盤戰術") else {
        return;
    };
    let mut files: Vec<PathBuf> = fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    files.sort();
    files.truncate(4);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ccpd.bin");
    let report = relabel(&path, &files, &config(2), |_| {}).unwrap();
    assert_eq!(report.summary.files, 4);
    assert_eq!(report.games + report.left_out.total(), 4);
    assert!(report.games >= 3, "{report:?}");
    let data = read_data_file(&path).unwrap();
    assert!(data.records.len() > 100, "{} positions", data.records.len());
    // Decisive master games give wins and losses, not only draws.
    assert!(data.records.iter().any(|r| r.result == Outcome::Win));
}
