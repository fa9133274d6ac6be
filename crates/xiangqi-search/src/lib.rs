//! # xiangqi-search
//!
//! The engine: static evaluation, alpha-beta search with a transposition
//! table, time management, and the fixed benchmark. This crate owns *choosing
//! a move*; the rules come from `xiangqi-core`, and the repetition rules used
//! inside the search follow the rules reference section 5 through a
//! pluggable [`RepetitionJudge`].
//!
//! Two ways in: [`Engine::search`] blocks until the search is over (bench,
//! tuning, batch analysis); [`SearchThread`] runs it on its own thread with
//! `go`, `stop` and `ponderhit` and reports through a callback, the one
//! interface every interactive front end uses (the CLI's UCI and UCCI loops,
//! the Python bindings, the server's engine player and reviews), so stop and
//! ponder behave the same everywhere.
//!
//! ```
//! use xiangqi_core::Position;
//! use xiangqi_search::{Engine, Limits};
//!
//! let mut engine = Engine::new(8);
//! let result = engine.search(&Position::startpos(), &[], &Limits::depth(4), |info| {
//!     // One report per completed iteration.
//!     assert!(info.depth >= 1 && !info.pv.is_empty());
//! });
//! assert_eq!(result.depth, 4);
//! assert!(Position::startpos().is_legal(result.best_move.unwrap()));
//! ```
#![warn(missing_docs)]

mod bench;
mod engine;
mod eval;
mod limits;
mod ordering;
mod repetition;
mod score;
mod search;
mod search_thread;
mod see;
mod skill;
mod time;
mod tt;
pub mod tune;
pub mod wdl;

pub use bench::{
    run_bench, run_bench_on, run_bench_threads, BenchEntry, BenchReport, BENCH_DEPTH,
    BENCH_POSITIONS,
};
pub use engine::{
    Engine, NnueError, PvLine, SearchInfo, SearchResult, DEFAULT_HASH_MB, MAX_DEPTH, MAX_HASH_MB,
    MAX_MULTI_PV, MAX_THREADS,
};
pub use eval::{
    evaluate, evaluate_with, trace, weights, weights_source, Phase, Trace, WeightCountError,
    WeightGroup, Weights,
};
pub use limits::Limits;
pub use repetition::{
    AdjudicationJudge, AlwaysDraw, CheckRuleJudge, CyclePly, RepetitionJudge, RepetitionOutcome,
};
pub use score::Score;
pub use search_thread::{SearchError, SearchEvent, SearchRemote, SearchThread};
pub use see::{is_quiet, see};
pub use skill::{
    Skill, CLASSICAL_ELO, CLASSICAL_VS_REFERENCE, ELO_TABLE, FULL_STRENGTH_ELO,
    FULL_STRENGTH_VS_REFERENCE, MAX_SKILL_LEVEL, REFERENCE_ELO,
};
pub use time::{DEFAULT_MOVE_OVERHEAD, MAX_MOVE_OVERHEAD};
