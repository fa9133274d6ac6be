//! Attack detection from per-piece bit sets (R-LEGAL-CHECK).
//!
//! Sliding lines are resolved with bit scans over the occupancy: the first
//! piece along a ray is the lowest (or highest) set bit of `ray & occupied`,
//! so a chariot or cannon line costs a couple of instructions, not a walk;
//! and a line with no enemy chariot, cannon or general on it is skipped at once.

use crate::masks::BIT;
use crate::masks::{step_masks, GENERAL_DESTS};
use crate::tables::{HORSE_ATTACKERS, RAYS, SOLDIER_ATTACKERS};

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
