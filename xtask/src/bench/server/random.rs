//! The bots' seeded generator: the same SplitMix64 sequence as
//! `xiangqi_core::SplitMix64`, kept here because xtask may depend on no
//! workspace crate (the dependency rule in ARCHITECTURE.md); a test pins
//! the sequence to the core's documented first output.

/// SplitMix64 (Steele, Lea and Flood): reproducible, not for cryptography.
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` without the bias of `%` (multiply-shift), as the core's `below`.
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::SplitMix64;

    #[test]
    fn sequence_is_splitmix64() {
        // The published first output of SplitMix64 seeded with 0.
        assert_eq!(SplitMix64::new(0).next_u64(), 0xE220_A839_7B1D_CDAF);
        let mut rng = SplitMix64::new(7);
        assert!((0..1000).all(|_| rng.below(3) < 3));
        assert_eq!(SplitMix64::new(9).below(0), 0);
    }
}
