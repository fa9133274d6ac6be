//! Helpers shared by the subcommands: reading positions and printing JSON.

use anyhow::{Context, Result};
use xiangqi_core::{Position, Validation};
use xiangqi_engine_client::{Engine, EngineError, EngineSpec, TrafficLog};

/// `--fen` and `--lenient`: the position a command starts from.
#[derive(clap::Args)]
pub struct PositionArgs {
    /// Start position (FEN); default: the standard start.
    #[arg(long)]
    pub fen: Option<String>,
    /// Read --fen leniently: soldiers behind their starting rank, advisors and
    /// elephants off their points (composed diagrams, other programs' FENs).
    #[arg(long)]
    pub lenient: bool,
}

impl PositionArgs {
    /// The position given by `--fen` (read leniently with `--lenient`), or the start position.
    pub fn position(&self) -> Result<Position> {
        let validation = if self.lenient {
            Validation::Lenient
        } else {
            Validation::Strict
        };
        match &self.fen {
            None => Ok(Position::startpos()),
            Some(f) => Position::from_fen_with(f, validation)
                .with_context(|| format!("cannot read --fen {f:?}")),
        }
    }
}

/// Prints one JSON value on its own line.
pub fn print_json(value: &serde_json::Value) -> Result<()> {
    println!("{}", serde_json::to_string(value)?);
    Ok(())
}

/// One JSON Lines record to `out`, the format of [`print_json`].
pub fn write_json_line(out: &mut impl std::io::Write, value: &serde_json::Value) -> Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    out.write_all(b"\n")?;
    Ok(())
}

/// Starts an engine; an error names the engine and whether it could not be
/// started at all (the error names the command itself) or failed its handshake.
pub fn start_engine(spec: &EngineSpec, log: Option<&TrafficLog>) -> Result<Engine> {
    Engine::start(spec, log).map_err(|e| match e {
        EngineError::Spawn { .. } => anyhow::Error::from(e),
        _ => anyhow::anyhow!(
            "engine {:?} ({}): handshake failed: {e}",
            spec.command,
            spec.protocol.name()
        ),
    })
}

/// Deepest perft the CLI and the engine's `go perft` accept: deeper would run
/// for days, so it is refused rather than hung.
pub const MAX_PERFT_DEPTH: u32 = 12;

/// Perft split by first move as text, one `move: count` per line: the form of
/// `xiangqi perft --divide` and the engine's `go perft` (Pikafish's).
pub fn divide_lines(split: &[(xiangqi_core::Move, u64)]) -> Vec<String> {
    split.iter().map(|(m, n)| format!("{m}: {n}")).collect()
}
