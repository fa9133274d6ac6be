//! Random positions for property tests and fuzzing: every placement the
//! chosen [`Validation`] accepts can come out, not only those reachable from
//! the start.

use crate::fen::soldier_square_ok;
use crate::tables::{ADVISOR_SQUARES, ELEPHANT_SQUARES};
use crate::{Color, Piece, PieceKind, Position, SplitMix64, Square, Validation};

/// Whether `piece` (not a general) may stand on `sq` under `validation`.
fn may_stand(piece: Piece, sq: Square, validation: Validation) -> bool {
    let (color, bit) = (piece.color, sq.bit());
    match (piece.kind, validation) {
        (PieceKind::Advisor, Validation::Lenient) => sq.in_palace(color),
        (PieceKind::Elephant, Validation::Lenient) => sq.rank().is_own_half(color),
        (PieceKind::Advisor, Validation::Strict) => ADVISOR_SQUARES[color.index()] & bit != 0,
        (PieceKind::Elephant, Validation::Strict) => ELEPHANT_SQUARES[color.index()] & bit != 0,
        (PieceKind::Soldier, Validation::Strict) => soldier_square_ok(color, sq),
        _ => true,
    }
}

/// A random position that `validation` accepts: each side has its general
/// and from none up to the start count of every other kind, on random
/// points where they may stand, and a random side to move. Placements that
/// leave the side not to move in check, or the generals facing, are drawn
/// again.
///
/// ```
/// use xiangqi_core::{random_position, Position, SplitMix64, Validation};
/// let mut rng = SplitMix64::new(1);
/// let pos = random_position(&mut rng, Validation::Strict);
/// assert_eq!(Position::from_fen(&pos.to_fen()), Ok(pos));
/// ```
pub fn random_position(rng: &mut SplitMix64, validation: Validation) -> Position {
    loop {
        let mut pos = Position::empty();
        for color in Color::ALL {
            // The generals first, on one of their nine palace points.
            let palace: Vec<Square> = Square::all().filter(|s| s.in_palace(color)).collect();
            pos.put(
                palace[rng.below(palace.len())],
                Piece::new(color, PieceKind::General),
            );
        }
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                if kind == PieceKind::General {
                    continue;
                }
                let piece = Piece::new(color, kind);
                for _ in 0..rng.below(kind.max_count() as usize + 1) {
                    // A few tries per piece: crowded areas may leave it out.
                    for _ in 0..50 {
                        let sq = Square::from_index(rng.below(90) as u8).expect("below 90");
                        if pos.piece_at(sq).is_none() && may_stand(piece, sq, validation) {
                            pos.put(sq, piece);
                            break;
                        }
                    }
                }
            }
        }
        if rng.chance(50) {
            pos.side = Color::Black;
        }
        if let Ok(pos) = pos.validated(validation) {
            return pos;
        }
    }
}
