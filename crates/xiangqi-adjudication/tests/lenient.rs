//! Adjudication on positions only the lenient FEN reading accepts (composed
//! diagrams: soldiers behind their start, advisors and elephants off their
//! points): random two-move cycles from random lenient positions must end at
//! the third occurrence with a repetition verdict whose report is
//! consistent, and every ply classified as a chase must name victims that
//! its chasers really can capture.

mod common;

use proptest::prelude::*;
use xiangqi_adjudication::{classify_ply, is_irreversible, Game, PlyKind, Preset, Reason, RuleSet};
use xiangqi_core::{
    random_position, Move, MoveList, PieceKind, Position, SplitMix64, Square, Validation,
};

/// A reversible move of the side to move whose reverse is legal afterwards.
fn reversible(pos: &Position, rng: &mut SplitMix64) -> Option<(Move, Position)> {
    let moves = pos.legal_move_vec();
    for _ in 0..moves.len() {
        let mv = *rng.choose(&moves)?;
        if is_irreversible(pos, mv) {
            continue;
        }
        let after = pos.after(mv).ok()?;
        return Some((mv, after));
    }
    None
}

/// A cycle `a b a' b'` from `start`, or `None` when the position has none.
fn cycle(start: &Position, rng: &mut SplitMix64) -> Option<[Move; 4]> {
    let (a, p1) = reversible(start, rng)?;
    let (b, p2) = reversible(&p1, rng)?;
    let back_a = Move::new(a.to(), a.from());
    let p3 = p2.after(back_a).ok()?;
    let back_b = Move::new(b.to(), b.from());
    let p4 = p3.after(back_b).ok()?;
    (p4.hash() == start.hash()).then_some([a, b, back_a, back_b])
}

/// Every victim of a chase can be captured by one of the ply's chasers (as
/// if the victim's side passed), and is a piece that may be chased.
fn check_chase(before: &Position, after: &Position) {
    let class = classify_ply(before, after, false);
    if class.kind != PlyKind::Chase {
        assert!(class.chased.is_empty());
        return;
    }
    let mut passed = after.clone();
    passed.make_null_move();
    let mut captures = MoveList::new();
    passed.legal_captures(&mut captures);
    for victim in class.chased.iter() {
        let piece = after.piece_at(victim).expect("a chased piece stands there");
        assert_ne!(piece.kind, PieceKind::General);
        assert!(
            captures
                .iter()
                .any(|m| m.to() == victim && class.chasers.contains(m.from())),
            "{victim} chased but not capturable in {after:?}"
        );
    }
}

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn lenient_cycles_end_at_the_third_occurrence_with_a_consistent_report(seed in any::<u64>()) {
        let mut rng = SplitMix64::new(seed);
        let start = random_position(&mut rng, Validation::Lenient);
        let Some(moves) = cycle(&start, &mut rng) else { return Ok(()); };
        let mut game = Game::new(start.clone(), RuleSet::preset(Preset::Asian));
        let mut pos = start;
        for (n, &mv) in moves.iter().chain(moves.iter()).enumerate() {
            prop_assert!(!game.is_over(), "ended at ply {n}: {}", game.verdict().detail);
            let after = pos.after(mv).unwrap();
            check_chase(&pos, &after);
            game.push(mv).unwrap();
            pos = after;
        }
        let v = game.verdict();
        prop_assert_eq!(v.ply, 8);
        prop_assert!(v.reason.is_some_and(Reason::is_repetition), "{:?}", v.reason);
        let info = v.repetition.as_ref().unwrap();
        common::check_report(&info.red).map_err(TestCaseError::fail)?;
        common::check_report(&info.black).map_err(TestCaseError::fail)?;
    }
}

#[test]
fn a_soldier_behind_its_start_keeps_its_rules_in_a_game() {
    // Rule-book diagram 71's black soldier on i7: it may chase as the rules
    // allow soldiers to (R-REP-CHASE-ATTACKER: it never counts), and moving
    // it forward is irreversible, so history restarts.
    let start =
        Position::from_fen_lenient("3a2b1r/4ak3/8p/7P1/9/9/9/B2NN3B/3K5/4p4 b - - 0 1").unwrap();
    let forward: Move = "i7i6".parse().unwrap();
    assert!(is_irreversible(&start, forward));
    let mut game = Game::new(start, RuleSet::preset(Preset::Asian));
    game.push(forward).unwrap();
    assert!(!game.is_over());
    let i6: Square = "i6".parse().unwrap();
    assert_eq!(
        game.position().piece_at(i6).map(|p| p.kind),
        Some(PieceKind::Soldier)
    );
}
