//! Reads the PGN benchmark's file (200 random games of 120 plies, written by
//! `write_game`) `N` times in one notation, for profilers such as
//! `valgrind --tool=callgrind` or `perf record`, whose counts criterion's
//! timing loop would blur.
//!
//! `cargo run --release -p xiangqi-gamefile --example pgn_read_profile -- wxf 10 [FILE]`
//! (with `FILE`, the text read is also written there, to look at or feed to other tools).

#[path = "../benches/support/games.rs"]
mod games;

use xiangqi_gamefile::pgn::{write_game, PgnReader, WriteOptions};
use xiangqi_notation::Notation;

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
        text.push_str(
            &write_game(&games::random_game(i, 120), &WriteOptions::new(notation)).unwrap(),
        );
    }
    if let Some(path) = args.next() {
        std::fs::write(&path, &text).expect("the dump file is writable");
    }
    let bytes = text.into_bytes();
    let mut plies = 0;
    for _ in 0..rounds {
        plies += PgnReader::new(&bytes[..])
            .map(|g| g.unwrap().plies())
            .sum::<usize>();
    }
    println!(
        "{} bytes ({} of move text), {plies} plies read",
        bytes.len(),
        games::move_text_bytes(&bytes)
    );
}
