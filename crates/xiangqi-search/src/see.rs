//! Static exchange evaluation: the material balance of the capture sequence
//! on one point when both sides always recapture with their least valuable
//! piece and may stop when it does not pay.
//!
//! Built for the search's hot path (capture ordering, pruning of losing
//! captures): nothing is played. The attackers of the point are read anew
//! from the board with the pieces that have already captured taken off
//! ([`Position::attackers_within`]), so a chariot behind a chariot, a cannon
//! whose screen has gone or appeared, an unblocked horse leg or elephant eye
//! all come into view at the right moment. Pins are not looked at (a
//! pinned piece counts as a recapture), as in most engines' exchange
//! evaluators; the general joins the exchange only as its last capture, onto
//! a point nothing attacks any more and off the other general's open file.
//! On random games it agrees with playing the exchange out by legal
//! captures in more than 99 % of the captures (tested).

use xiangqi_core::{geometry, Color, Move, MoveList, PieceKind, Position, Square, SquareSet};

use crate::eval::piece_value;

/// The exchange value of `mv` for the side playing it, in the engine's
/// material units: what it captures, less what it loses on the point when
/// both sides go on capturing there with their cheapest piece as long as it
/// pays. A quiet move is scored as well: 0 when its piece is safe on its new
/// point, negative when it can be taken there at a profit. `mv` must be
/// legal in `pos`; for anything else the result is meaningless, but no
/// panic.
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
    let Some(mover) = pos.piece_at(mv.from()) else {
        return 0;
    };
    let target = mv.to();
    // gains[d]: what the side making capture d has won once it is made,
    // if the exchange stopped there.
    let mut gains = [0i32; 34];
    gains[0] = pos.piece_at(target).map_or(0, |p| piece_value(p.kind));
    let mut on_target = piece_value(mover.kind);
    let mut occupied = pos.occupied();
    occupied.remove(mv.from());
    occupied.insert(target);
    let mut side = mover.color.opposite();
    let mut depth = 0;
    while depth + 1 < gains.len() {
        let Some((from, kind)) = cheapest_attacker(pos, target, side, occupied) else {
            break;
        };
        occupied.remove(from);
        // The general may take only where nothing would take it back and
        // where it would not face the other general (R-LEGAL-FACING).
        if kind == PieceKind::General && general_exposed(pos, target, side, occupied) {
            break;
        }
        depth += 1;
        gains[depth] = on_target - gains[depth - 1];
        on_target = piece_value(kind);
        side = side.opposite();
    }
    settle(&mut gains, depth)
}

/// The value of an exchange whose captures won `gains[0..=depth]` (each
/// from its mover's side, had the exchange stopped there), when each side
/// may decline to go on.
fn settle(gains: &mut [i32], mut depth: usize) -> i32 {
    while depth > 0 {
        gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
        depth -= 1;
    }
    gains[0]
}

/// True when the exchange value of `mv` ([`see`]) is below `threshold`.
/// Cheaper than [`see`] where the answer is plain: a capture of a piece
/// worth at least the capturer, less `threshold`, is never below it.
#[inline]
pub(crate) fn see_below(pos: &Position, mv: Move, threshold: i32) -> bool {
    let value = |sq| pos.piece_at(sq).map_or(0, |p| piece_value(p.kind));
    if value(mv.to()) - value(mv.from()) >= threshold {
        return false;
    }
    see(pos, mv) < threshold
}

/// The least valuable piece of `side` that attacks `target` on the board
/// reduced to `occupied`, with its kind.
fn cheapest_attacker(
    pos: &Position,
    target: Square,
    side: Color,
    occupied: SquareSet,
) -> Option<(Square, PieceKind)> {
    pos.attackers_within(target, side, occupied)
        .iter()
        .filter_map(|sq| pos.piece_at(sq).map(|p| (sq, p.kind)))
        .min_by_key(|&(_, kind)| piece_value(kind))
}

/// Would the general of `side`, standing on `target` on the board reduced
/// to `occupied`, be attacked there, or face the other general on an open file?
fn general_exposed(pos: &Position, target: Square, side: Color, occupied: SquareSet) -> bool {
    let them = side.opposite();
    let other = pos.general(them);
    (other.file() == target.file() && (geometry::between(target, other) & occupied).is_empty())
        || !pos.attackers_within(target, them, occupied).is_empty()
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
    use xiangqi_core::PieceKind::{Advisor, Cannon, Chariot, Horse, Soldier};

    fn see_of(fen: &str, mv: &str) -> i32 {
        see(&Position::from_fen(fen).unwrap(), mv.parse().unwrap())
    }

    fn v(kind: PieceKind) -> i32 {
        piece_value(kind)
    }

    #[test]
    fn exchanges() {
        // Soldier defended by a horse: the chariot is lost for it.
        assert_eq!(
            see_of("3k5/9/9/6n2/4p4/9/9/9/4R4/4K4 w - - 0 1", "e1e5"),
            v(Soldier) - v(Chariot)
        );
        // A cannon takes a chariot through a screen and the advisor recaptures.
        assert_eq!(
            see_of("3k1a3/4r4/9/6n2/4p4/9/9/9/4C4/4K4 w - - 0 1", "e1e8"),
            v(Chariot) - v(Cannon)
        );
        // An undefended soldier: its value.
        assert_eq!(
            see_of("3k5/9/9/9/4p4/9/9/9/4R4/4K4 w - - 0 1", "e1e5"),
            v(Soldier)
        );
    }

    #[test]
    fn a_chariot_behind_a_chariot_joins_the_exchange() {
        // Red: chariots e1 and e0 (behind it); Black: horse on e5 defended
        // by a chariot on e9. Rxe5 Rxe5 Rxe5: Red wins a horse and a
        // chariot for a chariot.
        let fen = "4rk3/9/9/9/4n4/9/9/9/4R4/3KR4 w - - 0 1";
        assert_eq!(see_of(fen, "e1e5"), v(Horse) - v(Chariot) + v(Chariot));
        // Without the second red chariot the exchange stops after Rxe5 Rxe5.
        let fen = "4rk3/9/9/9/4n4/9/9/9/4R4/3K5 w - - 0 1";
        assert_eq!(see_of(fen, "e1e5"), v(Horse) - v(Chariot));
    }

    #[test]
    fn a_cannon_loses_its_screen_when_the_screen_captures() {
        // Red cannon e0 screened by the chariot on e1; black soldier e5
        // defended by a black chariot on e9. Rxe5 Rxe5: the cannon has no
        // screen left (the point between is empty), so it cannot take back.
        let fen = "4rk3/9/9/9/4p4/9/9/9/4R4/3KC4 w - - 0 1";
        assert_eq!(see_of(fen, "e1e5"), v(Soldier) - v(Chariot));
    }

    #[test]
    fn a_cannon_fires_over_a_screen_and_not_without_one() {
        // The red horse takes a black horse on e5; the black cannon on e9
        // takes back over the elephant on e7.
        let fen = "4ck3/9/4b4/9/4n4/2N6/9/9/9/3K5 w - - 0 1";
        assert_eq!(see_of(fen, "c4e5"), v(Horse) - v(Horse));
        // Without the screen on e7 the horse is won.
        let fen = "4ck3/9/9/9/4n4/2N6/9/9/9/3K5 w - - 0 1";
        assert_eq!(see_of(fen, "c4e5"), v(Horse));
    }

    #[test]
    fn advisors_and_elephants_recapture() {
        // The advisor on d9 takes back on e8.
        let fen = "3a1k3/4n4/9/9/9/9/9/9/9/3KR4 w - - 0 1";
        assert_eq!(see_of(fen, "e0e8"), v(Horse) - v(Chariot));
        // The elephant on c9 guards e7 across an empty eye (d8).
        let fen = "2b2k3/9/4n4/9/9/9/9/9/9/3KR4 w - - 0 1";
        assert_eq!(see_of(fen, "e0e7"), v(Horse) - v(Chariot));
        // With its eye blocked it does not.
        let fen = "2b2k3/3n5/4n4/9/9/9/9/9/9/3KR4 w - - 0 1";
        assert_eq!(see_of(fen, "e0e7"), v(Horse));
    }

    #[test]
    fn the_general_recaptures_only_an_undefended_point() {
        // A red chariot takes the advisor on e8 next to the black general
        // on e9: the general takes back, since nothing else guards e8.
        let fen = "4k4/4a4/9/9/9/9/9/9/9/3KR4 w - - 0 1";
        assert_eq!(see_of(fen, "e0e8"), v(Advisor) - v(Chariot));
        // With a red horse guarding e8 the general cannot take back.
        let fen = "4k4/4a4/6N2/9/9/9/9/9/9/3KR4 w - - 0 1";
        assert_eq!(see_of(fen, "e0e8"), v(Advisor));
    }

    #[test]
    fn quiet_moves_are_scored_by_what_they_hang() {
        // The red chariot steps onto a point the black horse guards.
        let fen = "3k5/9/9/6n2/9/9/9/9/4R4/4K4 w - - 0 1";
        assert_eq!(see_of(fen, "e1e5"), -v(Chariot));
        // A safe step.
        assert_eq!(see_of(fen, "e1e2"), 0);
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

#[cfg(test)]
mod agreement {
    use super::*;
    use xiangqi_core::SplitMix64;

    /// The exchange played out for real with legal captures only (pins and
    /// the facing generals included): slow, exact, the reference.
    fn see_by_playing(pos: &Position, mv: Move) -> i32 {
        let target = mv.to();
        let mut gains = [0i32; 34];
        gains[0] = pos.piece_at(target).map_or(0, |p| piece_value(p.kind));
        let mut on_target = pos.piece_at(mv.from()).map_or(0, |p| piece_value(p.kind));
        let mut p = pos.clone();
        p.make_move(mv);
        let mut captures = MoveList::new();
        let mut depth = 0;
        while depth + 1 < gains.len() {
            p.legal_captures(&mut captures);
            let cheapest = captures
                .iter()
                .copied()
                .filter(|m| m.to() == target)
                .min_by_key(|m| {
                    p.piece_at(m.from())
                        .map_or(i32::MAX, |q| piece_value(q.kind))
                });
            let Some(capture) = cheapest else { break };
            depth += 1;
            gains[depth] = on_target - gains[depth - 1];
            on_target = p
                .piece_at(capture.from())
                .map_or(0, |q| piece_value(q.kind));
            p.make_move(capture);
        }
        settle(&mut gains, depth)
    }

    #[test]
    fn agrees_with_playing_the_exchange_out() {
        let mut rng = SplitMix64::new(17);
        let (mut same, mut total) = (0, 0);
        let mut examples = Vec::new();
        let mut list = MoveList::new();
        for _ in 0..300 {
            let mut pos = Position::startpos();
            for _ in 0..120 {
                pos.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                let moves: Vec<Move> = list.iter().copied().collect();
                for &mv in &moves {
                    if pos.piece_at(mv.to()).is_some() {
                        total += 1;
                        let (fast, slow) = (see(&pos, mv), see_by_playing(&pos, mv));
                        if fast == slow {
                            same += 1;
                        } else if total - same <= 5 {
                            // The first few, to see what kind they are (pins, so far).
                            examples.push(format!("{} {mv}: {fast} vs {slow}", pos.to_fen()));
                        }
                    }
                }
                let mv = moves[rng.below(moves.len())];
                pos.make_move(mv);
            }
        }
        // Pins make up the difference (0.2 % here).
        assert!(
            total > 50_000 && same * 100 >= total * 99,
            "{same} of {total}; for instance {examples:?}"
        );
    }
}
