//! Static exchange evaluation: the material balance of the capture sequence
//! on one point when both sides always recapture with their least valuable
//! piece and may stop when it does not pay.
//!
//! Every capture of the sequence is played for real on a copy of the
//! position, so cannon screens that appear and vanish, horse legs, the
//! flying-general rule and pins are all exact (only legal captures count).

use xiangqi_core::{Move, MoveList, Position};

use crate::eval::piece_value;

/// The exchange value of capture `mv` for the side playing it, in the
/// engine's material units (0 for a move that captures nothing and cannot be
/// recaptured). `mv` must be legal in `pos`.
///
/// ```
/// use xiangqi_core::Position;
/// // The chariot takes a soldier defended by a horse: it loses the chariot for a soldier.
/// let pos = Position::from_fen("3k5/9/9/6n2/4p4/9/9/9/4R4/4K4 w - - 0 1").unwrap();
/// assert!(xiangqi_search::see(&pos, "e1e5".parse().unwrap()) < 0);
/// // A soldier taken for free.
/// let pos = Position::from_fen("3k5/9/9/9/4p4/9/9/9/4R4/4K4 w - - 0 1").unwrap();
/// assert!(xiangqi_search::see(&pos, "e1e5".parse().unwrap()) > 0);
/// ```
pub fn see(pos: &Position, mv: Move) -> i32 {
    let target = mv.to();
    let mut gains = [0i32; 34];
    gains[0] = pos.piece_at(target).map_or(0, |p| piece_value(p.kind));
    let mut on_target = pos.piece_at(mv.from()).map_or(0, |p| piece_value(p.kind));
    let mut p = pos.clone();
    p.make_move(mv);
    let mut captures = MoveList::new();
    let mut depth = 0;
    while depth + 1 < gains.len() {
        // Advisors and elephants recapture too: take every legal capture onto the point.
        p.legal_captures(&mut captures);
        let cheapest = captures
            .iter()
            .copied()
            .filter(|m| m.to() == target)
            .min_by_key(|m| {
                p.piece_at(m.from())
                    .map_or(i32::MAX, |q| piece_value(q.kind))
            });
        let Some(capture) = cheapest else {
            break;
        };
        depth += 1;
        gains[depth] = on_target - gains[depth - 1];
        on_target = p
            .piece_at(capture.from())
            .map_or(0, |q| piece_value(q.kind));
        p.make_move(capture);
    }
    // Each side may decline to continue the exchange.
    while depth > 0 {
        gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
        depth -= 1;
    }
    gains[0]
}

/// A position fit for fitting the evaluation: not in check, and no capture
/// wins material by static exchange.
pub fn is_quiet(pos: &Position) -> bool {
    if pos.is_check() {
        return false;
    }
    let mut captures = MoveList::new();
    pos.legal_captures(&mut captures);
    captures.iter().all(|&mv| see(pos, mv) <= 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_core::PieceKind::{Advisor, Cannon, Chariot, Soldier};

    fn see_of(fen: &str, mv: &str) -> i32 {
        see(&Position::from_fen(fen).unwrap(), mv.parse().unwrap())
    }

    #[test]
    fn exchanges() {
        // Soldier defended by a horse: the chariot is lost for it.
        assert_eq!(
            see_of("3k5/9/9/6n2/4p4/9/9/9/4R4/4K4 w - - 0 1", "e1e5"),
            piece_value(Soldier) - piece_value(Chariot)
        );
        // A cannon takes a chariot through a screen and the advisor recaptures.
        assert_eq!(
            see_of("3k1a3/4r4/9/6n2/4p4/9/9/9/4C4/4K4 w - - 0 1", "e1e8"),
            piece_value(Chariot) - piece_value(Cannon)
        );
        // The advisor takes back, nothing recaptures it: the same as not capturing back.
        assert!(piece_value(Advisor) > 0);
        // An undefended soldier: its value.
        assert_eq!(
            see_of("3k5/9/9/9/4p4/9/9/9/4R4/4K4 w - - 0 1", "e1e5"),
            piece_value(Soldier)
        );
    }

    #[test]
    fn quiet_positions() {
        assert!(is_quiet(&Position::startpos()));
        // The chariot can take a free soldier: not quiet.
        assert!(!is_quiet(
            &Position::from_fen("3k5/9/9/9/4p4/9/9/9/4R4/4K4 w - - 0 1").unwrap()
        ));
    }
}
