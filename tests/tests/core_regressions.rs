//! Regressions found by fuzzing (`fuzz/`) in crates owned by others. A test
//! that still fails is `#[ignore]`d with the bug it shows; see
//! docs/robustness.md ("Findings").

use xiangqi_core::{perft, Position};

/// Found by the `fen` fuzz target (fuzz/regressions/fen-fullmove-overflow.fen):
/// FEN accepts counters up to `u32::MAX`, and `make_move` then overflows the
/// full-move number (a panic with overflow checks, a silent wrap to 0 without).
#[test]
fn fen_counters_at_u32_max_do_not_overflow() {
    for fen in [
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 4294967295",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 4294967295 1",
    ] {
        // Either the FEN is rejected, or every move can be played and written back.
        let Ok(pos) = Position::from_fen(fen) else {
            continue;
        };
        assert_eq!(perft(&pos, 2), perft(&Position::startpos(), 2));
        for mv in pos.legal_move_vec() {
            let after = pos.after(mv).expect("legal");
            let again = Position::from_fen(&after.to_fen()).expect("writes a readable FEN");
            assert_eq!(again, after, "{fen} then {mv}");
        }
    }
}

/// Found by the `fen` fuzz target (fuzz/regressions/fen-counter-at-limit.fen):
/// counters exactly at `MAX_COUNTER` were accepted, one more ply took them
/// past it, and the FEN written then could not be read back.
#[test]
fn counters_at_the_limit_stay_readable_and_unmake_exactly() {
    use xiangqi_core::MAX_COUNTER;
    for side in ["w", "b"] {
        let fen = format!(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR {side} - - {MAX_COUNTER} {MAX_COUNTER}"
        );
        let pos = Position::from_fen(&fen).expect("counters at the limit are accepted");
        for mv in pos.legal_move_vec() {
            let mut after = pos.clone();
            let undo = after.make_move(mv);
            let clock = if undo.captured().is_some() {
                0
            } else {
                MAX_COUNTER
            };
            assert_eq!(after.halfmove_clock(), clock, "{fen} then {mv}");
            assert_eq!(after.fullmove_number(), MAX_COUNTER, "{fen} then {mv}");
            let again = Position::from_fen(&after.to_fen()).expect("writes a readable FEN");
            assert_eq!(again, after, "{fen} then {mv}");
            after.unmake_move(mv, undo);
            assert_eq!(after, pos, "unmake {mv} in {fen}");
        }
        let mut passed = pos.clone();
        let undo = passed.make_null_move();
        passed.unmake_null_move(undo);
        assert_eq!(passed, pos, "null move in {fen}");
    }
    // Below the limit the full-move number still counts Black's plies.
    let mut pos = Position::from_fen(&format!(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 {}",
        MAX_COUNTER - 1
    ))
    .expect("readable");
    let mv = pos.legal_move_vec()[0];
    let undo = pos.make_move(mv);
    assert_eq!(pos.fullmove_number(), MAX_COUNTER);
    pos.unmake_move(mv, undo);
    assert_eq!(pos.fullmove_number(), MAX_COUNTER - 1);
}
