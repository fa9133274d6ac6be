//! # xiangqi-test-support
//!
//! What the workspace's tests share, as rust-analyzer's `test-utils` does for
//! its crates: finding the reference data of `../shared/testdata` (beside the
//! repository, never committed) with one rule everywhere. It depends on no
//! workspace crate, so every crate may take it as a dev-dependency without
//! a cycle. Random positions and games are `xiangqi_core::random_game` and
//! `random_position`; this crate adds nothing that needs the board.
//!
//! Behind features, the harnesses the server's tests would otherwise each
//! write again: `serve` (a `xiangqi serve` process, a WebSocket client of
//! the protocol, HTTP helpers) and `databases` (a temp SQLite file, a fresh
//! PostgreSQL schema per test, and `on_both_databases!`).

use std::path::{Path, PathBuf};

#[cfg(feature = "databases")]
pub mod databases;
#[cfg(feature = "serve")]
pub mod serve;

/// The repository's root: the folder of the workspace `Cargo.toml`.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crates/xiangqi-test-support sits two folders below the root")
        .to_path_buf()
}

/// `../shared/testdata/RELATIVE` beside the repository, when it is there.
///
/// When it is absent a test cannot check what it was written for: under
/// `CI=true` that is a failure (CI must have the reference data), so this
/// panics naming the path; elsewhere it prints that the test skipped and
/// returns `None`.
pub fn shared_testdata(relative: &str) -> Option<PathBuf> {
    let path = workspace_root().join("../shared/testdata").join(relative);
    if path.exists() {
        return Some(path);
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "the reference data is missing at {} (CI=true requires it)",
        path.display()
    );
    println!("skipped: no reference data at {}", path.display());
    None
}
