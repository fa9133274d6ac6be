//! Zobrist keys, generated at compile time from a fixed seed so hashes are
//! stable across runs, builds and platforms (opening books and tests rely on it).

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// Key for a piece code (1..=14) on a square; index 0 (empty) is all zero.
pub(crate) static PIECE_KEYS: [[u64; 90]; 15] = {
    let mut t = [[0u64; 90]; 15];
    let mut state = 0x5851_F42D_4C95_7F2D_u64;
    let mut p = 1;
    while p < 15 {
        let mut s = 0;
        while s < 90 {
            let (ns, v) = splitmix(state);
            state = ns;
            t[p][s] = v;
            s += 1;
        }
        p += 1;
    }
    t
};

/// XORed in when Black is to move.
pub(crate) const SIDE_KEY: u64 = 0xF8D6_26AA_AF27_8509;
