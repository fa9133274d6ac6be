//! The PGN benchmark's games, shared by `benches/notation.rs` and
//! `examples/pgn_read_profile.rs` so the profiler reads exactly the bench's file.

use xiangqi_core::Position;
use xiangqi_notation::pgn::{Game, Node};

/// A game of up to `plies` random legal moves, fixed by `seed` (a 64-bit
/// LCG, kept so figures stay comparable with earlier runs).
pub fn random_game(seed: u64, plies: usize) -> Game {
    let mut game = Game::default();
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
        game.mainline.moves.push(Node::new(mv));
        pos.make_move(mv);
    }
    game.set_tag("Event", "bench");
    game
}

/// The bytes of `pgn` that are move text: every line but tag lines, line
/// ends included (what the bench's MB/s counts).
#[allow(dead_code)] // not every file that includes this module counts bytes
pub fn move_text_bytes(pgn: &[u8]) -> u64 {
    pgn.split_inclusive(|&b| b == b'\n')
        .filter(|line| !line.starts_with(b"["))
        .map(|line| line.len() as u64)
        .sum()
}
