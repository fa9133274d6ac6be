//! # xiangqi-adjudication
//!
//! Game records to verdicts, exactly as the project's rules reference
//! (`rules.md`, sections 4-8 and 11) defines them: checkmate and stalemate,
//! threefold repetition judged for perpetual check and perpetual chase,
//! the no-capture rule, insufficient material, and the online clock and
//! connection model. Everything is deterministic: times are passed in, never
//! read from a wall clock.
//!
//! This crate owns *game-level* rules. The board (moves, checks, FEN) is
//! `xiangqi-core`'s; move text and PGN are `xiangqi-notation`'s.
//!
//! Entry points:
//! * [`Game`] / [`GameRecord`]: push moves, read the [`Verdict`] after each ply;
//! * [`OnlineGame`]: the same with clocks and player events (section 8);
//! * [`RuleSet`] and its [`Preset`]s (section 11);
//! * for engines: [`classify_ply`] (check / chase / idle of one ply, 5.2-5.3),
//!   [`judge_cycle`] (R-REP-VERDICT over a span) and [`RepetitionTracker`].
//!
//! ```
//! use xiangqi_adjudication::{GameRecord, Outcome, Preset, Reason, RuleSet};
//! // EX-REP-1: perpetual check by a chariot; the checking side loses.
//! let record = GameRecord::parse(
//!     Some("4k4/9/9/9/9/9/9/9/9/5K2R w - - 0 1"),
//!     "i0i9 e9e8 i9i8 e8e9 i8i9 e9e8 i9i8 e8e9 i8i9",
//! )
//! .unwrap();
//! let verdict = record.adjudicate(&RuleSet::preset(Preset::Asian)).unwrap();
//! assert_eq!(verdict.outcome, Outcome::Black);
//! assert_eq!(verdict.reason, Some(Reason::PerpetualCheck));
//! assert_eq!(verdict.ply, 9);
//! let red = &verdict.repetition.unwrap().red;
//! assert_eq!(red.pieces[0].square.to_string(), "i9");
//! ```
#![warn(missing_docs)]

mod chase;
mod clock;
mod game;
mod identity;
mod material;
mod nocapture;
mod repetition;
mod report;
mod rules;
mod verdict;

pub use chase::{classify_ply, is_unprotected, threats, threats_after, PlyClass, PlyKind, Threats};
pub use clock::{
    ClockError, ClockEvent, OnlineGame, ParseTimeControlError, TimeControl, TimedEvent,
    TAKEBACK_COOLDOWN_PLIES,
};
pub use game::{Game, GameError, GameRecord};
pub use identity::PieceIds;
pub use material::{is_bare, is_dead, is_drawn_extended, is_insufficient};
pub use nocapture::NoCaptureCounter;
pub use repetition::{
    is_irreversible, judge_cycle, CycleJudgement, CycleRules, PlyRecord, Repetition,
    RepetitionTracker, SideConduct,
};
pub use rules::{
    ChaseDefinition, ClockRules, EndOrder, MaterialRule, NoCaptureChecks, Preset,
    RepetitionEnforcement, RuleSet, StalemateRule, UnknownPresetError,
};
pub use verdict::{Conduct, Outcome, PlacedPiece, Reason, RepetitionInfo, SideReport, Verdict};
