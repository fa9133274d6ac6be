//! Writes move lines with our code, one a line:
//! `source<TAB>[ECCO] tag or -<TAB>our code<TAB>the first 20 moves in ICCS`,
//! for `scripts/compare_with_vschess.sh`, which has the reference
//! implementation classify the same lines (docs/ecco.md).
//!
//! * `opening_lines DIR...`: every distinct game from the initial position
//!   under the folders (a game filed in several folders counts once; the
//!   source is its first file).
//! * `opening_lines --random N`: N seeded random openings of 20 plies, each
//!   a random cut of a line of `tests/fixtures/lines.tsv` (one reaching each
//!   of the 260 codes) continued by random moves, mostly ones the
//!   definitions name, so that the branches below every code are walked, not
//!   only the ones real games reach (the source is `random`).

use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;

use xiangqi_core::{Move, MoveList, Position, SplitMix64};
use xiangqi_gamefile::collection::collect;
use xiangqi_gamefile::Games;
use xiangqi_notation::{format, Notation, SidewaysSign, Style};

fn print_line(source: &str, tag: &str, moves: &[Move]) {
    let Ok(Some(opening)) = xiangqi_ecco::classify_moves(moves) else {
        return;
    };
    let iccs: Vec<String> = moves.iter().take(20).map(Move::to_string).collect();
    let mut out = std::io::stdout().lock();
    if writeln!(out, "{source}\t{tag}\t{}\t{}", opening.code, iccs.join(" ")).is_err() {
        // The reader has gone (a closed pipe): nothing more to write.
        std::process::exit(1);
    }
}

fn games(dirs: &[PathBuf]) -> Result<(), String> {
    let mut seen: HashSet<Vec<Move>> = HashSet::new();
    let (mut distinct, mut from_start) = (0usize, 0usize);
    for file in collect(dirs).map_err(|e| e.to_string())? {
        let file = file.map_err(|e| e.to_string())?;
        let games = Games::open(&file.path, None).map_err(|e| e.to_string())?;
        for game in games.flatten() {
            let moves: Vec<Move> = game.moves().collect();
            if moves.is_empty() || !seen.insert(moves.clone()) {
                continue;
            }
            distinct += 1;
            // Only games from the initial position have a code.
            if !matches!(xiangqi_ecco::classify_game(&game), Ok(Some(_))) {
                continue;
            }
            from_start += 1;
            let tag = game.tag("ECCO").filter(|t| !t.is_empty()).unwrap_or("-");
            print_line(&file.path.display().to_string(), tag, &moves);
        }
    }
    eprintln!("{distinct} distinct games with moves, {from_start} from the initial position");
    Ok(())
}

fn random(count: usize) {
    // The moves the definitions name, as the rules write them (WXF, `.`
    // sideways, our letters H and E).
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
    let fixture: Vec<Vec<Move>> = include_str!("../tests/fixtures/lines.tsv")
        .lines()
        .filter_map(|line| line.split_once('\t'))
        .map(|(_, moves)| moves.split(' ').filter_map(|m| m.parse().ok()).collect())
        .collect();
    let mut rng = SplitMix64::new(2026);
    for _ in 0..count {
        let line = &fixture[(rng.next_u64() % fixture.len() as u64) as usize];
        let keep = (rng.next_u64() % (line.len() as u64 + 1)) as usize;
        let mut position = Position::startpos();
        let mut moves = Vec::new();
        for &mv in &line[..keep] {
            if position.play(mv).is_err() {
                break;
            }
            moves.push(mv);
        }
        while moves.len() < 20 {
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
            if position.play(mv).is_err() {
                break;
            }
            moves.push(mv);
        }
        print_line("random", "-", &moves);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.as_slice() {
        [flag, n] if flag == "--random" => match n.parse() {
            Ok(n) => {
                random(n);
                Ok(())
            }
            Err(_) => Err(format!("--random wants a count, not {n:?}")),
        },
        [] => Err("usage: opening_lines DIR... | opening_lines --random N".to_owned()),
        dirs => games(&dirs.iter().map(PathBuf::from).collect::<Vec<_>>()),
    };
    if let Err(e) = result {
        eprintln!("{e}");
        std::process::exit(2);
    }
}
