//! The network's inputs: one feature per piece on the board, seen from a
//! perspective (Red or Black).
//!
//! For perspective `P` a piece gives the feature
//! `relation * 630 + kind * 90 + square_from(P)`, where `relation` is 0 for
//! `P`'s own pieces and 1 for the opponent's, `kind` is
//! [`PieceKind::index`] (xiangqi-core's order: General, Advisor, Elephant,
//! Horse, Chariot, Cannon, Soldier), and `square_from(P)` is the square's
//! index (`rank * 9 + file`) for Red and the square mirrored top to bottom
//! (rank `r` becomes `9 - r`, same file) for Black, so that each side sees
//! itself at the bottom. The features are not relative to the general's
//! square, so no move (a general's neither) forces a refresh.

use xiangqi_core::{Color, Piece, PieceKind, Position, Square};

/// Inputs per perspective: 2 relations x 7 kinds x 90 squares.
pub const INPUTS: usize = 2 * 7 * 90;

/// Most pieces on a board, hence most active features per perspective.
pub const MAX_ACTIVE: usize = 32;

/// The feature of a `piece_color` `kind` on `square`, seen by `perspective`.
///
/// ```
/// use xiangqi_core::{Color, PieceKind, Square};
/// use xiangqi_nnue::features::feature_index;
/// // Red's general on e0 seen by Red, and Black's on e9 seen by Black: the same feature.
/// let red = feature_index(Color::Red, Color::Red, PieceKind::General, Square::E0);
/// let black = feature_index(Color::Black, Color::Black, PieceKind::General, Square::E9);
/// assert_eq!((red, black), (4, 4));
/// ```
#[inline(always)]
pub fn feature_index(
    perspective: Color,
    piece_color: Color,
    kind: PieceKind,
    square: Square,
) -> usize {
    let relation = usize::from(piece_color != perspective);
    let square = match perspective {
        Color::Red => square.index(),
        Color::Black => square.flip_ranks().index(),
    };
    relation * 630 + kind.index() * 90 + square
}

/// [`feature_index`] of a [`Piece`].
#[inline(always)]
pub fn piece_feature(perspective: Color, piece: Piece, square: Square) -> usize {
    feature_index(perspective, piece.color, piece.kind, square)
}

/// The features of every piece of `pos` seen by `perspective`, in square order.
pub fn active_features(pos: &Position, perspective: Color) -> impl Iterator<Item = usize> + '_ {
    pos.pieces()
        .map(move |(square, piece)| piece_feature(perspective, piece, square))
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_core::{SplitMix64, Validation};

    #[test]
    fn every_piece_on_every_square_has_its_own_feature_below_inputs() {
        for perspective in Color::ALL {
            let mut seen = vec![false; INPUTS];
            for color in Color::ALL {
                for kind in PieceKind::ALL {
                    for square in Square::all() {
                        let index = feature_index(perspective, color, kind, square);
                        assert!(!seen[index], "feature {index} given twice");
                        seen[index] = true;
                    }
                }
            }
            assert!(seen.iter().all(|&s| s));
        }
    }

    #[test]
    fn the_colour_flipped_position_gives_the_other_perspective_s_features() {
        let mut rng = SplitMix64::new(7);
        for _ in 0..200 {
            let pos = xiangqi_core::random_position(&mut rng, Validation::Strict);
            let flipped = pos.color_flipped();
            let mut red: Vec<usize> = active_features(&pos, Color::Red).collect();
            let mut black_of_flipped: Vec<usize> =
                active_features(&flipped, Color::Black).collect();
            red.sort_unstable();
            black_of_flipped.sort_unstable();
            assert_eq!(red, black_of_flipped, "{}", pos.to_fen());
        }
    }

    #[test]
    fn the_start_position_has_32_features_per_perspective() {
        let pos = Position::startpos();
        for perspective in Color::ALL {
            let features: Vec<usize> = active_features(&pos, perspective).collect();
            assert_eq!(features.len(), MAX_ACTIVE);
            // Own general at e0 from either side's view; the opponent's at e9.
            assert!(features.contains(&4));
            assert!(features.contains(&(630 + 81 + 4)));
        }
    }
}
