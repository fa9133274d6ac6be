//! The bounded in-memory part of a build: tallies of the games read since
//! the last flush, at most a fixed number of positions and moves.

use std::collections::HashMap;

use crate::indexed_game::{IndexedGame, Key};
use crate::tally::Tally;

/// Tallies by position and move, up to `limit` entries.
pub(crate) struct Batch {
    tallies: HashMap<Key, Tally>,
    limit: usize,
}

impl Batch {
    pub fn new(limit: usize) -> Batch {
        Batch {
            // Allocated once: the table never grows past its limit.
            tallies: HashMap::with_capacity(limit),
            limit,
        }
    }

    /// Counts game `id`.
    pub fn add(&mut self, id: u32, game: &IndexedGame) {
        for key in &game.moves {
            self.tallies
                .entry(*key)
                .or_default()
                .add_game(id, game.outcome, game.rating_sum);
        }
    }

    /// Whether a game of `plies` more entries might not fit.
    pub fn is_full(&self, plies: usize) -> bool {
        self.tallies.len() + plies > self.limit
    }

    pub fn is_empty(&self) -> bool {
        self.tallies.is_empty()
    }

    /// The tallies sorted by key, leaving the batch empty (its memory kept).
    pub fn drain_sorted(&mut self) -> Vec<(Key, Tally)> {
        let mut entries: Vec<(Key, Tally)> = self.tallies.drain().collect();
        entries.sort_unstable_by_key(|(key, _)| *key);
        entries
    }
}
