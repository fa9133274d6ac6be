//! The worked examples of the rules reference, sections 2-4 (movement, legal
//! moves, mate and stalemate), one named test each (EX-…).

use xiangqi_core::{BoardStatus, Color, Move, MoveList, PieceKind, PlayError, Position, Square};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Sorted ICCS destinations of the legal moves of the piece on `from`.
fn moves_from(p: &Position, from: &str) -> Vec<String> {
    let sq: Square = from.parse().unwrap();
    let mut list = MoveList::new();
    p.legal_moves_from(sq, &mut list);
    let mut out: Vec<String> = list.iter().map(|m| m.to().to_string()).collect();
    out.sort();
    out
}

fn all_moves(p: &Position) -> Vec<String> {
    let mut out: Vec<String> = p.legal_move_vec().iter().map(Move::to_string).collect();
    out.sort();
    out
}

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

#[test]
fn ex_move_elephant() {
    let p = pos("4k4/9/9/9/9/9/5N3/4B4/9/3K5 w - - 0 1");
    assert_eq!(moves_from(&p, "e2"), ["c0", "c4", "g0"]);
    // The horse on f3 blocks the eye of e2-g4.
    assert!(matches!(
        p.check_legal(mv("e2g4")),
        Err(PlayError::BadMovement {
            kind: PieceKind::Elephant,
            ..
        })
    ));
}

#[test]
fn ex_move_elephant_never_crosses_the_river() {
    let p = pos("4k4/9/9/9/9/2B6/9/9/9/3K5 w - - 0 1");
    // From c4 only back to its own half; a6/e6 would cross the river.
    assert_eq!(moves_from(&p, "c4"), ["a2", "e2"]);
}

#[test]
fn ex_move_horse() {
    let p = pos("4k4/9/9/9/9/4p4/4N4/9/9/3K5 w - - 0 1");
    assert_eq!(moves_from(&p, "e3"), ["c2", "c4", "d1", "f1", "g2", "g4"]);
    // d5 and f5 need the leg e4, where the black soldier stands.
    for blocked in ["e3d5", "e3f5"] {
        assert!(!p.is_legal(mv(blocked)), "{blocked}");
    }
}

#[test]
fn ex_move_cannon() {
    let p = pos("4k4/9/9/9/9/1r7/9/1p7/9/1C1K5 w - - 0 1");
    assert_eq!(moves_from(&p, "b0"), ["a0", "b1", "b4", "c0"]);
    // b4 is a capture over the screen b2; b3 is behind the screen and empty.
    assert_eq!(
        p.piece_at(Square::B4).map(|pc| (pc.color, pc.kind)),
        Some((Color::Black, PieceKind::Chariot))
    );
    assert!(!p.is_legal(mv("b0b3")));
}

#[test]
fn ex_move_cannon_start_position_h2() {
    let p = Position::startpos();
    assert_eq!(
        moves_from(&p, "h2"),
        ["c2", "d2", "e2", "f2", "g2", "h1", "h3", "h4", "h5", "h6", "h9", "i2"]
    );
}

#[test]
fn ex_move_soldier_before_the_river() {
    assert_eq!(moves_from(&Position::startpos(), "e3"), ["e4"]);
}

#[test]
fn ex_move_soldier_after_the_river() {
    let p = pos("3k5/9/9/9/4P4/9/9/9/9/5K3 w - - 0 1");
    assert_eq!(moves_from(&p, "e5"), ["d5", "e6", "f5"]);
}

#[test]
fn ex_move_soldier_on_the_last_rank() {
    let p = pos("1P1k5/9/9/9/9/9/9/9/9/5K3 w - - 0 1");
    assert_eq!(moves_from(&p, "b9"), ["a9", "c9"]);
}

#[test]
fn ex_legal_facing_1() {
    let p = pos("4k4/9/9/9/9/9/9/9/4A4/4K4 w - - 0 1");
    assert_eq!(all_moves(&p), ["e0d0", "e0f0"]);
    // The pinned advisor's moves are refused as leaving the general exposed.
    assert!(matches!(
        p.check_legal(mv("e1d2")),
        Err(PlayError::LeavesGeneralInCheck { .. })
    ));
}

#[test]
fn ex_legal_facing_2() {
    let p = pos("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
    assert_eq!(moves_from(&p, "d0"), ["d1"]);
    assert!(p.is_legal(mv("d0d1")));
    assert!(matches!(
        p.check_legal(mv("d0e0")),
        Err(PlayError::LeavesGeneralInCheck { .. })
    ));
}

#[test]
fn ex_end_stalemate() {
    let mut p = pos("5k3/9/8R/9/9/9/9/9/9/4K4 w - - 0 1");
    p.play(mv("i7i8")).unwrap();
    assert!(!p.is_check());
    assert_eq!(p.count_legal_moves(), 0);
    assert_eq!(p.status(), BoardStatus::Stalemate);
    assert!(p.is_stalemate());
    assert!(!p.is_checkmate());
    assert_eq!(p.side_to_move(), Color::Black);
}

#[test]
fn ex_end_fg_mate_with_the_facing_rule() {
    let mut p = pos("5k3/9/9/9/8R/9/9/9/9/4K4 w - - 0 1");
    assert!(p.gives_check(mv("i5f5")));
    p.play(mv("i5f5")).unwrap();
    assert!(p.is_check());
    assert_eq!(p.checkers().iter().collect::<Vec<_>>(), [Square::F5]);
    assert_eq!(p.status(), BoardStatus::Checkmate);
    assert!(p.is_checkmate());
}

#[test]
fn ex_end_fg_only_check_with_the_general_on_d0() {
    let mut p = pos("5k3/9/9/9/8R/9/9/9/9/3K5 w - - 0 1");
    p.play(mv("i5f5")).unwrap();
    assert!(p.is_check());
    assert_eq!(p.status(), BoardStatus::Ongoing);
    assert_eq!(all_moves(&p), ["f9e9"]);
}
