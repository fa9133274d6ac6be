//! Helpers shared by the integration tests.
#![allow(dead_code)]

use xiangqi_adjudication::{Conduct, Game, GameError, GameRecord, RuleSet, SideReport, Verdict};
use xiangqi_core::Position;

#[allow(unused_imports)] // not every test file reads fixtures
pub use xiangqi_test_support::workspace_root;

/// Plays `moves` (ICCS, space separated) from `fen` under `rules`.
pub fn play(fen: &str, moves: &str, rules: &RuleSet) -> Result<Game, GameError> {
    GameRecord::parse(Some(fen), moves)?.play(rules)
}

/// The verdict after `moves`, panicking with the error on illegal input.
pub fn verdict(fen: &str, moves: &str, rules: &RuleSet) -> Verdict {
    match play(fen, moves, rules) {
        Ok(g) => g.verdict().clone(),
        Err(e) => panic!("{fen} / {moves}: {e}"),
    }
}

/// Placement and side to move of a FEN (fields 1-2), for comparing positions.
pub fn placement(fen: &str) -> String {
    let p = Position::from_fen(fen).expect("valid FEN");
    p.to_fen().split(' ').take(2).collect::<Vec<_>>().join(" ")
}

/// A side's repetition report names what it counts: an offending side its
/// pieces and targets, a side that chased what it chased, and nothing else.
pub fn check_report(side: &SideReport) -> Result<(), String> {
    let named = match side.conduct {
        Conduct::PerpetualCheck => !side.pieces.is_empty() && !side.targets.is_empty(),
        Conduct::PerpetualChase => {
            !side.pieces.is_empty() && !side.targets.is_empty() && side.chases > 0
        }
        Conduct::None => side.pieces.is_empty() && side.targets.is_empty(),
    };
    if !named || (side.chases > 0) == side.chased.is_empty() {
        return Err(format!("{} report is inconsistent: {side:?}", side.side));
    }
    Ok(())
}
