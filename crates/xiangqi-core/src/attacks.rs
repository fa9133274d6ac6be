//! Attack detection from per-piece bit sets (R-LEGAL-CHECK).
//!
//! Sliding lines are resolved with bit scans over the occupancy: the first
//! piece along a ray is the lowest (or highest) set bit of `ray & occupied`,
//! so a chariot or cannon line costs a couple of instructions, not a walk;
//! and a line with no enemy chariot, cannon or general on it is skipped at once.
//!
//! [`Position::general_safe_after`] is the one-move variant behind
//! `is_legal` and the generator's per-move tests: is the general safe once
//! a given move is played? It never builds the position after the move; it
//! reads the general's file and rank from the line tables with the move
//! applied to the line's occupancy bits, and settles horses and soldiers
//! with `u64` masks of a 64-point window around the general's palace.

use crate::masks::{step_masks, BIT, FILE_LINES, FILE_MAJOR, GENERAL_DESTS, RANK_LINES};
use crate::piece::{Color, PieceKind};
use crate::position::{code, Position};
use crate::tables::{
    horse_leg, HORSE_ATTACKERS, RAYS, SOLDIER_ATTACKERS, SQUARE_FILE, SQUARE_RANK,
};

/// `RAY_MASKS[sq][dir]`: every point beyond `sq` in direction `dir` (see `tables::DIRS`).
pub(crate) static RAY_MASKS: [[u128; 4]; 90] = {
    let mut t = [[0u128; 4]; 90];
    let mut s = 0;
    while s < 90 {
        let mut d = 0;
        while d < 4 {
            let ray = RAYS[s][d];
            let mut i = 0;
            while i < ray.len as usize {
                t[s][d] |= 1u128 << ray.sq[i];
                i += 1;
            }
            d += 1;
        }
        s += 1;
    }
    t
};

/// Squares a horse could attack each square from (ignoring legs).
static HORSE_REACH: [u128; 90] = step_masks(&HORSE_ATTACKERS);

/// Squares a soldier of each colour attacks each square from.
static SOLDIER_REACH: [[u128; 90]; 2] = [
    step_masks(&SOLDIER_ATTACKERS[0]),
    step_masks(&SOLDIER_ATTACKERS[1]),
];

/// Where the 64-point window of a general on each half starts: a Red general's
/// window is points 0-63 (ranks 0-6 and a7), a Black one's points 26-89. Each holds
/// the general's rank and every point a horse or soldier could attack a
/// palace point from, so those tests run on `u64`s.
const WINDOW_START: [u32; 2] = [0, 26];

/// `window(set, BLACK)`: the bits of `set` inside the window of the general of `BLACK`'s side.
#[inline(always)]
fn window<const BLACK: bool>(set: u128) -> u64 {
    (set >> WINDOW_START[BLACK as usize]) as u64
}

/// A per-point table restricted to the window of the half the point lies on
/// (meaningful for palace points, where the generals stand). Tables indexed by
/// a general's point have 256 entries, so a `u8` index needs no bounds check.
const fn windowed(t: &[u128; 90]) -> [u64; 256] {
    let mut w = [0u64; 256];
    let mut s = 0;
    while s < 90 {
        w[s] = (t[s] >> WINDOW_START[(s >= 45) as usize]) as u64;
        s += 1;
    }
    w
}

/// Points an enemy horse or soldier may attack each point from (Black
/// soldiers for points on Red's half, Red ones on Black's), within that
/// point's window. Horse legs are not looked at.
static STEPPER_REACH_WINDOW: [u64; 256] = {
    let mut t = [0u128; 90];
    let mut s = 0;
    while s < 90 {
        t[s] = HORSE_REACH[s] | SOLDIER_REACH[(s < 45) as usize][s];
        s += 1;
    }
    windowed(&t)
};

/// The points of each point's rank, within that point's window.
static RANK_WINDOW: [u64; 256] = {
    let mut t = [0u128; 90];
    let mut s = 0;
    while s < 90 {
        t[s] = 0x1ffu128 << (s / 9 * 9);
        s += 1;
    }
    windowed(&t)
};

/// The points of each point's file.
static FILE_OF_POINT: [u128; 256] = {
    let mut t = [0u128; 256];
    let mut s = 0;
    while s < 90 {
        let mut r = 0;
        while r < 10 {
            t[s] |= 1u128 << (r * 9 + s % 9);
            r += 1;
        }
        s += 1;
    }
    t
};

impl Position {
    /// After moving `from`-`to` (a pseudo-legal move of the side to move), is
    /// its general, then on `general`, free of attack (R-LEGAL-SELFCHECK,
    /// R-LEGAL-FACING)? `BLACK` names the side to move.
    ///
    /// Built for one test, not a position's worth of them, and for the common
    /// case that nothing attacks: two `u64` masks of the general's window say
    /// whether an enemy horse or soldier is near or an enemy chariot or cannon
    /// on the general's rank (rarely; then [`Position::stepper_attack_after`]
    /// and [`Position::rank_attack_after`] look closer), and the file through
    /// the general is read from the line tables ([`Position::file_safe_after`]).
    #[inline(always)]
    pub(crate) fn general_safe_after<const BLACK: bool>(
        &self,
        from: usize,
        to: usize,
        general: u8,
    ) -> bool {
        let k = general as usize;
        if self.stepper_near::<BLACK>(k) != 0 && self.stepper_attack_after::<BLACK>(from, to, k) {
            return false;
        }
        if self.rank_near::<BLACK>(k) != 0 && self.rank_attack_after::<BLACK>(from, to, k) {
            return false;
        }
        self.file_safe_after::<BLACK>(from, to, general)
    }

    /// Enemy horses and soldiers close enough to the general on `k` to attack it
    /// (legs not looked at), as window bits.
    #[inline(always)]
    fn stepper_near<const BLACK: bool>(&self, k: usize) -> u64 {
        let them = if BLACK { Color::Red } else { Color::Black };
        let bb = |kind: PieceKind| self.bb[code(them, kind) as usize];
        STEPPER_REACH_WINDOW[k] & window::<BLACK>(bb(PieceKind::Horse) | bb(PieceKind::Soldier))
    }

    /// Enemy chariots and cannons on the rank of the general on `k`, as window bits.
    #[inline(always)]
    fn rank_near<const BLACK: bool>(&self, k: usize) -> u64 {
        let them = if BLACK { Color::Red } else { Color::Black };
        let bb = |kind: PieceKind| self.bb[code(them, kind) as usize];
        RANK_WINDOW[k] & window::<BLACK>(bb(PieceKind::Chariot) | bb(PieceKind::Cannon))
    }

    /// Part of [`Position::general_safe_after`]: is the general, then on
    /// `general`, free of attack along its file after `from`-`to`? The file is
    /// read from the file-major occupancy with the move applied: one line-table
    /// lookup gives the first and second blockers both ways. The moved piece
    /// is off its origin and `to` counts as ours (a piece there is captured).
    #[inline(always)]
    fn file_safe_after<const BLACK: bool>(&self, from: usize, to: usize, general: u8) -> bool {
        let them = if BLACK { Color::Red } else { Color::Black };
        let bb = |kind: PieceKind| self.bb[code(them, kind) as usize];
        let sliders = bb(PieceKind::Chariot) | bb(PieceKind::Cannon);
        let k = general as usize;
        // Along the file: chariots and cannons are seldom on it, the enemy
        // general often (R-LEGAL-FACING).
        if FILE_OF_POINT[k] & (sliders | bb(PieceKind::General)) == 0 {
            return true;
        }
        let (rank, file) = (SQUARE_RANK[k] as usize, SQUARE_FILE[k] as usize);
        // The general's file (3-5) lies in the low word of the file-major
        // occupancy. Origin and destination bits are cleared and set modulo 64:
        // a point beyond the word lands on files 0-2, which are not read.
        let occ_files = (self.occ_files as u64 & !1u64.wrapping_shl(FILE_MAJOR[from] as u32))
            | 1u64.wrapping_shl(FILE_MAJOR[to] as u32);
        let line = (occ_files >> (file * 10)) as usize & 0x3ff;
        let [reach, screened] = FILE_LINES[rank][line];
        // The enemy general is never captured by a pseudo-legal move (it is
        // not in check), so it needs no `to` exception.
        let enemy_general = self.generals[them.index()];
        if SQUARE_FILE[enemy_general as usize] as usize == file
            && (reach >> SQUARE_RANK[enemy_general as usize]) & 1 != 0
        {
            return false;
        }
        if FILE_OF_POINT[k] & sliders != 0 {
            let chariot = code(them, PieceKind::Chariot);
            let mut firsts = reach as usize & line;
            while firsts != 0 {
                let sq = firsts.trailing_zeros() as usize * 9 + file;
                firsts &= firsts - 1;
                if self.board[sq] == chariot && sq != to {
                    return false;
                }
            }
            let cannon = code(them, PieceKind::Cannon);
            let mut seconds = screened as usize & line;
            while seconds != 0 {
                let sq = seconds.trailing_zeros() as usize * 9 + file;
                seconds &= seconds - 1;
                if self.board[sq] == cannon && sq != to {
                    return false;
                }
            }
        }
        true
    }

    /// The rare part of [`Position::general_safe_after`], once an enemy horse
    /// or soldier stands near the general: does one attack it after `from`-`to`?
    #[inline(never)]
    fn stepper_attack_after<const BLACK: bool>(
        &self,
        from: usize,
        to: usize,
        general: usize,
    ) -> bool {
        let start = WINDOW_START[BLACK as usize] as usize;
        let them = if BLACK { Color::Red } else { Color::Black };
        // A piece on `to` is captured.
        let enemy = |kind: PieceKind| self.bb[code(them, kind) as usize] & !BIT[to];
        if SOLDIER_REACH[them.index()][general] & enemy(PieceKind::Soldier) != 0 {
            return true;
        }
        let mut horses = window::<BLACK>(HORSE_REACH[general] & enemy(PieceKind::Horse));
        while horses != 0 {
            let horse = horses.trailing_zeros() as usize + start;
            horses &= horses - 1;
            let leg = horse_leg(horse, general);
            if leg != to && (self.board[leg] == 0 || leg == from) {
                return true;
            }
        }
        false
    }

    /// The rare part of [`Position::general_safe_after`], once an enemy chariot
    /// or cannon stands on the general's rank: does one attack it along the
    /// rank after `from`-`to`? Chariots attack as first blockers, cannons as
    /// second ones.
    #[inline(never)]
    fn rank_attack_after<const BLACK: bool>(&self, from: usize, to: usize, general: usize) -> bool {
        let them = if BLACK { Color::Red } else { Color::Black };
        // The general's rank lies in its window; of the move's points only
        // those on that rank are kept.
        let shift = SQUARE_RANK[general] as usize * 9 - WINDOW_START[BLACK as usize] as usize;
        let on_rank = |set: u128| (window::<BLACK>(set) >> shift) as usize & 0x1ff;
        let landing = on_rank(BIT[to]);
        let enemy = |kind: PieceKind| on_rank(self.bb[code(them, kind) as usize]) & !landing;
        let occ = (on_rank(self.occupancy()) & !on_rank(BIT[from])) | landing;
        let [reach, screened] = RANK_LINES[SQUARE_FILE[general] as usize][occ];
        (reach as usize & enemy(PieceKind::Chariot))
            | (screened as usize & enemy(PieceKind::Cannon))
            != 0
    }
}

/// The first occupied point beyond `sq` in direction `dir`. Even directions
/// (north, east) run towards higher indices, odd ones towards lower.
#[inline(always)]
pub(crate) fn first_blocker(occ: u128, sq: usize, dir: usize) -> Option<usize> {
    let m = RAY_MASKS[sq][dir] & occ;
    if m == 0 {
        None
    } else if dir & 1 == 0 {
        Some(m.trailing_zeros() as usize)
    } else {
        Some(127 - m.leading_zeros() as usize)
    }
}

/// The attacking side's pieces, one set per kind that can attack.
#[derive(Copy, Clone)]
pub(crate) struct Attackers {
    pub chariots: u128,
    pub cannons: u128,
    pub horses: u128,
    pub soldiers: u128,
    pub general: u128,
    /// Colour index of the attacking side (soldiers attack forwards).
    pub color: usize,
}

impl Attackers {
    /// The same pieces with those on `removed` taken off (captured).
    #[cfg(test)]
    #[inline(always)]
    pub fn without(self, removed: u128) -> Attackers {
        let keep = !removed;
        Attackers {
            chariots: self.chariots & keep,
            cannons: self.cannons & keep,
            horses: self.horses & keep,
            soldiers: self.soldiers & keep,
            general: self.general & keep,
            color: self.color,
        }
    }
}

/// The attackers of `sq` given occupancy `occ`; with `ANY` it stops at the first.
/// The general counts along an open file only when `sq` holds the other
/// general (R-LEGAL-FACING); otherwise it attacks the palace points beside it.
#[inline(always)]
pub(crate) fn attackers<const ANY: bool>(
    a: &Attackers,
    occ: u128,
    sq: usize,
    target_is_general: bool,
) -> u128 {
    let mut found = 0u128;
    let facing = if target_is_general { a.general } else { 0 };
    let sliders = a.chariots | a.cannons | facing;
    for d in 0..4 {
        if RAY_MASKS[sq][d] & sliders == 0 {
            continue;
        }
        let Some(b1) = first_blocker(occ, sq, d) else {
            continue;
        };
        let line_attackers = if d < 2 {
            a.chariots | facing
        } else {
            a.chariots
        };
        if line_attackers & BIT[b1] != 0 {
            found |= 1u128 << b1;
            if ANY {
                return found;
            }
        }
        if let Some(b2) = first_blocker(occ, b1, d) {
            if a.cannons & BIT[b2] != 0 {
                found |= 1u128 << b2;
                if ANY {
                    return found;
                }
            }
        }
    }
    if HORSE_REACH[sq] & a.horses != 0 {
        let h = &HORSE_ATTACKERS[sq];
        for j in 0..h.len as usize {
            if a.horses & BIT[h.to[j] as usize] != 0 && occ & BIT[h.via[j] as usize] == 0 {
                found |= 1u128 << h.to[j];
                if ANY {
                    return found;
                }
            }
        }
    }
    found |= SOLDIER_REACH[a.color][sq] & a.soldiers;
    // General steps are symmetric: the points it reaches are the points it attacks from.
    found |= GENERAL_DESTS[sq] & a.general;
    found
}
