//! One game between two engines, every move judged by
//! `xiangqi-adjudication`'s [`Game`]. The end is a [`GameEnd`]: either the
//! rules' verdict or an engine's forfeit (it died, was late, wrote garbage
//! or an illegal move), kept apart so that a match can tell them apart.

use xiangqi_adjudication::{Game, GameError, Outcome, RuleSet, Verdict};
use xiangqi_core::{Color, Move, Position};

use crate::engine::{Analysis, Engine, SearchOptions};
use crate::error::EngineError;

/// How an engine game ended.
#[derive(Debug)]
pub enum GameEnd {
    /// The rules ended it (mate, repetition, no-capture rule…).
    Verdict(Verdict),
    /// An engine failed and loses.
    Forfeit {
        loser: Color,
        /// The engine's name.
        engine: String,
        failure: EngineError,
    },
}

impl GameEnd {
    pub fn outcome(&self) -> Outcome {
        match self {
            GameEnd::Verdict(v) => v.outcome,
            GameEnd::Forfeit { loser, .. } => Outcome::win_for(!*loser),
        }
    }

    /// The adjudication reason code (`checkmate`, `perpetual_check`…) or the
    /// engine failure's (`timeout`, `crash`, `illegal_move`, `no_move`,
    /// `resignation`, `refused_move`, `unsupported`).
    pub fn reason(&self) -> &'static str {
        match self {
            GameEnd::Verdict(v) => v.reason.map_or("unknown", |r| r.code()),
            GameEnd::Forfeit { failure, .. } => failure.code(),
        }
    }

    /// One sentence saying what happened.
    pub fn detail(&self) -> String {
        match self {
            GameEnd::Verdict(v) => v.detail.clone(),
            GameEnd::Forfeit {
                loser,
                engine,
                failure,
            } => format!("{engine} ({loser}): {failure}: {} wins", !*loser),
        }
    }
}

/// A finished engine game.
#[derive(Debug)]
pub struct EngineGame {
    /// All moves from the start position, opening moves included.
    pub moves: Vec<Move>,
    /// What the engine reported for each move (`None` for opening moves).
    pub analyses: Vec<Option<Analysis>>,
    pub end: GameEnd,
}

/// Plays a game from `start` after the `opening` moves, `engines` being
/// Red's and Black's. Both are sent a new game first; one that cannot
/// start it forfeits. An illegal opening is an error. With a
/// [`Limit::clock`](crate::Limit::clock) each side is charged the wall-clock time from request to
/// answer and gets the increment; one that answers after its time ran out
/// loses ([`EngineError::FlagFell`]). The opening moves cost no time.
pub fn play_game(
    engines: [&mut Engine; 2],
    start: &Position,
    opening: &[Move],
    rules: RuleSet,
    mut options: SearchOptions,
) -> Result<EngineGame, GameError> {
    let [red, black] = engines;
    let mut game = Game::new(start.clone(), rules);
    for &mv in opening {
        game.push(mv)?;
    }
    let mut analyses: Vec<Option<Analysis>> = vec![None; opening.len()];
    let forfeit = |loser: Color, engine: &Engine, failure: EngineError| GameEnd::Forfeit {
        loser,
        engine: engine.name().to_string(),
        failure,
    };
    let mut end = None;
    for (side, engine) in [(Color::Red, &mut *red), (Color::Black, &mut *black)] {
        if let Err(e) = engine.new_game(start, options.limit) {
            end = Some(forfeit(side, engine, e));
            break;
        }
    }
    while end.is_none() && !game.is_over() {
        let mover = game.position().side_to_move();
        let engine: &mut Engine = if mover == Color::Red {
            &mut *red
        } else {
            &mut *black
        };
        match engine.search(start, game.moves(), options) {
            Err(e) => end = Some(forfeit(mover, engine, e)),
            Ok(analysis) => {
                if let Some(clock) = options.limit.clock {
                    match clock.after_move(mover, analysis.elapsed) {
                        Some(next) => options.limit.clock = Some(next),
                        None => {
                            let failure = EngineError::FlagFell {
                                used: analysis.elapsed,
                                left: clock.left(mover),
                            };
                            end = Some(forfeit(mover, engine, failure));
                            continue;
                        }
                    }
                }
                // The engine checked legality; the rules may still forbid
                // the move (e.g. a banned repetition under some rule sets).
                if game.push(analysis.best_move).is_err() {
                    let text = analysis.best_text.clone();
                    end = Some(forfeit(mover, engine, EngineError::IllegalMove { text }));
                } else {
                    analyses.push(Some(analysis));
                }
            }
        }
    }
    let end = end.unwrap_or_else(|| GameEnd::Verdict(game.verdict().clone()));
    let result = end.outcome().result();
    for engine in [red, black] {
        engine.game_over(result, end.reason());
    }
    Ok(EngineGame {
        moves: game.moves().to_vec(),
        analyses,
        end,
    })
}
