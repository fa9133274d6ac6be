//! Game review against a scripted engine whose scores are known: the
//! blunder is marked `??` with the engine's line, every move gets `[%eval]`.

use std::io::Cursor;
use std::time::Duration;

use xiangqi_engine_client::annotate::accuracy::{game_accuracy, move_accuracy};
use xiangqi_engine_client::annotate::pgn::annotate_game;
use xiangqi_engine_client::annotate::{Judgement, ReviewOptions};
use xiangqi_engine_client::{Engine, EngineSpec, Limit, Protocol, Score, SearchOptions};
use xiangqi_gamefile::pgn::{write_game, PgnReader, WriteOptions};
use xiangqi_notation::Notation;

/// Scores by the last move: after `b2b9` (the cannon takes the horse but
/// loses itself and more) Black stands +8; otherwise +0.20 for the mover.
fn scripted_engine() -> Engine {
    let dir = std::env::temp_dir().join(format!("xiangqi-annotate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("scripted");
    std::fs::write(
        &path,
        "#!/bin/sh\n\
         while read -r cmd rest; do\n\
           case \"$cmd\" in\n\
             uci) echo uciok ;;\n\
             isready) echo readyok ;;\n\
             position) pos=\"$rest\" ;;\n\
             go) case \"$pos\" in\n\
                   *b2b9) echo 'info depth 5 score cp 800 pv a9a8'; echo 'bestmove a9a8' ;;\n\
                   *h9g7) echo 'info depth 5 score cp 20 pv h0g2 b9c7'; echo 'bestmove h0g2' ;;\n\
                   *h2e2) echo 'info depth 5 score cp 20 pv h9g7'; echo 'bestmove h9g7' ;;\n\
                   *) echo 'info depth 5 score cp 20 pv h2e2'; echo 'bestmove h2e2' ;;\n\
                 esac ;;\n\
             quit) exit 0 ;;\n\
           esac\n\
         done\n",
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let mut spec = EngineSpec::new(vec![path.display().to_string()], Protocol::Uci);
    spec.handshake_timeout = Duration::from_secs(5);
    Engine::start(&spec, None).unwrap()
}

#[test]
fn blunder_is_marked_with_the_best_line() {
    let mut engine = scripted_engine();
    let text = "[Event \"t\"]\n\n1. h2e2 h9g7 2. b2b9 {old} *\n";
    let mut game = PgnReader::new(Cursor::new(text)).next().unwrap().unwrap();
    let options = ReviewOptions::new(SearchOptions::new(Limit::depth(5)));
    let mut calls = Vec::new();
    let reviews = annotate_game(&mut engine, &mut game, &options, |done, total| {
        calls.push((done, total))
    })
    .unwrap();
    assert_eq!(calls.last(), Some(&(4, 4)));
    let judgements: Vec<_> = reviews.iter().map(|r| r.judgement).collect();
    assert_eq!(judgements, [None, None, Some(Judgement::Blunder)]);
    let best: Vec<String> = reviews[2]
        .best_line
        .as_ref()
        .unwrap()
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert_eq!(best, ["h0g2", "b9c7"]);
    let mut one_line = WriteOptions::new(Notation::Iccs);
    one_line.line_width = 0;
    let out = write_game(&game, &one_line).unwrap();
    // Red's view after each move: Black +0.20, Red +0.20, Black +8.00.
    assert!(out.contains("1. h2e2 {[%eval -0.20,5]}"), "{out}");
    assert!(out.contains("h9g7 {[%eval 0.20,5]}"), "{out}");
    assert!(out.contains("b2b9 $4 {[%eval -8.00,5]} {old}"), "{out}");
    assert!(
        out.contains("(2. h0g2 {[%eval 0.20,5]} 2... b9c7)"),
        "{out}"
    );
    // A second review replaces the first instead of adding to it.
    annotate_game(&mut engine, &mut game, &options, |_, _| {}).unwrap();
    let again = write_game(&game, &one_line).unwrap();
    assert_eq!(
        again.matches("[%eval").count(),
        out.matches("[%eval").count()
    );
    assert_eq!(again.matches("$4").count(), 1);
    assert_eq!(again.matches("Accuracy \"").count(), 2, "{again}");
}

/// The accuracy tags are the documented formulas over the scripted scores:
/// each move's drop in the mover's expected score (the fitted model at the
/// position's ply), `move_accuracy`, then `game_accuracy` per side.
#[test]
fn accuracy_tags_follow_the_drops() {
    let mut engine = scripted_engine();
    let text = "[Event \"t\"]\n\n1. h2e2 h9g7 2. b2b9 *\n";
    let mut game = PgnReader::new(Cursor::new(text)).next().unwrap().unwrap();
    let options = ReviewOptions::new(SearchOptions::new(Limit::depth(5)));
    let reviews = annotate_game(&mut engine, &mut game, &options, |_, _| {}).unwrap();
    let chance = |cp: i32, ply: u32| Score::Cp(cp).expected_score(ply);
    // Mover's view: +0.20 before each move; after h2e2 and h9g7 the
    // opponent stands +0.20, after b2b9 Black stands +8.
    let drops = [
        chance(20, 0) - chance(-20, 1),
        chance(20, 1) - chance(-20, 2),
        chance(20, 2) - chance(-800, 3),
    ];
    for (review, drop) in reviews.iter().zip(drops) {
        assert!((review.drop.unwrap() - drop).abs() < 1e-12, "{review:?}");
        assert!((review.accuracy().unwrap() - move_accuracy(drop)).abs() < 1e-9);
    }
    let red = game_accuracy([move_accuracy(drops[0]), move_accuracy(drops[2])]).unwrap();
    let black = game_accuracy([move_accuracy(drops[1])]).unwrap();
    let tag = |name: &str| -> f64 { game.tag(name).unwrap().parse().unwrap() };
    // One decimal.
    assert!((tag("RedAccuracy") - red).abs() <= 0.05 + 1e-9, "{red}");
    assert!(
        (tag("BlackAccuracy") - black).abs() <= 0.05 + 1e-9,
        "{black}"
    );
    // The blunder costs Red most of the game's accuracy; Black's one quiet
    // move keeps most of it.
    assert!(red < 60.0 && black > 80.0, "red {red}, black {black}");
}
