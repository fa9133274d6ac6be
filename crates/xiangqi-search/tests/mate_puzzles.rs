//! Mate-in-N puzzles, each proved by an independent checks-only solver and
//! found by the engine at exactly depth 2N-1 with the score `Mate(N)`.
//!
//! The positions were found by a random search over sparse endgames for
//! forced mates by consecutive checks; positions where quiet moves mate
//! faster were discarded (the engine's full-width score decides).

use xiangqi_core::{MoveList, Position};
use xiangqi_search::{Engine, Limits, Score};

const PUZZLES: &[(&str, u32)] = &[
    ("3a5/5c3/1n2k4/3P5/2R6/9/9/2C2K3/9/9 w - - 0 1", 1),
    ("5N3/9/1P1k5/9/P8/9/9/5K3/9/3r5 w - - 0 1", 1),
    ("9/9/5k3/9/9/1C7/9/3R5/9/4KC3 w - - 0 1", 1),
    ("3k5/7c1/9/2N6/9/4R4/9/1C7/4K4/9 w - - 0 1", 1),
    ("7c1/3k5/7N1/8R/6R2/9/9/5K3/9/9 w - - 0 1", 2),
    ("9/5k1P1/9/9/9/9/R8/9/9/3K5 w - - 0 1", 2),
    ("9/3kN4/6N2/9/9/9/9/9/4K4/9 w - - 0 1", 2),
    ("5R3/3k5/9/9/6R2/9/9/9/5K3/9 w - - 0 1", 2),
    ("5k3/3Na4/9/9/9/9/1n7/5CR2/4K4/9 w - - 0 1", 3),
    ("3P1k3/9/9/3C5/r8/9/9/4K1n2/8R/9 w - - 0 1", 3),
    ("r1b1k4/9/R8/9/9/9/9/5K3/5R3/9 w - - 0 1", 3),
    ("3k3n1/9/9/9/2N6/8r/9/4K1R2/9/9 w - - 0 1", 3),
    ("9/9/3k5/9/9/6C2/1N7/4K4/9/7r1 w - - 0 1", 4),
    ("5k3/6n2/7R1/9/9/9/5n1R1/9/7c1/5K3 w - - 0 1", 4),
    ("9/9/4ka3/9/3P5/9/9/9/9/1n1K4R w - - 0 1", 4),
    ("3k5/9/2R6/9/7c1/c8/9/3p4R/9/5K3 w - - 0 1", 4),
];

/// The side to move mates in at most `n` moves by checking on every move.
fn checks_mate_in(pos: &mut Position, n: u32) -> bool {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    moves.iter().any(|&m| {
        if !pos.gives_check(m) {
            return false;
        }
        let undo = pos.make_move(m);
        let lost = defender_lost(pos, n);
        pos.unmake_move(m, undo);
        lost
    })
}

/// The side to move (just checked) is mated now or within `n - 1` more attacker moves.
fn defender_lost(pos: &mut Position, n: u32) -> bool {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    if moves.is_empty() {
        return pos.is_check();
    }
    n > 1
        && moves.iter().all(|&m| {
            let undo = pos.make_move(m);
            let mated = checks_mate_in(pos, n - 1);
            pos.unmake_move(m, undo);
            mated
        })
}

#[test]
fn puzzles_are_forced_mates() {
    for &(fen, n) in PUZZLES {
        let mut pos = Position::from_fen(fen).unwrap();
        assert!(
            checks_mate_in(&mut pos, n),
            "{fen}: no checking mate in {n}"
        );
    }
}

/// The classical search finds every mate at the shortest depth there is.
/// With the net (the default) one mate in 2 (`9/5k1P1/…`, whose key move
/// is a quiet pawn move the net orders late, reduced at depth 3) needs
/// depth 4; `the_net_finds_each_mate_within_two_more_plies` holds it to that.
#[test]
fn engine_finds_each_mate_at_depth_2n_minus_1() {
    let mut engine = Engine::classical(8);
    for &(fen, n) in PUZZLES {
        let pos = Position::from_fen(fen).unwrap();
        engine.new_game();
        let r = engine.search(&pos, &[], &Limits::depth(2 * n - 1), |_| {});
        assert_eq!(r.score, Score::Mate(n as i32), "{fen}");
        let best = r.best_move.unwrap();
        assert!(pos.is_legal(best), "{fen}: illegal {best}");
        // The PV ends the game: play it out. The defender is left without a
        // legal move, checkmated or stalemated, which loses just the same
        // (R-END-MATE, R-END-STALEMATE; `Score::Mate` covers both).
        assert_eq!(r.pv.len() as u32, 2 * n - 1, "{fen}: pv {:?}", r.pv);
        let mut end = pos.clone();
        for &m in &r.pv {
            end.play(m).unwrap();
        }
        assert!(
            end.is_checkmate() || end.is_stalemate(),
            "{fen}: pv {:?} does not end the game",
            r.pv
        );
    }
}

#[test]
fn the_net_finds_each_mate_within_two_more_plies() {
    let mut engine = Engine::new(8);
    for &(fen, n) in PUZZLES {
        let pos = Position::from_fen(fen).unwrap();
        engine.new_game();
        // At the shortest depth it sees a mate, if not always the shortest.
        let r = engine.search(&pos, &[], &Limits::depth(2 * n - 1), |_| {});
        assert!(
            matches!(r.score, Score::Mate(m) if m >= n as i32),
            "{fen}: {:?}",
            r.score
        );
        engine.new_game();
        let r = engine.search(&pos, &[], &Limits::depth(2 * n + 1), |_| {});
        assert_eq!(r.score, Score::Mate(n as i32), "{fen}");
        assert!(pos.is_legal(r.best_move.unwrap()), "{fen}");
    }
}

#[test]
fn mated_side_sees_its_fate() {
    // After the key move of a mate in 2 the defender is mated in 1 whatever it does.
    let pos = Position::from_fen("9/3kN4/6N2/9/9/9/9/9/4K4/9 w - - 0 1").unwrap();
    let mut engine = Engine::new(8);
    let key = engine
        .search(&pos, &[], &Limits::depth(3), |_| {})
        .best_move
        .unwrap();
    let after = pos.after(key).unwrap();
    let r = engine.search(&after, &[pos], &Limits::depth(4), |_| {});
    assert_eq!(r.score, Score::Mate(-1));
}

#[test]
fn no_legal_move_is_a_loss_without_a_move() {
    // EX-END-STALEMATE after i7i8: Black has no move and has lost.
    let pos = Position::from_fen("5k3/8R/9/9/9/9/9/9/9/4K4 b - - 0 1").unwrap();
    assert!(!pos.has_legal_move());
    let r = Engine::new(1).search(&pos, &[], &Limits::depth(3), |_| {});
    assert_eq!((r.best_move, r.score), (None, Score::Mate(0)));
}

#[test]
fn a_ladder_of_checks_with_forced_replies_is_seen_beyond_the_depth() {
    // Two chariots mate in 3 (a0a9 e9e8 b1b8 e8e7 a9a7), five plies, and
    // every black reply is forced. Checks and single replies to check are
    // extended, so a depth-2 search sees the whole ladder.
    let pos = Position::from_fen("4k4/9/9/9/9/9/9/9/1R7/R2K5 w - - 0 1").unwrap();
    let mut engine = Engine::new(8);
    let r = engine.search(&pos, &[], &Limits::depth(2), |_| {});
    assert_eq!(r.score, Score::Mate(3), "pv {:?}", r.pv);
    let mut end = pos.clone();
    for (i, &m) in r.pv.iter().enumerate() {
        if i % 2 == 1 {
            let mut replies = MoveList::new();
            end.legal_moves(&mut replies);
            assert_eq!(replies.len(), 1, "black's reply {m} is not forced");
        }
        end.play(m).unwrap();
    }
    assert!(end.is_checkmate(), "pv {:?} does not mate", r.pv);
}
