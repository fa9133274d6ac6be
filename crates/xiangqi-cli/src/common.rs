//! Helpers shared by the subcommands: reading positions and printing JSON.

use anyhow::{Context, Result};
use xiangqi_core::Position;

/// The position given by `--fen`, or the start position.
pub fn position_arg(fen: Option<&str>) -> Result<Position> {
    match fen {
        None => Ok(Position::startpos()),
        Some(f) => Position::from_fen(f).with_context(|| format!("cannot read --fen {f:?}")),
    }
}

/// Prints one JSON value on its own line.
pub fn print_json(value: &serde_json::Value) -> Result<()> {
    println!("{}", serde_json::to_string(value)?);
    Ok(())
}
