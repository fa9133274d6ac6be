//! Move sequences from the start position, found once with the move
//! generator (a check-biased random search) and checked here against the
//! adjudicator, so a test that plays them knows what the server must say.

use xiangqi_adjudication::{Game, Outcome, Reason, RuleSet};
use xiangqi_core::Position;

/// Red mates on ply 5: the cannon takes the elephant on c9 and checks
/// along rank 9 over the d9 advisor; e8 and f9 give no escape.
pub const CHECKMATE: &[&str] = &["h2h5", "f9e8", "h5c5", "b7g7", "c5c9"];

/// Four plies of setup (the b2 cannon takes the b9 horse), then Red's other
/// cannon shuttles d2-d9 and Black's elephant a7-c9. Every Red ply checks
/// with the b9 cannon along rank 9: over the cannon on d9, then over the
/// elephant on c9. The start of the cycle comes a third time on ply 12 and
/// Red, who checked on every ply of it, loses.
pub const PERPETUAL_CHECK: &[&str] = &[
    "h2d2", "c9a7", "b2b9", "d9e8", // setup
    "d2d9", "a7c9", "d9d2", "c9a7", // cycle, twice
    "d2d9", "a7c9", "d9d2", "c9a7",
];

/// Quiet opening moves that neither repeat nor end anything.
pub const OPENING: &[&str] = &["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"];

fn adjudicate(moves: &[&str]) -> (Outcome, Option<Reason>, u32) {
    let mut game = Game::new(Position::startpos(), RuleSet::default());
    for mv in moves {
        game.push_text(mv).expect("a permitted move");
    }
    let verdict = game.verdict();
    (verdict.outcome, verdict.reason, verdict.ply)
}

#[test]
fn the_lines_end_as_the_tests_expect() {
    assert_eq!(
        adjudicate(CHECKMATE),
        (Outcome::Red, Some(Reason::Checkmate), 5)
    );
    assert_eq!(
        adjudicate(PERPETUAL_CHECK),
        (Outcome::Black, Some(Reason::PerpetualCheck), 12)
    );
    assert_eq!(adjudicate(OPENING), (Outcome::Ongoing, None, 6));
}
