//! The transposition table: a fixed-size hash table of search results.
//!
//! Buckets of four 16-byte entries (one cache line). Replacement: an entry for
//! the same position is overwritten (keeping its move when the new result has
//! none); otherwise the entry with the lowest `depth - 4 * age` goes, so deep
//! results of the current search survive and stale ones from earlier searches
//! are recycled first. Mate scores are stored relative to the node (see
//! [`crate::score::to_tt`]).

use xiangqi_core::Move;

const BUCKET: usize = 4;

/// What kind of bound a stored score is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true score is at most this (all moves failed low).
    Upper = 1,
    /// The true score is at least this (a move failed high).
    Lower = 2,
    /// The exact score (a PV node).
    Exact = 3,
}

#[derive(Copy, Clone, Default)]
#[repr(C)]
struct Entry {
    key: u64,
    mv: u16,
    score: i16,
    eval: i16,
    depth: u8,
    /// Generation in the upper 6 bits, bound in the lower 2 (0 = empty).
    gen_bound: u8,
}

/// A probe hit.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Hit {
    pub mv: Option<Move>,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

pub(crate) struct TranspositionTable {
    entries: Vec<Entry>,
    buckets: usize,
    generation: u8,
}

impl TranspositionTable {
    /// A table of about `mb` mebibytes (at least one bucket). When the memory
    /// cannot be had, the size is halved until an allocation succeeds, so a
    /// GUI asking for too much gets a smaller table instead of a dead engine.
    pub(crate) fn new(mb: usize) -> TranspositionTable {
        let mut bytes = mb.max(1).saturating_mul(1 << 20);
        loop {
            let buckets = (bytes / (BUCKET * std::mem::size_of::<Entry>())).max(1);
            let mut entries = Vec::new();
            if entries.try_reserve_exact(buckets * BUCKET).is_ok() || buckets == 1 {
                entries.resize(buckets * BUCKET, Entry::default());
                return TranspositionTable {
                    entries,
                    buckets,
                    generation: 0,
                };
            }
            bytes /= 2;
        }
    }

    /// The size actually allocated, in whole MiB (at least 1).
    pub(crate) fn size_mb(&self) -> usize {
        ((self.entries.len() * std::mem::size_of::<Entry>()) >> 20).max(1)
    }

    pub(crate) fn clear(&mut self) {
        self.entries.fill(Entry::default());
        self.generation = 0;
    }

    /// Called once per search so that older entries age.
    pub(crate) fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    fn bucket(&self, key: u64) -> usize {
        (((key as u128) * (self.buckets as u128)) >> 64) as usize * BUCKET
    }

    pub(crate) fn probe(&self, key: u64) -> Option<Hit> {
        let b = self.bucket(key);
        self.entries[b..b + BUCKET]
            .iter()
            .find(|e| e.key == key && e.gen_bound & 3 != 0)
            .map(|e| Hit {
                mv: Move::from_u16(e.mv).filter(|_| e.mv != 0),
                score: e.score as i32,
                eval: e.eval as i32,
                depth: e.depth as i32,
                bound: match e.gen_bound & 3 {
                    1 => Bound::Upper,
                    2 => Bound::Lower,
                    _ => Bound::Exact,
                },
            })
    }

    /// Stores a result; `score` must already be converted with `to_tt`.
    pub(crate) fn store(
        &mut self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let b = self.bucket(key);
        let generation = self.generation;
        let age = |e: &Entry| ((generation + 64 - (e.gen_bound >> 2)) & 63) as i32;
        let bucket = &mut self.entries[b..b + BUCKET];
        let slot = match bucket.iter().position(|e| e.key == key) {
            Some(i) => i,
            None => {
                let mut best = 0;
                let mut best_worth = i32::MAX;
                for (i, e) in bucket.iter().enumerate() {
                    if e.gen_bound & 3 == 0 {
                        best = i;
                        break;
                    }
                    let worth = e.depth as i32 - 4 * age(e);
                    if worth < best_worth {
                        best_worth = worth;
                        best = i;
                    }
                }
                best
            }
        };
        let e = &mut bucket[slot];
        // Keep a deeper exact-enough result for the same position from this search.
        if e.key == key
            && e.gen_bound >> 2 == generation
            && bound != Bound::Exact
            && e.depth as i32 > depth + 2
        {
            return;
        }
        let keep_move = if e.key == key { e.mv } else { 0 };
        e.key = key;
        e.mv = mv.map_or(keep_move, Move::to_u16);
        e.score = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        e.eval = eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        e.depth = depth.clamp(0, 255) as u8;
        e.gen_bound = (generation << 2) | bound as u8;
    }

    /// Permille of the first thousand entries used in the current search (UCI `hashfull`).
    pub(crate) fn hashfull(&self) -> u32 {
        let n = self.entries.len().min(1000);
        let used = self.entries[..n]
            .iter()
            .filter(|e| e.gen_bound & 3 != 0 && e.gen_bound >> 2 == self.generation)
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_and_probe() {
        let mut tt = TranspositionTable::new(1);
        let mv: Move = "h2e2".parse().unwrap();
        tt.store(0xdead_beef, Some(mv), 42, 7, 5, Bound::Exact);
        let hit = tt.probe(0xdead_beef).unwrap();
        assert_eq!(hit.mv, Some(mv));
        assert_eq!(
            (hit.score, hit.eval, hit.depth, hit.bound),
            (42, 7, 5, Bound::Exact)
        );
        assert!(tt.probe(0xdead_bee0).is_none());
        // A result without a move keeps the old move.
        tt.store(0xdead_beef, None, -3, 7, 6, Bound::Upper);
        assert_eq!(tt.probe(0xdead_beef).unwrap().mv, Some(mv));
        tt.clear();
        assert!(tt.probe(0xdead_beef).is_none());
    }

    #[test]
    fn replacement_prefers_shallow_entries() {
        let mut tt = TranspositionTable::new(1);
        // Keys that land in one bucket: same top bits.
        let keys: Vec<u64> = (0..5u64).collect();
        for (d, &k) in keys.iter().take(4).enumerate() {
            tt.store(k, None, 0, 0, 10 + d as i32, Bound::Exact);
        }
        tt.store(keys[4], None, 0, 0, 1, Bound::Exact);
        // The shallowest (depth 10, key 0) made room.
        assert!(tt.probe(keys[0]).is_none());
        assert!(tt.probe(keys[3]).is_some() && tt.probe(keys[4]).is_some());
    }
}
