//! The opening explorer: `xiangqi explore build` (release) on the shared
//! corpus (`../shared/testdata/corpus`, every file) and on a generated
//! corpus (`--explorer-games`, 1 000 000 by default: engine-free games from
//! the `explorer_bench` example of `xiangqi-explorer`, written once to
//! `target/explorer-bench/`), each under `/usr/bin/time` for the build's
//! wall time and peak RSS; the database's size; then query latency p50/p99
//! over `--explorer-queries` queries on walks through each explorer.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};
use serde_json::Value;

use crate::run::{cargo, exec, output, project_root, target_dir, Steps};

#[derive(clap::Args)]
#[group(id = "explorer")] // the other kinds name their options `Options` too
#[command(next_help_heading = "Explorer (build and query) options")]
pub struct Options {
    /// Games of the generated corpus.
    #[arg(long, default_value_t = 1_000_000)]
    pub(super) explorer_games: usize,
    /// Queries timed on each explorer.
    #[arg(long, default_value_t = 10_000)]
    pub(super) explorer_queries: usize,
    /// `--jobs` of the builds.
    #[arg(long, default_value_t = 2)]
    pub(super) explorer_jobs: usize,
}

/// One build's figures.
struct Figures {
    corpus: String,
    games: u64,
    entries: u64,
    seconds: f64,
    peak_rss_mib: f64,
    db_mib: f64,
    query: Value,
}

pub fn run(args: &Options, steps: &mut Steps) -> Result<()> {
    let bin = super::release_cli(steps)?;
    let time = Path::new("/usr/bin/time");
    if !time.is_file() {
        bail!("the explorer benchmark measures peak memory with /usr/bin/time (GNU time), which is missing");
    }
    let tool = target_dir().join("release/examples/explorer_bench");
    steps.step("build the explorer_bench example (release)", || {
        exec(&mut cargo([
            "build",
            "--release",
            "-p",
            "xiangqi-explorer",
            "--example",
            "explorer_bench",
        ]))?;
        Ok(None)
    })?;
    let dir = target_dir().join("explorer-bench");
    std::fs::create_dir_all(&dir)?;
    let mut figures = Vec::new();
    let shared = project_root().join("../shared/testdata/corpus");
    steps.step("explore the shared corpus", || {
        if !shared.is_dir() {
            return Ok(Some(format!("no shared corpus at {}", shared.display())));
        }
        figures.push(measure(&bin, &tool, "shared corpus", &shared, &dir, args)?);
        Ok(None)
    })?;
    let generated = dir.join(format!("generated-{}.pgn", args.explorer_games));
    steps.step(&format!("generate {} games", args.explorer_games), || {
        if generated.is_file() {
            return Ok(Some(format!("{} is there", generated.display())));
        }
        let partial = generated.with_extension("partial");
        exec(
            Command::new(&tool)
                .arg("generate")
                .arg(args.explorer_games.to_string())
                .arg(&partial),
        )?;
        std::fs::rename(&partial, &generated)?;
        Ok(None)
    })?;
    steps.step("explore the generated corpus", || {
        let name = format!("{} generated games", args.explorer_games);
        figures.push(measure(&bin, &tool, &name, &generated, &dir, args)?);
        Ok(None)
    })?;
    println!(
        "\n| corpus | games | positions and moves | build | peak RSS | database | query p50 | query p99 |\n|---|---:|---:|---:|---:|---:|---:|---:|"
    );
    for f in &figures {
        println!(
            "| {} | {} | {} | {:.1} s | {:.0} MiB | {:.1} MiB | {} µs | {} µs |",
            f.corpus,
            f.games,
            f.entries,
            f.seconds,
            f.peak_rss_mib,
            f.db_mib,
            f.query["p50_us"],
            f.query["p99_us"],
        );
    }
    Ok(())
}

fn measure(
    bin: &Path,
    tool: &Path,
    corpus: &str,
    input: &Path,
    dir: &Path,
    args: &Options,
) -> Result<Figures> {
    let db: PathBuf = dir.join(format!("{}.db", corpus.replace(' ', "-")));
    let time_file = dir.join("time.txt");
    let report = output(
        Command::new("/usr/bin/time")
            .arg("-f")
            .arg("%M %e")
            .arg("-o")
            .arg(&time_file)
            .arg(bin)
            .args(["explore", "build"])
            .arg(input)
            .arg("-o")
            .arg(&db)
            .args(["--jobs", &args.explorer_jobs.to_string(), "--json"]),
    )?;
    let report: Value = serde_json::from_str(&report).context("the build's JSON report")?;
    let timing = std::fs::read_to_string(&time_file)?;
    let mut fields = timing.split_whitespace();
    let rss_kib: f64 = fields.next().context("GNU time's %M")?.parse()?;
    let seconds: f64 = fields.next().context("GNU time's %e")?.parse()?;
    let db_bytes = std::fs::metadata(&db)?.len();
    let query = output(
        Command::new(tool)
            .arg("query")
            .arg(&db)
            .arg(args.explorer_queries.to_string()),
    )?;
    let query: Value = serde_json::from_str(&query).context("the query benchmark's JSON")?;
    eprintln!("{corpus}: {report}\nquery: {query}");
    Ok(Figures {
        corpus: corpus.to_string(),
        games: report["indexed"].as_u64().unwrap_or(0),
        entries: report["entries"].as_u64().unwrap_or(0),
        seconds,
        peak_rss_mib: rss_kib / 1024.0,
        db_mib: db_bytes as f64 / (1024.0 * 1024.0),
        query,
    })
}
