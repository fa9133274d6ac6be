//! Shared by the search's integration tests: positions reached by seeded
//! random play, so that a failure names a reproducible position.

use xiangqi_core::{Position, SplitMix64};

/// `count` positions, each after 2 to `max_plies` + 1 random legal plies
/// from the start (fewer when a side runs out of moves), fixed by `seed`;
/// only those `keep` accepts are returned.
pub fn random_positions(
    count: usize,
    seed: u64,
    max_plies: usize,
    keep: impl Fn(&Position) -> bool,
) -> Vec<Position> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let plies = 2 + rng.below(max_plies);
        let mut position = Position::startpos();
        xiangqi_core::random_game(rng.next_u64(), plies, |_, mv| {
            position.make_move(mv);
        });
        if keep(&position) {
            out.push(position);
        }
    }
    out
}
