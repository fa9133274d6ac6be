//! Repetition (section 5): counting occurrences (R-REP-COUNT), judging the
//! span between the first and third occurrence (R-REP-SPAN, R-REP-VERDICT),
//! and [`RepetitionTracker`], which does both incrementally.

use std::collections::HashMap;

use xiangqi_core::{Color, Move, PieceKind, Position};

use crate::chase::{classify_ply, PlyClass, PlyKind};
use crate::identity::PieceIds;
use crate::rules::{ChaseDefinition, RepetitionEnforcement};
use crate::verdict::Reason;

/// One classified ply as the cycle judge needs it: pieces by identity
/// ([`PieceIds`] masks), so a piece keeps its identity as it moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlyRecord {
    /// The side that made the ply.
    pub mover: Color,
    /// Check, chase or idle (5.2).
    pub kind: PlyKind,
    /// Identities of the checking pieces.
    pub checkers: u32,
    /// Identities of `NewChased(M)`.
    pub chased: u32,
    /// Identities of the pieces making the new threats.
    pub chasers: u32,
}

impl PlyRecord {
    /// Builds the record of a ply from its classification, with identities
    /// taken from `ids` *before* `mv` is applied.
    pub fn new(mover: Color, class: &PlyClass, ids: &PieceIds, mv: Move) -> PlyRecord {
        PlyRecord {
            mover,
            kind: class.kind,
            checkers: ids.mask_after(mv, class.checkers),
            chased: ids.mask_after(mv, class.chased),
            chasers: ids.mask_after(mv, class.chasers),
        }
    }
}

/// The choices that affect judging a cycle (a part of [`crate::RuleSet`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct CycleRules {
    /// R-REP-ENFORCE.
    pub enforcement: RepetitionEnforcement,
    /// Which threat test (5.3); decides whether checking plies carry threats.
    pub chase_definition: ChaseDefinition,
    /// Pikafish (5.10 a): any check in the span draws unless someone checks perpetually.
    pub any_check_in_span_draws: bool,
    /// R-REP-CHINESE.
    pub chinese: bool,
}

impl Default for CycleRules {
    fn default() -> Self {
        crate::RuleSet::default().cycle_rules()
    }
}

/// One side's behaviour over a span, with pieces by identity.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SideConduct {
    /// Plies of this side in the span.
    pub plies: u32,
    /// How many were checks.
    pub checks: u32,
    /// How many were chases.
    pub chases: u32,
    /// R-REP-PERP-CHECK holds.
    pub perpetual_check: bool,
    /// R-REP-PERP-CHASE (or R-REP-CHINESE perpetual attack) holds.
    pub perpetual_chase: bool,
    /// Identities of the checking pieces (perpetual check) or of the chasing
    /// pieces (perpetual chase).
    pub pieces: u32,
    /// Identities of the pieces chased on every ply (perpetual chase).
    pub targets: u32,
    /// Identities of every piece this side chased on at least one ply,
    /// offence or not.
    pub chased: u32,
}

/// The result of judging a repetition span (R-REP-VERDICT).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct CycleJudgement {
    /// One of the five repetition reason codes.
    pub reason: Reason,
    /// The side that loses, or `None` for a draw.
    pub loser: Option<Color>,
    /// Red's and Black's conduct, indexed by [`Color::index`].
    pub sides: [SideConduct; 2],
}

fn conduct(span: &[PlyRecord], side: Color, rules: &CycleRules) -> SideConduct {
    let mine = || span.iter().filter(move |r| r.mover == side);
    let plies = mine().count() as u32;
    let checks = mine().filter(|r| r.kind == PlyKind::Check).count() as u32;
    let chases = mine().filter(|r| r.kind == PlyKind::Chase).count() as u32;
    let perpetual_check = plies > 0 && checks == plies;
    let all_chased = mine().fold(u32::MAX, |m, r| m & r.chased);
    let any_chased = mine().fold(0, |m, r| m | r.chased);
    let perpetual_chase = if perpetual_check || plies == 0 {
        false
    } else if rules.chinese {
        // R-REP-CHINESE: every ply a check or a chase ("perpetual attacking").
        checks + chases == plies
    } else {
        // R-REP-PERP-CHASE: no check, and one individual chased on every ply.
        // Fairy-Stockfish style records threats on checking plies too, so a
        // check that also renews the chase does not break it there.
        let no_check = checks == 0 || rules.chase_definition == ChaseDefinition::FairyStockfish;
        no_check && all_chased != 0
    };
    let (pieces, targets) = if perpetual_check {
        (mine().fold(0, |m, r| m | r.checkers), 0)
    } else if perpetual_chase {
        let targets = if rules.chinese {
            any_chased
        } else {
            all_chased
        };
        (mine().fold(0, |m, r| m | r.chasers), targets)
    } else {
        (0, 0)
    };
    SideConduct {
        plies,
        checks,
        chases,
        perpetual_check,
        perpetual_chase,
        pieces,
        targets,
        chased: any_chased,
    }
}

/// Judges a repetition span (R-REP-VERDICT): `span` holds the plies from the
/// first occurrence (exclusive) to the third (inclusive), R-REP-SPAN.
///
/// ```
/// use xiangqi_adjudication::{judge_cycle, CycleRules, PlyKind, PlyRecord, Reason};
/// use xiangqi_core::Color;
/// let check = PlyRecord { mover: Color::Red, kind: PlyKind::Check, checkers: 1, chased: 0, chasers: 0 };
/// let reply = PlyRecord { mover: Color::Black, kind: PlyKind::Idle, checkers: 0, chased: 0, chasers: 0 };
/// let span = [check, reply, check, reply];
/// let j = judge_cycle(&span, &CycleRules::default());
/// assert_eq!((j.reason, j.loser), (Reason::PerpetualCheck, Some(Color::Red)));
/// ```
pub fn judge_cycle(span: &[PlyRecord], rules: &CycleRules) -> CycleJudgement {
    let sides = [
        conduct(span, Color::Red, rules),
        conduct(span, Color::Black, rules),
    ];
    let [red, black] = sides;
    let (reason, loser) = if rules.enforcement == RepetitionEnforcement::DrawOnly {
        (Reason::ThreefoldRepetition, None)
    } else if red.perpetual_check || black.perpetual_check {
        // Perpetual check outranks perpetual chase (R-REP-VERDICT).
        match (red.perpetual_check, black.perpetual_check) {
            (true, true) => (Reason::MutualPerpetualCheck, None),
            (true, false) => (Reason::PerpetualCheck, Some(Color::Red)),
            _ => (Reason::PerpetualCheck, Some(Color::Black)),
        }
    } else if rules.any_check_in_span_draws && span.iter().any(|r| r.kind == PlyKind::Check) {
        (Reason::ThreefoldRepetition, None)
    } else {
        match (red.perpetual_chase, black.perpetual_chase) {
            (true, true) => (Reason::MutualPerpetualChase, None),
            (true, false) => (Reason::PerpetualChase, Some(Color::Red)),
            (false, true) => (Reason::PerpetualChase, Some(Color::Black)),
            (false, false) => (Reason::ThreefoldRepetition, None),
        }
    };
    let mut sides = sides;
    if rules.enforcement == RepetitionEnforcement::DrawOnly {
        for s in &mut sides {
            s.perpetual_check = false;
            s.perpetual_chase = false;
            s.pieces = 0;
            s.targets = 0;
        }
    }
    CycleJudgement {
        reason,
        loser,
        sides,
    }
}

/// True when `mv` in `before` can never be undone: a capture or a soldier's
/// forward step (R-REP-COUNT), so no earlier position can recur.
pub fn is_irreversible(before: &Position, mv: Move) -> bool {
    if before.piece_at(mv.to()).is_some() {
        return true;
    }
    matches!(before.piece_at(mv.from()), Some(p) if p.kind == PieceKind::Soldier)
        && mv.from().rank() != mv.to().rank()
}

/// R-REP-POS: same placement and side to move. The hash is compared first;
/// the full comparison rules out Zobrist collisions.
fn same_position(a: &Position, b: &Position) -> bool {
    a.hash() == b.hash()
        && a.side_to_move() == b.side_to_move()
        && a.pieces_of(Color::Red) == b.pieces_of(Color::Red)
        && a.pieces_of(Color::Black) == b.pieces_of(Color::Black)
        && a.occupied().iter().all(|s| a.piece_at(s) == b.piece_at(s))
}

/// A third occurrence found by the tracker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repetition {
    /// Plies (counted from the start of the record) after which the position
    /// stood: the three occurrences.
    pub occurrences: Vec<u32>,
    /// The verdict over the span.
    pub judgement: CycleJudgement,
    /// Piece identities at the third occurrence, to turn masks into squares.
    pub ids: PieceIds,
}

/// Incremental repetition bookkeeping (section 5): the positions since the
/// last irreversible ply, indexed by hash, and each ply's classification,
/// stored as the ply is pushed. Pushing a ply costs one classification and
/// one hash lookup, so a whole game is linear in its length.
///
/// ```
/// use xiangqi_adjudication::{CycleRules, RepetitionTracker, Reason};
/// use xiangqi_core::{Move, Position};
/// // EX-REP-1: perpetual check by a chariot.
/// let mut pos = Position::from_fen("4k4/9/9/9/9/9/9/9/9/5K2R w - - 0 1").unwrap();
/// let mut tracker = RepetitionTracker::new(&pos, CycleRules::default());
/// let mut found = None;
/// for text in "i0i9 e9e8 i9i8 e8e9 i8i9 e9e8 i9i8 e8e9 i8i9".split(' ') {
///     let mv: Move = text.parse().unwrap();
///     let before = pos.clone();
///     pos.play(mv).unwrap();
///     found = tracker.push(&before, mv, &pos);
/// }
/// assert_eq!(found.unwrap().judgement.reason, Reason::PerpetualCheck);
/// ```
#[derive(Clone, Debug)]
pub struct RepetitionTracker {
    rules: CycleRules,
    ids: PieceIds,
    /// Plies pushed since the start of the record.
    ply: u32,
    /// Positions since the last irreversible ply, with the ply after which each stood.
    history: Vec<(u32, Position)>,
    /// `records[i]` is the ply that led from `history[i]` to `history[i + 1]`.
    records: Vec<PlyRecord>,
    /// Hash to indices into `history`.
    index: HashMap<u64, Vec<u32>>,
}

impl RepetitionTracker {
    /// Starts tracking at `start` (which counts as an occurrence, R-REP-COUNT).
    pub fn new(start: &Position, rules: CycleRules) -> RepetitionTracker {
        let mut t = RepetitionTracker {
            rules,
            ids: PieceIds::new(start),
            ply: 0,
            history: Vec::new(),
            records: Vec::new(),
            index: HashMap::new(),
        };
        t.restart(start);
        t
    }

    fn restart(&mut self, pos: &Position) {
        self.history.clear();
        self.records.clear();
        self.index.clear();
        self.remember(pos.clone());
    }

    fn remember(&mut self, pos: Position) {
        let i = self.history.len() as u32;
        self.index.entry(pos.hash()).or_default().push(i);
        self.history.push((self.ply, pos));
    }

    /// Indices in `history` of earlier occurrences of `pos`.
    fn earlier(&self, pos: &Position) -> Vec<u32> {
        self.index
            .get(&pos.hash())
            .map(|v| {
                v.iter()
                    .copied()
                    .filter(|&i| same_position(&self.history[i as usize].1, pos))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Piece identities in the current position.
    pub fn ids(&self) -> &PieceIds {
        &self.ids
    }

    /// The classified plies since the last irreversible ply.
    pub fn records(&self) -> &[PlyRecord] {
        &self.records
    }

    /// How often the current position has occurred (1 after an irreversible ply).
    pub fn occurrences_of(&self, pos: &Position) -> usize {
        self.earlier(pos).len()
    }

    fn classify(&self, before: &Position, mv: Move, after: &Position) -> PlyRecord {
        let threats_on_checks = self.rules.chase_definition == ChaseDefinition::FairyStockfish;
        let class = classify_ply(before, after, threats_on_checks);
        PlyRecord::new(before.side_to_move(), &class, &self.ids, mv)
    }

    /// The judgement the ply `mv` (from `before`, the current position, to
    /// `after`) would get if it made a third occurrence, without recording it.
    /// `None` when it would not be a third occurrence. Used by
    /// R-REP-ENFORCE `ForbidRepeat`.
    pub fn judge_candidate(
        &self,
        before: &Position,
        mv: Move,
        after: &Position,
    ) -> Option<CycleJudgement> {
        if is_irreversible(before, mv) {
            return None;
        }
        let earlier = self.earlier(after);
        if earlier.len() < 2 {
            return None;
        }
        let first = earlier[earlier.len() - 2] as usize;
        let mut span = self.records[first..].to_vec();
        span.push(self.classify(before, mv, after));
        Some(judge_cycle(&span, &self.rules))
    }

    /// Records the ply `mv` that led from `before` to `after`. Returns the
    /// repetition when `after` occurs for the third time (R-REP-COUNT).
    ///
    /// A position that keeps recurring after a third occurrence is judged
    /// again over the span since its previous-but-one occurrence.
    pub fn push(&mut self, before: &Position, mv: Move, after: &Position) -> Option<Repetition> {
        let irreversible = is_irreversible(before, mv);
        let record = (!irreversible).then(|| self.classify(before, mv, after));
        self.ids.apply(mv);
        self.ply += 1;
        let Some(record) = record else {
            self.restart(after);
            return None;
        };
        let earlier = self.earlier(after);
        self.records.push(record);
        self.remember(after.clone());
        if earlier.len() < 2 {
            return None;
        }
        let first = earlier[earlier.len() - 2] as usize;
        let judgement = judge_cycle(&self.records[first..], &self.rules);
        let occurrences = earlier[earlier.len() - 2..]
            .iter()
            .map(|&i| self.history[i as usize].0)
            .chain(std::iter::once(self.ply))
            .collect();
        Some(Repetition {
            occurrences,
            judgement,
            ids: self.ids.clone(),
        })
    }
}
