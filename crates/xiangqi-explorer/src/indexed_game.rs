//! What one game adds to the explorer: its result, its players' mean rating,
//! its headers, and the moves it played from each position of its first
//! plies, once per position.

use xiangqi_adjudication::{GameRecord, Outcome, RuleSet};
use xiangqi_gamefile::{Game, GameResult};

use crate::stats::GameOutcome;

/// A position (its Zobrist hash, as the store keeps it: signed) and a move
/// played from it (`Move::to_u16`).
pub(crate) type Key = (i64, u16);

/// The headers an example game is shown with.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Headers {
    pub red: Option<String>,
    pub black: Option<String>,
    pub red_elo: Option<u32>,
    pub black_elo: Option<u32>,
    pub event: Option<String>,
    pub date: Option<String>,
}

/// One game as the explorer counts it.
#[derive(Clone, Debug)]
pub(crate) struct IndexedGame {
    pub headers: Headers,
    /// The recorded result, else the rules' verdict on the moves; `None`
    /// when neither says (an unfinished game).
    pub outcome: Option<GameOutcome>,
    /// Both players' ratings added up, when the record has both.
    pub rating_sum: Option<u64>,
    /// Each position of the first plies with the move the game left it by,
    /// once per position: a position met again (a repetition) keeps the
    /// move played from it the last time, so loops count once.
    pub moves: Vec<Key>,
}

/// Reads `game` for the explorer: positions before each of its first
/// `max_plies` main-line moves. `None` when its start position cannot be
/// read (a damaged FEN tag).
pub(crate) fn index_game(game: &Game, max_plies: usize, rules: &RuleSet) -> Option<IndexedGame> {
    let start = game.start_position().ok()?;
    let mut position = start.clone();
    let mut moves: Vec<Key> = Vec::with_capacity(max_plies.min(game.plies()));
    for mv in game.moves().take(max_plies) {
        let hash = position.hash() as i64;
        // Moves of a game the readers return are legal; a hand-built one may not be.
        if position.play(mv).is_err() {
            break;
        }
        match moves.iter_mut().find(|(seen, _)| *seen == hash) {
            Some(entry) => entry.1 = mv.to_u16(),
            None => moves.push((hash, mv.to_u16())),
        }
    }
    let headers = headers(game);
    let rating_sum = match (headers.red_elo, headers.black_elo) {
        (Some(red), Some(black)) => Some(u64::from(red) + u64::from(black)),
        _ => None,
    };
    Some(IndexedGame {
        outcome: outcome(game, start, rules),
        rating_sum,
        headers,
        moves,
    })
}

/// The recorded result, else what the rules say of the moves.
fn outcome(game: &Game, start: xiangqi_core::Position, rules: &RuleSet) -> Option<GameOutcome> {
    match game.outcome() {
        GameResult::RedWins => Some(GameOutcome::RedWins),
        GameResult::BlackWins => Some(GameOutcome::BlackWins),
        GameResult::Draw => Some(GameOutcome::Draw),
        GameResult::Unknown => {
            let verdict = GameRecord::new(start, game.moves().collect())
                .adjudicate(rules)
                .ok()?;
            match verdict.outcome {
                Outcome::Red => Some(GameOutcome::RedWins),
                Outcome::Black => Some(GameOutcome::BlackWins),
                Outcome::Draw => Some(GameOutcome::Draw),
                Outcome::Cancelled | Outcome::Ongoing => None,
            }
        }
    }
}

fn tag(game: &Game, name: &str) -> Option<String> {
    game.tag(name)
        .map(str::trim)
        .filter(|v| !v.is_empty() && *v != "?")
        .map(str::to_owned)
}

fn rating(game: &Game, name: &str) -> Option<u32> {
    game.tag(name)?.trim().parse().ok().filter(|&r| r > 0)
}

fn headers(game: &Game) -> Headers {
    Headers {
        red: tag(game, "Red"),
        black: tag(game, "Black"),
        red_elo: rating(game, "RedElo"),
        black_elo: rating(game, "BlackElo"),
        event: tag(game, "Event"),
        date: tag(game, "Date"),
    }
}
