//! The transposition table: a fixed-size hash table of search results,
//! shared by all search threads.
//!
//! Buckets of four 16-byte entries (one cache line). Replacement: an entry for
//! the same position is overwritten (keeping its move when the new result has
//! none); otherwise the entry with the lowest `depth - 4 * age` goes, so deep
//! results of the current search survive and stale ones from earlier searches
//! are recycled first. Mate scores are stored relative to the node (see
//! [`crate::score::to_tt`]).
//!
//! Lock-free sharing (Lazy SMP): an entry is two `AtomicU64` words, the data
//! and the key xor the data. Threads read and write them with relaxed atomics
//! (no undefined behaviour, no locks); when two writes interleave, the key
//! check `stored_key ^ data == key` fails and the torn entry reads as a miss.
//! With one thread the table behaves exactly as a plain array would.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

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

/// The decoded contents of one slot.
#[derive(Copy, Clone, Default)]
struct Entry {
    key: u64,
    mv: u16,
    score: i16,
    eval: i16,
    depth: u8,
    /// Generation in the upper 6 bits, bound in the lower 2 (0 = empty).
    gen_bound: u8,
}

impl Entry {
    fn data(&self) -> u64 {
        u64::from(self.mv)
            | u64::from(self.score as u16) << 16
            | u64::from(self.eval as u16) << 32
            | u64::from(self.depth) << 48
            | u64::from(self.gen_bound) << 56
    }

    fn from_words(check: u64, data: u64) -> Entry {
        Entry {
            key: check ^ data,
            mv: data as u16,
            score: (data >> 16) as u16 as i16,
            eval: (data >> 32) as u16 as i16,
            depth: (data >> 48) as u8,
            gen_bound: (data >> 56) as u8,
        }
    }
}

/// One slot: `check` holds the key xor `data`.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    fn load(&self) -> Entry {
        Entry::from_words(self.check.load(Relaxed), self.data.load(Relaxed))
    }

    fn save(&self, e: &Entry) {
        let data = e.data();
        self.check.store(e.key ^ data, Relaxed);
        self.data.store(data, Relaxed);
    }
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
    slots: Vec<Slot>,
    buckets: usize,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A table of about `mb` mebibytes (at least one bucket). When the memory
    /// cannot be had, the size is halved until an allocation succeeds, so a
    /// GUI asking for too much gets a smaller table instead of a dead engine.
    pub(crate) fn new(mb: usize) -> TranspositionTable {
        let mut bytes = mb.max(1).saturating_mul(1 << 20);
        loop {
            let buckets = (bytes / (BUCKET * std::mem::size_of::<Slot>())).max(1);
            let mut slots = Vec::new();
            if slots.try_reserve_exact(buckets * BUCKET).is_ok() || buckets == 1 {
                slots.resize_with(buckets * BUCKET, Slot::default);
                return TranspositionTable {
                    slots,
                    buckets,
                    generation: AtomicU8::new(0),
                };
            }
            bytes /= 2;
        }
    }

    /// The size actually allocated, in whole MiB (at least 1).
    pub(crate) fn size_mb(&self) -> usize {
        ((self.slots.len() * std::mem::size_of::<Slot>()) >> 20).max(1)
    }

    pub(crate) fn clear(&mut self) {
        for s in &mut self.slots {
            *s = Slot::default();
        }
        self.generation.store(0, Relaxed);
    }

    /// Called once per search so that older entries age.
    pub(crate) fn new_search(&self) {
        let g = self.generation.load(Relaxed);
        self.generation.store((g + 1) & 63, Relaxed);
    }

    fn bucket(&self, key: u64) -> usize {
        (((key as u128) * (self.buckets as u128)) >> 64) as usize * BUCKET
    }

    pub(crate) fn probe(&self, key: u64) -> Option<Hit> {
        let b = self.bucket(key);
        self.slots[b..b + BUCKET]
            .iter()
            .map(Slot::load)
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
        &self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let b = self.bucket(key);
        let generation = self.generation.load(Relaxed);
        let age = |e: &Entry| ((generation + 64 - (e.gen_bound >> 2)) & 63) as i32;
        let bucket = &self.slots[b..b + BUCKET];
        let entries: [Entry; BUCKET] = std::array::from_fn(|i| bucket[i].load());
        let slot = match entries.iter().position(|e| e.key == key) {
            Some(i) => i,
            None => {
                let mut best = 0;
                let mut best_worth = i32::MAX;
                for (i, e) in entries.iter().enumerate() {
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
        let old = entries[slot];
        // Keep a deeper exact-enough result for the same position from this search.
        if old.key == key
            && old.gen_bound >> 2 == generation
            && bound != Bound::Exact
            && old.depth as i32 > depth + 2
        {
            return;
        }
        let keep_move = if old.key == key { old.mv } else { 0 };
        bucket[slot].save(&Entry {
            key,
            mv: mv.map_or(keep_move, Move::to_u16),
            score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            eval: eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth.clamp(0, 255) as u8,
            gen_bound: (generation << 2) | bound as u8,
        });
    }

    /// Permille of the first thousand entries used in the current search (UCI `hashfull`).
    pub(crate) fn hashfull(&self) -> u32 {
        let n = self.slots.len().min(1000);
        let generation = self.generation.load(Relaxed);
        let used = self.slots[..n]
            .iter()
            .map(Slot::load)
            .filter(|e| e.gen_bound & 3 != 0 && e.gen_bound >> 2 == generation)
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
        let tt = TranspositionTable::new(1);
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

    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let tt = TranspositionTable::new(1);
        tt.store(7, None, 11, 0, 3, Bound::Lower);
        tt.store(8, None, 12, 0, 4, Bound::Upper);
        // Simulate two interleaved writes: the check word of one entry with the data of another.
        let (a, b) = (tt.bucket(7), tt.bucket(8));
        assert_eq!(a, b);
        let data_of_8 = tt.slots[b + 1].data.load(Relaxed);
        tt.slots[a].data.store(data_of_8, Relaxed);
        assert!(tt.probe(7).is_none());
        assert_eq!(tt.probe(8).unwrap().score, 12);
    }

    #[test]
    fn threads_share_the_table() {
        let tt = TranspositionTable::new(1);
        std::thread::scope(|s| {
            for t in 0..2u64 {
                let tt = &tt;
                s.spawn(move || {
                    for k in 0..2000u64 {
                        let key = (k * 2 + t).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                        tt.store(key, None, (k % 100) as i32, 0, 1, Bound::Exact);
                    }
                });
            }
        });
        // Every hit is one of the values written for that key, never a mix.
        for t in 0..2u64 {
            for k in 0..2000u64 {
                let key = (k * 2 + t).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                if let Some(h) = tt.probe(key) {
                    assert_eq!(h.score, (k % 100) as i32);
                }
            }
        }
    }
}
