//! # xiangqi-adjudication
//!
//! Game records to verdicts. Work in progress: see the adjudication issue.
