//! Nodes per second of two engine builds on the bench positions, in one run:
//! two UCI engines (two builds, say a classical and an NNUE one), or one
//! engine with a UCI check option off and on (`Use NNUE`), search every
//! position of `xiangqi bench` to the same depth with one thread and a fresh
//! hash (`ucinewgame`), taking turns at going first so that the machine's
//! load falls on both alike, after one untimed search each. Each round sums nodes and wall-clock time per
//! engine; the median round's nodes/s is reported with the ratio of the
//! second to the first. Equal node totals say the two searched the same
//! tree (the same build twice, or a change that only changes speed).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use super::uci::Uci;
use crate::run::Steps;

#[derive(clap::Args)]
#[group(id = "nps")] // the other kinds name their options `Options` too
#[command(next_help_heading = "Nodes per second (two builds) options")]
pub struct Options {
    /// An engine to measure: a UCI command line split at white space
    /// (`/tmp/xq-base uci`). Give it twice to compare two builds; default:
    /// `xiangqi uci` of the CLI below (twice without --nps-option: the
    /// noise of the measurement).
    #[arg(long = "nps-engine", value_name = "CMD")]
    pub(super) nps_engines: Vec<String>,
    /// A UCI check option measured off against on (`Use NNUE`): one engine
    /// with it off and on, or the first of two engines with it off and the
    /// second with it on.
    #[arg(long = "nps-option", value_name = "NAME")]
    pub(super) nps_option: Option<String>,
    /// A net file the engine with --nps-option on loads first (`EvalFile`);
    /// default: the net built in.
    #[arg(long = "nps-eval-file", value_name = "PATH", requires = "nps_option")]
    pub(super) nps_eval_file: Option<PathBuf>,
    /// The xiangqi CLI that lists the bench positions (and is the default
    /// engine); default: the release build, built first.
    #[arg(long = "nps-cli", value_name = "PATH")]
    pub(super) nps_cli: Option<PathBuf>,
    /// Search depth per position; default: `xiangqi bench`'s own.
    #[arg(long = "nps-depth", value_name = "N")]
    pub(super) nps_depth: Option<u32>,
    /// Rounds over the positions; the median round's nodes/s is reported.
    #[arg(long = "nps-rounds", value_name = "N", default_value_t = 3)]
    pub(super) nps_rounds: usize,
}

/// One engine as measured: its command and the options set after `uci`.
#[derive(Debug, PartialEq)]
struct Setup {
    label: String,
    command: Vec<String>,
    options: Vec<String>,
}

/// The two setups the options ask for.
fn setups(args: &Options, cli: &Path) -> Result<[Setup; 2]> {
    let default = format!("{} uci", cli.display());
    let engines: Vec<&str> = match args.nps_engines.len() {
        0 => vec![default.as_str(); 2 - usize::from(args.nps_option.is_some())],
        1 | 2 => args.nps_engines.iter().map(String::as_str).collect(),
        n => bail!("--nps-engine: one or two engines, got {n}"),
    };
    if engines.len() == 1 && args.nps_option.is_none() {
        bail!("one --nps-engine needs --nps-option (what to compare), or give two");
    }
    let setup = |command: &str, option_on: Option<bool>| -> Result<Setup> {
        let words: Vec<String> = command.split_whitespace().map(str::to_owned).collect();
        if words.is_empty() {
            bail!("--nps-engine: an empty command");
        }
        let mut options = vec!["setoption name Threads value 1".to_owned()];
        let mut label = command.to_owned();
        if let (Some(name), Some(on)) = (&args.nps_option, option_on) {
            if let (true, Some(net)) = (on, &args.nps_eval_file) {
                options.push(format!("setoption name EvalFile value {}", net.display()));
            }
            options.push(format!("setoption name {name} value {on}"));
            label = format!("{command} ({name} {on})");
        }
        Ok(Setup {
            label,
            command: words,
            options,
        })
    };
    let on = args.nps_option.as_ref().map(|_| true);
    let off = args.nps_option.as_ref().map(|_| false);
    let second = engines.get(1).unwrap_or(&engines[0]);
    Ok([setup(engines[0], off)?, setup(second, on)?])
}

pub fn run(args: &Options, steps: &mut Steps) -> Result<()> {
    if args.nps_rounds == 0 {
        bail!("--nps-rounds must be at least 1");
    }
    let cli = match &args.nps_cli {
        Some(path) => path.clone(),
        None => super::release_cli(steps)?,
    };
    let setups = setups(args, &cli)?;
    let mut bench = (0, Vec::new());
    steps.step("the bench positions (xiangqi bench --json)", || {
        bench = bench_positions(&cli, args.nps_depth)?;
        Ok(None)
    })?;
    let (depth, positions) = bench;
    steps.step(
        &format!("nodes per second of two engines at depth {depth}"),
        || {
            compare(&setups, &positions, depth, args.nps_rounds)?;
            Ok(None)
        },
    )
}

/// The bench's depth (or `depth`) and positions, from the CLI's own bench:
/// a full one when no depth is given (its depth is the one to use), else
/// one at depth 1 for the positions alone.
fn bench_positions(cli: &Path, depth: Option<u32>) -> Result<(u32, Vec<String>)> {
    let mut command = Command::new(cli);
    command.args(["bench", "--json"]);
    if depth.is_some() {
        command.args(["--depth", "1"]);
    }
    let out = command
        .output()
        .with_context(|| format!("cannot run {} bench", cli.display()))?;
    if !out.status.success() {
        bail!(
            "{} bench failed: {}",
            cli.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let report: serde_json::Value =
        serde_json::from_slice(&out.stdout).context("xiangqi bench --json: not JSON")?;
    let bench_depth = report["depth"]
        .as_u64()
        .context("no depth in the bench report")?;
    let positions: Vec<String> = report["positions"]
        .as_array()
        .context("no positions in the bench report")?
        .iter()
        .filter_map(|p| p["fen"].as_str().map(str::to_owned))
        .collect();
    if positions.is_empty() {
        bail!("the bench report lists no position");
    }
    Ok((depth.unwrap_or(bench_depth as u32), positions))
}

/// Nodes and wall-clock time of one search to `depth`.
fn search(engine: &mut Uci, fen: &str, depth: u32) -> Result<(u64, Duration)> {
    engine.send("ucinewgame")?;
    engine.send("isready")?;
    engine.wait_for("readyok", Duration::from_secs(10))?;
    engine.send(&format!("position fen {fen}"))?;
    let start = Instant::now();
    engine.send(&format!("go depth {depth}"))?;
    let mut nodes = None;
    loop {
        let line = engine.line(Duration::from_secs(600))?;
        if line.starts_with("bestmove") {
            let took = start.elapsed();
            let nodes = nodes.with_context(|| format!("no nodes reported for {fen}"))?;
            return Ok((nodes, took));
        }
        if line.starts_with("info") {
            nodes = info_nodes(&line).or(nodes);
        }
    }
}

/// The `nodes N` of an `info` line.
fn info_nodes(line: &str) -> Option<u64> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "nodes")?;
    words.get(at + 1)?.parse().ok()
}

fn compare(setups: &[Setup; 2], positions: &[String], depth: u32, rounds: usize) -> Result<()> {
    let mut engines = Vec::new();
    for (i, setup) in setups.iter().enumerate() {
        let options: Vec<&str> = setup.options.iter().map(String::as_str).collect();
        let args: Vec<&str> = setup.command[1..].iter().map(String::as_str).collect();
        let name = if i == 0 { "engine A" } else { "engine B" };
        engines.push(Uci::start(
            name,
            Path::new(&setup.command[0]),
            &args,
            &options,
        )?);
    }
    // A search each before any is timed: the first one pays for touching
    // the hash table's memory and loading the program, which would count
    // against whichever engine went first.
    for engine in &mut engines {
        search(engine, &positions[0], depth)?;
    }
    // Per round, per engine: (nodes, time).
    let mut totals: Vec<[(u64, Duration); 2]> = Vec::with_capacity(rounds);
    for round in 0..rounds {
        let mut total = [(0u64, Duration::ZERO); 2];
        for (n, fen) in positions.iter().enumerate() {
            let order = if (n + round) % 2 == 0 { [0, 1] } else { [1, 0] };
            for which in order {
                let (nodes, took) = search(&mut engines[which], fen, depth)?;
                total[which].0 += nodes;
                total[which].1 += took;
            }
        }
        eprintln!(
            "round {}: A {} nodes/s, B {} nodes/s",
            round + 1,
            nodes_per_second(total[0]),
            nodes_per_second(total[1])
        );
        totals.push(total);
    }
    println!(
        "nps: {} bench positions at depth {depth}, one thread, {rounds} rounds taking turns:",
        positions.len()
    );
    let mut medians = [0.0; 2];
    for (which, setup) in setups.iter().enumerate() {
        let speeds: Vec<f64> = totals
            .iter()
            .map(|round| nodes_per_second(round[which]) as f64)
            .collect();
        medians[which] = super::median(speeds);
        let (nodes, time) = totals[0][which];
        println!(
            "  {} {:<50} nodes {nodes:>10} (a round), time {:>7} ms (round 1), nodes/s {:>9.0} (median)",
            ["A", "B"][which],
            setup.label,
            time.as_millis(),
            medians[which]
        );
    }
    if medians[0] > 0.0 {
        println!("  ratio B/A {:.3}", medians[1] / medians[0]);
    }
    if totals[0][0].0 == totals[0][1].0 {
        println!("  the same node count: both searched the same trees");
    }
    Ok(())
}

fn nodes_per_second((nodes, time): (u64, Duration)) -> u64 {
    let seconds = time.as_secs_f64();
    if seconds > 0.0 {
        (nodes as f64 / seconds) as u64
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(engines: &[&str], option: Option<&str>) -> Options {
        Options {
            nps_engines: engines.iter().map(|e| e.to_string()).collect(),
            nps_option: option.map(str::to_owned),
            nps_eval_file: None,
            nps_cli: None,
            nps_depth: None,
            nps_rounds: 3,
        }
    }

    #[test]
    fn two_builds_or_one_option_off_and_on() {
        let cli = Path::new("/x/xiangqi");
        let [a, b] = setups(&options(&[], None), cli).unwrap();
        assert_eq!(a.command, ["/x/xiangqi", "uci"]);
        assert_eq!(a, b);
        let [a, b] = setups(&options(&["/a uci", "/b uci"], None), cli).unwrap();
        assert_eq!((a.command[0].as_str(), b.command[0].as_str()), ("/a", "/b"));
        let [a, b] = setups(&options(&[], Some("Use NNUE")), cli).unwrap();
        assert_eq!(a.command, b.command);
        assert_eq!(a.options[1], "setoption name Use NNUE value false");
        assert_eq!(b.options[1], "setoption name Use NNUE value true");
        assert!(b.label.ends_with("(Use NNUE true)"));
        let [a, b] = setups(&options(&["/a uci", "/b uci"], Some("Use NNUE")), cli).unwrap();
        assert_eq!(a.command[0], "/a");
        assert_eq!(b.options[1], "setoption name Use NNUE value true");
        let with_net = Options {
            nps_eval_file: Some(PathBuf::from("/n/net.xqnn")),
            ..options(&[], Some("Use NNUE"))
        };
        let [a, b] = setups(&with_net, cli).unwrap();
        assert!(!a.options.iter().any(|o| o.contains("EvalFile")));
        assert_eq!(
            b.options[1..],
            [
                "setoption name EvalFile value /n/net.xqnn",
                "setoption name Use NNUE value true"
            ]
        );
        assert!(setups(&options(&["/a uci"], None), cli).is_err());
        assert!(setups(&options(&["/a", "/b", "/c"], None), cli).is_err());
    }

    #[test]
    fn nodes_of_an_info_line() {
        assert_eq!(
            info_nodes("info depth 8 score cp 12 nodes 71466 nps 989528 pv h2e2"),
            Some(71466)
        );
        assert_eq!(info_nodes("info string hello"), None);
    }
}
