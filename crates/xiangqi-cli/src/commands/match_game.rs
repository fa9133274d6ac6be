//! One game of `xiangqi match`: the engines alternate, every move is checked
//! by `xiangqi-core` and the game is judged by `xiangqi-adjudication`'s
//! [`Game`]; an engine that answers late, illegally, with garbage or not at
//! all loses.

use std::time::Duration;

use xiangqi_adjudication::{Game, Outcome, RuleSet};
use xiangqi_core::{Color, Move};

use super::match_engine::{EngineFailure, EngineProcess, EngineSpec, SearchLimit, TrafficLog};
use super::match_openings::Opening;

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
    pub limit: SearchLimit,
    /// How long an engine may take for one move before it loses on time.
    pub move_timeout: Duration,
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
    /// or `timeout`, `illegal_move`, `crash`, `no_move`, `resignation`.
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

/// An engine's failure as (reason code, PGN termination).
fn failure_codes(f: &EngineFailure) -> (&'static str, &'static str) {
    match f {
        EngineFailure::Timeout(_) => ("timeout", "time forfeit"),
        EngineFailure::Crashed(_) => ("crash", "abandoned"),
        EngineFailure::Unreadable(_) => ("illegal_move", "rules infraction"),
        EngineFailure::NoMove(_) => ("no_move", "rules infraction"),
        EngineFailure::Resigned => ("resignation", "normal"),
        EngineFailure::Refused(_) => ("refused_move", "rules infraction"),
    }
}

/// Makes sure engine `i` runs and is fresh, restarting it if it died or
/// misbehaved in the previous game.
fn ensure_running(
    slot: &mut Option<EngineProcess>,
    spec: &EngineSpec,
    log: Option<&TrafficLog>,
) -> Result<(), String> {
    if slot.as_ref().is_some_and(|e| e.healthy) {
        return Ok(());
    }
    if let Some(old) = slot.take() {
        old.quit();
    }
    match EngineProcess::start(spec, log) {
        Ok(e) => {
            *slot = Some(e);
            Ok(())
        }
        Err(e) => Err(format!("{e:#}")),
    }
}

/// Plays one game between `engines[0]` (the first `--engine`) and `engines[1]`.
pub fn play_game(
    engines: &mut [Option<EngineProcess>; 2],
    specs: &[EngineSpec; 2],
    setup: GameSetup,
    config: &GameConfig,
) -> PlayedGame {
    let red_index = if setup.first_is_red { 0 } else { 1 };
    let index_of = |side: Color| {
        if side == Color::Red {
            red_index
        } else {
            1 - red_index
        }
    };
    let name_of = |engines: &[Option<EngineProcess>; 2], i: usize| {
        engines[i].as_ref().map_or_else(
            || {
                specs[i]
                    .name
                    .clone()
                    .unwrap_or_else(|| specs[i].command.clone())
            },
            |e| e.name.clone(),
        )
    };
    let start = setup.opening.start.clone();
    let mut game = Game::new(start.clone(), config.rules.clone());
    for &mv in &setup.opening.moves {
        // Openings are checked when read; a failure here would be a bug there.
        game.push(mv).expect("opening moves are legal");
    }
    let mut comments = vec![String::new(); setup.opening.moves.len()];

    // Start (or restart) and reset both engines; one that cannot loses.
    let mut failure: Option<(Color, &'static str, &'static str, String)> = None;
    for side in [Color::Red, Color::Black] {
        let i = index_of(side);
        let ready =
            ensure_running(&mut engines[i], &specs[i], config.log.as_ref()).and_then(|()| {
                let engine = engines[i].as_mut().expect("started");
                engine.new_game(&start, config.limit).map_err(|e| {
                    engine.healthy = false;
                    e.to_string()
                })
            });
        if let Err(why) = ready {
            failure = Some((
                side,
                "crash",
                "abandoned",
                format!("{} could not start the game: {why}", specs[i].command),
            ));
            break;
        }
    }

    while failure.is_none() && !game.is_over() {
        let mover = game.position().side_to_move();
        let engine = engines[index_of(mover)].as_mut().expect("started");
        match engine.best_move(&start, game.moves(), config.limit, config.move_timeout) {
            Err(f) => {
                let (reason, termination) = failure_codes(&f);
                let detail = format!("{} ({mover}): {f}", engine.name);
                failure = Some((mover, reason, termination, detail));
            }
            Ok(reply) => match game.push(reply.mv) {
                Err(e) => {
                    let detail = format!(
                        "{} ({mover}) played the illegal move {}: {e}",
                        engine.name, reply.text
                    );
                    failure = Some((mover, "illegal_move", "rules infraction", detail));
                }
                Ok(_) => {
                    let mut comment = String::new();
                    if let Some(score) = &reply.score {
                        comment.push_str(score);
                    }
                    if let Some(depth) = reply.depth {
                        comment.push_str(&format!(" depth {depth}"));
                    }
                    comment.push_str(&format!(" {} ms", reply.time.as_millis()));
                    comments.push(comment.trim().to_string());
                }
            },
        }
    }

    let (outcome, reason, termination, detail) = match failure {
        Some((loser, reason, termination, detail)) => (
            Outcome::win_for(!loser),
            reason.to_string(),
            termination,
            format!("{detail}: {} wins", !loser),
        ),
        None => {
            let v = game.verdict();
            let reason = v
                .reason
                .map_or_else(|| "unknown".to_string(), |r| r.code().to_string());
            (v.outcome, reason, "normal", v.detail.clone())
        }
    };
    for engine in engines.iter_mut().flatten() {
        engine.game_over(outcome.result(), &reason);
    }
    PlayedGame {
        names: [name_of(engines, red_index), name_of(engines, 1 - red_index)],
        setup,
        moves: game.moves().to_vec(),
        comments,
        outcome,
        reason,
        termination,
        detail,
    }
}
