//! Engine contracts: legal moves only, determinism, limits, stop, repetition rules.

use std::sync::Arc;
use std::time::{Duration, Instant};

use xiangqi_core::{Move, MoveList, Position};
use xiangqi_search::{AlwaysDraw, Engine, Limits, Score};

mod common;

/// Positions reached by random play from the start, of varied length (some
/// may have no legal move).
fn random_positions(count: usize, seed: u64) -> Vec<Position> {
    common::random_positions(count, seed, 120, |_| true)
}

#[test]
fn never_returns_an_illegal_move() {
    let mut engine = Engine::new(4);
    for (i, pos) in random_positions(150, 0x5eed).iter().enumerate() {
        let limits = if i % 2 == 0 {
            Limits::depth(1 + (i % 3) as u32)
        } else {
            Limits::nodes(300 + 37 * i as u64)
        };
        let r = engine.search(pos, &[], &limits, |_| {});
        match r.best_move {
            Some(mv) => {
                assert!(pos.is_legal(mv), "{pos:?}: illegal best move {mv}");
                assert_eq!(r.pv.first(), Some(&mv), "{pos:?}");
                let mut p = pos.clone();
                for &m in &r.pv {
                    p.play(m)
                        .unwrap_or_else(|e| panic!("{pos:?}: pv {:?}: {e}", r.pv));
                }
            }
            None => assert!(!pos.has_legal_move(), "{pos:?}: no move returned"),
        }
    }
}

#[test]
fn fixed_depth_and_nodes_are_deterministic() {
    let positions = random_positions(4, 7);
    for pos in &positions {
        for limits in [Limits::depth(4), Limits::nodes(3000)] {
            let mut a = Engine::new(2);
            let mut b = Engine::new(2);
            let ra = a.search(pos, &[], &limits, |_| {});
            let rb = b.search(pos, &[], &limits, |_| {});
            assert_eq!(
                (ra.best_move, ra.score, ra.nodes, &ra.pv),
                (rb.best_move, rb.score, rb.nodes, &rb.pv)
            );
        }
    }
}

#[test]
fn node_limit_is_respected() {
    let mut engine = Engine::new(2);
    let r = engine.search(&Position::startpos(), &[], &Limits::nodes(5000), |_| {});
    assert!(r.nodes <= 5000, "{}", r.nodes);
    assert!(r.depth >= 2);
}

#[test]
fn node_limit_is_a_hard_cap_even_inside_depth_1() {
    // Depth 1 of these positions needs far more than the smallest budgets
    // (the start position alone: 44 root moves, each with its quiescence).
    let mut engine = Engine::new(2);
    let full = engine.search(&Position::startpos(), &[], &Limits::depth(1), |_| {});
    assert!(full.nodes > 60, "depth 1 took only {} nodes", full.nodes);
    for (i, pos) in std::iter::once(Position::startpos())
        .chain(random_positions(40, 0x5eed))
        .enumerate()
    {
        if !pos.has_legal_move() {
            continue;
        }
        for limit in [0, 1, 2, 7, 63] {
            engine.new_game();
            let mut infos = 0;
            let r = engine.search(&pos, &[], &Limits::nodes(limit), |_| infos += 1);
            assert!(
                r.nodes <= limit,
                "position {i}: {} nodes for a limit of {limit}",
                r.nodes
            );
            let mv = r.best_move.expect("a legal move exists");
            assert!(pos.is_legal(mv), "position {i}: {mv} is illegal");
            assert_eq!(r.pv.first(), Some(&mv));
            if limit <= 1 {
                // Not even one root move could be searched.
                assert_eq!((r.depth, infos), (0, 0));
            }
        }
    }
}

#[test]
fn info_callback_reports_each_iteration() {
    let mut engine = Engine::new(2);
    let mut depths = Vec::new();
    let r = engine.search(&Position::startpos(), &[], &Limits::depth(5), |i| {
        assert!(!i.pv.is_empty() && i.nodes > 0);
        depths.push(i.depth);
    });
    assert_eq!(depths, [1, 2, 3, 4, 5]);
    assert_eq!(r.depth, 5);
}

#[test]
fn move_time_is_honoured() {
    let mut engine = Engine::new(8);
    let start = Instant::now();
    let r = engine.search(
        &Position::startpos(),
        &[],
        &Limits::move_time(Duration::from_millis(150)),
        |_| {},
    );
    assert!(r.best_move.is_some());
    // Generous bound: CI machines are slow and shared.
    assert!(
        start.elapsed() < Duration::from_millis(1500),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn ban_and_search_moves_restrict_the_root() {
    let mut engine = Engine::new(2);
    let pos = Position::startpos();
    let only: Move = "a3a4".parse().unwrap();
    let r = engine.search(
        &pos,
        &[],
        &Limits {
            depth: Some(3),
            search_moves: vec![only],
            ..Limits::default()
        },
        |_| {},
    );
    assert_eq!(r.best_move, Some(only));
    let mut all = MoveList::new();
    pos.legal_moves(&mut all);
    let keep: Move = "h2e2".parse().unwrap();
    let banned: Vec<Move> = all.iter().copied().filter(|&m| m != keep).collect();
    let r = engine.search(
        &pos,
        &[],
        &Limits {
            depth: Some(3),
            ban_moves: banned,
            ..Limits::default()
        },
        |_| {},
    );
    assert_eq!(r.best_move, Some(keep));
}

/// Red is lost unless it keeps checking with the chariot (a8a9 / a9a8); the
/// cycle has already been played once, so checking again repeats it.
fn perpetual_check_setup() -> (Position, Vec<Position>) {
    let start = Position::from_fen("5k3/R8/9/5P3/9/9/8r/9/6r2/3K5 w - - 0 1").unwrap();
    let moves: Vec<Move> = ["a8a9", "f9f8", "a9a8", "f8f9"]
        .iter()
        .map(|m| m.parse().unwrap())
        .collect();
    start.replay(&moves).unwrap()
}

#[test]
fn perpetual_check_is_avoided() {
    let (root, history) = perpetual_check_setup();
    let check: Move = "a8a9".parse().unwrap();
    // Chess rules (repetition = draw): the perpetual is the only way to survive.
    let mut chess = Engine::new(4);
    chess.set_repetition_judge(Box::new(AlwaysDraw));
    let r = chess.search(&root, &history, &Limits::depth(5), |_| {});
    assert_eq!((r.best_move, r.score), (Some(check), Score::Cp(0)));
    // Xiangqi rules (R-REP-PERP-CHECK): repeating the checks loses, so Red deviates.
    let mut engine = Engine::new(4);
    let r = engine.search(&root, &history, &Limits::depth(5), |_| {});
    assert_ne!(r.best_move, Some(check));
    // Deviating leaves Red lost, but not by rule.
    assert!(
        matches!(r.score, Score::Mate(n) if n < 0) || matches!(r.score, Score::Cp(v) if v < -500),
        "{:?}",
        r.score
    );
}

#[test]
fn opponent_forced_into_perpetual_check_is_a_win() {
    // Same game one ply earlier: Black to move after a8a9+ with the cycle played once.
    let (root, mut history) = perpetual_check_setup();
    history.push(root.clone());
    let pos = root.after("a8a9".parse().unwrap()).unwrap();
    // Black's only move f9f8 lets Red repeat the check, which Red may not do forever.
    let mut engine = Engine::new(4);
    let r = engine.search(&pos, &history, &Limits::depth(4), |_| {});
    assert_eq!(r.best_move, Some("f9f8".parse().unwrap()));
    assert!(matches!(r.score, Score::Mate(n) if n > 0), "{:?}", r.score);
}

#[test]
fn engine_is_send_for_search_threads() {
    fn is_send<T: Send>() {}
    is_send::<Engine>();
    let engine = Arc::new(std::sync::Mutex::new(Engine::new(1)));
    let e = Arc::clone(&engine);
    std::thread::spawn(move || {
        e.lock()
            .unwrap()
            .search(&Position::startpos(), &[], &Limits::depth(2), |_| {});
    })
    .join()
    .unwrap();
}

#[test]
fn perpetual_chase_loses_inside_the_search() {
    // EX-REP-3 played once round the cycle: the horse chases the unprotected cannon.
    let start = Position::from_fen("4k4/2c6/9/9/1N7/9/9/9/9/3K5 w - - 0 1").unwrap();
    let moves: Vec<Move> = ["b5d6", "c8c7", "d6b5", "c7c8"]
        .iter()
        .map(|m| m.parse().unwrap())
        .collect();
    let (root, history) = start.replay(&moves).unwrap();
    let chase: Move = "b5d6".parse().unwrap();
    let only_chase = Limits {
        depth: Some(3),
        search_moves: vec![chase],
        ..Limits::default()
    };
    // Default judge (R-REP-PERP-CHASE): repeating the chase loses.
    let mut engine = Engine::new(2);
    let r = engine.search(&root, &history, &only_chase, |_| {});
    assert!(matches!(r.score, Score::Mate(n) if n <= 0), "{:?}", r.score);
    let r = engine.search(&root, &history, &Limits::depth(4), |_| {});
    assert_ne!(r.best_move, Some(chase));
    assert!(matches!(r.score, Score::Cp(_)), "{:?}", r.score);
    // The checks-only judge sees a plain repetition: a draw.
    let mut checks_only = Engine::new(2);
    checks_only.set_repetition_judge(Box::new(xiangqi_search::CheckRuleJudge));
    let r = checks_only.search(&root, &history, &only_chase, |_| {});
    assert_eq!(r.score, Score::Cp(0));
}
