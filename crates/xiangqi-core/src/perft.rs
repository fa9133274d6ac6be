//! Perft: counting the leaves of the legal-move tree, the standard test of a move generator.

use crate::{Move, MoveList, Position};

/// Number of leaf nodes of the legal-move tree of depth `depth` below `pos`.
///
/// The last ply is bulk-counted: at depth 1 the legal moves are counted, not played.
///
/// ```
/// use xiangqi_core::{perft, Position};
/// assert_eq!(perft(&Position::startpos(), 3), 79_666);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let mut pos = pos.clone();
    perft_inner(&mut pos, depth)
}

fn perft_inner(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves() as u64,
        _ => {
            let mut list = MoveList::new();
            pos.legal_moves(&mut list);
            let mut nodes = 0;
            for &mv in list.iter() {
                let undo = pos.make_move(mv);
                nodes += perft_inner(pos, depth - 1);
                pos.unmake_move(mv, undo);
            }
            nodes
        }
    }
}

/// Perft split by first move ("divide"): each legal move with its subtree count, sorted by ICCS text.
///
/// ```
/// use xiangqi_core::{divide, Position};
/// let split = divide(&Position::startpos(), 2);
/// assert_eq!(split.len(), 44);
/// assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), 1920);
/// ```
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    divide_with_progress(pos, depth, |_, _| {})
}

/// [`divide`] that reports each finished root move (its index and the number of root moves)
/// so long runs can show progress.
pub fn divide_with_progress(
    pos: &Position,
    depth: u32,
    mut progress: impl FnMut(usize, usize),
) -> Vec<(Move, u64)> {
    let mut pos = pos.clone();
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let total = list.len();
    let mut out = Vec::with_capacity(total);
    for (i, &mv) in list.iter().enumerate() {
        let undo = pos.make_move(mv);
        let n = if depth <= 1 {
            1
        } else {
            perft_inner(&mut pos, depth - 1)
        };
        pos.unmake_move(mv, undo);
        out.push((mv, n));
        progress(i + 1, total);
    }
    out.sort_by_key(|(m, _)| m.to_string());
    out
}
