//! The single-move tests `is_legal` and `is_pseudo_legal` (the PGN reader's
//! per-ply check, built on the geometry of the one move and one attack test)
//! against the move generator's lists, over every from/to pair of every
//! position reached (R-MOVE-*, R-LEGAL-SELFCHECK, R-LEGAL-FACING).
//!
//! The playouts are biased towards the positions where a single-move test can
//! go wrong: they prefer checking moves (so many positions are in check, and
//! evasions, captures of the checker and blocks are tried), captures (the
//! captured piece must stop attacking), general moves (the general's new
//! point is what is attacked) and moves onto the generals' files (cannon
//! screens, facing generals, pins). Every position is also tested with the
//! other side to move where that is a legal position, which puts the mover's
//! general under fire from the side that just moved.
//!
//! `PROPTEST_CASES=N` runs more playouts than the default.

use proptest::prelude::*;
use xiangqi_core::{Move, MoveList, PieceKind, Position, SplitMix64, Square};

/// Hand-made positions around the cases a one-move test must get right.
const FENS: &[&str] = &[
    xiangqi_core::START_FEN,
    // EX-LEGAL-FACING-1: the advisor between the generals is pinned.
    "4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1",
    // A cannon checks through a horse screen: the horse may not leave, other
    // pieces may add a second screen, the general may step aside.
    "3k5/9/9/9/4c4/9/4R4/9/4N4/3AK4 w - - 0 1",
    // A horse checks; its leg can be blocked.
    "4k4/9/9/9/9/9/9/2n6/R8/3K5 w - - 0 1",
    // A chariot pins an elephant along the rank; a cannon behind a screen on the file.
    "2b1k4/4a4/9/9/9/4c4/9/4B4/9/r2K1A2R w - - 0 1",
    // Double check by chariot and cannon; only the general can move.
    "3k5/9/9/9/9/9/9/3r5/9/3K1c3 w - - 0 1",
    // Soldiers next to the general, one guarding the other.
    "3k5/9/9/9/9/9/9/9/3pp4/4K4 w - - 0 1",
    // The generals would face each other if the chariot on the file left.
    "5k3/9/5a3/9/9/5R3/9/9/9/5K3 w - - 0 1",
    // A middle game with pieces on every line through both palaces.
    "r1bakab1r/6c2/7C1/2p1p1p1p/pn7/2B1c4/P1P3PCP/9/3K2R2/RN1A1ABN1 b - - 7 11",
    "1nba1abn1/4k4/2r2c3/p4P3/8p/3pp3P/P1P1P4/5cNr1/2C2K2R/RNBA1AB2 w - - 9 22",
];

/// Every from/to pair of `pos`: `is_legal` and `is_pseudo_legal` agree with
/// the generated lists, and `play` accepts exactly the legal moves.
fn check_all_pairs(pos: &Position) {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let legal: Vec<Move> = list.iter().copied().collect();
    pos.pseudo_legal_moves(&mut list);
    let pseudo: Vec<Move> = list.iter().copied().collect();
    for from in Square::all() {
        for to in Square::all() {
            let mv = Move::new(from, to);
            assert_eq!(
                pos.is_legal(mv),
                legal.contains(&mv),
                "is_legal({mv}) in {}",
                pos.to_fen()
            );
            assert_eq!(
                pos.is_pseudo_legal(mv),
                pseudo.contains(&mv),
                "is_pseudo_legal({mv}) in {}",
                pos.to_fen()
            );
        }
    }
}

/// The same placement with the other side to move, when that is a legal position.
fn flipped(pos: &Position) -> Option<Position> {
    let fen = pos.to_fen();
    let mut fields: Vec<&str> = fen.split(' ').collect();
    fields[1] = if fields[1] == "w" { "b" } else { "w" };
    Position::from_fen(&fields.join(" ")).ok()
}

/// How interesting a move is for the test: checks first, then captures,
/// general moves and moves onto a general's file.
fn weight(pos: &Position, mv: Move) -> usize {
    let mut w = 1;
    if pos.gives_check(mv) {
        w += 30;
    }
    if pos.piece_at(mv.to()).is_some() {
        w += 4;
    }
    if pos.piece_at(mv.from()).map(|p| p.kind) == Some(PieceKind::General) {
        w += 3;
    }
    let on_general_file = |sq: Square| {
        [
            pos.general(xiangqi_core::Color::Red),
            pos.general(xiangqi_core::Color::Black),
        ]
        .iter()
        .any(|g| g.file() == sq.file())
    };
    if on_general_file(mv.to()) {
        w += 2;
    }
    w
}

/// A weighted random playout of up to `plies` moves from `fen`; returns the
/// positions reached (the first included) and how many of them were in check.
fn biased_playout(fen: &str, seed: u64, plies: usize) -> (Vec<Position>, usize) {
    let mut rng = SplitMix64::new(seed);
    let mut pos = Position::from_fen(fen).expect("valid test FEN");
    let mut seen = vec![pos.clone()];
    let mut checks = usize::from(pos.is_check());
    let mut list = MoveList::new();
    for _ in 0..plies {
        pos.legal_moves(&mut list);
        if list.is_empty() {
            break;
        }
        let weights: Vec<usize> = list.iter().map(|&m| weight(&pos, m)).collect();
        let mut pick = rng.below(weights.iter().sum());
        let mut chosen = list[0];
        for (&m, &w) in list.iter().zip(&weights) {
            if pick < w {
                chosen = m;
                break;
            }
            pick -= w;
        }
        pos.make_move(chosen);
        checks += usize::from(pos.is_check());
        seen.push(pos.clone());
    }
    (seen, checks)
}

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) { 12 } else { 64 });
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    /// Random biased playouts from every hand-made position.
    #[test]
    fn is_legal_agrees_with_legal_moves_in_biased_playouts(
        fen in 0..FENS.len(),
        seed in any::<u64>(),
        plies in 1usize..40,
    ) {
        let (positions, _) = biased_playout(FENS[fen], seed, plies);
        for pos in &positions {
            check_all_pairs(pos);
            if let Some(other) = flipped(pos) {
                check_all_pairs(&other);
            }
        }
    }
}

/// A fixed set of playouts, so the coverage claims below are checked, not hoped for:
/// enough positions in check, and every hand-made position agrees.
#[test]
fn fixed_playouts_cover_checks_and_agree() {
    let mut positions = 0;
    let mut checks = 0;
    for (i, fen) in FENS.iter().enumerate() {
        for seed in 0..3 {
            let (seen, in_check) = biased_playout(fen, (i * 10 + seed) as u64, 30);
            for pos in &seen {
                check_all_pairs(pos);
            }
            positions += seen.len();
            checks += in_check;
        }
    }
    assert!(positions > 200, "only {positions} positions");
    // The bias towards checking moves puts a good share of positions in check.
    assert!(
        checks * 8 > positions,
        "{checks} checks in {positions} positions"
    );
}

/// Hand-picked moves whose legality a one-move test decides on an edge.
#[test]
fn edge_cases_of_single_move_legality() {
    let cases: &[(&str, &str, bool)] = &[
        // The pinned advisor between facing generals may not step off the file.
        ("4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1", "e1d2", false),
        // Stepping onto the open file would face the other general.
        ("5k3/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "e0f0", false),
        ("5k3/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "e0d0", true),
        // The front screen may capture the cannon itself.
        ("3k5/9/9/9/4c4/9/4R4/9/4N4/3AK4 w - - 0 1", "e3e5", true),
        // Two screens (horse, chariot) between general and cannon: either one
        // leaving makes the other the cannon's only screen.
        ("3k5/9/9/9/4c4/9/4R4/9/4N4/3AK4 w - - 0 1", "e1g2", false),
        ("3k5/9/9/9/4c4/9/4R4/9/4N4/3AK4 w - - 0 1", "e3a3", false),
        // The checking horse's leg blocked by the moving piece, or not.
        ("4k4/9/9/9/9/9/9/2n6/R8/3K5 w - - 0 1", "a1c1", true),
        ("4k4/9/9/9/9/9/9/2n6/R8/3K5 w - - 0 1", "a1a2", false),
        // Out of the horse's reach, but onto the open file of the other general.
        ("4k4/9/9/9/9/9/9/2n6/R8/3K5 w - - 0 1", "d0e0", false),
        ("4k4/9/9/9/9/9/9/2n6/R8/3K5 w - - 0 1", "d0d1", true),
        // Checked by a soldier: capturing it walks into the other one's sideways
        // step, stepping in front of the other one too; the far side is safe.
        ("3k5/9/9/9/9/9/9/9/3pp4/4K4 w - - 0 1", "e0e1", false),
        ("3k5/9/9/9/9/9/9/9/3pp4/4K4 w - - 0 1", "e0d0", false),
        ("3k5/9/9/9/9/9/9/9/3pp4/4K4 w - - 0 1", "e0f0", true),
    ];
    for &(fen, text, legal) in cases {
        let pos = Position::from_fen(fen).expect("valid FEN");
        let mv: Move = text.parse().expect("ICCS move");
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        assert_eq!(list.contains(mv), legal, "generator: {text} in {fen}");
        assert_eq!(pos.is_legal(mv), legal, "is_legal: {text} in {fen}");
    }
}
