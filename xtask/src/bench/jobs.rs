//! `--jobs` on the corpus commands: `game check` and `adjudicate --pgn` with
//! one job against two (or `--jobs`) in the same run, alternating, on a PGN
//! corpus of real games: the master games of the reference corpus's CBL
//! libraries, converted to PGN by the CLI and repeated `--copies` times.
//! The outputs of every run must agree byte for byte.
//!
//! Beside them it times N independent `--jobs 1` processes at once, each on
//! the whole corpus: the throughput this machine gives N copies of the work
//! that share nothing, the ceiling of any `--jobs N` on it. A shared
//! virtual machine gives less than N times one core (other tenants, clock
//! boost for one busy core), and this shows how much less in the same run.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{bail, Context, Result};

use crate::run::{describe, project_root, target_dir, Steps};

#[derive(clap::Args)]
#[group(id = "jobs")] // the other kinds name their options `Options` too
#[command(next_help_heading = "Jobs (--jobs 1 against N) options")]
pub struct Options {
    /// How many times the converted master games are repeated in the corpus.
    #[arg(long, default_value_t = 400)]
    pub(super) copies: usize,
    /// Timed runs of each command and job count.
    #[arg(long, default_value_t = 3)]
    jobs_runs: usize,
    /// The job count compared with one job.
    #[arg(long, default_value_t = 2)]
    pub(super) jobs_max: usize,
}

pub fn run(args: &Options, steps: &mut Steps) -> Result<()> {
    if args.jobs_runs == 0 || args.copies == 0 || args.jobs_max < 2 {
        bail!("--jobs-runs and --copies must be at least 1, --jobs-max at least 2");
    }
    let bin = super::release_cli(steps)?;
    let mut corpus = PathBuf::new();
    steps.step("corpus: the CBL master games as PGN, repeated", || {
        corpus = make_corpus(&bin, args.copies)?;
        Ok(None)
    })?;
    let games = count_games(&corpus)?;
    let bytes = fs::metadata(&corpus)?.len();
    println!(
        "corpus {}: {games} games, {:.1} MB",
        corpus.display(),
        bytes as f64 / 1e6
    );
    for command in [&["game", "check"][..], &["adjudicate", "--pgn"][..]] {
        let name = command.join(" ");
        steps.step(
            &format!("{name}: --jobs 1 against --jobs {}", args.jobs_max),
            || {
                compare(&bin, command, &corpus, games, args)?;
                Ok(None)
            },
        )?;
    }
    Ok(())
}

fn make_corpus(bin: &Path, copies: usize) -> Result<PathBuf> {
    let games_dir = project_root().join("../shared/testdata/corpus/games");
    let mut libraries: Vec<PathBuf> = fs::read_dir(&games_dir)
        .with_context(|| {
            format!(
                "the reference corpus is missing: {} (see DEVELOPERS.md)",
                games_dir.display()
            )
        })?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("cbl")))
        .collect();
    libraries.sort();
    if libraries.is_empty() {
        bail!("no CBL library in {}", games_dir.display());
    }
    let mut pgn = Vec::new();
    for library in &libraries {
        let mut cmd = Command::new(bin);
        cmd.args(["game", "convert", "--to", "iccs"]).arg(library);
        let out = cmd.output().with_context(|| describe(&cmd))?;
        if !out.status.success() {
            bail!(
                "{} failed: {}",
                describe(&cmd),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        pgn.extend_from_slice(&out.stdout);
    }
    let dir = target_dir().join("bench-jobs");
    fs::create_dir_all(&dir)?;
    let path = dir.join("corpus.pgn");
    fs::write(&path, pgn.repeat(copies))?;
    Ok(path)
}

fn count_games(corpus: &Path) -> Result<usize> {
    let text = fs::read(corpus)?;
    Ok(text
        .split(|&b| b == b'\n')
        .filter(|l| l.starts_with(b"[Event "))
        .count())
}

/// One timed run: wall seconds; stdout, stderr and status to compare; the exit code.
fn timed(
    bin: &Path,
    command: &[&str],
    corpus: &Path,
    jobs: usize,
) -> Result<(f64, Vec<u8>, Option<i32>)> {
    let mut cmd = Command::new(bin);
    cmd.args(command)
        .arg(corpus)
        .args(["--jobs", &jobs.to_string()])
        .stdin(Stdio::null());
    let start = Instant::now();
    let out = cmd.output().with_context(|| describe(&cmd))?;
    let seconds = start.elapsed().as_secs_f64();
    let mut seen = out.stdout;
    seen.extend_from_slice(&out.stderr);
    seen.extend_from_slice(format!("{:?}", out.status.code()).as_bytes());
    Ok((seconds, seen, out.status.code()))
}

fn compare(
    bin: &Path,
    command: &[&str],
    corpus: &Path,
    games: usize,
    args: &Options,
) -> Result<()> {
    let name = command.join(" ");
    let mut times = [Vec::new(), Vec::new(), Vec::new()];
    let mut first: Option<Vec<u8>> = None;
    // The exit code of `--jobs 1`, which the runs side by side must give too.
    let mut one_code: Option<Option<i32>> = None;
    for run in 0..args.jobs_runs {
        // Rotate which goes first so drift (other load) hits all alike.
        let order = [[0, 1, 2], [1, 2, 0], [2, 0, 1]][run % 3];
        for which in order {
            if which == 2 {
                let (seconds, codes) = timed_together(bin, command, corpus, args.jobs_max)?;
                if let Some(code) = codes.iter().find(|&&c| Some(c) != one_code) {
                    bail!("{name} --jobs 1 exited with {code:?} beside another, alone with {one_code:?}");
                }
                eprintln!(
                    "run {}/{}  {name}: {} --jobs 1 processes at once: {seconds:.3} s, {:.0} games/s",
                    run + 1,
                    args.jobs_runs,
                    args.jobs_max,
                    (args.jobs_max * games) as f64 / seconds
                );
                times[2].push(seconds);
                continue;
            }
            let jobs = if which == 0 { 1 } else { args.jobs_max };
            let (seconds, seen, code) = timed(bin, command, corpus, jobs)?;
            one_code.get_or_insert(code);
            match &first {
                None => first = Some(seen),
                Some(want) if *want != seen => {
                    bail!("{name} --jobs {jobs} printed other output than --jobs 1")
                }
                Some(_) => {}
            }
            eprintln!(
                "run {}/{}  {name} --jobs {jobs}: {seconds:.3} s, {:.0} games/s",
                run + 1,
                args.jobs_runs,
                games as f64 / seconds
            );
            times[which].push(seconds);
        }
    }
    let one = super::median(times[0].clone());
    let many = super::median(times[1].clone());
    println!(
        "{name}, median of {} runs (wall time of the whole command):",
        args.jobs_runs
    );
    println!(
        "  --jobs 1  {one:>7.3} s  {:>9.0} games/s",
        games as f64 / one
    );
    println!(
        "  --jobs {}  {many:>7.3} s  {:>9.0} games/s",
        args.jobs_max,
        games as f64 / many
    );
    println!("  ratio     {:.2}x", one / many);
    let together = super::median(times[2].clone());
    let ceiling = args.jobs_max as f64 * one / together;
    println!(
        "  {} --jobs 1 processes at once: {together:.3} s, {:.0} games/s, {ceiling:.2}x (the machine's ceiling)",
        args.jobs_max,
        (args.jobs_max * games) as f64 / together
    );
    println!(
        "  --jobs {} reaches {:.0} % of that ceiling",
        args.jobs_max,
        100.0 * one / many / ceiling
    );
    Ok(())
}

/// `n` `--jobs 1` runs of `command` at once, each on the whole corpus:
/// wall seconds until the last ends, and their exit codes.
fn timed_together(
    bin: &Path,
    command: &[&str],
    corpus: &Path,
    n: usize,
) -> Result<(f64, Vec<Option<i32>>)> {
    let start = Instant::now();
    let mut children = Vec::new();
    for _ in 0..n {
        let mut cmd = Command::new(bin);
        cmd.args(command)
            .arg(corpus)
            .args(["--jobs", "1"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        children.push(cmd.spawn().with_context(|| describe(&cmd))?);
    }
    let mut codes = Vec::new();
    for mut child in children {
        codes.push(child.wait()?.code());
    }
    Ok((start.elapsed().as_secs_f64(), codes))
}
