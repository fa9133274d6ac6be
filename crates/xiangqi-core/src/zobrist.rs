//! Zobrist keys, generated at compile time from a fixed seed so hashes are
//! stable across runs, builds and platforms (opening books and tests rely on it).

use crate::random::SplitMix64;

/// Key for a piece code (1..=14) on a square; index 0 (empty) is all zero.
pub(crate) static PIECE_KEYS: [[u64; 90]; 15] = {
    let mut t = [[0u64; 90]; 15];
    let mut rng = SplitMix64::new(0x5851_F42D_4C95_7F2D);
    let mut p = 1;
    while p < 15 {
        let mut s = 0;
        while s < 90 {
            let (next, v) = rng.advance();
            rng = next;
            t[p][s] = v;
            s += 1;
        }
        p += 1;
    }
    t
};

/// XORed in when Black is to move.
pub(crate) const SIDE_KEY: u64 = 0xF8D6_26AA_AF27_8509;
