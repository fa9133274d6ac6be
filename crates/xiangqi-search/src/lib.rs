//! # xiangqi-search
//!
//! The engine. Work in progress: see the engine issue.
