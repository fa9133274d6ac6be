//! Recorded games relabelled by our search: every position of a game's
//! main line (before each move played) is scored by the classical search
//! at a fixed node count, with its chosen move and whether the side to
//! move is in check, as self-play records are, and labelled with the game's recorded
//! result. The games are read through `xiangqi-gamefile`'s one collection
//! reader (files, folders, patterns; every format it reads) on
//! `xiangqi-parallel`'s workers, an engine per worker cleared before every
//! game, and written in collection order: the bytes do not depend on the
//! number of threads.
//!
//! A game's number in the file is its place in the collection (from 0,
//! games left out counted), so a stopped run resumes after the last whole
//! game written; the header's seed field holds a fingerprint of the
//! collection (each file's name and length) so that a resume over other
//! files is refused.

use std::path::{Path, PathBuf};

use xiangqi_core::{Color, Position};
use xiangqi_gamefile::collection::{collect, CollectionError};
use xiangqi_gamefile::corpus::{
    read_collection, read_collection_with, CollectionEntry, CollectionOptions, Event, GameAt,
    PerGameWork, Summary,
};
use xiangqi_gamefile::{Game, GameFileError, GameResult};
use xiangqi_parallel::PoolError;
use xiangqi_search::wdl::{game_ply, Outcome};
use xiangqi_search::{Engine, Limits};

use crate::data::{DataError, DataWriter, Header, PackedBoard, Record, Resumed, Source};

/// How recorded games are relabelled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RelabelConfig {
    /// Nodes searched for every position.
    pub nodes: u32,
    /// Threads (0: one per core); the data does not depend on it.
    pub jobs: usize,
    /// Hash table of each engine, in MB.
    pub hash_mb: usize,
}

impl Default for RelabelConfig {
    fn default() -> RelabelConfig {
        RelabelConfig {
            nodes: 2_000,
            jobs: 0,
            hash_mb: 4,
        }
    }
}

/// Games of the collection that gave no records, by reason.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct LeftOut {
    /// Games that could not be read.
    pub unreadable: u32,
    /// Games read with errors (a line cut at a move that cannot be played:
    /// the recorded result is not the result of the moves kept).
    pub damaged: u32,
    /// Games without a result (`*`): nothing to label them with.
    pub no_result: u32,
    /// Games without a move.
    pub no_moves: u32,
}

impl LeftOut {
    /// All games left out.
    pub fn total(&self) -> u32 {
        self.unreadable + self.damaged + self.no_result + self.no_moves
    }
}

/// What a relabelling run did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RelabelReport {
    /// What the file held before (`None`: it was created).
    pub resumed: Option<Resumed>,
    /// Games written by this run.
    pub games: u32,
    /// Positions written by this run.
    pub positions: u64,
    /// Games of this run that gave no records.
    pub left_out: LeftOut,
    /// Games already in the file, passed over (a resumed run).
    pub passed_over: u32,
    /// The collection reader's summary (files, games, warnings, errors).
    pub summary: Summary,
}

/// What a run reports as it goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RelabelEvent {
    /// The file is open: created (`None`) or resumed.
    Opened(Option<Resumed>),
    /// A game of the collection is done (written or left out): games of
    /// this run so far and positions written.
    Game {
        /// Games of the collection done by this run.
        games: u32,
        /// Positions written by this run.
        positions: u64,
    },
    /// A file or folder that could not be read, or a game that could not
    /// be; the run goes on.
    Unreadable(String),
}

/// Why a relabelling run stopped.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RelabelError {
    /// An input names no game file.
    #[error(transparent)]
    Collection(CollectionError),
    /// The data file's problem.
    #[error(transparent)]
    Data(DataError),
    /// A worker thread failed; the games written before it are whole and
    /// the file can be resumed.
    #[error("a worker relabelling the games failed: {0}")]
    Pool(String),
}

impl From<DataError> for RelabelError {
    fn from(e: DataError) -> RelabelError {
        RelabelError::Data(e)
    }
}

impl From<PoolError> for RelabelError {
    fn from(e: PoolError) -> RelabelError {
        RelabelError::Pool(e.to_string())
    }
}

/// The header of a relabelled file of the collection with `fingerprint`.
pub fn relabel_header(fingerprint: u64, config: &RelabelConfig) -> Header {
    Header {
        source: Source::Relabelled,
        seed: fingerprint,
        nodes: config.nodes,
        opening_plies: 0,
        balanced_cp: 0,
        max_plies: 0,
    }
}

/// The fingerprint of a collection: FNV-1a 64 over each file's name (its
/// last path component) and length, in collection order. The same files
/// anywhere on any machine give the same fingerprint.
pub fn collection_fingerprint(files: &[CollectionEntry]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    };
    for file in files.iter().flatten() {
        let name = file.path.file_name().unwrap_or(file.path.as_os_str());
        eat(name.to_string_lossy().as_bytes());
        eat(&[0]);
        let len = std::fs::metadata(&file.path).map_or(0, |m| m.len());
        eat(&len.to_le_bytes());
    }
    hash
}

/// One game's answer from a worker.
enum Answer {
    /// Already in the file (a resumed run).
    Done,
    Records(Vec<Record>),
    LeftOut(Reason),
}

enum Reason {
    Unreadable(GameFileError),
    Damaged,
    NoResult,
    NoMoves,
}

/// The records of one recorded game, or why it gives none. `number` is its
/// place in the collection.
pub fn relabel_game(
    engine: &mut Engine,
    game: &Game,
    number: u32,
    nodes: u32,
) -> Result<Vec<Record>, LeftOut> {
    let left_out = |f: fn(&mut LeftOut)| {
        let mut l = LeftOut::default();
        f(&mut l);
        Err(l)
    };
    if !game.errors.is_empty() {
        return left_out(|l| l.damaged = 1);
    }
    let red_points = match game.outcome() {
        GameResult::RedWins => 1.0,
        GameResult::BlackWins => 0.0,
        GameResult::Draw => 0.5,
        GameResult::Unknown => return left_out(|l| l.no_result = 1),
    };
    if game.plies() == 0 {
        return left_out(|l| l.no_moves = 1);
    }
    let Ok(start) = game.start_position() else {
        return left_out(|l| l.damaged = 1);
    };
    engine.new_game();
    let limits = Limits::nodes(u64::from(nodes));
    let mut history: Vec<Position> = Vec::with_capacity(game.plies());
    let mut pos = start;
    let mut records = Vec::with_capacity(game.plies());
    for mv in game.moves() {
        if !pos.is_legal(mv) {
            // A reader's game holds legal moves only; a hand-made one may not.
            return left_out(|l| l.damaged = 1);
        }
        let result = engine.search(&pos, &history, &limits, |_| {});
        let points = match pos.side_to_move() {
            Color::Red => red_points,
            Color::Black => 1.0 - red_points,
        };
        records.push(Record {
            board: PackedBoard::of(&pos),
            side_to_move: pos.side_to_move(),
            score: result.score,
            result: match points {
                p if p > 0.75 => Outcome::Win,
                p if p < 0.25 => Outcome::Loss,
                _ => Outcome::Draw,
            },
            ply: game_ply(&pos).min(u32::from(u16::MAX)) as u16,
            best_move: result.best_move,
            game: number,
            last_of_game: false,
            in_check: pos.is_check(),
        });
        history.push(pos.clone());
        pos.make_move(mv);
    }
    if let Some(last) = records.last_mut() {
        last.last_of_game = true;
    }
    Ok(records)
}

/// Relabels every game of `inputs` (files, folders, patterns) into the
/// file at `output`: creates it, or resumes it when it exists (the same
/// collection and node count; a partial tail is cut first) after its last
/// whole game. `progress` hears when the file is open, then after each game.
pub fn relabel(
    output: &Path,
    inputs: &[PathBuf],
    config: &RelabelConfig,
    mut progress: impl FnMut(RelabelEvent),
) -> Result<RelabelReport, RelabelError> {
    let files = collect(inputs).map_err(RelabelError::Collection)?;
    let header = relabel_header(collection_fingerprint(&files), config);
    let (mut writer, resumed) = if output.exists() {
        let (writer, resumed) = DataWriter::resume(output, &header)?;
        (writer, Some(resumed))
    } else {
        (DataWriter::create(output, &header)?, None)
    };
    progress(RelabelEvent::Opened(resumed));
    let first = resumed.map_or(0, |r| r.games);
    let resume_at = match first {
        0 => (0, 0),
        n => place_of_game(&files, n)?,
    };
    let file_number = |at: &GameAt| {
        files
            .iter()
            .position(|f| f.as_ref().is_ok_and(|f| std::ptr::eq(f, at.file)))
            .unwrap_or(0)
    };
    let options = CollectionOptions {
        jobs: config.jobs,
        work: PerGameWork::Heavy,
        ..CollectionOptions::default()
    };
    let workers = xiangqi_parallel::worker_count(config.jobs);
    let engines = (0..workers)
        .map(|_| Engine::classical(config.hash_mb))
        .collect();
    let mut report = RelabelReport {
        resumed,
        games: 0,
        positions: 0,
        left_out: LeftOut::default(),
        passed_over: 0,
        summary: Summary::default(),
    };
    let mut number: u32 = 0;
    let mut done_this_run: u32 = 0;
    let summary = read_collection_with(
        &files,
        &options,
        engines,
        &mut (),
        |engine: &mut Engine, at, item: Result<Game, GameFileError>| {
            if (file_number(&at), at.index) < resume_at {
                return Answer::Done;
            }
            match item {
                Err(e) => Answer::LeftOut(Reason::Unreadable(e)),
                // The number is set by the sink, which sees games in order.
                Ok(game) => match relabel_game(engine, &game, 0, config.nodes) {
                    Ok(records) => Answer::Records(records),
                    Err(l) if l.damaged > 0 => Answer::LeftOut(Reason::Damaged),
                    Err(l) if l.no_result > 0 => Answer::LeftOut(Reason::NoResult),
                    Err(_) => Answer::LeftOut(Reason::NoMoves),
                },
            }
        },
        |event| -> Result<(), RelabelError> {
            match event {
                Event::Game(answer) => {
                    let this = number;
                    number += 1;
                    match answer {
                        Answer::Done => {
                            report.passed_over += 1;
                            return Ok(());
                        }
                        Answer::Records(mut records) => {
                            records.iter_mut().for_each(|r| r.game = this);
                            writer.write_game(&records)?;
                            report.games += 1;
                            report.positions += records.len() as u64;
                        }
                        Answer::LeftOut(Reason::Unreadable(e)) => {
                            report.left_out.unreadable += 1;
                            progress(RelabelEvent::Unreadable(e.to_string()));
                        }
                        Answer::LeftOut(Reason::Damaged) => report.left_out.damaged += 1,
                        Answer::LeftOut(Reason::NoResult) => report.left_out.no_result += 1,
                        Answer::LeftOut(Reason::NoMoves) => report.left_out.no_moves += 1,
                    }
                    done_this_run += 1;
                    progress(RelabelEvent::Game {
                        games: done_this_run,
                        positions: report.positions,
                    });
                }
                Event::Unreadable(what) => progress(RelabelEvent::Unreadable(what.to_string())),
                Event::File(_) | Event::Warning(..) => {}
            }
            Ok(())
        },
    )?;
    report.summary = summary;
    Ok(report)
}

/// Where game number `n` of the collection is: (its file's place in
/// `files`, its 1-based number in that file), by a light pass that only
/// reads; past the end when the collection has `n` games or fewer.
fn place_of_game(files: &[CollectionEntry], n: u32) -> Result<(usize, usize), RelabelError> {
    let file_number = |at: &GameAt| {
        files
            .iter()
            .position(|f| f.as_ref().is_ok_and(|f| std::ptr::eq(f, at.file)))
            .unwrap_or(0)
    };
    let mut seen: u32 = 0;
    let mut place = (files.len(), 0);
    read_collection(
        files,
        &CollectionOptions::default(),
        &mut (),
        |at, _| (file_number(&at), at.index),
        |event| -> Result<(), RelabelError> {
            if let Event::Game(at) = event {
                if seen == n {
                    place = place.min(at);
                }
                seen += 1;
            }
            Ok(())
        },
    )?;
    Ok(place)
}
