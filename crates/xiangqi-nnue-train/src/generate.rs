//! Self-play data: game `k` of a file opens with a balanced random opening
//! drawn from a generator seeded by a hash of (seed, `k`), then our search
//! plays both sides at a fixed node count, its engines cleared before every
//! game and evaluating classically (so the data does not depend on the
//! net a build embeds); every position is recorded with the search's score
//! and, once the adjudication ends the game, its result. A game depends only on the seed,
//! its number and the settings, so the bytes are the same whatever the
//! number of threads, and a file made in several runs (resumed after a stop,
//! or extended with a larger `games`) equals the file made in one.

use std::cell::Cell;
use std::path::Path;

use xiangqi_core::{Color, Move, Position, SplitMix64};
use xiangqi_search::tune::{balanced_opening, engine_rules, play_game, Endings, GameEnd};
use xiangqi_search::wdl::{game_ply, Outcome};
use xiangqi_search::{Engine, Limits};

use crate::data::{DataError, DataWriter, Header, PackedBoard, Record, Resumed, Source};

/// How the games are made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenConfig {
    /// Whole games the file holds at the end (games already there are kept).
    pub games: u32,
    /// Nodes searched for every position.
    pub nodes: u32,
    /// Seed of the openings.
    pub seed: u64,
    /// Random plies of an opening.
    pub opening_plies: u8,
    /// An opening is kept when a short search scores it within this many centipawns.
    pub balanced_cp: u16,
    /// A game still going after this many plies is stopped as a draw.
    pub max_plies: u16,
    /// Threads playing games at once (0: one per core); the data does not depend on it.
    pub jobs: usize,
    /// Hash table of each engine, in MB.
    pub hash_mb: usize,
}

impl Default for GenConfig {
    fn default() -> GenConfig {
        GenConfig {
            games: 100,
            nodes: 2_000,
            seed: 1,
            opening_plies: 8,
            balanced_cp: 200,
            max_plies: 400,
            jobs: 0,
            hash_mb: 4,
        }
    }
}

impl GenConfig {
    /// The header of a file of these games.
    pub fn header(&self) -> Header {
        Header {
            source: Source::SelfPlay,
            seed: self.seed,
            nodes: self.nodes,
            opening_plies: self.opening_plies,
            balanced_cp: self.balanced_cp,
            max_plies: self.max_plies,
        }
    }
}

/// What a run did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenReport {
    /// What the file held before (`None`: it was created).
    pub resumed: Option<Resumed>,
    /// Games played by this run.
    pub games: u32,
    /// Positions written by this run.
    pub positions: u64,
    /// How this run's games ended.
    pub endings: Endings,
}

/// What a run reports as it goes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GenEvent {
    /// The file is open: created (`None`), or resumed with what it held and
    /// what was cut off its end (before any game is played).
    Opened(Option<Resumed>),
    /// A game was written.
    Game(GenProgress),
}

/// Progress after each game written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GenProgress {
    /// Games this run has written.
    pub games: u32,
    /// Games this run will write.
    pub of: u32,
    /// Positions this run has written.
    pub positions: u64,
}

/// The seed of game `game`'s opening: a hash of the file's seed and the
/// game's number, so that neighbouring games do not share a stream.
pub fn game_seed(seed: u64, game: u32) -> u64 {
    let mut mix = SplitMix64::new(seed ^ u64::from(game).rotate_left(32));
    let first = mix.next_u64();
    first ^ SplitMix64::new(u64::from(game)).next_u64()
}

/// One worker's engines: one per side and a probe for the openings.
struct Players {
    red: Engine,
    black: Engine,
    probe: Engine,
}

impl Players {
    fn new(hash_mb: usize) -> Players {
        Players {
            red: Engine::classical(hash_mb),
            black: Engine::classical(hash_mb),
            probe: Engine::classical(1),
        }
    }
}

/// Plays game number `game` and returns its records and how it ended.
fn play_one(players: &mut Players, config: &GenConfig, game: u32) -> (Vec<Record>, GameEnd) {
    let mut rng = SplitMix64::new(game_seed(config.seed, game));
    let start = balanced_opening(
        &mut rng,
        usize::from(config.opening_plies),
        i32::from(config.balanced_cp),
        &mut players.probe,
    );
    players.red.new_game();
    players.black.new_game();
    let limits = Limits::nodes(u64::from(config.nodes));
    // The search's move, seen by `visit` right after `choose` returns it.
    let chosen: Cell<Option<Move>> = Cell::new(None);
    let (red, black) = (&mut players.red, &mut players.black);
    let choose = |pos: &Position, history: &[Position]| {
        let engine = match pos.side_to_move() {
            Color::Red => &mut *red,
            Color::Black => &mut *black,
        };
        let result = engine.search(pos, history, &limits, |_| {});
        chosen.set(result.best_move);
        (result.best_move, result.score)
    };
    let mut records = Vec::new();
    let visit = |pos: &Position, score| {
        records.push(Record {
            board: PackedBoard::of(pos),
            side_to_move: pos.side_to_move(),
            score,
            // Set once the game is over.
            result: Outcome::Draw,
            ply: game_ply(pos).min(u32::from(u16::MAX)) as u16,
            best_move: chosen.get(),
            game,
            last_of_game: false,
            in_check: pos.is_check(),
        })
    };
    let end = play_game(
        &start,
        &engine_rules(),
        usize::from(config.max_plies),
        choose,
        visit,
    );
    let red_points = end.outcome.red_score().unwrap_or(0.5);
    for record in &mut records {
        let points = match record.side_to_move {
            Color::Red => red_points,
            Color::Black => 1.0 - red_points,
        };
        record.result = match points {
            p if p > 0.75 => Outcome::Win,
            p if p < 0.25 => Outcome::Loss,
            _ => Outcome::Draw,
        };
    }
    if let Some(last) = records.last_mut() {
        last.last_of_game = true;
    }
    (records, end)
}

/// Makes `config.games` games in the file at `path`: creates it, or resumes
/// it when it exists (same settings; a partial tail is cut first, reported
/// in [`GenReport::resumed`]), and appends each game whole as it ends, in
/// game order. `progress` hears when the file is open, then after each game.
pub fn generate(
    path: &Path,
    config: &GenConfig,
    mut progress: impl FnMut(GenEvent),
) -> Result<GenReport, GenError> {
    let header = config.header();
    let (mut writer, resumed) = if path.exists() {
        let (writer, resumed) = DataWriter::resume(path, &header)?;
        (writer, Some(resumed))
    } else {
        (DataWriter::create(path, &header)?, None)
    };
    progress(GenEvent::Opened(resumed));
    let first = resumed.map_or(0, |r| r.games);
    let todo = config.games.saturating_sub(first);
    let mut report = GenReport {
        resumed,
        games: 0,
        positions: 0,
        endings: Endings::default(),
    };
    if todo == 0 {
        return Ok(report);
    }
    let threads = xiangqi_parallel::worker_count(config.jobs).min(todo as usize);
    let workers = (0..threads).map(|_| Players::new(config.hash_mb)).collect();
    xiangqi_parallel::ordered_map_with(
        workers,
        first..config.games,
        |players, game| play_one(players, config, game),
        |(records, end)| -> Result<(), GenError> {
            writer.write_game(&records)?;
            report.games += 1;
            report.positions += records.len() as u64;
            report.endings.add(&end);
            progress(GenEvent::Game(GenProgress {
                games: report.games,
                of: todo,
                positions: report.positions,
            }));
            Ok(())
        },
    )?;
    Ok(report)
}

/// Why a generation run stopped.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GenError {
    /// The data file's problem.
    #[error(transparent)]
    Data(DataError),
    /// A worker thread failed (a panic, already reported by the panic hook);
    /// the games written before it are whole and the file can be resumed.
    #[error("a worker playing the games failed: {0}")]
    Pool(String),
}

impl From<DataError> for GenError {
    fn from(e: DataError) -> GenError {
        GenError::Data(e)
    }
}

impl From<xiangqi_parallel::PoolError> for GenError {
    fn from(e: xiangqi_parallel::PoolError) -> GenError {
        GenError::Pool(e.to_string())
    }
}
