//! # xiangqi-tests
//!
//! Cross-crate robustness tests, with no library code of their own: the
//! tests in `tests/tests/` feed garbage to every input surface (the
//! `xiangqi` binary's subcommands and its `uci`/`ucci` loops, the PGN
//! reader's limits) and check that the toolkit answers with clear errors and
//! keeps working. See `docs/robustness.md`; the fuzz targets are in `fuzz/`.
