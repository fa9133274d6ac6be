//! Iterative deepening on the main search thread: one aspiration search
//! per depth (and per line with MultiPV), the reports after each completed
//! iteration, the decision to stop early, and the final [`SearchResult`].

use std::time::Duration;

use xiangqi_core::{Move, Position};

use super::{PvLine, SearchInfo, SearchResult, MAX_DEPTH};
use crate::score::{from_internal, MATE, MATE_BOUND};
use crate::search::Searcher;
use crate::Limits;

/// One line of a finished iteration.
struct RootLine {
    mv: Move,
    score: i32,
    pv: Vec<Move>,
}

/// Iterative deepening on the main thread: reports, limits and the result.
/// With `multi_pv` > 1 each iteration searches the best line, then the best
/// line among the remaining root moves, and so on.
pub(super) fn main_iterate(
    mut searcher: Searcher<'_>,
    root: &Position,
    limits: &Limits,
    helper_nodes: &dyn Fn() -> u64,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> SearchResult {
    let timed = searcher.budget.is_limited();
    let root_moves = std::mem::take(&mut searcher.root_moves);
    let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    let single_reply = root_moves.len() == 1;
    let wanted = limits.multi_pv.clamp(1, root_moves.len());
    // Lines of the last completed iteration, best first.
    let mut lines: Vec<RootLine> = Vec::new();
    let mut completed = 0;
    let mut seldepth = 0;
    for depth in 1..=max_depth {
        searcher.seldepth = 0;
        let mut fresh: Vec<RootLine> = Vec::with_capacity(wanted);
        let mut stopped = false;
        for index in 0..wanted {
            searcher.root_moves = root_moves
                .iter()
                .copied()
                .filter(|m| fresh.iter().all(|l| l.mv != *m))
                .collect();
            searcher.iteration_best = None;
            let previous = lines.get(index).map_or(0, |l| l.score);
            let value = searcher.aspiration(depth as i32, previous);
            if searcher.stopped {
                // Keep a move of the unfinished search only if it beat the window.
                if let Some((mv, v)) = searcher.iteration_best {
                    fresh.push(RootLine {
                        mv,
                        score: v,
                        pv: searcher.root_pv(),
                    });
                }
                stopped = true;
                break;
            }
            let pv = searcher.root_pv();
            let line = match (pv.first(), searcher.iteration_best) {
                (Some(&mv), _) => RootLine {
                    mv,
                    score: value,
                    pv,
                },
                (None, Some((mv, _))) => RootLine {
                    mv,
                    score: value,
                    pv: vec![mv],
                },
                (None, None) => match lines.get(index) {
                    Some(old) => RootLine {
                        mv: old.mv,
                        score: value,
                        pv: old.pv.clone(),
                    },
                    None => RootLine {
                        mv: searcher.root_moves[0],
                        score: value,
                        pv: vec![searcher.root_moves[0]],
                    },
                },
            };
            fresh.push(line);
        }
        if stopped {
            // Lines finished in this iteration first, then the others of the last one.
            for old in lines {
                if fresh.len() < wanted && fresh.iter().all(|l| l.mv != old.mv) {
                    fresh.push(old);
                }
            }
            lines = fresh;
            lines.sort_by_key(|l| std::cmp::Reverse(l.score));
            break;
        }
        searcher.can_stop = true;
        fresh.sort_by_key(|l| std::cmp::Reverse(l.score));
        lines = fresh;
        completed = depth;
        seldepth = searcher.seldepth as u32;
        let elapsed = searcher.budget.elapsed();
        let nodes = searcher.nodes + helper_nodes();
        for (index, line) in lines.iter().enumerate() {
            on_info(&SearchInfo {
                depth,
                seldepth,
                multipv: index + 1,
                score: from_internal(line.score),
                nodes,
                time: elapsed,
                nps: nps(nodes, elapsed),
                pv: legal_prefix(root, &line.pv),
                hashfull: searcher.tt.hashfull(),
            });
        }
        if timed {
            if searcher.budget.soft_exceeded(0.5) || (single_reply && depth >= 4) {
                break;
            }
            // A proven mate within the searched depth will not get shorter.
            let score = lines[0].score;
            if score.abs() >= MATE_BOUND && (MATE - score.abs()) as u32 <= depth {
                break;
            }
        }
    }
    if lines.is_empty() {
        // The node limit cut depth 1 short before any root move was finished.
        lines.push(RootLine {
            mv: root_moves[0],
            score: 0,
            pv: vec![root_moves[0]],
        });
    }
    let lines: Vec<PvLine> = lines
        .iter()
        .map(|l| {
            let pv = legal_prefix(root, &l.pv);
            PvLine {
                score: from_internal(l.score),
                pv: if pv.first() == Some(&l.mv) {
                    pv
                } else {
                    vec![l.mv]
                },
            }
        })
        .collect();
    let best = &lines[0];
    SearchResult {
        best_move: best.pv.first().copied(),
        ponder: best.pv.get(1).copied(),
        score: best.score,
        depth: completed,
        seldepth,
        nodes: searcher.nodes,
        pv: best.pv.clone(),
        time: searcher.budget.elapsed(),
        lines,
    }
}

fn nps(nodes: u64, time: Duration) -> u64 {
    let micros = time.as_micros().max(1) as u64;
    nodes.saturating_mul(1_000_000) / micros
}

/// The longest prefix of `pv` that is legal from `root` (a safety net: hash
/// collisions can in principle splice foreign moves into a PV).
fn legal_prefix(root: &Position, pv: &[Move]) -> Vec<Move> {
    let mut pos = root.clone();
    let mut out = Vec::with_capacity(pv.len());
    for &mv in pv {
        if pos.play(mv).is_err() {
            break;
        }
        out.push(mv);
    }
    out
}
