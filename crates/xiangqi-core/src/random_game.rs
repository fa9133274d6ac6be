//! Seeded random games from the start position: the plies that benchmarks,
//! round-trip tests and fuzz harnesses play, the same for a seed on every
//! run and platform (drawn with [`SplitMix64`]).

use crate::{Move, Position, SplitMix64};

/// Plays up to `plies` uniformly chosen legal moves from the start position,
/// fixed by `seed`, showing `visit` each position before its move. Stops
/// early when the side to move has no legal move.
///
/// ```
/// use xiangqi_core::random_game;
/// let mut moves = Vec::new();
/// random_game(3, 10, |_, mv| moves.push(mv));
/// let mut again = Vec::new();
/// random_game(3, 10, |_, mv| again.push(mv));
/// assert_eq!((moves.len(), moves), (10, again));
/// ```
pub fn random_game(seed: u64, plies: usize, mut visit: impl FnMut(&Position, Move)) {
    let mut rng = SplitMix64::new(seed);
    let mut position = Position::startpos();
    for _ in 0..plies {
        let moves = position.legal_move_vec();
        let Some(&mv) = rng.choose(&moves) else {
            break;
        };
        visit(&position, mv);
        position.make_move(mv);
    }
}
