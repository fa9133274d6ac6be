//! Candidates: a start and a solution line to verify, from a game (its
//! start position or `FEN` setup and its main line) or from a tactics list
//! (JSON Lines with `fen`, `solution`, `mate_in`, as
//! `testdata/tactics.jsonl`).

use std::io::BufRead;

use serde::Deserialize;
use xiangqi_core::{Move, Position};
use xiangqi_gamefile::Game;

/// A position and the line that is said to solve it.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// Where it came from, kept in the puzzle.
    pub source: String,
    /// The start, the solver to move.
    pub start: Position,
    /// The solver's and the opponent's moves in turn (legal: checked when made).
    pub solution: Vec<Move>,
}

/// Why a record is no candidate at all (before any search).
#[derive(Debug, thiserror::Error)]
pub enum CandidateError {
    /// A tactics line that is not an object with `fen` and `solution`.
    #[error("{source_name}: not a tactics record: {detail}")]
    Record { source_name: String, detail: String },
    /// The start cannot be read.
    #[error("{source_name}: start position: {detail}")]
    Start { source_name: String, detail: String },
    /// A move of the line is not ICCS.
    #[error("{source_name}: move {ply}: {detail}")]
    Move {
        source_name: String,
        ply: usize,
        detail: String,
    },
    /// A move of the line cannot be played (the core's words say which).
    #[error("{source_name}: {detail}")]
    Illegal { source_name: String, detail: String },
}

impl Candidate {
    /// A candidate from `start` and moves given as ICCS text.
    pub fn from_text(
        source: String,
        fen: &str,
        moves: &[String],
    ) -> Result<Candidate, CandidateError> {
        let start = Position::from_fen(fen).map_err(|e| CandidateError::Start {
            source_name: source.clone(),
            detail: e.to_string(),
        })?;
        let mut solution = Vec::with_capacity(moves.len());
        for (ply, text) in moves.iter().enumerate() {
            let mv: Move = text.parse().map_err(|e| CandidateError::Move {
                source_name: source.clone(),
                ply: ply + 1,
                detail: format!("{e}"),
            })?;
            solution.push(mv);
        }
        Candidate::new(source, start, solution)
    }

    /// A candidate from a game: its start and its main line.
    pub fn from_game(source: String, game: &Game) -> Result<Candidate, CandidateError> {
        let start = game.start_position().map_err(|e| CandidateError::Start {
            source_name: source.clone(),
            detail: e.to_string(),
        })?;
        Candidate::new(source, start, game.moves().collect())
    }

    fn new(
        source: String,
        start: Position,
        solution: Vec<Move>,
    ) -> Result<Candidate, CandidateError> {
        if let Err(e) = start.replay(&solution) {
            return Err(CandidateError::Illegal {
                source_name: source,
                detail: e.to_string(),
            });
        }
        Ok(Candidate {
            source,
            start,
            solution,
        })
    }
}

#[derive(Deserialize)]
struct TacticsRecord {
    #[serde(default)]
    id: Option<String>,
    fen: String,
    solution: Vec<String>,
}

/// The candidates of a tactics list, one per non-blank line, in order;
/// `name` (the file's name) prefixes each source: `NAME#ID`, or
/// `NAME:LINE` for a record without an `id`.
pub fn read_tactics(
    reader: impl BufRead,
    name: &str,
) -> Result<Vec<Result<Candidate, CandidateError>>, std::io::Error> {
    let mut candidates = Vec::new();
    for (index, line) in reader.lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let place = format!("{name}:{}", index + 1);
        let candidate = match serde_json::from_str::<TacticsRecord>(&line) {
            Ok(record) => {
                let source = match &record.id {
                    Some(id) => format!("{name}#{id}"),
                    None => place,
                };
                Candidate::from_text(source, &record.fen, &record.solution)
            }
            Err(e) => Err(CandidateError::Record {
                source_name: place,
                detail: e.to_string(),
            }),
        };
        candidates.push(candidate);
    }
    Ok(candidates)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tactics_records_become_candidates_or_say_why_not() {
        let text = concat!(
            r#"{"id": "T1", "fen": "4k4/9/4P4/9/R7R/9/9/9/9/5K3 w - - 0 1", "solution": ["a5a9"], "mate_in": 1}"#,
            "\n\n",
            r#"{"fen": "4k4/9/4P4/9/R7R/9/9/9/9/5K3 w - - 0 1", "solution": ["a5a9", "e9e8"]}"#,
            "\n",
            r#"{"fen": "x"}"#,
            "\n",
        );
        let read = read_tactics(text.as_bytes(), "t.jsonl").unwrap();
        assert_eq!(read.len(), 3);
        assert_eq!(read[0].as_ref().unwrap().source, "t.jsonl#T1");
        // The general cannot step into the chariot's rank.
        assert!(read[1]
            .as_ref()
            .unwrap_err()
            .to_string()
            .starts_with("t.jsonl:3: move 2 (e9e8) cannot be played"));
        assert!(read[2]
            .as_ref()
            .unwrap_err()
            .to_string()
            .starts_with("t.jsonl:4: not a tactics record"));
    }
}
