//! Static evaluation in centipawns from the side to move's point of view.
//!
//! Terms (see docs/engine.md for the weights and how they were chosen):
//! * material, tapered between opening and endgame (cannons are worth more
//!   with a full board, horses with an empty one);
//! * piece-square tables per kind, mirrored for Black;
//! * horse mobility (legs not blocked, target not own piece);
//! * chariot mobility along its four lines, cannon mobility (points it can
//!   move to before its screen, and the enemy piece it can capture);
//! * cannons on the enemy general's file with one screen (pin/threat
//!   pressure) or none (the "empty-head cannon");
//! * king safety: missing advisors and elephants, weighted by the enemy
//!   pieces they defend against; and the attack on the enemy palace: units
//!   per palace point each chariot, horse, cannon (behind its screen) or
//!   crossed soldier attacks, counted only with two or more attackers and
//!   scored quadratically (capped);
//! * connected crossed soldiers;
//! * a side with no attacking piece left cannot win: its advantage is scaled down;
//! * a small bonus for the side to move.

use xiangqi_core::{Color, PieceKind, Position};

const KINDS: usize = 7;

/// Material, opening and endgame values, indexed by `PieceKind::index`.
const MATERIAL_MG: [i32; KINDS] = [0, 200, 200, 400, 950, 450, 90];
const MATERIAL_EG: [i32; KINDS] = [0, 200, 200, 440, 950, 410, 110];
/// Game phase weight per kind; a full board has phase `PHASE_MAX`.
const PHASE_WEIGHT: [i32; KINDS] = [0, 0, 0, 1, 2, 1, 0];
const PHASE_MAX: i32 = 16;

const HORSE_MOBILITY: i32 = 6;
const HORSE_BASE_MOBILITY: i32 = 4;
const CHARIOT_MOBILITY: i32 = 3;
const CANNON_SCREEN_PIN: i32 = 25;
const CANNON_EMPTY_HEAD: i32 = 60;
const CONNECTED_SOLDIERS: i32 = 12;
const CANNON_MOBILITY: i32 = 2;
/// King attack: units per enemy palace point a piece attacks, by kind.
const ATTACK_UNITS: [i32; KINDS] = [0, 0, 0, 3, 4, 3, 2];
/// The danger is quadratic in the attack units (several attackers working
/// together are far more than the sum of single ones), capped.
const KING_ATTACK_DIVISOR: i32 = 4;
const KING_ATTACK_MAX: i32 = 400;
const TEMPO: i32 = 10;

/// Evaluation parameters, mutable for tuning runs and ablations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalParams {
    /// Weight of the mobility terms (horse, chariot, cannon) in percent (100 = the default).
    pub mobility: i32,
    /// Weight of the king-safety terms (missing defenders, palace attack) in percent.
    pub king_safety: i32,
    /// Weight of the cannon-file term in percent.
    pub cannon_file: i32,
}

impl Default for EvalParams {
    fn default() -> EvalParams {
        EvalParams {
            mobility: 100,
            king_safety: 100,
            cannon_file: 100,
        }
    }
}

/// Piece-square value for Red's piece of `kind` at (file, rank); Black uses
/// the rank-mirrored point. Built from a few readable rules instead of raw numbers.
const fn pst_value(kind: usize, file: i32, rank: i32) -> i32 {
    let c = if file > 4 { file - 4 } else { 4 - file }; // 0 centre .. 4 edge
    match kind {
        0 => {
            // General: safest at home in the centre.
            let by_rank = [8, -8, -20];
            let r = if rank > 2 { 2 } else { rank };
            by_rank[r as usize] + if c == 0 { 4 } else { -4 }
        }
        1 => {
            if rank == 1 && c == 0 {
                8
            } else if rank == 2 {
                -6
            } else {
                0
            }
        }
        2 => {
            if rank == 2 && c == 0 {
                8
            } else if c == 4 {
                -6
            } else if rank == 4 {
                -3
            } else {
                0
            }
        }
        3 => {
            // Horse: central and advanced, best around the enemy palace.
            let adv = [-8, 0, 4, 8, 12, 18, 24, 28, 20, 2];
            let mut v = adv[rank as usize] + (4 - c) * 5;
            if c == 4 {
                v -= 12;
            }
            if (rank == 7 || rank == 8) && c <= 2 {
                v += 12;
            }
            v
        }
        4 => {
            // Chariot: the ribs and the enemy half.
            let mut v = 0;
            if rank >= 5 {
                v += 8;
            }
            if rank == 6 || rank == 7 {
                v += 8;
            }
            if c == 1 {
                v += 8;
            }
            if rank == 0 && c == 4 {
                v -= 8;
            }
            v
        }
        5 => {
            // Cannon: the central file; the enemy back rank ("bottom cannon").
            let mut v = 0;
            if c == 0 {
                v += 14;
            }
            if c == 4 {
                v -= 6;
            }
            if rank == 9 {
                v += 8;
            }
            if rank >= 7 && c <= 1 {
                v += 4;
            }
            v
        }
        _ => {
            // Soldier: worth little at home, a lot across the river near the palace.
            if rank <= 3 {
                0
            } else if rank == 4 {
                if c == 0 {
                    8
                } else {
                    2
                }
            } else if rank == 9 {
                30 + if c <= 1 { 10 } else { 0 }
            } else {
                let adv = [0, 0, 0, 0, 0, 50, 70, 80, 80];
                let mut v = adv[rank as usize] + (4 - c) * 8;
                if (rank == 7 || rank == 8) && c <= 1 {
                    v += 15;
                }
                v
            }
        }
    }
}

const fn build_pst() -> [[[i32; 90]; KINDS]; 2] {
    let mut t = [[[0; 90]; KINDS]; 2];
    let mut k = 0;
    while k < KINDS {
        let mut sq = 0;
        while sq < 90 {
            let file = (sq % 9) as i32;
            let rank = (sq / 9) as i32;
            t[0][k][sq] = pst_value(k, file, rank);
            t[1][k][sq] = pst_value(k, file, 9 - rank);
            sq += 1;
        }
        k += 1;
    }
    t
}

/// `PST[color][kind][square]`.
static PST: [[[i32; 90]; KINDS]; 2] = build_pst();

/// Local mailbox: 0 empty, else `1 + kind + 8 * color`.
type Board = [u8; 90];

#[inline]
fn cell(color: usize, kind: usize) -> u8 {
    (1 + kind + 8 * color) as u8
}

#[inline]
fn color_of(code: u8) -> usize {
    (code >> 3) as usize
}

/// For each square, the horse moves as (leg, target) pairs; unused slots are `NONE`.
const NONE: u8 = 255;

const fn build_horse_table() -> [[(u8, u8); 8]; 90] {
    // (leg df, leg dr, target df, target dr)
    const PATHS: [(i32, i32, i32, i32); 8] = [
        (0, 1, 1, 2),
        (0, 1, -1, 2),
        (0, -1, 1, -2),
        (0, -1, -1, -2),
        (1, 0, 2, 1),
        (1, 0, 2, -1),
        (-1, 0, -2, 1),
        (-1, 0, -2, -1),
    ];
    let mut t = [[(NONE, NONE); 8]; 90];
    let mut sq = 0;
    while sq < 90 {
        let f = (sq % 9) as i32;
        let r = (sq / 9) as i32;
        let mut n = 0;
        let mut p = 0;
        while p < 8 {
            let (lf, lr, tf, tr) = PATHS[p];
            let (x, y) = (f + tf, r + tr);
            if x >= 0 && x < 9 && y >= 0 && y < 10 {
                t[sq][n] = (((r + lr) * 9 + f + lf) as u8, (y * 9 + x) as u8);
                n += 1;
            }
            p += 1;
        }
        sq += 1;
    }
    t
}

static HORSE_TABLE: [[(u8, u8); 8]; 90] = build_horse_table();

/// `PALACE[color][square]`: the square is inside `color`'s palace.
const fn build_palace() -> [[bool; 90]; 2] {
    let mut t = [[false; 90]; 2];
    let mut sq = 0;
    while sq < 90 {
        let f = sq % 9;
        let r = sq / 9;
        if f >= 3 && f <= 5 {
            t[0][sq] = r <= 2;
            t[1][sq] = r >= 7;
        }
        sq += 1;
    }
    t
}

static PALACE: [[bool; 90]; 2] = build_palace();

/// Evaluates `pos` for the side to move with the default parameters.
///
/// ```
/// use xiangqi_core::Position;
/// // The start position is symmetric: only the tempo bonus remains.
/// let v = xiangqi_search::evaluate(&Position::startpos());
/// assert!(v > 0 && v < 30);
/// ```
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &EvalParams::default())
}

/// Evaluates `pos` for the side to move with explicit parameters.
pub fn evaluate_with(pos: &Position, params: &EvalParams) -> i32 {
    let mut board: Board = [0; 90];
    let mut list = [(0u8, 0u8); 32];
    let mut len = 0;
    let mut count = [[0i32; KINDS]; 2];
    let mut mg = [0i32; 2];
    let mut eg = [0i32; 2];
    let mut pst = [0i32; 2];
    let mut phase = 0;
    for (sq, piece) in pos.pieces() {
        let c = piece.color.index();
        let k = piece.kind.index();
        let i = sq.index();
        board[i] = cell(c, k);
        if len < list.len() {
            list[len] = (i as u8, board[i]);
            len += 1;
        }
        count[c][k] += 1;
        mg[c] += MATERIAL_MG[k];
        eg[c] += MATERIAL_EG[k];
        pst[c] += PST[c][k][i];
        phase += PHASE_WEIGHT[k];
    }
    let phase = phase.min(PHASE_MAX);
    let mut score = [0i32; 2];
    for c in 0..2 {
        score[c] = (mg[c] * phase + eg[c] * (PHASE_MAX - phase)) / PHASE_MAX + pst[c];
    }
    let attackers = |c: usize| count[c][3] + count[c][4] + count[c][5] + count[c][6];
    let finish = |mut v: i32| {
        // A side without chariot, horse, cannon or soldier can never mate (R-DRAW-MATERIAL):
        // its advantage is only worth a little.
        if (v > 0 && attackers(0) == 0) || (v < 0 && attackers(1) == 0) {
            v /= 16;
        }
        let v = if pos.side_to_move() == Color::Red {
            v
        } else {
            -v
        };
        v + TEMPO
    };

    let generals = [
        pos.general(Color::Red).index(),
        pos.general(Color::Black).index(),
    ];
    let mut mobility = [0i32; 2];
    let mut cannon_file = [0i32; 2];
    let mut connected = [0i32; 2];
    // Attack units on the enemy palace and the number of pieces contributing.
    let mut attack = [0i32; 2];
    let mut attackers_near = [0i32; 2];
    for &(i, code) in &list[..len] {
        let i = i as usize;
        let c = color_of(code);
        let kind = (code as usize - 1) & 7;
        let enemy_palace = &PALACE[1 - c];
        let mut hits = 0;
        match kind {
            3 => {
                let mut mob = 0;
                for &(leg, to) in &HORSE_TABLE[i] {
                    if leg == NONE {
                        break;
                    }
                    if board[leg as usize] != 0 {
                        continue;
                    }
                    let t = board[to as usize];
                    if t == 0 || color_of(t) != c {
                        mob += 1;
                    }
                    hits += enemy_palace[to as usize] as i32;
                }
                mobility[c] += (mob - HORSE_BASE_MOBILITY) * HORSE_MOBILITY;
            }
            4 | 5 => {
                let f = i % 9;
                let cannon = kind == 5;
                let mut mob = 0;
                // Right, left, up, down. A chariot stops at the first piece
                // (counting an enemy one); a cannon moves up to its screen and
                // attacks the points behind it up to the next piece.
                let mut scan = |mut j: usize, step: isize, steps: usize| {
                    let mut screened = false;
                    for _ in 0..steps {
                        j = (j as isize + step) as usize;
                        let t = board[j];
                        if !cannon || screened {
                            hits += enemy_palace[j] as i32;
                        }
                        if t != 0 {
                            if cannon && !screened {
                                screened = true;
                                continue;
                            }
                            if color_of(t) != c {
                                mob += 1;
                            }
                            return;
                        }
                        if !screened {
                            mob += 1;
                        }
                    }
                };
                scan(i, 1, 8 - f);
                scan(i, -1, f);
                scan(i, 9, 9 - i / 9);
                scan(i, -9, i / 9);
                if cannon {
                    mobility[c] += (mob - 6) * CANNON_MOBILITY;
                } else {
                    mobility[c] += (mob - 6) * CHARIOT_MOBILITY;
                }
            }
            _ => {}
        }
        match kind {
            5 => {
                let g = generals[1 - c];
                if g % 9 == i % 9 {
                    let (lo, hi) = if g > i { (i, g) } else { (g, i) };
                    let between = (lo + 9..hi).step_by(9).filter(|&j| board[j] != 0).count();
                    match between {
                        0 => cannon_file[c] += CANNON_EMPTY_HEAD,
                        1 => cannon_file[c] += CANNON_SCREEN_PIN,
                        _ => {}
                    }
                }
            }
            6 => {
                let r = i / 9;
                let crossed = if c == 0 { r >= 5 } else { r <= 4 };
                if crossed && i % 9 < 8 && board[i + 1] == cell(c, 6) {
                    connected[c] += CONNECTED_SOLDIERS;
                }
                if crossed {
                    let f = i % 9;
                    let ahead = if c == 0 { i + 9 } else { i.wrapping_sub(9) };
                    if ahead < 90 {
                        hits += enemy_palace[ahead] as i32;
                    }
                    if f > 0 {
                        hits += enemy_palace[i - 1] as i32;
                    }
                    if f < 8 {
                        hits += enemy_palace[i + 1] as i32;
                    }
                }
            }
            _ => {}
        }
        if hits > 0 {
            attack[c] += hits * ATTACK_UNITS[kind];
            attackers_near[c] += 1;
        }
    }
    let mut king_attack = [0i32; 2];
    for c in 0..2 {
        // A lone attacker rarely mates.
        if attackers_near[c] >= 2 {
            king_attack[c] = (attack[c] * attack[c] / KING_ATTACK_DIVISOR).min(KING_ATTACK_MAX);
        }
    }

    let mut safety = [0i32; 2];
    for c in 0..2 {
        let o = 1 - c;
        let adv_missing = 2 - count[c][1];
        let ele_missing = 2 - count[c][2];
        let (r, n, cn) = (count[o][4], count[o][3], count[o][5]);
        safety[c] =
            -(adv_missing * (10 * r + 8 * n + 4 * cn) + ele_missing * (4 * r + 2 * n + 10 * cn));
    }

    let mut total = [0i32; 2];
    for c in 0..2 {
        total[c] = score[c]
            + mobility[c] * params.mobility / 100
            + cannon_file[c] * params.cannon_file / 100
            + (safety[c] + king_attack[c]) * params.king_safety / 100
            + connected[c];
    }
    finish(total[0] - total[1])
}

/// Material value of a piece kind for move ordering and pruning margins.
pub(crate) fn piece_value(kind: PieceKind) -> i32 {
    MATERIAL_MG[kind.index()].max(if kind == PieceKind::General { 5000 } else { 0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_positions_score_only_tempo() {
        let a = Position::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        )
        .unwrap();
        let b = Position::from_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
        )
        .unwrap();
        assert_eq!(evaluate(&a), TEMPO);
        assert_eq!(evaluate(&b), TEMPO);
    }

    #[test]
    fn colour_flip_negates() {
        // The same structure with colours swapped and ranks mirrored.
        let red = Position::from_fen("3akab2/9/4b4/9/2P6/9/9/3C5/4A4/3AK4 w - - 0 1").unwrap();
        let black = Position::from_fen("3ak4/4a4/3c5/9/9/2p6/9/4B4/9/3AKAB2 b - - 0 1").unwrap();
        assert_eq!(evaluate(&red), evaluate(&black));
    }

    #[test]
    fn extra_chariot_is_winning() {
        let pos = Position::from_fen("3akab2/9/4b4/9/9/9/9/4B4/4A4/R2AK1B2 w - - 0 1").unwrap();
        assert!(evaluate(&pos) > 700);
    }

    #[test]
    fn attackers_on_the_palace_count_together() {
        let no_safety = EvalParams {
            king_safety: 0,
            ..EvalParams::default()
        };
        let attack = |fen: &str| {
            let pos = Position::from_fen(fen).unwrap();
            evaluate(&pos) - evaluate_with(&pos, &no_safety)
        };
        // Chariot on d5 (hits d7, d8, d9) and horse on f6 (hits d7, e8): both
        // sides keep every defender, so only the attack term differs from 0.
        let near = attack("2bakab2/9/9/5N3/3R5/9/4P4/9/9/2BAKAB2 w - - 0 1");
        let far = attack("2bakab2/9/9/N8/R8/9/4P4/9/9/2BAKAB2 w - - 0 1");
        let lone = attack("2bakab2/9/9/9/3R5/9/4P4/9/9/2BAKAB2 w - - 0 1");
        assert_eq!(far, 0);
        assert_eq!(lone, 0, "a single attacker is not a mating attack");
        assert!(near > 50, "{near}");
    }

    #[test]
    fn bare_defenders_cannot_win() {
        // Red has only advisors and elephants: its extra material is nearly worthless.
        let pos = Position::from_fen("4k4/9/9/9/9/9/9/4B4/4A4/2BAK4 w - - 0 1").unwrap();
        assert!(evaluate(&pos) < 100);
    }
}
