//! Puzzles on the server (docs/puzzles.md, docs/server.md "Puzzles"): the
//! puzzle set loaded at start (the built-in set unless `--puzzles FILE`),
//! each puzzle's current rating, the choice of the next puzzle near a
//! player's rating, and the outcome of an attempt on the player's and the
//! puzzle's Glicko-2 ratings and the streak. Whether a move is right is
//! `xiangqi_puzzles::Puzzle::judge`'s to say; the solution leaves the
//! server only once it is earned or given up on.

mod play;

use std::collections::{HashMap, HashSet};
use std::io::BufRead;

use tokio::sync::{Mutex, OnceCell, RwLock};
use xiangqi_puzzles::{read_puzzle_set, Puzzle, PuzzleError};
use xiangqi_rating::{Glicko2, Glicko2Settings};

use crate::security::throttle::Throttle;
use crate::security::Rate;
use crate::store::{Store, StoreError};

pub use play::{MoveAnswer, Outcome, PlayerStanding, PuzzleError as PlayError, Served};

/// The built-in set: made by `xiangqi puzzles build` from the shared
/// tactics and CCPD files (docs/puzzles.md, "The built-in set").
const BUILT_IN: &str = include_str!("../../puzzles/default.jsonl");

/// Puzzle requests (next, move, solution) a player may make: a burst of
/// 120, then two a second. A person solving never comes near it.
pub const PUZZLE_REQUESTS: Rate = Rate::new(
    match std::num::NonZeroU32::new(120) {
        Some(n) => n,
        None => unreachable!(),
    },
    std::time::Duration::from_secs(60),
);

/// The next puzzle is drawn from this many of those nearest the rating.
const NEAREST: usize = 8;

/// The puzzle set and what the server keeps about it.
pub struct Puzzles {
    set: Vec<Puzzle>,
    index: HashMap<String, usize>,
    /// Each puzzle's rating and rated plays, from the store at first use.
    ratings: OnceCell<RwLock<HashMap<String, (Glicko2, i64)>>>,
    /// Rating updates, one at a time: each reads two ratings and writes both.
    updating: Mutex<()>,
    /// Requests per player.
    pub throttle: Throttle<String>,
    settings: Glicko2Settings,
}

impl std::fmt::Debug for Puzzles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Puzzles")
            .field("puzzles", &self.set.len())
            .finish_non_exhaustive()
    }
}

impl Puzzles {
    /// The built-in set.
    pub fn built_in() -> Puzzles {
        Puzzles::read(BUILT_IN.as_bytes()).unwrap_or_else(|_| Puzzles::new(Vec::new()))
    }

    /// A set read from a puzzle-set file's text (every line checked).
    pub fn read(reader: impl BufRead) -> Result<Puzzles, PuzzleError> {
        Ok(Puzzles::new(read_puzzle_set(reader)?))
    }

    /// A set of these puzzles.
    pub fn new(set: Vec<Puzzle>) -> Puzzles {
        let index = set
            .iter()
            .enumerate()
            .map(|(i, p)| (p.id.clone(), i))
            .collect();
        Puzzles {
            set,
            index,
            ratings: OnceCell::new(),
            updating: Mutex::new(()),
            throttle: Throttle::new(PUZZLE_REQUESTS),
            settings: Glicko2Settings::default(),
        }
    }

    /// How many puzzles there are.
    pub fn len(&self) -> usize {
        self.set.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.set.is_empty()
    }

    /// The puzzle of this id.
    pub fn get(&self, id: &str) -> Option<&Puzzle> {
        self.index.get(id).map(|&i| &self.set[i])
    }

    async fn ratings(
        &self,
        store: &Store,
    ) -> Result<&RwLock<HashMap<String, (Glicko2, i64)>>, StoreError> {
        self.ratings
            .get_or_try_init(|| async { Ok(RwLock::new(store.puzzle_ratings().await?)) })
            .await
    }

    /// A puzzle's current rating and rated plays: stored, or its seed
    /// with nothing known yet.
    pub async fn rating_of(
        &self,
        store: &Store,
        puzzle: &Puzzle,
    ) -> Result<(Glicko2, i64), StoreError> {
        let ratings = self.ratings(store).await?.read().await;
        Ok(ratings
            .get(&puzzle.id)
            .copied()
            .unwrap_or((Glicko2::new(puzzle.rating), 0)))
    }

    /// The next puzzle for a player rated `target`: one of the
    /// [`NEAREST`] puzzles nearest it that they were never served, or,
    /// when they had every one, nearest among all (a replay, which counts
    /// for nothing).
    pub async fn choose(
        &self,
        store: &Store,
        target: f64,
        attempted: &HashSet<String>,
    ) -> Result<Option<&Puzzle>, StoreError> {
        let ratings = self.ratings(store).await?.read().await;
        let rating = |p: &Puzzle| ratings.get(&p.id).map_or(p.rating, |r| r.0.rating);
        let fresh: Vec<&Puzzle> = self
            .set
            .iter()
            .filter(|p| !attempted.contains(&p.id))
            .collect();
        let mut pool = match fresh.is_empty() {
            true => self.set.iter().collect(),
            false => fresh,
        };
        pool.sort_by(|a, b| {
            (rating(a) - target)
                .abs()
                .total_cmp(&(rating(b) - target).abs())
        });
        pool.truncate(NEAREST);
        if pool.is_empty() {
            return Ok(None);
        }
        let pick = rand::random::<usize>() % pool.len();
        Ok(Some(pool[pick]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_set_reads_and_is_not_empty() {
        let set = read_puzzle_set(BUILT_IN.as_bytes()).expect("the built-in set is valid");
        assert!(set.len() >= 20, "{} puzzles", set.len());
        assert_eq!(Puzzles::built_in().len(), set.len());
    }
}
