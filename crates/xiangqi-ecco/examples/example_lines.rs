//! Writes a move sequence reaching each ECCO code, for the test fixture
//! `tests/fixtures/lines.tsv` (`code<TAB>ICCS moves`): the shortest cut of
//! a real game of the CCPD sample that has the code (`ccpd/對局`, CC BY
//! 4.0), then seeded random openings drawn from the definitions' moves for
//! the codes no game reaches. Codes still missing are named on stderr.
//!
//! `cargo run --release -p xiangqi-ecco --example example_lines -- DIR > tests/fixtures/lines.tsv`

use std::collections::BTreeMap;

use xiangqi_core::{Move, MoveList, Position, SplitMix64};
use xiangqi_gamefile::collection::collect;
use xiangqi_gamefile::Games;
use xiangqi_notation::{format, Notation, SidewaysSign, Style};

fn iccs(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn main() {
    let dir = std::env::args().nth(1).expect("the ccpd/對局 folder");
    let mut found: BTreeMap<&'static str, Vec<Move>> = BTreeMap::new();
    let mut keep = |moves: &[Move]| {
        if let Ok(Some(opening)) = xiangqi_ecco::classify_moves(moves) {
            let cut = moves[..opening.ply].to_vec();
            let entry = found.entry(opening.code).or_insert_with(|| cut.clone());
            if cut.len() < entry.len() {
                *entry = cut;
            }
        }
    };
    for file in collect(&[std::path::PathBuf::from(dir)]).unwrap() {
        for game in Games::open(file.unwrap().path, None).unwrap().flatten() {
            if game
                .tag("FEN")
                .map_or(true, |f| f.starts_with("rnbakabnr/9/1c5c1"))
            {
                let moves: Vec<Move> = game.moves().take(20).collect();
                keep(&moves);
            }
        }
    }
    // The definitions' moves, as the rules write them (WXF, `.` sideways).
    let source = include_str!("../src/rules.rs");
    let mut words: Vec<&str> = Vec::new();
    for piece in source.split('"') {
        if piece.len() % 4 == 0 && !piece.is_empty() && piece.as_bytes()[1].is_ascii_digit() {
            for k in (0..piece.len()).step_by(4) {
                words.push(&piece[k..k + 4]);
            }
        }
    }
    let mut style = Style::default();
    style.wxf.sideways = SidewaysSign::Dot;
    let mut rng = SplitMix64::new(2004);
    for _ in 0..400_000 {
        let mut position = Position::startpos();
        let mut moves = Vec::new();
        for _ in 0..20 {
            let mut legal = MoveList::new();
            position.legal_moves(&mut legal);
            if legal.is_empty() {
                break;
            }
            let named: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|&m| {
                    format(&position, m, Notation::Wxf, &style)
                        .is_ok_and(|t| words.contains(&t.as_str()))
                })
                .collect();
            let pool: Vec<Move> = if !named.is_empty() && rng.next_u64() % 10 != 0 {
                named
            } else {
                legal.iter().copied().collect()
            };
            let mv = pool[(rng.next_u64() % pool.len() as u64) as usize];
            position.play(mv).unwrap();
            moves.push(mv);
        }
        keep(&moves);
    }
    for code in xiangqi_ecco::codes() {
        match found.get(code.code) {
            Some(moves) => println!("{}\t{}", code.code, iccs(moves)),
            None => eprintln!("missing {}", code.code),
        }
    }
}
