//! Static evaluation in centipawns from the side to move's point of view.
//!
//! One function per term; every number is a weight of the one table
//! [`Weights`] (see `weights.rs` for its layout, `default_weights.rs` for the
//! committed values, docs/engine.md for what each term means). Board
//! geometry (palaces, horse legs, what a piece reaches) comes from
//! `xiangqi_core::geometry`.
//!
//! The terms are written once, against a [`Sink`]: the score sink multiplies
//! by the weights, the trace sink records the coefficient of each weight, so
//! the tuner fits exactly the function the engine plays with.
//!
//! Terms: material and piece-square tables, both tapered between opening and
//! endgame by the chariots, horses and cannons left; horse, chariot and cannon
//! mobility; cannons on the enemy general's file; missing advisors and
//! elephants weighted by the enemy pieces they defend against; the attack on
//! the enemy palace (non-linear, not fitted); connected crossed soldiers;
//! a side that can no longer mate has its advantage scaled down; tempo.

mod default_weights;
mod source;
mod trace;
pub mod weights;

use xiangqi_core::{geometry, Color, Piece, PieceKind, Position, Square, SquareSet};

use default_weights::DEFAULT_WEIGHTS;
pub use source::weights_source;
pub use trace::{trace, Trace};
use weights::*;
pub use weights::{Phase, WeightCountError, WeightGroup, Weights};

/// Phase weight per kind (chariot 2, horse and cannon 1); a full board has [`PHASE_MAX`].
const PHASE_WEIGHT: [i32; KINDS] = [0, 0, 0, 1, 2, 1, 0];
const PHASE_MAX: i32 = 16;
/// Mobility counts below these are penalised (horse 4, chariot and cannon 6).
const BASE_MOBILITY: [i32; KINDS] = [0, 0, 0, 4, 6, 6, 0];
/// A side that cannot mate keeps 1/16 of its advantage.
const NO_MATE_DIVISOR: i32 = 16;

const KINDS_ALL: [PieceKind; KINDS] = [
    PieceKind::General,
    PieceKind::Advisor,
    PieceKind::Elephant,
    PieceKind::Horse,
    PieceKind::Chariot,
    PieceKind::Cannon,
    PieceKind::Soldier,
];

/// Where the terms put their contributions, per colour.
pub(crate) trait Sink {
    /// `coef` times the weight at `index`, for `color`, not tapered.
    fn add(&mut self, color: Color, index: usize, coef: i32);
    /// `coef` times a tapered pair: `opening` and `endgame` table indices.
    fn add_tapered(&mut self, color: Color, opening: usize, endgame: usize, coef: i32);
    /// A value that is not linear in the weights (fixed for a fit).
    fn add_fixed(&mut self, color: Color, value: i32);
}

/// Counts and placements every term may need, gathered once.
pub(crate) struct Board<'a> {
    pub pos: &'a Position,
    pub weights: &'a Weights,
    /// `count[color][kind]`.
    pub count: [[i32; KINDS]; 2],
    /// Chariots, horses and cannons left, weighted, capped at [`PHASE_MAX`].
    pub phase: i32,
}

impl<'a> Board<'a> {
    fn new(pos: &'a Position, weights: &'a Weights) -> Board<'a> {
        let mut count = [[0; KINDS]; 2];
        let mut phase = 0;
        for (_, piece) in pos.pieces() {
            count[piece.color.index()][piece.kind.index()] += 1;
            phase += PHASE_WEIGHT[piece.kind.index()];
        }
        Board {
            pos,
            weights,
            count,
            phase: phase.min(PHASE_MAX),
        }
    }

    fn squares(&self, color: Color, kind: PieceKind) -> SquareSet {
        self.pos.squares_of(Piece::new(color, kind))
    }

    /// A chariot, horse, cannon or soldier: something that can still give mate.
    fn can_mate(&self, color: Color) -> bool {
        let c = &self.count[color.index()];
        c[3] + c[4] + c[5] + c[6] > 0
    }
}

/// The point whose piece-square weight a piece of `color` on `sq` reads (Red's view).
fn red_view(color: Color, sq: Square) -> Square {
    match color {
        Color::Red => sq,
        Color::Black => sq.flip_ranks(),
    }
}

fn material(b: &Board<'_>, sink: &mut impl Sink) {
    for color in Color::ALL {
        for kind in KINDS_ALL {
            let n = b.count[color.index()][kind.index()];
            if n != 0 {
                let opening = material_index(Phase::Opening, kind);
                let endgame = material_index(Phase::Endgame, kind);
                sink.add_tapered(color, opening, endgame, n);
            }
        }
    }
}

fn piece_squares(b: &Board<'_>, sink: &mut impl Sink) {
    for (sq, piece) in b.pos.pieces() {
        let at = red_view(piece.color, sq);
        let opening = pst_index(Phase::Opening, piece.kind, at);
        let endgame = pst_index(Phase::Endgame, piece.kind, at);
        sink.add_tapered(piece.color, opening, endgame, 1);
    }
}

/// Horse, chariot and cannon: points reached (not holding an own piece) beyond a base count.
fn mobility(b: &Board<'_>, sink: &mut impl Sink) {
    for color in Color::ALL {
        let own = b.pos.pieces_of(color).0;
        for kind in [PieceKind::Horse, PieceKind::Chariot, PieceKind::Cannon] {
            for sq in b.squares(color, kind).iter() {
                let reach = (b.pos.reach(sq).0 & !own).count_ones() as i32;
                sink.add(
                    color,
                    MOBILITY + kind.index(),
                    reach - BASE_MOBILITY[kind.index()],
                );
            }
        }
    }
}

/// A cannon on the enemy general's file with one screen (a pin or a threat)
/// or none (the "empty-head cannon").
fn cannon_file(b: &Board<'_>, sink: &mut impl Sink) {
    for color in Color::ALL {
        let general = b.pos.general(!color);
        for sq in b.squares(color, PieceKind::Cannon).iter() {
            if sq.file() != general.file() {
                continue;
            }
            let between = geometry::between(sq, general).0 & b.pos.occupied().0;
            match between.count_ones() {
                0 => sink.add(color, CANNON_FILE + EMPTY_HEAD, 1),
                1 => sink.add(color, CANNON_FILE + ONE_SCREEN, 1),
                _ => {}
            }
        }
    }
}

/// Each missing advisor or elephant costs a weight per enemy piece of the
/// kinds it defends against.
fn missing_defenders(b: &Board<'_>, sink: &mut impl Sink) {
    for color in Color::ALL {
        let own = &b.count[color.index()];
        let enemy = &b.count[(!color).index()];
        let advisors_missing = 2 - own[PieceKind::Advisor.index()];
        let elephants_missing = 2 - own[PieceKind::Elephant.index()];
        for kind in [PieceKind::Horse, PieceKind::Chariot, PieceKind::Cannon] {
            let n = enemy[kind.index()];
            if n != 0 && advisors_missing != 0 {
                sink.add(color, MISSING_ADVISOR + kind.index(), -advisors_missing * n);
            }
            if n != 0 && elephants_missing != 0 {
                sink.add(
                    color,
                    MISSING_ELEPHANT + kind.index(),
                    -elephants_missing * n,
                );
            }
        }
    }
}

/// The points of the enemy palace a piece bears on: chariot and horse (legs
/// free) by their reach, a cannon behind its screens, a soldier once across
/// the river; other kinds none.
fn palace_hits(b: &Board<'_>, color: Color, kind: PieceKind, sq: Square) -> u32 {
    let palace = geometry::palace(!color).0;
    let bears = match kind {
        PieceKind::Horse | PieceKind::Chariot => b.pos.reach(sq).0,
        PieceKind::Cannon => b.pos.screen_attacks(sq).0,
        PieceKind::Soldier if geometry::has_crossed_river(color, sq) => b.pos.reach(sq).0,
        _ => 0,
    };
    (bears & palace).count_ones()
}

/// Units per attacked palace point and attacker kind; with two or more
/// attackers, quadratic in the units (pieces working together are far more
/// than the sum of single ones) and capped.
fn palace_attack(b: &Board<'_>, sink: &mut impl Sink) {
    let w = b.weights;
    for color in Color::ALL {
        let mut units = 0;
        let mut attackers = 0;
        for kind in [
            PieceKind::Horse,
            PieceKind::Chariot,
            PieceKind::Cannon,
            PieceKind::Soldier,
        ] {
            for sq in b.squares(color, kind).iter() {
                let hits = palace_hits(b, color, kind, sq) as i32;
                if hits > 0 {
                    units += hits * w.get(ATTACK_UNITS + kind.index());
                    attackers += 1;
                }
            }
        }
        // A lone attacker rarely mates.
        if attackers >= 2 {
            let divisor = w.get(KING_ATTACK + ATTACK_DIVISOR).max(1);
            let danger = (units * units / divisor).min(w.get(KING_ATTACK + ATTACK_CAP));
            sink.add_fixed(color, danger);
        }
    }
}

/// Crossed soldiers side by side on a rank.
fn connected_soldiers(b: &Board<'_>, sink: &mut impl Sink) {
    for color in Color::ALL {
        let soldiers = b.squares(color, PieceKind::Soldier);
        let mut pairs = 0;
        for sq in soldiers.iter() {
            let right = Square::from_index(sq.index() as u8 + 1);
            if geometry::has_crossed_river(color, sq)
                && sq.file().index() < 8
                && right.is_some_and(|r| soldiers.contains(r))
            {
                pairs += 1;
            }
        }
        if pairs != 0 {
            sink.add(color, CONNECTED_SOLDIERS, pairs);
        }
    }
}

/// The sink `evaluate` uses: weighted sums per colour, tapered at the end
/// (the trace's sink, [`trace`], keeps every term instead).
struct WeightedSums<'a> {
    weights: &'a Weights,
    opening: [i32; 2],
    endgame: [i32; 2],
    plain: [i32; 2],
}

impl Sink for WeightedSums<'_> {
    #[inline(always)]
    fn add(&mut self, color: Color, index: usize, coef: i32) {
        self.plain[color.index()] += coef * self.weights.get(index);
    }

    #[inline(always)]
    fn add_tapered(&mut self, color: Color, opening: usize, endgame: usize, coef: i32) {
        self.opening[color.index()] += coef * self.weights.get(opening);
        self.endgame[color.index()] += coef * self.weights.get(endgame);
    }

    #[inline(always)]
    fn add_fixed(&mut self, color: Color, value: i32) {
        self.plain[color.index()] += value;
    }
}

/// Runs every term into `sink`.
pub(crate) fn terms(b: &Board<'_>, sink: &mut impl Sink) {
    material(b, sink);
    piece_squares(b, sink);
    mobility(b, sink);
    cannon_file(b, sink);
    missing_defenders(b, sink);
    palace_attack(b, sink);
    connected_soldiers(b, sink);
}

/// Evaluates `pos` for the side to move with the committed weights.
///
/// ```
/// use xiangqi_core::Position;
/// use xiangqi_search::{weights::TEMPO, Weights};
/// // The start position is symmetric: only the tempo weight remains.
/// let v = xiangqi_search::evaluate(&Position::startpos());
/// assert_eq!(v, Weights::default().get(TEMPO));
/// ```
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &Weights::default())
}

/// Evaluates `pos` for the side to move with explicit weights.
pub fn evaluate_with(pos: &Position, weights: &Weights) -> i32 {
    let b = Board::new(pos, weights);
    let mut s = WeightedSums {
        weights,
        opening: [0; 2],
        endgame: [0; 2],
        plain: [0; 2],
    };
    terms(&b, &mut s);
    let total = |c: usize| {
        (s.opening[c] * b.phase + s.endgame[c] * (PHASE_MAX - b.phase)) / PHASE_MAX + s.plain[c]
    };
    let mut red = total(0) - total(1);
    if (red > 0 && !b.can_mate(Color::Red)) || (red < 0 && !b.can_mate(Color::Black)) {
        red /= NO_MATE_DIVISOR;
    }
    let v = if pos.side_to_move() == Color::Red {
        red
    } else {
        -red
    };
    v + weights.get(TEMPO)
}

/// Material value of a piece kind for move ordering and pruning margins
/// (the committed opening values; the general counts 5000).
pub(crate) fn piece_value(kind: PieceKind) -> i32 {
    if kind == PieceKind::General {
        5000
    } else {
        DEFAULT_WEIGHTS[material_index(Phase::Opening, kind)]
    }
}

#[cfg(test)]
mod tests;
