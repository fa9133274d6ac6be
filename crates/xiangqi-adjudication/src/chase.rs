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
    /// Bit `i` set: pair `i` is a real threat (always all set in `Threats(X, S)`).
    real: u64,
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
        self.find(attacker, victim).is_some()
    }

    /// The pair's index, if present.
    fn find(&self, attacker: Square, victim: Square) -> Option<usize> {
        let key = (attacker.index() as u8, victim.index() as u8);
        self.pairs[..self.len as usize]
            .iter()
            .position(|&p| p == key)
    }

    /// Whether the attack of `attacker` on `victim` is present, and if so real.
    fn reality(&self, attacker: Square, victim: Square) -> Option<bool> {
        self.find(attacker, victim)
            .map(|i| self.real & (1 << i) != 0)
    }

    fn push(&mut self, attacker: Square, victim: Square, real: bool) {
        self.victims.insert(victim);
        self.attackers.insert(attacker);
        if (self.len as usize) < MAX_THREATS {
            self.pairs[self.len as usize] = (attacker.index() as u8, victim.index() as u8);
            self.real |= (real as u64) << self.len;
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
    pairs_among(pos, &captures, Count::RealThreats)
}

/// Which of the capture pairs a set keeps.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Count {
    /// Only real threats (`Threats(X, S)`).
    RealThreats,
    /// Every attack of a chasing piece on a chaseable one, real or not.
    Attacks,
}

/// The (attacker, victim) pairs among `captures` (capture moves of the side to move).
fn pairs_among(pos: &Position, captures: &MoveList, count: Count) -> Threats {
    let mut result = Threats {
        victims: SquareSet::EMPTY,
        attackers: SquareSet::EMPTY,
        pairs: [(0, 0); MAX_THREATS],
        len: 0,
        real: 0,
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
        if real || count == Count::Attacks {
            result.push(from, to, real);
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

/// The attacks S could make in the position P before its ply: every legal
/// capture of a chaseable piece by a chasing piece, real or not. A threat
/// after the ply is new only when its attacker could not capture its victim
/// here at all; a ply that merely changes whether an attacked piece is
/// protected (blocking or unscreening a protector) renews no attack
/// (refinement of R-REP-CHASE-NEW, docs/adjudication.md; diagrams 39, 61
/// and 71 of the rule book).
///
/// When S is in check in P, its other attacks are only suspended by the
/// check, so a capture also counts as possible when the only pieces
/// attacking S's general after it are the current checkers: a check evasion
/// does not "newly" attack what S attacked before the check.
fn attacks_before(before: &Position) -> Threats {
    let mut captures = MoveList::new();
    if !before.is_check() {
        before.legal_captures(&mut captures);
        return pairs_among(before, &captures, Count::Attacks);
    }
    let checkers = before.checkers();
    let us = before.side_to_move();
    before.pseudo_legal_moves(&mut captures);
    captures.retain(|mv| {
        if before.piece_at(mv.to()).is_none() {
            return false;
        }
        let mut next = before.clone();
        next.make_move(mv);
        let general = next.general(us);
        let attackers = next.attackers(general, us.opposite());
        attackers.0 & !checkers.0 == 0
    });
    pairs_among(before, &captures, Count::Attacks)
}

/// True when the ply from `before` to `after` defends the mover: it evades a
/// check, or a real threat of the opponent on one of the mover's pieces
/// stands before it and not after it (the piece escaped, or the attack was
/// blocked or unscreened). A protector that such a defence cuts off, by
/// moving or blocking a cannon's screen or a line, does not make the
/// defence a chase (rule-book diagrams 39, 61 and 71; in the book's first
/// additional illustration the screen moves with no threat to parry, and
/// that is a chase). `left`/`reached` are the moved piece's two points.
fn parries(
    before: &Position,
    after: &Position,
    left: Option<Square>,
    reached: Option<Square>,
) -> bool {
    if before.is_check() {
        return true;
    }
    // The opponent's threats before the ply, as if it were to move.
    let against_before = threats_after(before);
    let against_after = threats(after);
    for (attacker, victim) in against_before.pairs() {
        let victim_now = if Some(victim) == left {
            reached.unwrap_or(victim)
        } else {
            victim
        };
        if !against_after.contains(attacker, victim_now) {
            return true;
        }
    }
    false
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
    let old = attacks_before(before);
    let new = threats_after(after);
    // The moved piece: the one point the mover left and the one it reached.
    let mover = before.side_to_move();
    let left = SquareSet(before.pieces_of(mover).0 & !after.pieces_of(mover).0).first();
    let reached = SquareSet(after.pieces_of(mover).0 & !before.pieces_of(mover).0).first();
    let mut chased = SquareSet::EMPTY;
    let mut chasers = SquareSet::EMPTY;
    // R-REP-CHASE-NEW on (attacker, victim) pairs, the attacker tracked by
    // identity: a threat is new when the same piece could not capture that
    // victim before the ply. One that could, but not really (the victim was
    // protected, or could hit back), became real through the ply's effect
    // on protection; that counts unless the ply was a defence or a step of
    // the general (R-REP-CHASE-ATTACKER: the general may work with another
    // piece, e.g. hold a protector by the facing rule).
    let general_stepped =
        left.and_then(|from| before.piece_at(from)).map(|p| p.kind) == Some(PieceKind::General);
    let mut defended: Option<bool> = None;
    for (attacker, victim) in new.pairs() {
        let was = if Some(attacker) == reached {
            left.unwrap_or(attacker)
        } else {
            attacker
        };
        let counts = match old.reality(was, victim) {
            None => true,
            Some(true) => false,
            Some(false) => {
                !general_stepped
                    && !*defended.get_or_insert_with(|| parries(before, after, left, reached))
            }
        };
        if counts {
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
