//! MultiPV (several best lines) and Lazy SMP (several threads): legal,
//! distinct, ordered lines; one line is today's single-line search; helper
//! threads never make the engine play an illegal move and honour `stop`.

use xiangqi_core::{Move, MoveList, Position};
use xiangqi_search::{Engine, Limits, Score, SearchResult};

mod common;

/// Positions reached by seeded random play from the start, with a legal move.
fn random_positions(count: usize, seed: u64) -> Vec<Position> {
    common::random_positions(count, seed, 80, Position::has_legal_move)
}

/// Scores on one line: a nearer win is larger, a later loss is larger.
fn rank(score: Score) -> i64 {
    match score {
        Score::Cp(v) => i64::from(v),
        Score::Mate(n) if n > 0 => 1_000_000 - i64::from(n),
        Score::Mate(n) => -1_000_000 - i64::from(n),
    }
}

fn assert_legal_line(pos: &Position, pv: &[Move]) {
    assert!(!pv.is_empty(), "{pos:?}: empty line");
    let mut p = pos.clone();
    for &m in pv {
        p.play(m)
            .unwrap_or_else(|e| panic!("{pos:?}: line {pv:?}: {e}"));
    }
}

fn legal_count(pos: &Position) -> usize {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    moves.len()
}

fn assert_lines(pos: &Position, r: &SearchResult, wanted: usize) {
    assert_eq!(r.lines.len(), wanted.min(legal_count(pos)), "{pos:?}");
    let first: Vec<Move> = r.lines.iter().map(|l| l.pv[0]).collect();
    for (i, m) in first.iter().enumerate() {
        assert!(!first[..i].contains(m), "{pos:?}: {m} twice in {first:?}");
    }
    for line in &r.lines {
        assert_legal_line(pos, &line.pv);
    }
    for pair in r.lines.windows(2) {
        assert!(
            rank(pair[0].score) >= rank(pair[1].score),
            "{pos:?}: lines out of order: {:?}",
            r.lines
        );
    }
    assert_eq!(r.best_move, Some(r.lines[0].pv[0]));
    assert_eq!((r.score, &r.pv), (r.lines[0].score, &r.lines[0].pv));
}

#[test]
fn multipv_lines_are_distinct_legal_and_ordered() {
    let mut engine = Engine::new(4);
    for pos in random_positions(12, 0xabc) {
        let limits = Limits {
            depth: Some(4),
            multi_pv: 4,
            ..Limits::default()
        };
        let mut reported: Vec<(u32, usize)> = Vec::new();
        let r = engine.search(&pos, &[], &limits, |info| {
            assert_legal_line(&pos, &info.pv);
            reported.push((info.depth, info.multipv));
        });
        assert_lines(&pos, &r, 4);
        // Every iteration reports each line once, best first.
        let k = r.lines.len();
        let expected: Vec<(u32, usize)> =
            (1..=4).flat_map(|d| (1..=k).map(move |i| (d, i))).collect();
        assert_eq!(reported, expected, "{pos:?}");
    }
}

#[test]
fn more_lines_than_moves_gives_every_move() {
    // Red general alone against a chariot far away: few legal moves.
    let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/r8/4K4 w - - 0 1").unwrap();
    let n = legal_count(&pos);
    assert!(n < 10, "{n}");
    let limits = Limits {
        depth: Some(3),
        multi_pv: 128,
        ..Limits::default()
    };
    let r = Engine::new(1).search(&pos, &[], &limits, |_| {});
    assert_lines(&pos, &r, n);
}

#[test]
fn the_mating_moves_lead_and_the_others_follow() {
    // i5f5 and i5i8 mate at once (EX-END-FG; the flying general covers e9);
    // no other move does.
    let pos = Position::from_fen("5k3/9/9/9/8R/9/9/9/9/4K4 w - - 0 1").unwrap();
    let limits = Limits {
        depth: Some(3),
        multi_pv: 3,
        ..Limits::default()
    };
    let r = Engine::new(1).search(&pos, &[], &limits, |_| {});
    assert_lines(&pos, &r, 3);
    let mut mates: Vec<String> = r.lines[..2].iter().map(|l| l.pv[0].to_string()).collect();
    mates.sort();
    assert_eq!(mates, ["i5f5", "i5i8"], "{:?}", r.lines);
    assert_eq!(
        (r.lines[0].score, r.lines[1].score),
        (Score::Mate(1), Score::Mate(1))
    );
    assert_ne!(r.lines[2].score, Score::Mate(1), "{:?}", r.lines);
}

#[test]
fn one_line_is_the_single_line_search() {
    for pos in random_positions(6, 0x77) {
        for limits in [Limits::depth(5), Limits::nodes(4000)] {
            let single = Engine::new(2).search(&pos, &[], &limits, |_| {});
            let one = Limits {
                multi_pv: 1,
                ..limits.clone()
            };
            let r = Engine::new(2).search(&pos, &[], &one, |_| {});
            assert_eq!(
                (r.best_move, r.score, r.nodes, &r.pv, r.depth),
                (
                    single.best_move,
                    single.score,
                    single.nodes,
                    &single.pv,
                    single.depth
                )
            );
            assert_eq!(r.lines.len(), 1);
        }
    }
}

#[test]
fn helper_threads_give_legal_moves() {
    let mut engine = Engine::new(4);
    engine.set_threads(3);
    assert_eq!(engine.threads(), 3);
    for (i, pos) in random_positions(10, 0x5eed).iter().enumerate() {
        let limits = Limits {
            depth: Some(5),
            multi_pv: 1 + i % 3,
            ..Limits::default()
        };
        let r = engine.search(pos, &[], &limits, |info| assert_legal_line(pos, &info.pv));
        assert_eq!(r.depth, 5);
        assert_lines(pos, &r, 1 + i % 3);
    }
}

#[test]
fn thread_count_is_clamped() {
    let mut engine = Engine::new(1);
    engine.set_threads(0);
    assert_eq!(engine.threads(), 1);
    engine.set_threads(100_000);
    assert_eq!(engine.threads(), xiangqi_search::MAX_THREADS);
}
