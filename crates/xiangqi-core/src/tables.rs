//! Move and attack tables computed at compile time (R-MOVE-*).
//!
//! Every table is indexed by square index (`rank * 9 + file`). Building them
//! in `const` context means the generators pay no initialisation check.

/// Up to `N` destination squares, each with an auxiliary square (a horse leg,
/// an elephant eye) where the piece kind has one.
#[derive(Copy, Clone)]
pub struct Steps<const N: usize> {
    pub to: [u8; N],
    pub via: [u8; N],
    pub len: u8,
}

impl<const N: usize> Steps<N> {
    const EMPTY: Steps<N> = Steps {
        to: [0; N],
        via: [0; N],
        len: 0,
    };

    const fn with(mut self, to: u8, via: u8) -> Steps<N> {
        self.to[self.len as usize] = to;
        self.via[self.len as usize] = via;
        self.len += 1;
        self
    }
}

/// A ray of squares outward from a square in one direction, nearest first.
#[derive(Copy, Clone)]
pub(crate) struct Ray {
    pub sq: [u8; 9],
    pub len: u8,
}

/// Directions for rays: north (towards rank 9), south, east (towards file i), west.
pub(crate) const DIRS: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];

const fn sq(f: i8, r: i8) -> u8 {
    (r * 9 + f) as u8
}

const fn on_board(f: i8, r: i8) -> bool {
    f >= 0 && f < 9 && r >= 0 && r < 10
}

const fn in_palace(f: i8, r: i8) -> bool {
    f >= 3 && f <= 5 && (r <= 2 || r >= 7)
}

/// True when (f, r) lies on the same half of the board as rank `home`.
const fn same_half(r: i8, home: i8) -> bool {
    (r <= 4) == (home <= 4)
}

const fn build_rays() -> [[Ray; 4]; 90] {
    let mut t = [[Ray { sq: [0; 9], len: 0 }; 4]; 90];
    let mut s = 0;
    while s < 90 {
        let (f0, r0) = ((s % 9) as i8, (s / 9) as i8);
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIRS[d];
            let (mut f, mut r) = (f0 + df, r0 + dr);
            while on_board(f, r) {
                let ray = &mut t[s][d];
                ray.sq[ray.len as usize] = sq(f, r);
                ray.len += 1;
                f += df;
                r += dr;
            }
            d += 1;
        }
        s += 1;
    }
    t
}

/// One-point steps in `dirs` that stay inside the palace the piece stands in
/// (the general steps orthogonally, the advisor diagonally).
const fn build_palace_steps(dirs: [(i8, i8); 4]) -> [Steps<4>; 90] {
    let mut t = [Steps::<4>::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f0, r0) = ((s % 9) as i8, (s / 9) as i8);
        if in_palace(f0, r0) {
            let mut d = 0;
            while d < 4 {
                let (f, r) = (f0 + dirs[d].0, r0 + dirs[d].1);
                if on_board(f, r) && in_palace(f, r) && same_half(r, r0) {
                    t[s] = t[s].with(sq(f, r), 0);
                }
                d += 1;
            }
        }
        s += 1;
    }
    t
}

const DIAG: [(i8, i8); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

const fn build_elephant() -> [Steps<4>; 90] {
    let mut t = [Steps::<4>::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f0, r0) = ((s % 9) as i8, (s / 9) as i8);
        let mut d = 0;
        while d < 4 {
            let (f, r) = (f0 + 2 * DIAG[d].0, r0 + 2 * DIAG[d].1);
            if on_board(f, r) && same_half(r, r0) {
                t[s] = t[s].with(sq(f, r), sq(f0 + DIAG[d].0, r0 + DIAG[d].1));
            }
            d += 1;
        }
        s += 1;
    }
    t
}

/// Horse jumps as (file step, rank step, leg file step, leg rank step).
const HORSE_JUMPS: [(i8, i8, i8, i8); 8] = [
    (1, 2, 0, 1),
    (-1, 2, 0, 1),
    (1, -2, 0, -1),
    (-1, -2, 0, -1),
    (2, 1, 1, 0),
    (2, -1, 1, 0),
    (-2, 1, -1, 0),
    (-2, -1, -1, 0),
];

const fn build_horse() -> [Steps<8>; 90] {
    let mut t = [Steps::<8>::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f0, r0) = ((s % 9) as i8, (s / 9) as i8);
        let mut j = 0;
        while j < 8 {
            let (df, dr, lf, lr) = HORSE_JUMPS[j];
            let (f, r) = (f0 + df, r0 + dr);
            if on_board(f, r) {
                t[s] = t[s].with(sq(f, r), sq(f0 + lf, r0 + lr));
            }
            j += 1;
        }
        s += 1;
    }
    t
}

/// For each target square: the squares a horse could attack it from, with that horse's leg.
const fn build_horse_attackers() -> [Steps<8>; 90] {
    let mut t = [Steps::<8>::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f0, r0) = ((s % 9) as i8, (s / 9) as i8);
        let mut j = 0;
        while j < 8 {
            let (df, dr, lf, lr) = HORSE_JUMPS[j];
            // A horse at (f0 - df, r0 - dr) jumps by (df, dr) onto s.
            let (f, r) = (f0 - df, r0 - dr);
            if on_board(f, r) {
                t[s] = t[s].with(sq(f, r), sq(f + lf, r + lr));
            }
            j += 1;
        }
        s += 1;
    }
    t
}

/// Soldier steps for one colour: forward always, sideways once across the river.
const fn build_soldier(red: bool) -> [Steps<3>; 90] {
    let mut t = [Steps::<3>::EMPTY; 90];
    let fwd: i8 = if red { 1 } else { -1 };
    let mut s = 0;
    while s < 90 {
        let (f0, r0) = ((s % 9) as i8, (s / 9) as i8);
        let crossed = if red { r0 >= 5 } else { r0 <= 4 };
        if on_board(f0, r0 + fwd) {
            t[s] = t[s].with(sq(f0, r0 + fwd), 0);
        }
        if crossed {
            if f0 > 0 {
                t[s] = t[s].with(sq(f0 - 1, r0), 0);
            }
            if f0 < 8 {
                t[s] = t[s].with(sq(f0 + 1, r0), 0);
            }
        }
        s += 1;
    }
    t
}

/// For each target square: the squares from which a soldier of one colour attacks it.
const fn build_soldier_attackers(red: bool) -> [Steps<3>; 90] {
    let moves = build_soldier(red);
    let mut t = [Steps::<3>::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let m = moves[s];
        let mut i = 0;
        while i < m.len as usize {
            let target = m.to[i] as usize;
            t[target] = t[target].with(s as u8, 0);
            i += 1;
        }
        s += 1;
    }
    t
}

pub(crate) static RAYS: [[Ray; 4]; 90] = build_rays();
pub(crate) static GENERAL_STEPS: [Steps<4>; 90] = build_palace_steps(DIRS);
pub(crate) static ADVISOR_STEPS: [Steps<4>; 90] = build_palace_steps(DIAG);
pub(crate) static ELEPHANT_STEPS: [Steps<4>; 90] = build_elephant();
pub(crate) static HORSE_STEPS: [Steps<8>; 90] = build_horse();
pub(crate) static HORSE_ATTACKERS: [Steps<8>; 90] = build_horse_attackers();
/// Indexed by the soldier's colour.
pub(crate) static SOLDIER_STEPS: [[Steps<3>; 90]; 2] = [build_soldier(true), build_soldier(false)];
/// Indexed by the attacking soldier's colour.
pub(crate) static SOLDIER_ATTACKERS: [[Steps<3>; 90]; 2] = [
    build_soldier_attackers(true),
    build_soldier_attackers(false),
];

/// The rank (0-9) of each square index (256 entries, so a `u8` index needs no bounds check).
pub(crate) static SQUARE_RANK: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut s = 0;
    while s < 90 {
        t[s] = (s / 9) as u8;
        s += 1;
    }
    t
};

/// The file (0-8) of each square index (256 entries, as [`SQUARE_RANK`]).
pub(crate) static SQUARE_FILE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut s = 0;
    while s < 90 {
        t[s] = (s % 9) as u8;
        s += 1;
    }
    t
};

/// Offset of a horse move's leg from its origin, indexed by `to - from + 19`:
/// a jump two ranks away is blocked one rank ahead, one two files away one
/// file aside. Entries that are no horse jump hold 0.
pub(crate) static HORSE_LEG_STEP: [i8; 39] = {
    let mut t = [0i8; 39];
    let mut j = 0;
    while j < 8 {
        let (df, dr, lf, lr) = HORSE_JUMPS[j];
        t[(dr * 9 + df + 19) as usize] = lr * 9 + lf;
        j += 1;
    }
    t
};

/// The leg point of the horse jump `from`-`to`, which must be a horse jump.
#[inline(always)]
pub(crate) fn horse_leg(from: usize, to: usize) -> usize {
    (from as isize + HORSE_LEG_STEP[(to as isize - from as isize + 19) as usize] as isize) as usize
}

/// Squares an advisor of each colour can ever stand on (R-MOVE-ADVISOR).
pub(crate) const ADVISOR_SQUARES: [u128; 2] = {
    let red = (1u128 << 3) | (1u128 << 5) | (1u128 << 13) | (1u128 << 21) | (1u128 << 23);
    let black = (1u128 << 84) | (1u128 << 86) | (1u128 << 76) | (1u128 << 66) | (1u128 << 68);
    [red, black]
};

/// Squares an elephant of each colour can ever stand on (R-MOVE-ELEPHANT).
pub(crate) const ELEPHANT_SQUARES: [u128; 2] = {
    let red = (1u128 << 2)
        | (1u128 << 6)
        | (1u128 << 18)
        | (1u128 << 22)
        | (1u128 << 26)
        | (1u128 << 38)
        | (1u128 << 42);
    let black = (1u128 << 83)
        | (1u128 << 87)
        | (1u128 << 63)
        | (1u128 << 67)
        | (1u128 << 71)
        | (1u128 << 47)
        | (1u128 << 51);
    [red, black]
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_sizes_match_the_rules() {
        // The general on e1 has 4 steps; on d0 two.
        assert_eq!(GENERAL_STEPS[13].len, 4);
        assert_eq!(GENERAL_STEPS[3].len, 2);
        assert_eq!(ADVISOR_STEPS[13].len, 4);
        assert_eq!(ADVISOR_STEPS[3].len, 1);
        // Elephant on e2 reaches c0, g0, c4, g4.
        assert_eq!(ELEPHANT_STEPS[22].len, 4);
        // Elephant on c4 cannot cross: only a2, e2.
        assert_eq!(ELEPHANT_STEPS[38].len, 2);
        assert_eq!(HORSE_STEPS[40].len, 8);
        assert_eq!(HORSE_STEPS[0].len, 2);
        // Red soldier before the river: forward only; after: three.
        assert_eq!(SOLDIER_STEPS[0][31].len, 1);
        assert_eq!(SOLDIER_STEPS[0][49].len, 3);
        assert_eq!(SOLDIER_STEPS[0][82].len, 2);
        assert_eq!(RAYS[0][0].len, 9);
        assert_eq!(RAYS[0][2].len, 8);
    }

    #[test]
    fn reachable_square_masks_have_the_right_sizes() {
        assert_eq!(ADVISOR_SQUARES[0].count_ones(), 5);
        assert_eq!(ADVISOR_SQUARES[1].count_ones(), 5);
        assert_eq!(ELEPHANT_SQUARES[0].count_ones(), 7);
        assert_eq!(ELEPHANT_SQUARES[1].count_ones(), 7);
    }
}
