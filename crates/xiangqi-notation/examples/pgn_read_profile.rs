//! Reads the PGN benchmark's file (200 random games of 120 plies, written by
//! `write_game`) `N` times in one notation, for profilers such as
//! `valgrind --tool=callgrind` or `perf record`, whose counts criterion's
//! timing loop would blur.
//!
//! `cargo run --release -p xiangqi-notation --example pgn_read_profile -- wxf 10`

use xiangqi_core::Position;
use xiangqi_notation::pgn::{write_game, Game, Node, Reader, WriteOptions};
use xiangqi_notation::Notation;

/// The same games as `benches/notation.rs` (same seeds, same generator).
fn random_game(seed: u64, plies: usize) -> Game {
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

fn main() {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "iccs".to_owned());
    let notation = Notation::ALL
        .into_iter()
        .find(|n| n.name() == name)
        .unwrap_or_else(|| panic!("unknown notation {name:?}"));
    let rounds: usize = args.next().map_or(1, |n| n.parse().expect("a count"));
    let mut text = String::new();
    for i in 0..200 {
        text.push_str(&write_game(&random_game(i, 120), &WriteOptions::new(notation)).unwrap());
    }
    let bytes = text.into_bytes();
    let mut plies = 0;
    for _ in 0..rounds {
        plies += Reader::new(&bytes[..])
            .map(|g| g.unwrap().plies())
            .sum::<usize>();
    }
    println!("{} bytes, {plies} plies read", bytes.len());
}
