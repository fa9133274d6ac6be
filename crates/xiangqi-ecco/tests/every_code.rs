//! Every code the classification defines has a name in each language and
//! a move sequence that reaches it (`fixtures/lines.tsv`: the shortest cut
//! of a real CCPD game with the code, else a line from the definitions;
//! `examples/example_lines.rs` writes the first kind).

use xiangqi_core::Move;
use xiangqi_ecco::{classify, classify_moves, code, codes, EccoError};

fn lines() -> Vec<(String, Vec<Move>)> {
    include_str!("fixtures/lines.tsv")
        .lines()
        .map(|line| {
            let (code, moves) = line.split_once('\t').unwrap();
            let moves = moves.split(' ').map(|m| m.parse().unwrap()).collect();
            (code.to_owned(), moves)
        })
        .collect()
}

#[test]
fn the_system_defines_260_codes_each_named_in_three_ways() {
    assert_eq!(codes().len(), 260);
    for c in codes() {
        assert!(!c.name.is_empty(), "{}", c.code);
        assert!(
            c.name_en.is_ascii(),
            "{}: a phrase has no English: {}",
            c.code,
            c.name_en
        );
        assert_ne!(c.name_traditional, "", "{}", c.code);
        assert!(
            !c.name_traditional.contains(['马', '车', '对', '进', '过']),
            "{}",
            c.name_traditional
        );
    }
    assert_eq!(
        code("c23").unwrap().name,
        "中炮过河车七路马对屏风马两头蛇——红左横车兑三兵对黑高右炮"
    );
    assert!(code("A09").is_none(), "left undefined by the system");
}

#[test]
fn every_code_has_a_line_that_reaches_it() {
    let lines = lines();
    let mut missing: Vec<&str> = codes().map(|c| c.code).collect();
    for (want, moves) in &lines {
        let opening = classify_moves(moves).unwrap().unwrap();
        assert_eq!(opening.code, want, "{moves:?}");
        assert_eq!(
            opening.ply,
            moves.len(),
            "{want}: the line is cut where the code is decided"
        );
        missing.retain(|c| c != want);
    }
    assert!(missing.is_empty(), "no line for {missing:?}");
}

/// A game opened on the left is the same opening as its mirror image.
#[test]
fn mirrored_openings_get_the_same_code() {
    for (want, moves) in lines() {
        let mirrored: Vec<Move> = moves
            .iter()
            .map(|m| Move::new(m.from().flip_files(), m.to().flip_files()))
            .collect();
        assert_eq!(classify_moves(&mirrored).unwrap().unwrap().code, want);
    }
}

/// Move orders the definitions allow reach the same code: the crossing
/// chariot and the seventh-file horse against the two-headed snake (C20),
/// in the textbook order and with Black's pawns and horses swapped.
#[test]
fn transposed_move_orders_reach_the_same_code() {
    let parse = |s: &str| -> Vec<Move> { s.split(' ').map(|m| m.parse().unwrap()).collect() };
    let textbook = parse("h2e2 h9g7 h0g2 i9h9 i0h0 g6g5 h0h6 b9c7 b0c2 c6c5");
    let transposed = parse("h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 h0h6 g6g5 b0c2 c6c5");
    assert_eq!(classify_moves(&textbook).unwrap().unwrap().code, "C20");
    assert_eq!(classify_moves(&transposed).unwrap().unwrap().code, "C20");
}

#[test]
fn other_starts_and_empty_games_have_no_code_and_illegal_moves_are_errors() {
    let diagram = xiangqi_core::Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1").unwrap();
    assert_eq!(
        classify(&diagram, &["d0d1".parse().unwrap()]).unwrap(),
        None
    );
    assert_eq!(classify_moves(&[]).unwrap(), None);
    let black_first = xiangqi_core::Position::from_fen(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
    )
    .unwrap();
    assert_eq!(
        classify(&black_first, &["h9g7".parse().unwrap()]).unwrap(),
        None
    );
    let illegal = classify_moves(&["h2e2".parse().unwrap(), "h2e2".parse().unwrap()]);
    assert!(
        matches!(illegal, Err(EccoError::IllegalMove { ply: 2, .. })),
        "{illegal:?}"
    );
}
