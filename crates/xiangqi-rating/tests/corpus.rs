//! A small PGN corpus with a known answer: strengths 9 : 3 : 1 (A, B, C),
//! results exactly as expected, so the ratings are 400·log10(3) ≈ 190.85
//! apart; a cancelled game, a game without result and a game whose recorded
//! result the rules overturn check what is counted.

use xiangqi_adjudication::{Preset, RuleSet};
use xiangqi_gamefile::pgn::read_str;
use xiangqi_rating::{fit, rated_game, FitOptions, Unrated};

const MATE_IN_ONE: &str = "5k3/9/9/9/8R/9/9/9/9/4K4 w - - 0 1";

fn game(red: &str, black: &str, result: &str, extra_tags: &str, moves: &str) -> String {
    format!("[Red \"{red}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n{extra_tags}\n{moves} {result}\n\n")
}

fn corpus() -> String {
    let mut text = String::new();
    for _ in 0..2 {
        text += &game("A", "B", "1-0", "", "1. h2e2 h9g7");
    }
    // Recorded as a Black win, but Red mates on the board: the rules decide.
    text += &game(
        "A",
        "B",
        "0-1",
        &format!("[FEN \"{MATE_IN_ONE}\"]"),
        "1. i5f5",
    );
    text += &game("B", "A", "1-0", "", "1. h2e2");
    for _ in 0..2 {
        text += &game("B", "C", "1-0", "", "1. h2e2");
    }
    // C flags after its first move: a rated loss.
    text += &game("C", "B", "0-1", "[Termination \"time forfeit\"]", "1. h2e2");
    text += &game("C", "B", "1-0", "", "");
    for _ in 0..9 {
        text += &game("A", "C", "1-0", "", "");
    }
    text += &game("A", "C", "0-1", "", "");
    // Not rated: Red flags before its first move (R-CLOCK-CANCEL), and an unfinished game.
    text += &game("C", "A", "0-1", "[Termination \"time forfeit\"]", "");
    text += &game("C", "A", "*", "", "1. h2e2");
    text
}

#[test]
fn known_answer() {
    let rules = RuleSet::preset(Preset::Online);
    let games: Vec<_> = read_str(&corpus()).map(|g| g.unwrap()).collect();
    assert_eq!(games.len(), 20);
    let mut rated = Vec::new();
    let mut unrated = Vec::new();
    for g in &games {
        match rated_game(g, &rules) {
            Ok(r) => rated.push(r),
            Err(why) => unrated.push(why),
        }
    }
    assert_eq!(
        unrated,
        [
            Unrated::Cancelled(xiangqi_core::Color::Red),
            Unrated::NoResult
        ]
    );
    assert_eq!(rated.len(), 18);
    assert_eq!(
        rated[2].red_score, 1.0,
        "the mate overrules the recorded 0-1"
    );
    let exact = FitOptions {
        prior_draws: 0.0,
        tolerance: 1e-9,
        ..FitOptions::default()
    };
    let ratings = fit(&rated, &exact).unwrap();
    let step = 400.0 * 3f64.log10();
    let elo = |p| ratings.elo(p).unwrap();
    assert!((elo("A") - step).abs() < 1e-6, "{ratings:?}");
    assert!(elo("B").abs() < 1e-6, "{ratings:?}");
    assert!((elo("C") + step).abs() < 1e-6, "{ratings:?}");
    // The default prior pulls the ratings towards the mean but keeps the order.
    let shrunk = fit(&rated, &FitOptions::default()).unwrap();
    let names: Vec<&str> = shrunk.players.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["A", "B", "C"]);
    assert!(shrunk.elo("A").unwrap() < elo("A") && shrunk.elo("A").unwrap() > 100.0);
}
