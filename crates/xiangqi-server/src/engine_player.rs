//! The built-in engine as an opponent: a search off the async runtime
//! (`spawn_blocking`) on the engine of a slot ([`crate::engine_slots`]),
//! with its thinking time taken from its own game clock; its game's room
//! holds a [`Thinking`] to stop it when the game ends. Which players have an
//! engine game going ([`EngineGames`]): one at a time each.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::task::JoinHandle;
use xiangqi_core::{Move, Position};
use xiangqi_search::{Limits, SearchThread, Skill, MAX_SKILL_LEVEL};

use crate::engine_slots::{EngineSlots, SearchControl};

/// Kept back from the engine's clock for the trip through the server.
const MOVE_OVERHEAD: Duration = Duration::from_millis(100);

/// The highest level (full strength).
pub const MAX_LEVEL: u8 = MAX_SKILL_LEVEL;

/// What the engine is asked: the game so far, its level and its clock.
#[derive(Clone, Debug)]
pub struct Turn {
    /// The start position.
    pub start: Position,
    /// The moves played.
    pub moves: Vec<Move>,
    /// The engine's level, 0..=20.
    pub level: u8,
    /// The engine's remaining time.
    pub time_left: Duration,
    /// Its increment.
    pub increment: Duration,
}

/// A search under way for a room; dropping it does not stop it, [`Thinking::stop`] does.
#[derive(Debug)]
pub struct Thinking {
    control: Arc<SearchControl>,
    task: JoinHandle<()>,
}

impl Thinking {
    /// The game no longer needs the move: leave the queue, or stop the search.
    pub fn stop(&self) {
        self.control.cancel();
        self.task.abort();
    }
}

/// Starts searching `turn` for `owner` (the player the engine plays) once
/// a slot is free; `answer` gets the move (`None`: no legal move, a failed
/// search, or a stop before the search began).
pub fn think(
    slots: &Arc<EngineSlots>,
    owner: &str,
    turn: Turn,
    answer: impl FnOnce(Option<Move>) + Send + 'static,
) -> Thinking {
    let control = Arc::new(SearchControl::default());
    let (slots, owner, search_control) = (slots.clone(), owner.to_string(), control.clone());
    // The engine's clock runs while it waits for a slot.
    let asked = Instant::now();
    let task = tokio::spawn(async move {
        let Some(mut slot) = slots.acquire(&owner, search_control.clone()).await else {
            return;
        };
        // The slot goes with the search: it is released when the search
        // ends, whatever becomes of this task.
        let searched = tokio::task::spawn_blocking(move || {
            let turn = Turn {
                time_left: turn.time_left.saturating_sub(asked.elapsed()),
                ..turn
            };
            let mv = search(slot.take_engine(), &search_control, &turn).map(|(mv, engine)| {
                slot.put_back(engine);
                mv
            });
            drop(slot);
            mv.flatten()
        })
        .await;
        match searched {
            Ok(mv) => answer(mv),
            Err(error) => tracing::error!("engine search failed: {error}"),
        }
    });
    Thinking { control, task }
}

/// The search itself, on a blocking thread: `None` without an engine or
/// when cancelled before it began; else the move (if any) and the engine.
fn search(
    engine: Option<xiangqi_search::Engine>,
    control: &SearchControl,
    turn: &Turn,
) -> Option<(Option<Move>, xiangqi_search::Engine)> {
    let mut engine = engine?;
    let Ok((position, history)) = turn.start.replay(&turn.moves) else {
        return Some((None, engine));
    };
    // A slot's engine serves every game: nothing of the last one carries over.
    engine.new_game();
    engine.set_skill(Skill::level(turn.level));
    if control.is_cancelled() {
        return Some((None, engine));
    }
    let limits = Limits {
        time_left: Some(turn.time_left),
        increment: Some(turn.increment),
        move_overhead: Some(MOVE_OVERHEAD),
        ..Limits::default()
    };
    let mut thread = SearchThread::new(engine);
    if thread.go(position, history, limits, |_| {}).is_err() {
        return Some((None, thread.into_engine()));
    }
    // Registered once running, so a cancel in between is not lost: it
    // makes `begin` refuse, and the search is stopped here unanswered.
    let cancelled = !control.begin(thread.remote());
    if cancelled {
        thread.stop();
    }
    let answer = thread.wait().ok().flatten().filter(|_| !cancelled);
    control.end();
    Some((answer.and_then(|r| r.best_move), thread.into_engine()))
}

/// The players with an engine game going, and its id.
#[derive(Debug, Default)]
pub struct EngineGames {
    by_player: Mutex<HashMap<String, Option<String>>>,
}

/// A player's engine game refused: the one already going.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", match .0 { Some(game) => format!("you are playing game {game} against the engine: finish it first"), None => "your game against the engine is starting".to_string() })]
pub struct EngineGameGoing(pub Option<String>);

impl EngineGames {
    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, Option<String>>> {
        self.by_player.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Reserves `player`'s one engine game, refused when one is going.
    pub fn claim(&self, player: &str) -> Result<(), EngineGameGoing> {
        let mut map = self.map();
        if let Some(game) = map.get(player) {
            return Err(EngineGameGoing(game.clone()));
        }
        map.insert(player.to_string(), None);
        Ok(())
    }

    /// `player`'s engine game is `game` (claimed, or resumed at a restart).
    pub fn started(&self, player: &str, game: &str) {
        self.map()
            .insert(player.to_string(), Some(game.to_string()));
    }

    /// `player` has no engine game going any more (the claim failed, or `game` ended).
    pub fn ended(&self, player: &str, game: Option<&str>) {
        let mut map = self.map();
        if map.get(player).is_some_and(|g| g.as_deref() == game) {
            map.remove(player);
        }
    }

    /// `player`'s engine game, if one is going.
    pub fn of(&self, player: &str) -> Option<Option<String>> {
        self.map().get(player).cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_engine_game_per_player() {
        let games = EngineGames::default();
        games.claim("alice").unwrap();
        assert_eq!(games.claim("alice"), Err(EngineGameGoing(None)));
        games.started("alice", "g_1");
        let refused = games.claim("alice").unwrap_err();
        assert!(refused.to_string().contains("g_1"), "{refused}");
        games.claim("bob").unwrap();
        // Another game's end frees nothing.
        games.ended("alice", Some("g_2"));
        assert!(games.claim("alice").is_err());
        games.ended("alice", Some("g_1"));
        games.claim("alice").unwrap();
        games.ended("alice", None);
        assert_eq!(games.of("alice"), None);
    }
}
