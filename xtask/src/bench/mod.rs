//! `cargo xtask bench [KIND]`: benchmarks, each comparing against a peer in
//! the same run where one exists.
//!
//! Adding a kind (an engine strength match, a Python benchmark, …): add a
//! variant to [`Kind`], a module next to `perft.rs` with a `run` function,
//! and a line in [`run`]; `all` runs every kind in the order listed.

use anyhow::Result;

use crate::run::Steps;

mod criterion;
mod perft;

#[derive(Copy, Clone, PartialEq, Eq, clap::ValueEnum)]
pub enum Kind {
    /// Perft 5 from the start: our CLI against fairy-stockfish, plus the
    /// release-mode `#[ignore]` perft tests.
    Perft,
    /// `cargo bench --workspace` (criterion).
    Criterion,
    /// Every kind above.
    All,
}

#[derive(clap::Args)]
pub struct Args {
    /// Which benchmark to run.
    #[arg(value_enum, default_value_t = Kind::All)]
    kind: Kind,
    #[command(flatten)]
    perft: perft::Options,
}

pub fn run(args: Args) -> Result<()> {
    let mut steps = Steps::default();
    let wants = |k: Kind| args.kind == k || args.kind == Kind::All;
    if wants(Kind::Perft) {
        perft::run(&args.perft, &mut steps)?;
    }
    if wants(Kind::Criterion) {
        steps.step("criterion: cargo bench --workspace", || {
            criterion::run()?;
            Ok(None)
        })?;
    }
    steps.print_summary();
    Ok(())
}
