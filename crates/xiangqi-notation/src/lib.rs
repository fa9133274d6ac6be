//! # xiangqi-notation
//!
//! Move text in every notation people write (ICCS, WXF, Chinese, Vietnamese)
//! and PGN game records. Work in progress: see the notation issue.
