//! The per-ply classification of section 5.2 and the chase test of 5.3:
//! check, chase (with the newly chased pieces) or idle.
//!
//! This is the cheap entry point the search calls on its hot path: one ply
//! costs two legal-capture generations plus one copy-make per candidate
//! capture, and allocates nothing.

use xiangqi_core::{Move, MoveList, Piece, PieceKind, Position, Square, SquareSet};

/// What one ply was, for the repetition rules (5.2).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum PlyKind {
    /// R-REP-CHECK: the opponent's general is in check after the ply.
    Check,
    /// R-REP-CHASE: not a check, and at least one piece is newly chased.
    Chase,
    /// Anything else.
    Idle,
}

/// The classification of one ply, with the squares involved (as they stand
/// after the ply).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlyClass {
    /// Check, chase or idle.
    pub kind: PlyKind,
    /// The mover's pieces giving check (empty unless `kind` is `Check`).
    pub checkers: SquareSet,
    /// `NewChased(M)` (R-REP-CHASE-NEW): opponent pieces the ply newly threatens.
    /// Empty for a check under the spec definition; with
    /// [`ChaseDefinition::FairyStockfish`](crate::ChaseDefinition) a check may carry threats too.
    pub chased: SquareSet,
    /// The mover's pieces making those new threats.
    pub chasers: SquareSet,
}

/// Most counted threats a side can have: two each of chariot (4 captures),
/// cannon (4), horse (8), advisor (4) and elephant (4).
const MAX_THREATS: usize = 48;

/// The real threats of the side to move (`Threats(X, S)` of 5.3), as
/// (attacker, victim) pairs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Threats {
    /// The threatened pieces of the side not to move.
    pub victims: SquareSet,
    /// The pieces making those threats.
    pub attackers: SquareSet,
    pairs: [(u8, u8); MAX_THREATS],
    len: u8,
}

impl Threats {
    /// The (attacker, victim) pairs.
    pub fn pairs(&self) -> impl Iterator<Item = (Square, Square)> + '_ {
        self.pairs[..self.len as usize].iter().map(|&(a, v)| {
            (
                Square::from_index(a).expect("stored squares are valid"),
                Square::from_index(v).expect("stored squares are valid"),
            )
        })
    }

    /// True when the piece on `attacker` threatens the one on `victim`.
    pub fn contains(&self, attacker: Square, victim: Square) -> bool {
        let key = (attacker.index() as u8, victim.index() as u8);
        self.pairs[..self.len as usize].contains(&key)
    }

    fn push(&mut self, attacker: Square, victim: Square) {
        self.victims.insert(victim);
        self.attackers.insert(attacker);
        if (self.len as usize) < MAX_THREATS {
            self.pairs[self.len as usize] = (attacker.index() as u8, victim.index() as u8);
            self.len += 1;
        }
    }
}

/// R-REP-CHASE-ATTACKER: only these pieces chase.
fn can_chase(kind: PieceKind) -> bool {
    matches!(
        kind,
        PieceKind::Chariot
            | PieceKind::Horse
            | PieceKind::Cannon
            | PieceKind::Advisor
            | PieceKind::Elephant
    )
}

/// R-REP-CHASE-VICTIM: only these pieces can be chased.
fn can_be_chased(piece: Piece, on: Square) -> bool {
    match piece.kind {
        PieceKind::General => false,
        PieceKind::Soldier => !on.rank().is_own_half(piece.color),
        _ => true,
    }
}

/// R-REP-CHASE-REAL points 2 and 3: attacks that count whatever protects the victim.
fn is_upward(attacker: PieceKind, victim: PieceKind) -> bool {
    match attacker {
        PieceKind::Horse | PieceKind::Cannon => victim == PieceKind::Chariot,
        PieceKind::Advisor | PieceKind::Elephant => matches!(
            victim,
            PieceKind::Chariot | PieceKind::Horse | PieceKind::Cannon
        ),
        _ => false,
    }
}

/// R-REP-CHASE-REAL point 1: after the legal capture `capture`, the victim's
/// side has no legal move that takes back on the capture point. Judged in the
/// position after the capture, so lines the capture opens or closes count,
/// and pinned or self-checking recaptures (false protection) do not.
pub fn is_unprotected(pos: &Position, capture: Move) -> bool {
    let mut after = pos.clone();
    after.make_move(capture);
    let point = capture.to();
    let defender = after.side_to_move();
    !after
        .attackers(point, defender)
        .iter()
        .any(|from| after.is_legal(Move::new(from, point)))
}

/// `Threats(X, S)` for S = the side to move in `pos` (5.3): every legal capture
/// by a chasing piece (R-REP-CHASE-ATTACKER, R-REP-CHASE-LEGAL) of a chaseable
/// piece (R-REP-CHASE-VICTIM) that is real (R-REP-CHASE-REAL) and not an offer
/// to exchange (R-REP-CHASE-SAME).
pub fn threats(pos: &Position) -> Threats {
    let mut captures = MoveList::new();
    pos.legal_captures(&mut captures);
    threats_among(pos, &captures)
}

/// The counted threats among `captures` (capture moves of the side to move).
fn threats_among(pos: &Position, captures: &MoveList) -> Threats {
    let mut result = Threats {
        victims: SquareSet::EMPTY,
        attackers: SquareSet::EMPTY,
        pairs: [(0, 0); MAX_THREATS],
        len: 0,
    };
    // The victim's side to move, for the exchange test; built only when needed.
    let mut victim_to_move: Option<Position> = None;
    for &mv in captures.iter() {
        let (from, to) = (mv.from(), mv.to());
        let (Some(attacker), Some(victim)) = (pos.piece_at(from), pos.piece_at(to)) else {
            continue;
        };
        if !can_chase(attacker.kind) || !can_be_chased(victim, to) {
            continue;
        }
        let real = if attacker.kind == victim.kind {
            // R-REP-CHASE-SAME: an offer to exchange when the victim can hit back.
            let other = victim_to_move.get_or_insert_with(|| {
                let mut p = pos.clone();
                p.make_null_move();
                p
            });
            !other.is_legal(Move::new(to, from)) && is_unprotected(pos, mv)
        } else {
            is_upward(attacker.kind, victim.kind) || is_unprotected(pos, mv)
        };
        if real {
            result.push(from, to);
        }
    }
    result
}

/// `Threats(P′, S)`: the threats of the side that just moved in `after`, as if
/// its opponent passed (5.3).
pub fn threats_after(after: &Position) -> Threats {
    let mut passed = after.clone();
    passed.make_null_move();
    threats(&passed)
}

/// `Threats(P, S)` for the position before a ply. When S is in check in P,
/// its other threats are only suspended by the check, so a capture also
/// counts as possible when the only pieces attacking S's general after it
/// are the current checkers: a check evasion does not "newly" threaten what
/// S threatened before the check (refinement of R-REP-CHASE-NEW,
/// docs/adjudication.md).
fn threats_before(before: &Position) -> Threats {
    if !before.is_check() {
        return threats(before);
    }
    let checkers = before.checkers();
    let us = before.side_to_move();
    let mut pseudo = MoveList::new();
    before.pseudo_legal_moves(&mut pseudo);
    pseudo.retain(|mv| {
        if before.piece_at(mv.to()).is_none() {
            return false;
        }
        let mut next = before.clone();
        next.make_move(mv);
        let general = next.general(us);
        let attackers = next.attackers(general, us.opposite());
        attackers.0 & !checkers.0 == 0
    });
    threats_among(before, &pseudo)
}

/// Classifies the ply that led from `before` to `after` (5.2, R-REP-CHECK,
/// R-REP-CHASE, R-REP-CHASE-NEW). `after` must be `before` with one legal move
/// played. With `threats_on_checks` (Fairy-Stockfish style) a checking ply
/// also records the threats it creates.
pub fn classify_ply(before: &Position, after: &Position, threats_on_checks: bool) -> PlyClass {
    debug_assert_eq!(before.side_to_move(), after.side_to_move().opposite());
    let checkers = after.checkers();
    let is_check = !checkers.is_empty();
    if is_check && !threats_on_checks {
        return PlyClass {
            kind: PlyKind::Check,
            checkers,
            chased: SquareSet::EMPTY,
            chasers: SquareSet::EMPTY,
        };
    }
    let old = threats_before(before);
    let new = threats_after(after);
    // The moved piece: the one point the mover left and the one it reached.
    let mover = before.side_to_move();
    let left = SquareSet(before.pieces_of(mover).0 & !after.pieces_of(mover).0).first();
    let reached = SquareSet(after.pieces_of(mover).0 & !before.pieces_of(mover).0).first();
    let mut chased = SquareSet::EMPTY;
    let mut chasers = SquareSet::EMPTY;
    // R-REP-CHASE-NEW on (attacker, victim) pairs, the attacker tracked by
    // identity: a threat is new unless the same piece made it before the ply.
    for (attacker, victim) in new.pairs() {
        let was = if Some(attacker) == reached {
            left.unwrap_or(attacker)
        } else {
            attacker
        };
        if !old.contains(was, victim) {
            chased.insert(victim);
            chasers.insert(attacker);
        }
    }
    let kind = if is_check {
        PlyKind::Check
    } else if chased.is_empty() {
        PlyKind::Idle
    } else {
        PlyKind::Chase
    };
    PlyClass {
        kind,
        checkers,
        chased,
        chasers,
    }
}
