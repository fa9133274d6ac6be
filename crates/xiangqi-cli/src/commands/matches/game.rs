//! One game of `xiangqi match`: keeps each engine process running
//! (restarting one that died or was stopped after a failure) and plays the
//! game with `xiangqi-engine-client`'s [`play_game`], which judges every
//! move by `xiangqi-adjudication`. An engine that answers late, illegally,
//! with garbage or not at all loses.

use xiangqi_adjudication::{Outcome, RuleSet};
use xiangqi_core::{Color, Move};
use xiangqi_engine_client::game::play_game;
use xiangqi_engine_client::{Engine, EngineError, EngineSpec, GameEnd, SearchOptions, TrafficLog};

use super::openings::Opening;

/// Which game to play.
#[derive(Clone, Debug)]
pub struct GameSetup {
    /// 1-based game number.
    pub round: usize,
    /// 0-based index of the opening.
    pub opening_index: usize,
    pub opening: Opening,
    /// The first `--engine` plays Red.
    pub first_is_red: bool,
}

/// What every game shares.
#[derive(Clone)]
pub struct GameConfig {
    /// The limit and the time an engine may take for one move.
    pub search: SearchOptions,
    pub rules: RuleSet,
    /// `--log`.
    pub log: Option<TrafficLog>,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    pub setup: GameSetup,
    /// Engine names: Red, Black.
    pub names: [String; 2],
    /// All moves from the opening's start position, book moves included.
    pub moves: Vec<Move>,
    /// What the engine said about each move (empty for book moves).
    pub comments: Vec<String>,
    /// Red, Black or Draw.
    pub outcome: Outcome,
    /// A reason code: the adjudication crate's (`checkmate`, `perpetual_check`…)
    /// or the engine failure's (`timeout`, `illegal_move`, `crash`, `no_move`…).
    pub reason: String,
    /// The PGN `Termination` value.
    pub termination: &'static str,
    /// One sentence saying what happened.
    pub detail: String,
}

impl PlayedGame {
    /// +1, 0 or -1 for the first engine (`None` for a game without result).
    pub fn first_engine_result(&self) -> Option<i8> {
        let first = if self.setup.first_is_red {
            Color::Red
        } else {
            Color::Black
        };
        match self.outcome {
            Outcome::Draw => Some(0),
            o => o.winner().map(|w| if w == first { 1 } else { -1 }),
        }
    }
}

/// The PGN `Termination` of a game's end.
fn termination(end: &GameEnd) -> &'static str {
    match end {
        GameEnd::Verdict(_) => "normal",
        GameEnd::Forfeit { failure, .. } => match failure {
            EngineError::Timeout { .. } | EngineError::FlagFell { .. } => "time forfeit",
            EngineError::Spawn { .. }
            | EngineError::Died { .. }
            | EngineError::Stopped
            | EngineError::Unsupported(_) => "abandoned",
            EngineError::Resigned => "normal",
            EngineError::UnreadableMove { .. }
            | EngineError::IllegalMove { .. }
            | EngineError::NoMove { .. }
            | EngineError::Refused { .. } => "rules infraction",
        },
    }
}

/// Makes sure the engine in `slot` runs, restarting it if it died or was
/// stopped in the previous game.
fn ensure_running(
    slot: &mut Option<Engine>,
    spec: &EngineSpec,
    log: Option<&TrafficLog>,
) -> Result<(), EngineError> {
    if slot.as_ref().is_some_and(Engine::is_alive) {
        return Ok(());
    }
    if let Some(old) = slot.take() {
        old.quit();
    }
    *slot = Some(Engine::start(spec, log)?);
    Ok(())
}

/// What an engine said about its move, for the PGN comment:
/// `cp 35 depth 7 120 ms`.
fn comment(analysis: &xiangqi_engine_client::Analysis) -> String {
    let mut parts = Vec::new();
    if let Some(e) = analysis.evaluation() {
        parts.push(e.score.to_string());
    }
    if let Some(d) = analysis.depth() {
        parts.push(format!("depth {d}"));
    }
    parts.push(format!("{} ms", analysis.elapsed.as_millis()));
    parts.join(" ")
}

/// Plays one game between `engines[0]` (the first `--engine`) and `engines[1]`.
pub fn run_game(
    engines: &mut [Option<Engine>; 2],
    specs: &[EngineSpec; 2],
    setup: GameSetup,
    config: &GameConfig,
) -> PlayedGame {
    let red_index = if setup.first_is_red { 0 } else { 1 };
    let index_of = [red_index, 1 - red_index];
    let name_of = |engines: &[Option<Engine>; 2], i: usize| {
        engines[i].as_ref().map_or_else(
            || {
                specs[i]
                    .name
                    .clone()
                    .unwrap_or_else(|| specs[i].command.clone())
            },
            |e| e.name().to_string(),
        )
    };
    let opening = &setup.opening;
    let mut played = PlayedGame {
        names: [String::new(), String::new()],
        setup: setup.clone(),
        moves: opening.moves.clone(),
        comments: vec![String::new(); opening.moves.len()],
        outcome: Outcome::Ongoing,
        reason: String::new(),
        termination: "abandoned",
        detail: String::new(),
    };

    // An engine that cannot be (re)started loses without a move.
    for (side, &i) in [Color::Red, Color::Black].iter().zip(&index_of) {
        if let Err(e) = ensure_running(&mut engines[i], &specs[i], config.log.as_ref()) {
            played.names = [name_of(engines, red_index), name_of(engines, 1 - red_index)];
            played.outcome = Outcome::win_for(!*side);
            // Whatever went wrong, an engine that cannot play has crashed.
            played.reason = "crash".to_string();
            played.detail = format!(
                "{} could not start the game: {e}: {} wins",
                specs[i].command, !*side
            );
            return played;
        }
    }
    played.names = [name_of(engines, red_index), name_of(engines, 1 - red_index)];
    let [first, second] = engines;
    let (first, second) = (
        first.as_mut().expect("just started"),
        second.as_mut().expect("just started"),
    );
    let pair = if red_index == 0 {
        [first, second]
    } else {
        [second, first]
    };
    let game = match play_game(
        pair,
        &opening.start,
        &opening.moves,
        config.rules.clone(),
        config.search,
    ) {
        Ok(game) => game,
        Err(e) => {
            // Openings are checked when read; this would be a bug there.
            played.reason = "unknown".into();
            played.detail = format!("the opening is not playable: {e}");
            return played;
        }
    };
    played.comments = game
        .analyses
        .iter()
        .map(|a| a.as_ref().map(comment).unwrap_or_default())
        .collect();
    played.moves = game.moves;
    played.outcome = game.end.outcome();
    played.reason = game.end.reason().to_string();
    played.termination = termination(&game.end);
    played.detail = game.end.detail();
    played
}
