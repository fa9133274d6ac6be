//! The PGN benchmark's games, shared by `benches/pgn.rs` and
//! `examples/pgn_read_profile.rs` so the profiler reads exactly the bench's file.

#[path = "../../../xiangqi-core/benches/support/lcg_games.rs"]
mod lcg_games;

use xiangqi_gamefile::{Game, Node};

/// A game of up to `plies` random legal moves, fixed by `seed` (the core
/// bench's generator, so both benches measure the same plies).
pub fn random_game(seed: u64, plies: usize) -> Game {
    let mut game = Game::default();
    lcg_games::lcg_game(seed, plies, |_, mv| game.mainline.moves.push(Node::new(mv)));
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
