//! What a game record counts for in the ratings.

use xiangqi_adjudication::{GameRecord, Outcome, RuleSet};
use xiangqi_core::Color;
use xiangqi_gamefile::{Game, GameResult};

/// One rated game: Red's and Black's names and Red's score (1, ½ or 0).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct RatedGame {
    pub red: String,
    pub black: String,
    pub red_score: f64,
}

impl RatedGame {
    pub fn new(red: &str, black: &str, red_score: f64) -> RatedGame {
        RatedGame {
            red: red.to_string(),
            black: black.to_string(),
            red_score,
        }
    }
}

/// Why a game is not rated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unrated {
    /// R-CLOCK-CANCEL: the flagged side had not moved yet.
    #[error("cancelled: {0} lost on time before its first move (R-CLOCK-CANCEL)")]
    Cancelled(Color),
    /// The rules cancelled it.
    #[error("cancelled by the rules")]
    CancelledByRules,
    /// No result (`*`) and the rules did not end it.
    #[error("no result")]
    NoResult,
    /// A `Red` or `Black` tag is missing or `?`.
    #[error("a player's name is missing")]
    NoPlayer,
    /// The moves cannot be replayed.
    #[error("the moves cannot be replayed: {0}")]
    Unplayable(String),
}

fn player(game: &Game, tag: &str) -> Result<String, Unrated> {
    match game.tag(tag).map(str::trim) {
        Some(name) if !name.is_empty() && name != "?" => Ok(name.to_string()),
        _ => Err(Unrated::NoPlayer),
    }
}

/// Whether side `side` has made a move in a game of `plies` plies from a
/// start where `first` moves.
fn has_moved(side: Color, first: Color, plies: usize) -> bool {
    if side == first {
        plies >= 1
    } else {
        plies >= 2
    }
}

/// What `game` counts for under `rules`: the rules' verdict on its moves
/// when they ended the game (mate, repetition…), else its recorded result;
/// a loss on time (`[Termination "time forfeit"]`) by a side that had not
/// moved is cancelled (R-CLOCK-CANCEL) and cancelled games are not rated
/// (R-CLOCK-RATED).
pub fn rated_game(game: &Game, rules: &RuleSet) -> Result<RatedGame, Unrated> {
    let red = player(game, "Red")?;
    let black = player(game, "Black")?;
    let start = game
        .start_position()
        .map_err(|e| Unrated::Unplayable(e.to_string()))?;
    let first = start.side_to_move();
    let record = GameRecord::new(start, game.moves().collect());
    let verdict = record
        .adjudicate(rules)
        .map_err(|e| Unrated::Unplayable(e.to_string()))?;
    let red_score = match verdict.outcome {
        Outcome::Red => 1.0,
        Outcome::Black => 0.0,
        Outcome::Draw => 0.5,
        Outcome::Cancelled => return Err(Unrated::CancelledByRules),
        Outcome::Ongoing => {
            let score = match game.outcome() {
                GameResult::RedWins => 1.0,
                GameResult::BlackWins => 0.0,
                GameResult::Draw => 0.5,
                GameResult::Unknown => return Err(Unrated::NoResult),
            };
            let on_time = game
                .tag("Termination")
                .is_some_and(|t| t.trim().eq_ignore_ascii_case("time forfeit"));
            let loser = if score == 1.0 {
                Some(Color::Black)
            } else if score == 0.0 {
                Some(Color::Red)
            } else {
                None
            };
            if let Some(loser) = loser.filter(|_| on_time) {
                if !has_moved(loser, first, game.plies()) {
                    return Err(Unrated::Cancelled(loser));
                }
            }
            score
        }
    };
    Ok(RatedGame {
        red,
        black,
        red_score,
    })
}
