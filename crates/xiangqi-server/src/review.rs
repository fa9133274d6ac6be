//! The engine's review of a finished game, asked for from its page
//! (`POST /api/games/{id}/annotate`), or of an imported game of a player's
//! library (`POST /api/library/{id}/annotate`): the game's record (a
//! value: a played game's export, or an imported game as the gamefile crate
//! reads it) annotated by
//! `xiangqi-engine-client`'s `annotate` with our own search
//! ([`BuiltinEngine`]) on a blocking thread, each position's search taking
//! an engine slot like an engine opponent's move, so reviews never starve
//! live games. The annotated PGN (or the failure) is stored with the game
//! reviewed ([`Reviewed`]); the page polls the game's viewer endpoint until
//! it is there.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::runtime::Handle;
use xiangqi_core::{Move, Position};
use xiangqi_engine_client::annotate::pgn::annotate_game;
use xiangqi_engine_client::annotate::{Analyser, ReviewOptions};
use xiangqi_engine_client::builtin::BuiltinEngine;
use xiangqi_engine_client::{Analysis, EngineError, Limit, SearchOptions};
use xiangqi_gamefile::pgn::{write_game, WriteOptions};
use xiangqi_gamefile::Game;
use xiangqi_notation::Notation;

use crate::clock::Clock;
use crate::engine_slots::{EngineSlots, SearchControl};
use crate::store::{LibraryReview, ReviewRow, Store, StoreError};

/// Reviews running at once on the whole server; more are refused until one ends.
pub const MAX_RUNNING_REVIEWS: usize = 2;
/// The search time per position.
pub const REVIEW_MOVE_TIME: Duration = Duration::from_millis(200);
/// The review engine's hash table, in MB.
const REVIEW_HASH_MB: usize = 16;

/// The engine a review runs on: our own search.
pub fn review_engine() -> BuiltinEngine {
    BuiltinEngine::new(REVIEW_HASH_MB)
}

/// Why a review cannot start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    /// [`MAX_RUNNING_REVIEWS`] reviews are running.
    #[error("the engine is reviewing {0} games already: try again when one is done")]
    Busy(usize),
}

/// What a review is of: a game played here, or an imported game of a
/// player's library. Each keeps its review in its own table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reviewed {
    /// A game played on this server, by id.
    Game(String),
    /// An imported game, by id.
    Imported(String),
}

impl Reviewed {
    /// Its key among the running reviews (the two kinds of ids apart).
    fn key(&self) -> String {
        match self {
            Reviewed::Game(id) => format!("game {id}"),
            Reviewed::Imported(id) => format!("imported {id}"),
        }
    }

    /// Stores the outcome of its review, finished by player `by` at `at`.
    async fn save(
        &self,
        store: &Store,
        pgn: Option<String>,
        error: Option<String>,
        by: String,
        at: i64,
    ) -> Result<(), StoreError> {
        match self {
            Reviewed::Game(game) => {
                let row = ReviewRow {
                    game: game.clone(),
                    pgn,
                    error,
                    requested_by: by,
                    finished_at: at,
                };
                store.save_review(&row).await
            }
            Reviewed::Imported(id) => {
                store
                    .save_library_review(id, &LibraryReview { pgn, error }, at)
                    .await
            }
        }
    }
}

/// The reviews running now, by [`Reviewed::key`].
#[derive(Debug, Default)]
struct Running {
    games: Mutex<HashSet<String>>,
}

impl Running {
    /// Marks `game`'s review running: `Ok(false)` when it already was.
    fn claim(&self, game: &str) -> Result<bool, StartError> {
        let Ok(mut running) = self.games.lock() else {
            return Err(StartError::Busy(MAX_RUNNING_REVIEWS));
        };
        if running.contains(game) {
            return Ok(false);
        }
        if running.len() >= MAX_RUNNING_REVIEWS {
            return Err(StartError::Busy(running.len()));
        }
        Ok(running.insert(game.to_owned()))
    }

    fn release(&self, game: &str) {
        if let Ok(mut running) = self.games.lock() {
            running.remove(game);
        }
    }
}

/// The engine's reviews: those running, and what a review needs (the engine
/// slots its searches queue on, the store its result goes to, the clock).
pub struct Reviews {
    running: Running,
    slots: Arc<EngineSlots>,
    store: Store,
    clock: Arc<dyn Clock>,
}

impl Reviews {
    /// Reviews on `slots`, stored in `store`.
    pub fn new(slots: Arc<EngineSlots>, store: Store, clock: Arc<dyn Clock>) -> Reviews {
        Reviews {
            running: Running::default(),
            slots,
            store,
            clock,
        }
    }

    /// Whether the review of `what` is running.
    pub fn is_running(&self, what: &Reviewed) -> bool {
        let key = what.key();
        self.running.games.lock().is_ok_and(|r| r.contains(&key))
    }
}

/// Starts the review of `what` whose record is `record`, asked for by
/// player `by`; returns at once (a review already running is left to run).
pub fn start(
    reviews: &Arc<Reviews>,
    what: Reviewed,
    record: Game,
    by: &str,
) -> Result<(), StartError> {
    let key = what.key();
    if !reviews.running.claim(&key)? {
        return Ok(());
    }
    let reviews = reviews.clone();
    let by = by.to_owned();
    tokio::spawn(async move {
        let slots = reviews.slots.clone();
        let by_owner = by.clone();
        let runtime = Handle::current();
        let work = tokio::task::spawn_blocking(move || {
            let mut engine = review_engine();
            let mut slotted = Slotted {
                engine: &mut engine,
                slots,
                owner: by_owner,
                runtime,
            };
            let mut record = record;
            annotate(
                &mut record,
                &mut slotted,
                Limit::move_time(REVIEW_MOVE_TIME),
            )?;
            // Stored as PGN text: the store keeps files, the server values.
            write_game(&record, &WriteOptions::new(Notation::Iccs)).map_err(|e| e.to_string())
        });
        let outcome = work
            .await
            .unwrap_or_else(|e| Err(format!("the review stopped: {e}")));
        let (pgn, error) = match outcome {
            Ok(pgn) => (Some(pgn), None),
            Err(error) => (None, Some(error)),
        };
        let at = reviews.clock.unix_ms();
        if let Err(e) = what.save(&reviews.store, pgn, error, by, at).await {
            tracing::error!("{key}: the review cannot be stored: {e}");
        }
        reviews.running.release(&key);
    });
    Ok(())
}

/// Annotates `game` with `engine` (`[%eval]` on every move, NAGs, the
/// engine's line after a mistake).
pub fn annotate(game: &mut Game, engine: &mut dyn Analyser, limit: Limit) -> Result<(), String> {
    let options = ReviewOptions::new(SearchOptions::new(limit));
    annotate_game(engine, game, &options, |_, _| {}).map_err(|e| e.to_string())?;
    Ok(())
}

/// An analyser that searches only with an engine slot, so a review's
/// searches queue with the engine opponents' moves, as searches of the
/// player who asked for the review.
struct Slotted<'a> {
    engine: &'a mut dyn Analyser,
    slots: Arc<EngineSlots>,
    owner: String,
    runtime: Handle,
}

impl Analyser for Slotted<'_> {
    fn new_game(&mut self, start: &Position, limit: Limit) -> Result<(), EngineError> {
        self.engine.new_game(start, limit)
    }

    fn analyse(
        &mut self,
        start: &Position,
        moves: &[Move],
        options: SearchOptions,
    ) -> Result<Analysis, EngineError> {
        // A blocking thread may wait on the runtime. The review searches with
        // its own engine; the slot's stays idle meanwhile.
        let control = Arc::new(SearchControl::default());
        let _slot = self
            .runtime
            .block_on(self.slots.acquire(&self.owner, control));
        self.engine.analyse(start, moves, options)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_review_writes_an_evaluation_on_every_move() {
        let pgn = "[Red \"a\"]\n[Black \"b\"]\n\n1. h2e2 {[%clk 0:04:59]} h9g7 2. h0g2 a9a8 0-1\n";
        let mut game = xiangqi_gamefile::pgn::read_str(pgn)
            .next()
            .unwrap()
            .unwrap();
        annotate(&mut game, &mut review_engine(), Limit::depth(2)).unwrap();
        assert_eq!(game.plies(), 4);
        for node in &game.mainline.moves {
            assert!(node.comments()[0].starts_with("[%eval "), "{game:?}");
        }
        let annotated = write_game(&game, &WriteOptions::new(Notation::Iccs)).unwrap();
        assert!(annotated.contains("[%clk 0:04:59]"), "{annotated}");
        let view = xiangqi_viewer::viewer_game(&game).unwrap();
        assert!(view.has_eval);
    }

    #[test]
    fn reviews_are_limited_and_one_per_game() {
        let reviews = Running::default();
        assert_eq!(reviews.claim("a"), Ok(true));
        assert_eq!(reviews.claim("a"), Ok(false));
        assert_eq!(reviews.claim("b"), Ok(true));
        assert_eq!(reviews.claim("c"), Err(StartError::Busy(2)));
        assert!(reviews.games.lock().unwrap().contains("a"));
        reviews.release("a");
        assert!(!reviews.games.lock().unwrap().contains("a"));
        assert_eq!(reviews.claim("c"), Ok(true));
    }
}
