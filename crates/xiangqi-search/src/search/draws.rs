//! Positions that end by rule inside the search tree: a repetition of an
//! earlier position (of the game or of the current line), scored by the
//! engine's [`RepetitionJudge`](crate::RepetitionJudge) as the adjudication
//! rules would (rules reference section 5), and dead material.

use xiangqi_core::{PieceKind, Position};

use super::Searcher;
use crate::repetition::{CyclePly, RepetitionOutcome};
use crate::score::MATE;

impl Searcher<'_> {
    /// The score of the current node if it repeats an earlier position.
    pub(super) fn repetition_score(&self, ply: usize) -> Option<i32> {
        let n = self.path.len();
        let cur = self.path[n - 1];
        let limit = cur.reversible as usize;
        let mut back = 4;
        while back <= limit && back < n {
            let j = n - 1 - back;
            if self.path[j].hash == cur.hash {
                return Some(self.judge_cycle(j, ply));
            }
            back += 2;
        }
        None
    }

    fn judge_cycle(&self, first: usize, ply: usize) -> i32 {
        let n = self.path.len();
        let us = self.pos.side_to_move();
        let cycle_positions = self.cycle_positions(first);
        let position = |k: usize| cycle_positions.as_ref().map(|c| &c[k - first]);
        // Plies first+1 ..= n-1; the mover of the last one is the opponent.
        let mut plies: Vec<CyclePly<'_>> = Vec::with_capacity(n - 1 - first);
        for k in first + 1..n {
            let back_from_end = n - 1 - k;
            let mover = if back_from_end % 2 == 0 { !us } else { us };
            plies.push(CyclePly {
                mover,
                gave_check: self.path[k].gave_check,
                mv: self.path[k].mv,
                before: position(k - 1),
                after: position(k),
            });
        }
        match self.judge.judge(&plies) {
            RepetitionOutcome::Draw => 0,
            RepetitionOutcome::Loses(c) if c == us => -MATE + ply as i32,
            RepetitionOutcome::Loses(_) => MATE - ply as i32,
        }
    }

    /// The positions at path indices `first..`, for judges that need them.
    /// The position at `first` equals the current one (that is the repetition).
    fn cycle_positions(&self, first: usize) -> Option<Vec<Position>> {
        let stored = self.positions.as_ref()?;
        let n = self.path.len();
        let mut cur = stored.get(first).unwrap_or(&self.pos).clone();
        let mut out = Vec::with_capacity(n - first);
        out.push(cur.clone());
        for k in first + 1..n {
            match stored.get(k) {
                Some(p) => cur = p.clone(),
                None => {
                    // Search plies always carry their move; a null move cannot be inside a cycle.
                    let mv = self.path[k].mv?;
                    cur.make_move(mv);
                }
            }
            out.push(cur.clone());
        }
        Some(out)
    }

    pub(super) fn dead_material(&self) -> bool {
        // Only generals, advisors and elephants: at most ten pieces.
        self.pos.occupied().len() <= 10
            && self.pos.pieces().all(|(_, p)| {
                matches!(
                    p.kind,
                    PieceKind::General | PieceKind::Advisor | PieceKind::Elephant
                )
            })
    }
}
