//! Insufficient material (section 7).

use xiangqi_core::{Color, MoveList, Piece, PieceKind, Position};

use crate::rules::MaterialRule;

/// R-DRAW-MATERIAL: neither side has a piece that can cross the river, so
/// neither mate nor stalemate is possible any more.
pub fn is_dead(pos: &Position) -> bool {
    !pos.pieces().any(|(_, p)| p.kind.can_cross_river())
}

fn count(pos: &Position, color: Color, kind: PieceKind) -> usize {
    pos.squares_of(Piece::new(color, kind)).len()
}

/// "Draw*" of R-DRAW-MATERIAL-EXT: the side to move has no move that leaves
/// the opponent without a legal move.
fn no_stalemating_move(pos: &Position) -> bool {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    moves.iter().all(|&mv| {
        let mut next = pos.clone();
        next.make_move(mv);
        next.has_legal_move()
    })
}

/// R-DRAW-MATERIAL-EXT (Pikafish's table), including R-DRAW-MATERIAL.
pub fn is_drawn_extended(pos: &Position) -> bool {
    if is_dead(pos) {
        return true;
    }
    let any = |kind| Color::ALL.iter().any(|&c| count(pos, c, kind) > 0);
    if any(PieceKind::Soldier) || any(PieceKind::Chariot) || any(PieceKind::Horse) {
        return false;
    }
    let cannons = [
        count(pos, Color::Red, PieceKind::Cannon),
        count(pos, Color::Black, PieceKind::Cannon),
    ];
    let advisors = |c: Color| count(pos, c, PieceKind::Advisor);
    let elephants = |c: Color| count(pos, c, PieceKind::Elephant);
    match cannons {
        [1, 0] | [0, 1] => {
            let owner = if cannons[0] == 1 {
                Color::Red
            } else {
                Color::Black
            };
            let other = owner.opposite();
            if advisors(owner) > 0 {
                return false;
            }
            match (advisors(other), elephants(owner)) {
                (0, _) => true,
                (1, 0) => true,
                (1, _) => no_stalemating_move(pos),
                (_, 0) => no_stalemating_move(pos),
                _ => false,
            }
        }
        [1, 1] => {
            if advisors(Color::Red) + advisors(Color::Black) > 0 {
                false
            } else if elephants(Color::Red) + elephants(Color::Black) == 0 {
                true
            } else {
                no_stalemating_move(pos)
            }
        }
        _ => false,
    }
}

/// Whether `rule` declares `pos` drawn for lack of material.
pub fn is_insufficient(pos: &Position, rule: MaterialRule) -> bool {
    match rule {
        MaterialRule::Off => false,
        MaterialRule::Dead => is_dead(pos),
        MaterialRule::Extended => is_drawn_extended(pos),
    }
}

/// R-DRAW-MATERIAL-TIMEOUT: `side` has only its general, advisors and elephants.
pub fn is_bare(pos: &Position, side: Color) -> bool {
    !pos.pieces()
        .any(|(_, p)| p.color == side && p.kind.can_cross_river())
}
