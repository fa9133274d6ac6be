//! The built-in engine as an opponent: a search off the async runtime
//! (`spawn_blocking`), bounded by a semaphore so engine games never starve
//! the others, with its thinking time taken from its own game clock.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Semaphore;
use xiangqi_core::{Move, Position};
use xiangqi_search::{Engine, Limits, Skill, MAX_SKILL_LEVEL};

/// Hash table per engine game, in MB: small, there may be many games.
const ENGINE_HASH_MB: usize = 16;
/// Kept back from the engine's clock for the trip through the server.
const MOVE_OVERHEAD: Duration = Duration::from_millis(100);

/// The highest level (full strength).
pub const MAX_LEVEL: u8 = MAX_SKILL_LEVEL;

/// A new engine at `level` (0..=20).
pub fn new_engine(level: u8) -> Engine {
    let mut engine = Engine::new(ENGINE_HASH_MB);
    engine.set_skill(Skill::level(level));
    engine
}

/// What the engine is asked: the game so far and its clock.
#[derive(Clone, Debug)]
pub struct Turn {
    /// The start position.
    pub start: Position,
    /// The moves played.
    pub moves: Vec<Move>,
    /// The engine's remaining time.
    pub time_left: Duration,
    /// Its increment.
    pub increment: Duration,
}

/// Searches `turn` on a blocking thread once a slot is free; gives the
/// engine back with the move (`None` when the position has none); the
/// engine is lost only if the search panicked.
pub async fn think(
    slots: Arc<Semaphore>,
    mut engine: Engine,
    turn: Turn,
) -> (Option<Move>, Option<Engine>) {
    // The semaphore is never closed; without a permit the search still runs.
    let _permit = slots.acquire_owned().await.ok();
    let task = tokio::task::spawn_blocking(move || {
        let Ok((position, history)) = turn.start.replay(&turn.moves) else {
            return (None, Some(engine));
        };
        let limits = Limits {
            time_left: Some(turn.time_left),
            increment: Some(turn.increment),
            move_overhead: Some(MOVE_OVERHEAD),
            ..Limits::default()
        };
        let result = engine.search(&position, &history, &limits, |_| {});
        (result.best_move, Some(engine))
    });
    task.await.unwrap_or_else(|error| {
        tracing::error!("engine search failed: {error}");
        (None, None)
    })
}
