//! Perft from the start position: our `xiangqi perft` against Debian's
//! fairy-stockfish in the same run, alternating, several runs each; then the
//! release-mode `#[ignore]` perft tests of the core crate.
//!
//! Both sides are timed on the perft alone: ours by the CLI's own `seconds`
//! (process start-up excluded), fairy-stockfish from sending `go perft` to
//! reading `Nodes searched` (engine initialisation excluded).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use super::uci::Uci;
use crate::run::{cargo, exec, find_on_path, is_root, output, Steps};

/// Start-position perft counts, to check both programs (R-BOARD-START).
const KNOWN: [u64; 6] = [1, 44, 1_920, 79_666, 3_290_240, 133_312_995];

#[derive(clap::Args)]
pub struct Options {
    /// Runs of each program.
    #[arg(long, default_value_t = 5)]
    runs: usize,
    /// Perft depth from the start position.
    #[arg(long, default_value_t = 5)]
    depth: u32,
    /// Skip the release-mode `#[ignore]` perft tests.
    #[arg(long)]
    no_tests: bool,
}

struct Sample {
    nodes: u64,
    seconds: f64,
}

pub fn run(args: &Options, steps: &mut Steps) -> Result<()> {
    if args.runs == 0 {
        bail!("--runs must be at least 1");
    }
    let ours_bin = super::release_cli(steps)?;
    let mut fsf = PathBuf::new();
    steps.step("find fairy-stockfish", || {
        fsf = fairy_stockfish()?;
        Ok(None)
    })?;
    steps.step(
        &format!(
            "perft {} x{}: ours vs fairy-stockfish",
            args.depth, args.runs
        ),
        || {
            compare(&ours_bin, &fsf, args)?;
            Ok(None)
        },
    )?;
    steps.step("release #[ignore] perft tests (xiangqi-core)", || {
        if args.no_tests {
            return Ok(Some("--no-tests".into()));
        }
        exec(&mut cargo([
            "test",
            "--release",
            "-p",
            "xiangqi-core",
            "--",
            "--ignored",
        ]))?;
        Ok(None)
    })?;
    Ok(())
}

fn compare(ours_bin: &Path, fsf: &Path, args: &Options) -> Result<()> {
    let mut ours = Vec::new();
    let mut theirs = Vec::new();
    for i in 0..args.runs {
        // Alternate who goes first so drift (thermal, other load) hits both alike.
        let order = if i % 2 == 0 {
            [true, false]
        } else {
            [false, true]
        };
        for is_ours in order {
            let (name, sample) = if is_ours {
                ("xiangqi", ours_perft(ours_bin, args.depth)?)
            } else {
                ("fairy-stockfish", fsf_perft(fsf, args.depth)?)
            };
            eprintln!(
                "run {}/{}  {name:<16} {:>12} nodes  {:>8.3} s  {:>7.1} M nodes/s",
                i + 1,
                args.runs,
                sample.nodes,
                sample.seconds,
                sample.nodes as f64 / sample.seconds / 1e6
            );
            if let Some(&want) = KNOWN.get(args.depth as usize) {
                if sample.nodes != want {
                    bail!(
                        "{name} counted {} nodes at depth {}, expected {want}",
                        sample.nodes,
                        args.depth
                    );
                }
            }
            if is_ours { &mut ours } else { &mut theirs }.push(sample);
        }
    }
    if ours[0].nodes != theirs[0].nodes {
        bail!(
            "node counts differ: xiangqi {}, fairy-stockfish {}",
            ours[0].nodes,
            theirs[0].nodes
        );
    }
    let nodes = ours[0].nodes;
    let ours_median = super::median(ours.iter().map(|s| s.seconds).collect());
    let theirs_median = super::median(theirs.iter().map(|s| s.seconds).collect());
    println!(
        "perft {} from the start position, {nodes} nodes, median of {} runs each:",
        args.depth, args.runs
    );
    println!(
        "  xiangqi          {ours_median:>8.3} s  {:>7.1} M nodes/s",
        nodes as f64 / ours_median / 1e6
    );
    println!(
        "  fairy-stockfish  {theirs_median:>8.3} s  {:>7.1} M nodes/s",
        nodes as f64 / theirs_median / 1e6
    );
    println!(
        "  ratio            {:.2}x (fairy-stockfish time / xiangqi time)",
        theirs_median / ours_median
    );
    Ok(())
}

fn ours_perft(bin: &Path, depth: u32) -> Result<Sample> {
    let text = output(Command::new(bin).args(["perft", "--depth", &depth.to_string(), "--json"]))?;
    let json: serde_json::Value = serde_json::from_str(text.trim())
        .with_context(|| format!("xiangqi perft printed {text:?}"))?;
    Ok(Sample {
        nodes: json["nodes"]
            .as_u64()
            .context("perft JSON without \"nodes\"")?,
        seconds: json["seconds"]
            .as_f64()
            .context("perft JSON without \"seconds\"")?,
    })
}

/// Finds fairy-stockfish, installing the Debian package when running as root.
pub(super) fn fairy_stockfish() -> Result<PathBuf> {
    let find = || {
        let debian = PathBuf::from("/usr/games/fairy-stockfish");
        if debian.is_file() {
            Some(debian)
        } else {
            find_on_path("fairy-stockfish")
        }
    };
    if let Some(path) = find() {
        return Ok(path);
    }
    if !is_root() {
        bail!(
            "fairy-stockfish is not installed; install the Debian package with \
             `sudo apt-get install fairy-stockfish` (or put a `fairy-stockfish` binary on PATH)"
        );
    }
    eprintln!("fairy-stockfish is not installed; installing the Debian package");
    let install = || {
        exec(
            Command::new("apt-get")
                .args(["install", "-y", "fairy-stockfish"])
                .env("DEBIAN_FRONTEND", "noninteractive"),
        )
    };
    if install().is_err() {
        exec(Command::new("apt-get").arg("update"))?;
        install()?;
    }
    find().context("apt-get installed fairy-stockfish but it is not in /usr/games or on PATH")
}

/// One `go perft` in a fresh fairy-stockfish process, timed from the command to the answer.
fn fsf_perft(bin: &Path, depth: u32) -> Result<Sample> {
    let mut fsf = Uci::start(
        "fairy-stockfish",
        bin,
        &[],
        &["setoption name UCI_Variant value xiangqi"],
    )?;
    fsf.send("position startpos")?;
    let start = Instant::now();
    fsf.send(&format!("go perft {depth}"))?;
    let line = fsf.wait_for_line("Nodes searched", Duration::from_secs(3600))?;
    let seconds = start.elapsed().as_secs_f64();
    let nodes = line
        .rsplit(':')
        .next()
        .and_then(|n| n.trim().parse().ok())
        .with_context(|| format!("cannot read fairy-stockfish's {line:?}"))?;
    Ok(Sample { nodes, seconds })
}
