//! WXF game files (rules reference 10.2, `FORMAT WXF … START{ }END`):
//! random games, written in every WXF style and read back, are the same
//! games; files concatenated or damaged at random give errors, not panics.

mod common;

use common::Rng;
use xiangqi_core::Color;
use xiangqi_gamefile::wxf::{write_wxf, WxfReader, WxfWriteOptions};
use xiangqi_gamefile::{wxf, Game, GameResult, Node};
use xiangqi_notation::{Notation, SidewaysSign, WxfConvention, WxfStyle};

const RESULTS: [GameResult; 4] = [
    GameResult::RedWins,
    GameResult::BlackWins,
    GameResult::Draw,
    GameResult::Unknown,
];

/// Every combination of the WXF style options, three or one move(s) a line.
fn all_options() -> Vec<WxfWriteOptions> {
    let mut all = Vec::new();
    for convention in [WxfConvention::Official, WxfConvention::Fsf] {
        for sideways in [SidewaysSign::Dot, SidewaysSign::Equals] {
            for black_lowercase in [true, false] {
                for moves_per_line in [3, 1, 0] {
                    all.push(WxfWriteOptions {
                        style: WxfStyle {
                            convention,
                            sideways,
                            black_lowercase,
                        },
                        moves_per_line,
                        drop_variations: false,
                    });
                }
            }
        }
    }
    all
}

/// `plies` seeded random legal moves from the start position.
fn played(seed: u64, plies: usize) -> Game {
    let mut moves = Vec::new();
    xiangqi_core::random_game(seed, plies, |_, mv| moves.push(mv));
    Game::from_moves(moves)
}

/// A random game: random legal moves from a random start (Red or Black to
/// move), with tags, comments, `!`/`?` annotations and a result.
fn random_game(rng: &mut Rng, index: u64) -> Game {
    let mut game = played(rng.next_u64(), rng.below(120));
    if rng.chance(40) {
        // Start from a position further into some other game, often Black to move.
        let lead_in = played(rng.next_u64(), 1 + rng.below(30));
        let start = lead_in.final_position().expect("legal moves");
        let mut pos = start.clone();
        game.mainline.moves.clear();
        for _ in 0..rng.below(60) {
            let Some(&mv) = rng.choose(&pos.legal_move_vec()) else {
                break;
            };
            game.mainline.moves.push(Node::new(mv));
            pos.make_move(mv);
        }
        game.set_tag("FEN", &start.to_fen());
    }
    game.set_tag("Red", &format!("Red player {index}"));
    game.set_tag("Black", "Black player");
    if rng.chance(50) {
        game.set_tag("RedElo", &(1500 + rng.below(1000)).to_string());
    }
    game.set_tag("Date", "2026-12-01");
    if rng.chance(30) {
        game.set_tag("Opening", "a; b");
    }
    for node in &mut game.mainline.moves {
        if rng.chance(10) {
            node.comments_mut()
                .push(format!("comment {}", rng.below(100)));
        }
        if rng.chance(5) {
            node.comments_mut().push("two\nlines".to_owned());
        }
        if rng.chance(10) {
            node.nags_mut().push(1 + rng.below(6) as u8);
        }
    }
    if rng.chance(10) {
        game.mainline
            .comments
            .push("before the first move".to_owned());
    }
    game.notation = Notation::Wxf; // what the reader says of a WXF file
    if rng.chance(80) {
        let result = RESULTS[rng.below(4)];
        game.result = Some(result);
        game.set_tag("Result", result.as_str());
    }
    game
}

#[test]
fn random_games_survive_a_round_trip_in_every_style() {
    let mut rng = Rng::new(20_261_201);
    let options = all_options();
    let mut black_starts = 0;
    for index in 0..240 {
        let game = random_game(&mut rng, index);
        if game.start_position().unwrap().side_to_move() == Color::Black {
            black_starts += 1;
        }
        let opts = &options[index as usize % options.len()];
        let text = write_wxf(&game, opts).unwrap_or_else(|e| panic!("game {index}: {e}"));
        let mut read = wxf::read_str(&text);
        let back = read
            .next()
            .expect("one game")
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert!(read.next().is_none(), "{text}");
        // The writer normalises the FEN; the reader stores it normalised.
        assert_eq!(back.tags, game.tags, "{text}");
        assert_eq!(back.mainline, game.mainline, "game {index}:\n{text}");
        assert_eq!(back.result, game.result, "{text}");
        assert_eq!(back.start_position(), game.start_position());
    }
    assert!(
        black_starts > 10,
        "{black_starts} games start with Black to move"
    );
}

/// Many games in one file are read in order; a damaged game is reported
/// with its line and the games after it are still read.
#[test]
fn concatenated_files_and_a_damaged_game() {
    let mut rng = Rng::new(7);
    let games: Vec<Game> = (0..20).map(|i| random_game(&mut rng, i)).collect();
    let options = WxfWriteOptions::default();
    let texts: Vec<String> = games
        .iter()
        .map(|g| write_wxf(g, &options).unwrap())
        .collect();
    let all = texts.concat();
    let back: Vec<Game> = wxf::read_str(&all).map(Result::unwrap).collect();
    assert_eq!(back.len(), games.len());
    for (i, (back, game)) in back.iter().zip(&games).enumerate() {
        assert!(back == game, "game {i} differs:\n{}", texts[i]);
    }

    // Damage a game that starts with a Red move: it becomes a move that no
    // piece can make, which cuts the game before its first move.
    let k = (1..games.len())
        .find(|&i| games[i].tag("FEN").is_none() && games[i].plies() > 0)
        .expect("a game from the start position");
    let mut damaged = texts.clone();
    let first_move = damaged[k].find(" 1. ").expect("moves") + 4;
    damaged[k].replace_range(first_move..first_move + 4, "K5+3");
    let line = damaged[..k]
        .iter()
        .map(|t| t.lines().count())
        .sum::<usize>()
        + damaged[k][..first_move].lines().count();
    let items: Vec<_> = wxf::read_str(&damaged.concat()).collect();
    assert_eq!(items.len(), 20);
    let cut = items[k].as_ref().unwrap();
    assert_eq!(cut.plies(), 0);
    let [err] = &cut.errors[..] else {
        panic!("{:?}", cut.errors)
    };
    assert_eq!(
        (err.game, err.line_column()),
        (k + 1, Some((line, 5))),
        "{err}"
    );
    for (i, item) in items.iter().enumerate().filter(|&(i, _)| i != k) {
        assert!(item.as_ref().unwrap() == &games[i], "game {i} differs");
    }
}

/// Random cuts and byte changes in a file of several games: errors, not
/// panics, and the reader ends.
#[test]
fn damaged_files_give_errors_not_panics() {
    let mut rng = Rng::new(99);
    let games: Vec<Game> = (0..6).map(|i| random_game(&mut rng, i)).collect();
    let file: Vec<u8> = games
        .iter()
        .map(|g| write_wxf(g, &WxfWriteOptions::default()).unwrap())
        .collect::<String>()
        .into_bytes();
    const NOISE: &[u8] = b"{}\n .+-=123456789rRcChHkKpP!?FORMATSTART{}END\xff\xc3";
    for _ in 0..300 {
        let mut bytes = file.clone();
        for _ in 0..1 + rng.below(8) {
            let at = rng.below(bytes.len());
            match rng.below(3) {
                0 => bytes[at] = NOISE[rng.below(NOISE.len())],
                1 => {
                    bytes.remove(at);
                }
                _ => bytes.insert(at, NOISE[rng.below(NOISE.len())]),
            }
        }
        let cut = rng.below(bytes.len() + 1);
        let count = WxfReader::new(&bytes[..cut]).take(10_000).count();
        assert!(count < 10_000);
        for game in WxfReader::new(&bytes[..]).flatten() {
            // A game replays, or (a damaged FEN header that is still a
            // board) is a diagram no game can reach: shown, no move, and
            // an error saying so (docs/gamefile.md).
            let diagram = game
                .errors
                .iter()
                .any(|e| matches!(e.kind, xiangqi_gamefile::ErrorKind::InvalidDiagram { .. }));
            assert!(
                game.final_position().is_ok()
                    || (diagram && game.plies() == 0 && game.start_diagram().is_ok()),
                "{:?}",
                game.errors
            );
        }
    }
}
