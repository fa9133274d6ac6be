//! Engine: the protocol-independent core of `xiangqi uci`/`xiangqi ucci`.
//! The CLI's command loop is not a library, so this target fuzzes what the
//! loop hands to the search: a position from an arbitrary FEN or a random
//! playout, a history from `Position::replay` of arbitrary moves, and absurd limits
//! (huge clocks, increments and move overheads, `movestogo 0`, empty or illegal
//! `searchmoves`/`banmoves`), always bounded by a node budget. The search
//! must return a legal, permitted best move (or none exactly when there is
//! no permitted move), a legal PV starting with it, and legal info lines,
//! without searching more nodes than the budget (a hard cap).
//! The command loop itself is driven through the binary by
//! `tests/tests/engine_garbage.rs`.
#![no_main]

use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use xiangqi_core::{Move, Position, Square};
use xiangqi_fuzz::{assert_legal_sequence, random_playout, Bytes};
use xiangqi_search::{AlwaysDraw, Engine, Limits};

fn engine() -> &'static Mutex<Engine> {
    static ENGINE: OnceLock<Mutex<Engine>> = OnceLock::new();
    ENGINE.get_or_init(|| Mutex::new(Engine::new(1)))
}

fn any_move(bytes: &mut Bytes<'_>) -> Move {
    let from = Square::from_index(bytes.below(90) as u8).expect("0..90");
    let to = Square::from_index(bytes.below(90) as u8).expect("0..90");
    Move::new(from, to)
}

fn millis(bytes: &mut Bytes<'_>) -> Option<Duration> {
    match bytes.byte() % 4 {
        0 => None,
        1 => Some(Duration::from_millis(bytes.below(50) as u64)),
        2 => Some(Duration::from_millis(bytes.u64())),
        // What `go wtime` gives at most: i64::MAX milliseconds.
        _ => Some(Duration::from_millis(i64::MAX as u64)),
    }
}

fuzz_target!(|data: &[u8]| {
    let mut bytes = Bytes::new(data);
    let mode = bytes.byte();
    let start = if mode & 1 == 0 {
        let plies = bytes.below(120);
        random_playout(&mut bytes, plies).1
    } else {
        let len = bytes.below(100);
        let fen: Vec<u8> = (0..len).map(|_| bytes.byte()).collect();
        match Position::from_fen(&String::from_utf8_lossy(&fen)) {
            Ok(p) => p,
            Err(_) => Position::startpos(),
        }
    };
    // `position … moves …` with arbitrary moves: replay either fails cleanly or is legal.
    let n = bytes.below(12);
    let moves: Vec<Move> = (0..n)
        .map(|_| {
            if bytes.byte() & 3 == 0 {
                any_move(&mut bytes)
            } else {
                let legal = start.legal_move_vec();
                legal
                    .get(bytes.below(legal.len().max(1)))
                    .copied()
                    .unwrap_or_else(|| any_move(&mut bytes))
            }
        })
        .collect();
    let (root, history) = match start.replay(&moves) {
        Ok((root, history)) => {
            assert_eq!(assert_legal_sequence(&start, moves.iter().copied()), root);
            assert_eq!(history.len(), moves.len());
            (root, history)
        }
        Err(e) => {
            assert!(e.ply >= 1 && e.ply <= moves.len(), "{e}");
            assert!(start.replay(&moves[..e.ply - 1]).is_ok());
            (start.clone(), Vec::new())
        }
    };

    let mut limits = Limits {
        nodes: Some(1 + bytes.below(3_000) as u64),
        depth: (mode & 2 != 0).then(|| bytes.u64() as u32),
        move_time: millis(&mut bytes),
        time_left: millis(&mut bytes),
        increment: millis(&mut bytes),
        moves_to_go: (mode & 4 != 0).then(|| bytes.u64() as u32),
        infinite: false,
        ponder: false,
        move_overhead: millis(&mut bytes),
        search_moves: Vec::new(),
        ban_moves: Vec::new(),
        multi_pv: bytes.below(4),
    };
    for _ in 0..bytes.below(4) {
        limits.search_moves.push(any_move(&mut bytes));
    }
    for _ in 0..bytes.below(4) {
        limits.ban_moves.push(any_move(&mut bytes));
    }
    let legal = root.legal_move_vec();
    if mode & 8 != 0 && !legal.is_empty() {
        let mv = legal[bytes.below(legal.len())];
        if mode & 16 != 0 {
            limits.search_moves.push(mv);
        } else {
            limits.ban_moves.push(mv);
        }
    }
    let permitted: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| limits.search_moves.is_empty() || limits.search_moves.contains(m))
        .filter(|m| !limits.ban_moves.contains(m))
        .collect();

    let mut engine = engine().lock().unwrap_or_else(|p| p.into_inner());
    engine.new_game();
    if mode & 32 != 0 {
        engine.set_repetition_judge(Box::new(AlwaysDraw));
    }
    let result = engine.search(&root, &history, &limits, |info| {
        assert_legal_sequence(&root, info.pv.iter().copied());
    });
    if mode & 32 != 0 {
        engine.set_repetition_judge(Box::<xiangqi_search::AdjudicationJudge>::default());
    }
    match result.best_move {
        Some(mv) => {
            assert!(
                permitted.contains(&mv),
                "best move {mv} is not among the permitted {permitted:?} of {}",
                root.to_fen()
            );
            assert_eq!(
                result.pv.first(),
                Some(&mv),
                "PV does not start with the best move"
            );
            assert_legal_sequence(&root, result.pv.iter().copied());
            if let Some(p) = result.ponder {
                assert_eq!(result.pv.get(1), Some(&p));
            }
        }
        None => assert!(
            permitted.is_empty(),
            "no best move although {permitted:?} are permitted in {}",
            root.to_fen()
        ),
    }
    // The node limit is a hard cap, even inside the first iteration.
    let limit = limits.nodes.expect("set above");
    assert!(
        result.nodes <= limit,
        "node limit {limit} exceeded at depth {}: {}",
        result.depth,
        result.nodes
    );
});
