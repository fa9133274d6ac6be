//! `cargo xtask bench [KIND]`: benchmarks, each comparing against a peer in
//! the same run where one exists.
//!
//! Adding a kind (an engine strength match, a Python benchmark, …): add a
//! variant to [`Kind`], a module next to `perft.rs` with a `run` function,
//! and a line in [`run`]; `all` runs every kind in the order listed.

use std::path::PathBuf;

use anyhow::Result;

use crate::run::{cargo, exec, target_dir, Steps};

mod criterion;
mod explorer;
mod files;
mod jobs;
mod nps;
mod perft;
mod server;
mod strength;
mod tactics;
mod uci;

#[derive(Copy, Clone, PartialEq, Eq, clap::ValueEnum)]
pub enum Kind {
    /// Perft 5 from the start: our CLI against fairy-stockfish, plus the
    /// release-mode `#[ignore]` perft tests.
    Perft,
    /// `cargo bench --workspace` (criterion).
    Criterion,
    /// Engine strength: `xiangqi match` against fairy-stockfish (100 games
    /// at 100 ms/move by default, about half an hour on two cores).
    Strength,
    /// `--jobs` on `game check` and `adjudicate --pgn`: one job against
    /// two on a corpus of real games (the reference CBL libraries as PGN).
    Jobs,
    /// The forced mates of `../shared/testdata/tactics.jsonl`: mates found
    /// by our engine and by fairy-stockfish at `--movetime` ms a position.
    Tactics,
    /// Game files through the CLI: `game check --json` on the shared XQF
    /// directory against cchess's reader on the same files, games/s.
    Files,
    /// The game server: bot clients play whole games over loopback at
    /// `--connections` (100, 1 000, 10 000 by default), moves/s, move round
    /// trip p50/p99, the server's CPU and memory.
    Server,
    /// The opening explorer: `explore build` on the shared corpus and on a
    /// generated one (1 000 000 games by default): build time, peak RSS,
    /// database size, query p50/p99.
    Explorer,
    /// Nodes per second of two engine builds (`--nps-engine` twice) or of
    /// one engine with a UCI option off and on (`--nps-option "Use NNUE"`)
    /// on the bench positions, in one run, taking turns.
    Nps,
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
    #[command(flatten)]
    strength: strength::Options,
    #[command(flatten)]
    jobs: jobs::Options,
    #[command(flatten)]
    tactics: tactics::Options,
    #[command(flatten)]
    files: files::Options,
    #[command(flatten)]
    server: server::Options,
    #[command(flatten)]
    explorer: explorer::Options,
    #[command(flatten)]
    nps: nps::Options,
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
    if wants(Kind::Strength) {
        strength::run(&args.strength, &mut steps)?;
    }
    if wants(Kind::Jobs) {
        jobs::run(&args.jobs, &mut steps)?;
    }
    if wants(Kind::Tactics) {
        tactics::run(&args.tactics, &mut steps)?;
    }
    if wants(Kind::Files) {
        files::run(&args.files, &mut steps)?;
    }
    if wants(Kind::Server) {
        server::run(&args.server, &mut steps)?;
    }
    if wants(Kind::Explorer) {
        explorer::run(&args.explorer, &mut steps)?;
    }
    if wants(Kind::Nps) {
        nps::run(&args.nps, &mut steps)?;
    }
    steps.print_summary();
    Ok(())
}

/// Builds the release CLI (a step) and returns the binary's path.
pub(crate) fn release_cli(steps: &mut Steps) -> Result<PathBuf> {
    let mut bin = PathBuf::new();
    steps.step("build xiangqi-cli (release)", || {
        exec(&mut cargo(["build", "--release", "-p", "xiangqi-cli"]))?;
        bin = target_dir().join("release").join("xiangqi");
        Ok(None)
    })?;
    Ok(bin)
}

/// The median of `xs` (not empty).
pub(crate) fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

#[cfg(test)]
mod tests {
    use clap::{CommandFactory, Parser};

    use super::*;

    #[derive(clap::Parser)]
    struct Cli {
        #[command(flatten)]
        bench: Args,
    }

    #[test]
    fn options_of_every_kind_parse_together() {
        Cli::command().debug_assert();
        let cli = Cli::try_parse_from(["bench", "strength", "--games", "4", "--tc", "50"]).unwrap();
        assert!(cli.bench.kind == Kind::Strength);
        assert!(Cli::try_parse_from(["bench", "strength", "--games", "x"]).is_err());
        let cli =
            Cli::try_parse_from(["bench", "jobs", "--copies", "9", "--jobs-max", "3"]).unwrap();
        assert!(cli.bench.kind == Kind::Jobs);
        assert_eq!((cli.bench.jobs.copies, cli.bench.jobs.jobs_max), (9, 3));
        let cli = Cli::try_parse_from(["bench", "tactics", "--movetime", "500"]).unwrap();
        assert_eq!(cli.bench.tactics.movetime, 500);
        let cli = Cli::try_parse_from(["bench", "files", "--files-runs", "2"]).unwrap();
        assert!(cli.bench.kind == Kind::Files);
        assert_eq!(
            (cli.bench.files.files_runs, cli.bench.files.cchess_runs),
            (2, 1)
        );
        let cli = Cli::try_parse_from([
            "bench",
            "server",
            "--connections",
            "100,1000",
            "--level-seconds",
            "30",
            "--json",
        ])
        .unwrap();
        assert!(cli.bench.kind == Kind::Server);
        assert_eq!(cli.bench.server.connections, [100, 1000]);
        assert_eq!(cli.bench.server.level_seconds, 30);
        let cli = Cli::try_parse_from([
            "bench",
            "nps",
            "--nps-engine",
            "/a uci",
            "--nps-engine",
            "/b uci",
            "--nps-depth",
            "6",
        ])
        .unwrap();
        assert!(cli.bench.kind == Kind::Nps);
        assert_eq!(cli.bench.nps.nps_engines.len(), 2);
        assert_eq!(cli.bench.nps.nps_depth, Some(6));
    }
}
