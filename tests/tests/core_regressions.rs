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
