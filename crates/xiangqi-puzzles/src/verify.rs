//! The verification rule (docs/puzzles.md, "Which positions are kept"): a
//! candidate becomes a puzzle only when our engine confirms, at each of
//! the solver's steps, that the solution's move is clearly the best, and
//! at each of the opponent's, that the solution's reply is the best
//! defence.

use std::fmt;

use xiangqi_core::{Move, Position, Score};
use xiangqi_search::{Engine, Limits};

use crate::candidate::Candidate;
use crate::puzzle::Puzzle;
use crate::seed::{puzzle_id, rating_seed, themes};

/// How hard the engine looks and how clear a move must be.
#[derive(Clone, Debug)]
pub struct VerifyOptions {
    /// Each search's bound (nodes or time): one search per solver step
    /// (MultiPV 2), one or two per opponent step.
    pub limits: Limits,
    /// The solver's move must beat the second best by this many
    /// centipawns when neither mates.
    pub margin_cp: i32,
    /// The longest puzzle, in plies: of a longer verified line only the
    /// end is kept.
    pub max_plies: usize,
    /// The fewest moves of the solver a puzzle has.
    pub min_moves: usize,
    /// A defence other than the engine's best is accepted when the engine
    /// scores it at most this much worse (centipawns), or mated no sooner.
    pub defence_slack_cp: i32,
}

/// The default node budget of one search.
pub const DEFAULT_NODES: u64 = 100_000;
/// The default margin of a clearly best move, in centipawns.
pub const DEFAULT_MARGIN_CP: i32 = 200;
/// The default longest puzzle, in plies (8 moves of the solver).
pub const DEFAULT_MAX_PLIES: usize = 15;
/// The default fewest moves of the solver in a puzzle.
pub const DEFAULT_MIN_MOVES: usize = 2;

impl Default for VerifyOptions {
    fn default() -> VerifyOptions {
        VerifyOptions {
            limits: Limits::nodes(DEFAULT_NODES),
            margin_cp: DEFAULT_MARGIN_CP,
            max_plies: DEFAULT_MAX_PLIES,
            min_moves: DEFAULT_MIN_MOVES,
            defence_slack_cp: 50,
        }
    }
}

/// Why a candidate, or the start of its line, was not kept. `ply` counts
/// from 1 at the candidate's start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DropReason {
    /// No solver's move (an empty line, or only the opponent's).
    NoSolverMove,
    /// Fewer verified moves of the solver than [`VerifyOptions::min_moves`].
    TooShort { moves: usize },
    /// Longer than [`VerifyOptions::max_plies`]: only its end was kept.
    TooLong { plies: usize },
    /// The engine prefers another move.
    NotBest { ply: usize, engine: Move },
    /// The best move, but another is within the margin.
    NotClear { ply: usize, other: Move },
    /// Another move mates as well, before the last step.
    AnotherMate { ply: usize, other: Move },
    /// The opponent's reply is clearly not the best defence.
    WeakDefence { ply: usize, engine: Move },
}

impl DropReason {
    /// The reason's name in counts and JSON: `no_solver_move`, `too_short`,
    /// `too_long`, `not_best`, `not_clear`, `another_mate`, `weak_defence`.
    pub fn key(&self) -> &'static str {
        match self {
            DropReason::NoSolverMove => "no_solver_move",
            DropReason::TooShort { .. } => "too_short",
            DropReason::TooLong { .. } => "too_long",
            DropReason::NotBest { .. } => "not_best",
            DropReason::NotClear { .. } => "not_clear",
            DropReason::AnotherMate { .. } => "another_mate",
            DropReason::WeakDefence { .. } => "weak_defence",
        }
    }
}

impl fmt::Display for DropReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DropReason::NoSolverMove => write!(f, "the line has no move of the solver"),
            DropReason::TooShort { moves } => {
                write!(f, "only {moves} moves of the solver could be verified")
            }
            DropReason::TooLong { plies } => write!(f, "the line is {plies} plies long"),
            DropReason::NotBest { ply, engine } => {
                write!(f, "ply {ply}: the engine prefers {engine}")
            }
            DropReason::NotClear { ply, other } => {
                write!(f, "ply {ply}: {other} is almost as good")
            }
            DropReason::AnotherMate { ply, other } => write!(f, "ply {ply}: {other} mates too"),
            DropReason::WeakDefence { ply, engine } => {
                write!(f, "ply {ply}: the engine defends better with {engine}")
            }
        }
    }
}

/// What became of a candidate.
#[derive(Clone, Debug)]
pub enum Verdict {
    /// A puzzle: the whole line (`from_ply` 0), or its end from `from_ply`
    /// on, `cut` saying why the moves before were left out.
    Kept {
        puzzle: Puzzle,
        from_ply: usize,
        cut: Option<DropReason>,
    },
    /// No puzzle: the reason the end of the line could not be extended
    /// to [`VerifyOptions::min_moves`] moves.
    Dropped(DropReason),
}

/// An engine that verifies candidates one after another (one per worker).
pub struct Verifier {
    engine: Engine,
    options: VerifyOptions,
}

impl Verifier {
    /// A verifier with a single-threaded engine of `hash_mb` MiB.
    pub fn new(options: VerifyOptions, hash_mb: usize) -> Verifier {
        Verifier {
            engine: Engine::new(hash_mb),
            options,
        }
    }

    /// Verifies `candidate` from the end of its line backwards: the last
    /// move of the solver, then the opponent's reply before it and the
    /// solver's move before that, and so on, as long as every step passes
    /// and the puzzle stays within [`VerifyOptions::max_plies`]. The
    /// longest verified end becomes the puzzle, its first position the
    /// puzzle's start (the whole line when every step passes).
    pub fn verify(&mut self, candidate: &Candidate) -> Verdict {
        let mut line = candidate.solution.clone();
        if line.len() % 2 == 0 {
            // A line ending with the opponent's move ends, as a puzzle, one move earlier.
            line.pop();
        }
        if line.is_empty() {
            return Verdict::Dropped(DropReason::NoSolverMove);
        }
        let Ok((_, positions)) = candidate.start.replay(&line) else {
            return Verdict::Dropped(DropReason::NoSolverMove); // candidates hold legal lines
        };
        self.engine.new_game();
        let last = line.len() - 1;
        let mut from = line.len();
        let mut cut = None;
        let mut index = last;
        loop {
            if line.len() - index > self.options.max_plies {
                cut = Some(DropReason::TooLong { plies: line.len() });
                break;
            }
            // The suffix from `index` needs the reply after `index` (checked
            // already as part of the shorter suffix, except the first time)
            // and the solver's move at `index`.
            let step = match index < last {
                true => self.defence_step(&positions, &line, index + 1),
                false => Ok(()),
            }
            .and_then(|()| self.solver_step(&positions, &line, index, index == last));
            if let Err(reason) = step {
                cut = Some(reason);
                break;
            }
            from = index;
            if index < 2 {
                break;
            }
            index -= 2;
        }
        let kept = &line[from.min(line.len())..];
        let solver_moves = kept.len().div_ceil(2);
        if solver_moves < self.options.min_moves.max(1) {
            return Verdict::Dropped(cut.unwrap_or(DropReason::TooShort {
                moves: solver_moves,
            }));
        }
        let start = &positions[from];
        let end = &positions[last];
        let mated = end
            .after(line[last])
            .is_ok_and(|after| !after.has_legal_move());
        let mate_in = mated.then_some(solver_moves as u32);
        let solution: Vec<String> = kept.iter().map(Move::to_string).collect();
        let fen = start.to_fen();
        let source = match from {
            0 => candidate.source.clone(),
            ply => format!("{}, from ply {}", candidate.source, ply + 1),
        };
        Verdict::Kept {
            puzzle: Puzzle {
                id: puzzle_id(&fen, &solution),
                themes: themes(start, solver_moves, mate_in),
                rating: rating_seed(solver_moves, mate_in),
                fen,
                solution,
                source,
                mate_in,
            },
            from_ply: from,
            cut,
        }
    }

    /// The solver's move at `index` of `line` (`positions[index]` before it).
    fn solver_step(
        &mut self,
        positions: &[Position],
        line: &[Move],
        index: usize,
        last: bool,
    ) -> Result<(), DropReason> {
        let (position, history, mv, ply) = (
            &positions[index],
            &positions[..index],
            line[index],
            index + 1,
        );
        // At the last step any move that ends the game wins (Puzzle::judge).
        if last
            && position
                .after(mv)
                .is_ok_and(|after| !after.has_legal_move())
        {
            return Ok(());
        }
        let limits = Limits {
            multi_pv: 2,
            ..self.options.limits.clone()
        };
        let result = self.engine.search(position, history, &limits, |_| {});
        let Some(best) = result.lines.first() else {
            return Err(DropReason::NoSolverMove);
        };
        if best.pv[0] != mv {
            return Err(DropReason::NotBest {
                ply,
                engine: best.pv[0],
            });
        }
        let Some(second) = result.lines.get(1) else {
            return Ok(()); // the only legal move
        };
        let other = second.pv[0];
        match (best.score, second.score) {
            (Score::Mate(_), Score::Mate(m)) if m > 0 => {
                Err(DropReason::AnotherMate { ply, other })
            }
            (Score::Mate(n), _) if n > 0 => Ok(()),
            (Score::Cp(b), Score::Cp(s)) if b.saturating_sub(s) >= self.options.margin_cp => Ok(()),
            (Score::Cp(_), Score::Mate(m)) if m <= 0 => Ok(()),
            _ => Err(DropReason::NotClear { ply, other }),
        }
    }

    /// The opponent's reply at `index` of `line`.
    fn defence_step(
        &mut self,
        positions: &[Position],
        line: &[Move],
        index: usize,
    ) -> Result<(), DropReason> {
        let (position, history, mv, ply) = (
            &positions[index],
            &positions[..index],
            line[index],
            index + 1,
        );
        let result = self
            .engine
            .search(position, history, &self.options.limits, |_| {});
        let Some(best) = result.best_move else {
            return Ok(());
        };
        if best == mv {
            return Ok(());
        }
        // Often several defences lose alike: the reply's own score decides.
        let only_reply = Limits {
            search_moves: vec![mv],
            ..self.options.limits.clone()
        };
        let reply = self.engine.search(position, history, &only_reply, |_| {});
        if about_as_good(reply.score, result.score, self.options.defence_slack_cp) {
            Ok(())
        } else {
            Err(DropReason::WeakDefence { ply, engine: best })
        }
    }
}

/// `score` is no worse than `best`, or worse by at most `slack` centipawns.
fn about_as_good(score: Score, best: Score, slack: i32) -> bool {
    match (score, best) {
        (Score::Cp(s), Score::Cp(b)) => s >= b.saturating_sub(slack),
        _ => score >= best,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn candidate(fen: &str, moves: &[&str]) -> Candidate {
        let moves: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        Candidate::from_text("test".into(), fen, &moves).unwrap()
    }

    fn verifier() -> Verifier {
        Verifier::new(
            VerifyOptions {
                limits: Limits::nodes(20_000),
                ..VerifyOptions::default()
            },
            1,
        )
    }

    #[test]
    fn a_mate_in_one_is_kept_with_its_mate_when_one_move_is_enough() {
        let mate = candidate("4k4/9/4P4/9/R7R/9/9/9/9/5K3 w - - 0 1", &["a5a9"]);
        let mut v = Verifier::new(
            VerifyOptions {
                min_moves: 1,
                ..VerifyOptions::default()
            },
            1,
        );
        let Verdict::Kept {
            puzzle,
            from_ply,
            cut,
        } = v.verify(&mate)
        else {
            panic!("a mate in one is a puzzle");
        };
        assert_eq!((from_ply, cut), (0, None));
        assert_eq!(puzzle.mate_in, Some(1));
        assert_eq!(puzzle.themes, ["mate", "mateIn1", "endgame", "short"]);
        puzzle.check(1).unwrap();
        assert!(matches!(
            verifier().verify(&mate),
            Verdict::Dropped(DropReason::TooShort { moves: 1 })
        ));
    }

    #[test]
    fn a_quiet_first_move_of_the_opening_is_dropped() {
        let verdict = verifier().verify(&candidate(xiangqi_core::START_FEN, &["h2e2", "h9g7"]));
        let Verdict::Dropped(reason) = verdict else {
            panic!("the opening's first move is no puzzle");
        };
        assert!(matches!(reason.key(), "not_best" | "not_clear"), "{reason}");
    }

    #[test]
    fn the_length_cap_and_empty_lines_drop_before_searching() {
        let mut v = Verifier::new(
            VerifyOptions {
                max_plies: 0,
                ..VerifyOptions::default()
            },
            1,
        );
        let long = candidate(xiangqi_core::START_FEN, &["h2e2", "h9g7", "h0g2"]);
        assert!(matches!(
            v.verify(&long),
            Verdict::Dropped(DropReason::TooLong { plies: 3 })
        ));
        let empty = candidate(xiangqi_core::START_FEN, &["h2e2", "h9g7"][..0]);
        assert!(matches!(
            v.verify(&empty),
            Verdict::Dropped(DropReason::NoSolverMove)
        ));
    }
}
