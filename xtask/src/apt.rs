//! Debian packages the test command installs when they are missing: one
//! `apt-get install`, as root only, after `apt-get update` if the first try
//! fails (a fresh machine's package lists may be stale or absent).

use std::process::Command;

use anyhow::{bail, Result};

use crate::run::{exec, is_root};

/// Installs Debian's `package`; `instead` says what a user who is not root
/// can do (install it, or point the tests at a server of theirs).
pub fn install(package: &str, instead: &str) -> Result<()> {
    if !is_root() {
        bail!("{package} is not installed, and only root may install it: {instead}");
    }
    eprintln!("{package} is not installed; installing Debian's {package}");
    let install = || {
        let mut command = Command::new("apt-get");
        command
            .args(["install", "-y", "--no-install-recommends", package])
            .env("DEBIAN_FRONTEND", "noninteractive");
        exec(&mut command)
    };
    if install().is_err() {
        exec(Command::new("apt-get").arg("update"))?;
        install()?;
    }
    Ok(())
}

/// Debian's Fairy-Stockfish, the engine the bot, match and browser tests
/// play against (`/usr/games/fairy-stockfish`).
pub const FAIRY_STOCKFISH: &str = "/usr/games/fairy-stockfish";

/// Installs Debian's `fairy-stockfish` when it is missing and this is root
/// (the tests that want it skip with a message otherwise, and fail under
/// `CI=true`).
pub fn ensure_fairy_stockfish() -> Result<()> {
    if std::path::Path::new(FAIRY_STOCKFISH).is_file() || !is_root() {
        return Ok(());
    }
    install(
        "fairy-stockfish",
        "`apt-get install fairy-stockfish`, or let the tests that need it skip",
    )
}
