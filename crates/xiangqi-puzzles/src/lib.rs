//! # xiangqi-puzzles
//!
//! Puzzles made from positions whose solution is known: a [`Candidate`]
//! (a start and a line, from a tactics list or a game file) is kept as a
//! [`Puzzle`] only when our engine confirms one clearly best move at each
//! of the solver's steps and the best defence at each of the opponent's
//! ([`Verifier`], the rule in docs/puzzles.md). A puzzle set is a JSON Lines
//! file ([`read_puzzle_set`], [`write_puzzle`]); [`Puzzle::judge`] is the
//! one rule that says whether a solver's move is right, which the server
//! applies.
//!
//! ```
//! use xiangqi_puzzles::{Candidate, Judgement, Verdict, Verifier, VerifyOptions};
//! let options = VerifyOptions { min_moves: 1, ..VerifyOptions::default() };
//! // Either chariot mates on rank 9 while the soldier holds e8.
//! let fen = "4k4/9/4P4/9/R7R/9/9/9/9/5K3 w - - 0 1";
//! let candidate = Candidate::from_text("example".into(), fen, &["a5a9".into()]).unwrap();
//! let Verdict::Kept { puzzle, .. } = Verifier::new(options, 1).verify(&candidate) else {
//!     panic!("a mate in one is kept");
//! };
//! assert_eq!(puzzle.mate_in, Some(1));
//! assert_eq!(puzzle.judge(0, "i5i9".parse().unwrap()), Judgement::Right { reply: None });
//! ```

mod candidate;
mod puzzle;
mod seed;
mod verify;

pub use candidate::{read_tactics, Candidate, CandidateError};
pub use puzzle::{read_puzzle_set, write_puzzle, Judgement, Puzzle, PuzzleError};
pub use seed::{puzzle_id, rating_seed, themes};
pub use verify::{
    DropReason, Verdict, Verifier, VerifyOptions, DEFAULT_MARGIN_CP, DEFAULT_MAX_PLIES,
    DEFAULT_MIN_MOVES, DEFAULT_NODES,
};
