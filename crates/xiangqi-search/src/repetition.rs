//! Scoring repetitions met inside the search tree (rules reference section 5).
//!
//! When the search reaches a position that already occurred since the last
//! capture (in the game before the root or on the current search path), the
//! cycle from the earlier occurrence to now is handed to a [`RepetitionJudge`].
//! The search scores the first recurrence as if the cycle were repeated to
//! the third occurrence (R-REP-COUNT), which is what a side that is happy with
//! the cycle can force.

use xiangqi_adjudication::{
    classify_ply, judge_cycle, ChaseDefinition, CycleRules, PieceIds, PlyRecord,
};
use xiangqi_core::{Color, Move, MoveList, Position};

/// One ply of a repetition cycle.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CyclePly<'a> {
    /// The side that made the ply.
    pub mover: Color,
    /// True when the ply gave check (R-REP-CHECK).
    pub gave_check: bool,
    /// The move, when known (plies of the game before the root are given as positions only).
    pub mv: Option<Move>,
    /// The position before the ply, when the judge asked for positions
    /// ([`RepetitionJudge::needs_positions`]).
    pub before: Option<&'a Position>,
    /// The position after the ply, when the judge asked for positions.
    pub after: Option<&'a Position>,
}

/// How a repetition cycle ends the game (R-REP-VERDICT).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum RepetitionOutcome {
    /// A draw (plain repetition, or both sides offend equally).
    Draw,
    /// This side loses (perpetual check or perpetual chase).
    Loses(Color),
}

/// Decides repetitions inside the search.
///
/// The engine calls [`judge`](RepetitionJudge::judge) with the plies from
/// the earlier occurrence (exclusive) to the recurrence (inclusive), oldest first.
pub trait RepetitionJudge: Send + Sync {
    /// The verdict for a cycle.
    fn judge(&self, cycle: &[CyclePly<'_>]) -> RepetitionOutcome;

    /// Whether [`CyclePly::before`]/[`CyclePly::after`] must be filled in.
    /// Keeping positions costs a copy per node, so judges that classify by
    /// checks alone should leave this `false`.
    fn needs_positions(&self) -> bool {
        false
    }
}

/// The default judge: a side that gave check on every one of its plies in the
/// cycle loses (R-REP-PERP-CHECK); both sides doing so, or neither, is a draw.
/// Perpetual chase (R-REP-PERP-CHASE) is not detected by this judge; it is
/// cheaper than [`AdjudicationJudge`] (no positions kept).
///
/// ```
/// use xiangqi_core::Color;
/// use xiangqi_search::{CheckRuleJudge, CyclePly, RepetitionJudge, RepetitionOutcome};
/// let ply = |mover, gave_check| CyclePly { mover, gave_check, mv: None, before: None, after: None };
/// let cycle = [ply(Color::Red, true), ply(Color::Black, false), ply(Color::Red, true), ply(Color::Black, false)];
/// assert_eq!(CheckRuleJudge.judge(&cycle), RepetitionOutcome::Loses(Color::Red));
/// ```
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckRuleJudge;

impl RepetitionJudge for CheckRuleJudge {
    fn judge(&self, cycle: &[CyclePly<'_>]) -> RepetitionOutcome {
        let perpetual = |side: Color| {
            let mut plies = cycle.iter().filter(|p| p.mover == side).peekable();
            plies.peek().is_some() && plies.all(|p| p.gave_check)
        };
        match (perpetual(Color::Red), perpetual(Color::Black)) {
            (true, false) => RepetitionOutcome::Loses(Color::Red),
            (false, true) => RepetitionOutcome::Loses(Color::Black),
            _ => RepetitionOutcome::Draw,
        }
    }
}

/// A judge for which every repetition is a draw (chess-style; for comparisons).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct AlwaysDraw;

impl RepetitionJudge for AlwaysDraw {
    fn judge(&self, _cycle: &[CyclePly<'_>]) -> RepetitionOutcome {
        RepetitionOutcome::Draw
    }
}

/// The full rules of section 5 from `xiangqi-adjudication`: every ply of
/// the cycle is classified as check, chase or idle ([`classify_ply`]) and the
/// span is judged by [`judge_cycle`], so perpetual check *and* perpetual
/// chase lose inside the search exactly as they do in adjudication.
///
/// This is the engine's default judge.
///
/// ```
/// use xiangqi_core::{Color, Move, Position};
/// use xiangqi_search::{AdjudicationJudge, CyclePly, RepetitionJudge, RepetitionOutcome};
/// // EX-REP-1: the chariot checks on i9/i8 for ever.
/// let mut positions = vec![Position::from_fen("4k4/9/9/9/9/9/9/9/9/5K2R w - - 0 1").unwrap()];
/// for m in ["i0i9", "e9e8", "i9i8", "e8e9", "i8i9"] {
///     let next = positions.last().unwrap().after(m.parse().unwrap()).unwrap();
///     positions.push(next);
/// }
/// // The cycle from the first occurrence of the position after i0i9 to its recurrence.
/// let plies: Vec<CyclePly> = (2..6)
///     .map(|k| CyclePly {
///         mover: positions[k - 1].side_to_move(),
///         gave_check: positions[k].is_check(),
///         mv: None,
///         before: Some(&positions[k - 1]),
///         after: Some(&positions[k]),
///     })
///     .collect();
/// let judge = AdjudicationJudge::default();
/// assert_eq!(judge.judge(&plies), RepetitionOutcome::Loses(Color::Red));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct AdjudicationJudge {
    rules: CycleRules,
}

impl Default for AdjudicationJudge {
    /// The default rule set of `xiangqi-adjudication`.
    fn default() -> AdjudicationJudge {
        AdjudicationJudge {
            rules: CycleRules::default(),
        }
    }
}

impl AdjudicationJudge {
    /// A judge for a specific rule set (see `xiangqi_adjudication::RuleSet::cycle_rules`).
    pub fn new(rules: CycleRules) -> AdjudicationJudge {
        AdjudicationJudge { rules }
    }
}

/// The move that leads from `before` to `after`, when one does.
fn move_between(before: &Position, after: &Position) -> Option<Move> {
    let mut moves = MoveList::new();
    before.legal_moves(&mut moves);
    let mut scratch = before.clone();
    moves.iter().copied().find(|&m| {
        let undo = scratch.make_move(m);
        let same = scratch.hash() == after.hash();
        scratch.unmake_move(m, undo);
        same
    })
}

impl RepetitionJudge for AdjudicationJudge {
    fn judge(&self, cycle: &[CyclePly<'_>]) -> RepetitionOutcome {
        let Some(first) = cycle.first().and_then(|p| p.before) else {
            // Without positions only checks can be judged.
            return CheckRuleJudge.judge(cycle);
        };
        let threats_on_checks = self.rules.chase_definition == ChaseDefinition::FairyStockfish;
        let mut ids = PieceIds::new(first);
        let mut span = Vec::with_capacity(cycle.len());
        for ply in cycle {
            let (Some(before), Some(after)) = (ply.before, ply.after) else {
                return CheckRuleJudge.judge(cycle);
            };
            let Some(mv) = ply.mv.or_else(|| move_between(before, after)) else {
                return CheckRuleJudge.judge(cycle);
            };
            let class = classify_ply(before, after, threats_on_checks);
            span.push(PlyRecord::new(ply.mover, &class, &ids, mv));
            ids.apply(mv);
        }
        match judge_cycle(&span, &self.rules).loser {
            Some(loser) => RepetitionOutcome::Loses(loser),
            None => RepetitionOutcome::Draw,
        }
    }

    fn needs_positions(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ply(mover: Color, gave_check: bool) -> CyclePly<'static> {
        CyclePly {
            mover,
            gave_check,
            mv: None,
            before: None,
            after: None,
        }
    }

    #[test]
    fn mutual_checks_draw() {
        let c = [
            ply(Color::Red, true),
            ply(Color::Black, true),
            ply(Color::Red, true),
            ply(Color::Black, true),
        ];
        assert_eq!(CheckRuleJudge.judge(&c), RepetitionOutcome::Draw);
    }

    #[test]
    fn one_quiet_ply_breaks_perpetual_check() {
        let c = [
            ply(Color::Black, true),
            ply(Color::Red, false),
            ply(Color::Black, false),
            ply(Color::Red, false),
        ];
        assert_eq!(CheckRuleJudge.judge(&c), RepetitionOutcome::Draw);
        let c = [
            ply(Color::Black, true),
            ply(Color::Red, false),
            ply(Color::Black, true),
            ply(Color::Red, false),
        ];
        assert_eq!(
            CheckRuleJudge.judge(&c),
            RepetitionOutcome::Loses(Color::Black)
        );
    }
}
