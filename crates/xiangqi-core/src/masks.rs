//! Destination sets by table lookup, the move generator's fast path.
//!
//! * Stepping pieces: one set per square, and for the horse and elephant one
//!   set per pattern of blocked legs or eyes (4 bits), so a piece's moves are
//!   a single load once its blockers are known.
//! * Chariots and cannons: moves along a rank depend only on the 9 points of
//!   that rank and along a file only on its 10 points. The position keeps a
//!   second, file-major occupancy so a file's 10 bits are one shift away; the
//!   tables give the reachable points of the line, which are then spread back
//!   onto the board.

use crate::tables::{ADVISOR_STEPS, ELEPHANT_STEPS, GENERAL_STEPS, HORSE_STEPS, SOLDIER_STEPS};

/// Single-bit sets; index 90 is the empty set (used for off-board neighbours).
pub(crate) static BIT: [u128; 91] = {
    let mut t = [0u128; 91];
    let mut i = 0;
    while i < 90 {
        t[i] = 1u128 << i;
        i += 1;
    }
    t
};

/// Index of a square in the file-major occupancy: `file * 10 + rank`.
pub(crate) static FILE_MAJOR: [u8; 90] = {
    let mut t = [0u8; 90];
    let mut i = 0;
    while i < 90 {
        t[i] = ((i % 9) * 10 + i / 9) as u8;
        i += 1;
    }
    t
};

/// The destination set of each square's steps.
pub(crate) const fn step_masks<const N: usize>(
    steps: &[crate::tables::Steps<N>; 90],
) -> [u128; 90] {
    let mut t = [0u128; 90];
    let mut s = 0;
    while s < 90 {
        let mut j = 0;
        while j < steps[s].len as usize {
            t[s] |= 1u128 << steps[s].to[j];
            j += 1;
        }
        s += 1;
    }
    t
}

pub(crate) static GENERAL_DESTS: [u128; 90] = step_masks(&GENERAL_STEPS);
pub(crate) static ADVISOR_DESTS: [u128; 90] = step_masks(&ADVISOR_STEPS);
pub(crate) static SOLDIER_DESTS: [[u128; 90]; 2] =
    [step_masks(&SOLDIER_STEPS[0]), step_masks(&SOLDIER_STEPS[1])];

/// The 4 blocking points (horse legs or elephant eyes) of each square, 90 when off board,
/// and the destinations for each 4-bit pattern of blocked points.
pub(crate) struct Blockable {
    pub blockers: [[u8; 4]; 90],
    pub dests: [[u128; 16]; 90],
}

/// Builds the table: `blocker_of(step)` names the blocking point of each step;
/// a step is open when its blocker's bit in the pattern is clear.
const fn blockable<const N: usize>(steps: &[crate::tables::Steps<N>; 90], orth: bool) -> Blockable {
    let mut b = Blockable {
        blockers: [[90u8; 4]; 90],
        dests: [[0u128; 16]; 90],
    };
    let dirs: [(i8, i8); 4] = if orth {
        [(0, 1), (0, -1), (1, 0), (-1, 0)]
    } else {
        [(1, 1), (-1, 1), (1, -1), (-1, -1)]
    };
    let mut s = 0;
    while s < 90 {
        let (f0, r0) = ((s % 9) as i8, (s / 9) as i8);
        let mut d = 0;
        while d < 4 {
            let (f, r) = (f0 + dirs[d].0, r0 + dirs[d].1);
            if f >= 0 && f < 9 && r >= 0 && r < 10 {
                b.blockers[s][d] = (r * 9 + f) as u8;
            }
            d += 1;
        }
        let mut pattern = 0;
        while pattern < 16 {
            let mut j = 0;
            while j < steps[s].len as usize {
                let via = steps[s].via[j];
                let mut d = 0;
                let mut blocked = false;
                while d < 4 {
                    if b.blockers[s][d] == via && pattern & (1 << d) != 0 {
                        blocked = true;
                    }
                    d += 1;
                }
                if !blocked {
                    b.dests[s][pattern] |= 1u128 << steps[s].to[j];
                }
                j += 1;
            }
            pattern += 1;
        }
        s += 1;
    }
    b
}

pub(crate) static HORSE: Blockable = blockable(&HORSE_STEPS, true);
pub(crate) static ELEPHANT: Blockable = blockable(&ELEPHANT_STEPS, false);

/// The 4-bit pattern of occupied blocking points of `sq`.
#[inline(always)]
pub(crate) fn pattern(table: &Blockable, sq: usize, occ: u128) -> usize {
    let b = &table.blockers[sq];
    ((occ & BIT[b[0] as usize] != 0) as usize)
        | (((occ & BIT[b[1] as usize] != 0) as usize) << 1)
        | (((occ & BIT[b[2] as usize] != 0) as usize) << 2)
        | (((occ & BIT[b[3] as usize] != 0) as usize) << 3)
}

/// Reachable points on a line of `LEN` points for a slider at `pos` with line
/// occupancy `occ`: chariot (empty points up to and including the first piece
/// each way) and cannon (empty points before the screen, and the piece right
/// behind the screen each way).
const fn line_table<const LEN: usize, const SIZE: usize>() -> [[[u16; 2]; SIZE]; LEN] {
    let mut t = [[[0u16; 2]; SIZE]; LEN];
    let mut pos = 0;
    while pos < LEN {
        let mut occ = 0;
        while occ < SIZE {
            let mut chariot = 0u16;
            let mut cannon = 0u16;
            let mut dir = 0;
            while dir < 2 {
                let mut i = pos as i32;
                let mut screen = false;
                loop {
                    i += if dir == 0 { 1 } else { -1 };
                    if i < 0 || i >= LEN as i32 {
                        break;
                    }
                    let occupied = occ & (1 << i) != 0;
                    if !screen {
                        if occupied {
                            chariot |= 1 << i;
                            screen = true;
                        } else {
                            chariot |= 1 << i;
                            cannon |= 1 << i;
                        }
                    } else if occupied {
                        cannon |= 1 << i;
                        break;
                    }
                }
                dir += 1;
            }
            t[pos][occ] = [chariot, cannon];
            occ += 1;
        }
        pos += 1;
    }
    t
}

/// Along a rank: indexed by file, then the rank's 9 occupancy bits.
pub(crate) static RANK_LINES: [[[u16; 2]; 512]; 9] = line_table::<9, 512>();
/// Along a file: indexed by rank, then the file's 10 occupancy bits.
pub(crate) static FILE_LINES: [[[u16; 2]; 1024]; 10] = line_table::<10, 1024>();

/// Points behind the first piece (the screen) on a line of `LEN` points for a
/// piece at `pos` with line occupancy `occ`, up to and including the next
/// piece: what a cannon there attacks (R-MOVE-CANNON), for evaluation.
const fn screen_table<const LEN: usize, const SIZE: usize>() -> [[u16; SIZE]; LEN] {
    let mut t = [[0u16; SIZE]; LEN];
    let mut pos = 0;
    while pos < LEN {
        let mut occ = 0;
        while occ < SIZE {
            let mut behind = 0u16;
            let mut dir = 0;
            while dir < 2 {
                let mut i = pos as i32;
                let mut screen = false;
                loop {
                    i += if dir == 0 { 1 } else { -1 };
                    if i < 0 || i >= LEN as i32 {
                        break;
                    }
                    let occupied = occ & (1 << i) != 0;
                    if screen {
                        behind |= 1 << i;
                        if occupied {
                            break;
                        }
                    } else if occupied {
                        screen = true;
                    }
                }
                dir += 1;
            }
            t[pos][occ] = behind;
            occ += 1;
        }
        pos += 1;
    }
    t
}

/// [`screen_table`] along a rank and along a file.
pub(crate) static RANK_SCREENS: [[u16; 512]; 9] = screen_table::<9, 512>();
pub(crate) static FILE_SCREENS: [[u16; 1024]; 10] = screen_table::<10, 1024>();

/// The points behind the screens of `sq` along its rank and file (see [`screen_table`]).
#[inline(always)]
pub(crate) fn screen_attacks(sq: usize, occ: u128, occ_files: u128) -> u128 {
    let (file, rank) = (sq % 9, sq / 9);
    let rank_occ = (occ >> (rank * 9)) as usize & 0x1ff;
    let file_occ = (occ_files >> (file * 10)) as usize & 0x3ff;
    let along_rank = (RANK_SCREENS[file][rank_occ] as u128) << (rank * 9);
    let along_file = FILE_SPREAD[FILE_SCREENS[rank][file_occ] as usize] << file;
    along_rank | along_file
}

/// Spreads a file's 10 rank bits onto the board's `a` file (bit r to square r * 9).
pub(crate) static FILE_SPREAD: [u128; 1024] = {
    let mut t = [0u128; 1024];
    let mut bits = 0;
    while bits < 1024 {
        let mut r = 0;
        while r < 10 {
            if bits & (1 << r) != 0 {
                t[bits] |= 1u128 << (r * 9);
            }
            r += 1;
        }
        bits += 1;
    }
    t
};

/// Chariot (`which = 0`) or cannon (`which = 1`) destinations from `sq`, including
/// points holding own pieces (the caller masks them).
#[inline(always)]
pub(crate) fn slider_dests(sq: usize, occ: u128, occ_files: u128, which: usize) -> u128 {
    let (file, rank) = (sq % 9, sq / 9);
    let rank_occ = (occ >> (rank * 9)) as usize & 0x1ff;
    let file_occ = (occ_files >> (file * 10)) as usize & 0x3ff;
    let along_rank = (RANK_LINES[file][rank_occ][which] as u128) << (rank * 9);
    let along_file = FILE_SPREAD[FILE_LINES[rank][file_occ][which] as usize] << file;
    along_rank | along_file
}
