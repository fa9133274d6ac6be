//! A puzzle and the puzzle-set file: one JSON object per line
//! (docs/puzzles.md, "The puzzle-set file"), checked line by line when read.

use std::io::{BufRead, Write};

use serde::{Deserialize, Serialize};
use xiangqi_core::{Move, Position};

/// A verified puzzle: from `fen`, the solver (the side to move) plays
/// `solution[0]`, the opponent `solution[1]`, and so on; the solution
/// always ends with a solver's move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Puzzle {
    /// Stable identifier: the hash of the start and the solution.
    pub id: String,
    /// The start position, the solver to move.
    pub fen: String,
    /// The moves in ICCS, solver's and opponent's in turn.
    pub solution: Vec<String>,
    /// Where it came from (a tactics list's id, a file and game number).
    pub source: String,
    /// Tags: `mate`, `mateIn2`, `endgame`, `middlegame`, `short`, `long`.
    pub themes: Vec<String>,
    /// Moves of the solver to a mate, when the solution ends in one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mate_in: Option<u32>,
    /// The rating the puzzle starts with (docs/puzzles.md, "Rating seed").
    pub rating: f64,
}

/// What a solver's move at a step of a puzzle is worth.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// The solution's move (or, at the last step, any move that leaves the
    /// opponent without a legal move, which wins as the solution does):
    /// the opponent answers with this reply, or the puzzle is solved.
    Right {
        /// The opponent's answer, `None` when the puzzle is solved.
        reply: Option<Move>,
    },
    /// Any other move: the puzzle is failed.
    Wrong,
}

/// Why a puzzle (or a line of a puzzle-set file) is not one.
#[derive(Debug, thiserror::Error)]
pub enum PuzzleError {
    /// The line is not a puzzle object.
    #[error("line {line}: not a puzzle: {detail}")]
    Json { line: usize, detail: String },
    /// The FEN cannot be read.
    #[error("line {line}: puzzle {id}: FEN: {detail}")]
    Fen {
        line: usize,
        id: String,
        detail: String,
    },
    /// A solution move is not ICCS or not legal where it is played.
    #[error("line {line}: puzzle {id}: solution move {ply}: {detail}")]
    Move {
        line: usize,
        id: String,
        ply: usize,
        detail: String,
    },
    /// The solution is empty or ends with the opponent's move.
    #[error(
        "line {line}: puzzle {id}: the solution must end with the solver's move ({plies} plies)"
    )]
    Length {
        line: usize,
        id: String,
        plies: usize,
    },
    /// Two puzzles of one file share an id.
    #[error("line {line}: puzzle {id}: the id is used twice")]
    DuplicateId { line: usize, id: String },
    /// Reading or writing the file failed.
    #[error("{0}")]
    Io(std::io::Error),
}

impl From<std::io::Error> for PuzzleError {
    fn from(error: std::io::Error) -> PuzzleError {
        PuzzleError::Io(error)
    }
}

impl Puzzle {
    /// The start position.
    pub fn position(&self) -> Result<Position, xiangqi_core::FenError> {
        Position::from_fen(&self.fen)
    }

    /// The solution as moves (checked when the puzzle was read or built).
    pub fn moves(&self) -> Vec<Move> {
        self.solution
            .iter()
            .filter_map(|m| m.parse().ok())
            .collect()
    }

    /// The number of moves the solver plays.
    pub fn solver_moves(&self) -> usize {
        self.solution.len().div_ceil(2)
    }

    /// Judges the solver's `mv` at `ply` (0, 2, 4, …) of the solution.
    /// Only the solution's moves are right, except at the last step, where
    /// any move after which the opponent has no legal move (mate or
    /// stalemate: both lose, R-END-MATE, R-END-STALEMATE) wins as well.
    pub fn judge(&self, ply: usize, mv: Move) -> Judgement {
        let moves = self.moves();
        let Some(&expected) = moves.get(ply) else {
            return Judgement::Wrong;
        };
        if mv == expected {
            return Judgement::Right {
                reply: moves.get(ply + 1).copied(),
            };
        }
        let last = ply + 1 == moves.len();
        let ends_game = self
            .position()
            .ok()
            .and_then(|start| start.after_moves(moves[..ply].iter().copied()).ok())
            .and_then(|before| before.after(mv).ok())
            .is_some_and(|after| !after.has_legal_move());
        if last && ends_game {
            Judgement::Right { reply: None }
        } else {
            Judgement::Wrong
        }
    }

    /// Checks that the puzzle is one: a position, legal moves, the solver
    /// moving last (`line` names it in the error).
    pub fn check(&self, line: usize) -> Result<(), PuzzleError> {
        let start = self.position().map_err(|e| PuzzleError::Fen {
            line,
            id: self.id.clone(),
            detail: e.to_string(),
        })?;
        if self.solution.len() % 2 == 0 {
            return Err(PuzzleError::Length {
                line,
                id: self.id.clone(),
                plies: self.solution.len(),
            });
        }
        let mut position = start;
        for (ply, text) in self.solution.iter().enumerate() {
            let error = |detail: String| PuzzleError::Move {
                line,
                id: self.id.clone(),
                ply: ply + 1,
                detail,
            };
            let mv: Move = text.parse().map_err(|e| error(format!("{e}")))?;
            position.play(mv).map_err(|e| error(e.to_string()))?;
        }
        Ok(())
    }
}

/// Reads a puzzle-set file: every line a puzzle (blank lines skipped),
/// each checked; the first bad line is the error.
pub fn read_puzzle_set(reader: impl BufRead) -> Result<Vec<Puzzle>, PuzzleError> {
    let mut puzzles = Vec::new();
    let mut ids = std::collections::HashSet::new();
    for (index, line) in reader.lines().enumerate() {
        let line_number = index + 1;
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let puzzle: Puzzle = serde_json::from_str(&line).map_err(|e| PuzzleError::Json {
            line: line_number,
            detail: e.to_string(),
        })?;
        puzzle.check(line_number)?;
        if !ids.insert(puzzle.id.clone()) {
            return Err(PuzzleError::DuplicateId {
                line: line_number,
                id: puzzle.id,
            });
        }
        puzzles.push(puzzle);
    }
    Ok(puzzles)
}

/// Writes one puzzle as a line of a puzzle-set file.
pub fn write_puzzle(out: &mut impl Write, puzzle: &Puzzle) -> Result<(), PuzzleError> {
    let text = serde_json::to_string(puzzle).map_err(std::io::Error::other)?;
    writeln!(out, "{text}")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn puzzle(fen: &str, solution: &[&str]) -> Puzzle {
        Puzzle {
            id: "p".into(),
            fen: fen.into(),
            solution: solution.iter().map(|s| s.to_string()).collect(),
            source: "test".into(),
            themes: vec![],
            mate_in: None,
            rating: 1500.0,
        }
    }

    #[test]
    fn the_last_step_takes_any_move_that_ends_the_game() {
        // The soldier holds e8: either chariot mates on rank 9.
        let p = puzzle("4k4/9/4P4/9/R7R/9/9/9/9/5K3 w - - 0 1", &["a5a9"]);
        p.check(1).unwrap();
        let right = Judgement::Right { reply: None };
        assert_eq!(p.judge(0, "a5a9".parse().unwrap()), right);
        assert_eq!(p.judge(0, "i5i9".parse().unwrap()), right);
        // The soldier's check is answered by taking it.
        assert_eq!(p.judge(0, "e7e8".parse().unwrap()), Judgement::Wrong);
        assert_eq!(p.judge(0, "a5a6".parse().unwrap()), Judgement::Wrong);
        assert_eq!(p.judge(2, "a5a9".parse().unwrap()), Judgement::Wrong);
    }

    #[test]
    fn before_the_last_step_only_the_solution_is_right() {
        let p = puzzle(
            "4k4/9/4P4/9/R7R/9/9/9/9/5K3 w - - 0 1",
            &["a5a6", "e9d9", "i5i9"],
        );
        p.check(1).unwrap();
        assert_eq!(
            p.judge(0, "a5a6".parse().unwrap()),
            Judgement::Right {
                reply: Some("e9d9".parse().unwrap())
            }
        );
        assert_eq!(p.judge(0, "a5a9".parse().unwrap()), Judgement::Wrong);
    }

    #[test]
    fn a_solution_ending_with_the_opponent_is_refused() {
        let p = puzzle(xiangqi_core::START_FEN, &["h2e2", "h9g7"]);
        assert!(matches!(
            p.check(3),
            Err(PuzzleError::Length { line: 3, .. })
        ));
        let p = puzzle(xiangqi_core::START_FEN, &["h2e3"]);
        assert!(matches!(p.check(1), Err(PuzzleError::Move { ply: 1, .. })));
    }

    #[test]
    fn a_set_round_trips_and_names_its_bad_line() {
        let p = puzzle(xiangqi_core::START_FEN, &["h2e2"]);
        let mut text = Vec::new();
        write_puzzle(&mut text, &p).unwrap();
        write_puzzle(&mut text, &p).unwrap();
        let error = read_puzzle_set(&text[..]).unwrap_err();
        assert_eq!(error.to_string(), "line 2: puzzle p: the id is used twice");
        let one = read_puzzle_set(&text[..text.len() / 2]).unwrap();
        assert_eq!(one, vec![p]);
        let error = read_puzzle_set(&b"{\"id\": 1}\n"[..]).unwrap_err();
        assert!(error.to_string().starts_with("line 1: not a puzzle"));
    }
}
