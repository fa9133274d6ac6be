//! The benchmarks' random games: legal moves picked by a 64-bit LCG from a
//! seed (kept so that figures stay comparable from run to run). Shared by
//! the core's `is_legal` bench and xiangqi-notation's PGN bench (included
//! there with `#[path]`), so that both measure the same plies.

use xiangqi_core::{Move, Position};

/// Plays up to `plies` random legal moves from the start position, fixed by
/// `seed`, showing `visit` each position before its move.
pub fn lcg_game(seed: u64, plies: usize, mut visit: impl FnMut(&Position, Move)) {
    let mut pos = Position::startpos();
    let mut s = seed;
    for _ in 0..plies {
        let moves = pos.legal_move_vec();
        if moves.is_empty() {
            break;
        }
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mv = moves[(s >> 33) as usize % moves.len()];
        visit(&pos, mv);
        pos.make_move(mv);
    }
}
