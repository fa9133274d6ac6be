//! Game files through the CLI: `xiangqi game check --json` (release build)
//! on the shared XQF directory (`../shared/testdata/corpus/xqf`, 1 155
//! files), against cchess 1.25.5's reader (`read_from_xqf`, through
//! `crates/xiangqi-gamefile/benches/cchess_peer.py`) on the same files in
//! the same run. Prints games/s of both and the ratio. Then the same on the
//! shared Big5 PGN folder (`../shared/testdata/ccpd`, 4 729 files) against
//! cchess's `read_from_pgn`: files/s, and the plies each read.
//!
//! Ours is one process on the directory (`game check DIR --json`, one
//! thread per core as by default), start-up included; cchess's is its
//! reading loop inside one Python process.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{bail, Context, Result};

use crate::python::Venv;
use crate::run::{describe, project_root, Steps};

/// The peer's version, pinned: the reference readings are of this one.
const CCHESS: &str = "cchess==1.25.5";
const PEER_SCRIPT: &str = "crates/xiangqi-gamefile/benches/cchess_peer.py";

#[derive(clap::Args)]
#[group(id = "files")] // the other kinds name their options `Options` too
#[command(next_help_heading = "Files (game check against cchess) options")]
pub struct Options {
    /// Timed runs of ours (the median is reported).
    #[arg(long, default_value_t = 3)]
    pub(super) files_runs: usize,
    /// Timed runs of cchess (the best is reported; one takes minutes).
    #[arg(long, default_value_t = 1)]
    pub(super) cchess_runs: usize,
}

pub fn run(args: &Options, steps: &mut Steps) -> Result<()> {
    if args.files_runs == 0 || args.cchess_runs == 0 {
        bail!("--files-runs and --cchess-runs must be at least 1");
    }
    let corpus = project_root().join("../shared/testdata/corpus");
    let dir = corpus.join("xqf");
    let mut files = Vec::new();
    steps.step("list the shared XQF directory", || {
        xqf_files(&dir, &mut files).with_context(|| {
            format!(
                "the reference corpus is missing: {} (see DEVELOPERS.md)",
                dir.display()
            )
        })?;
        files.sort();
        eprintln!("{} files", files.len());
        Ok(None)
    })?;
    let bin = super::release_cli(steps)?;
    let mut venv = None;
    steps.step(&format!("{CCHESS} in the project's venv"), || {
        let v = Venv::ensure()?;
        v.pip_install(&[CCHESS])?;
        venv = Some(v);
        Ok(None)
    })?;
    let venv = venv.expect("set by the step");
    steps.step("game check against cchess on the XQF directory", || {
        compare(&bin, &venv, &corpus, &dir, &files, args)?;
        Ok(None)
    })?;
    let ccpd = project_root().join("../shared/testdata/ccpd");
    steps.step(
        "game check against cchess on the Big5 PGN folder (ccpd)",
        || {
            compare_ccpd(&bin, &venv, &corpus, &ccpd, args)?;
            Ok(None)
        },
    )
}

/// Every `.xqf` file under `dir`, at any depth.
fn xqf_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            xqf_files(&path, out)?;
        } else if path
            .extension()
            .is_some_and(|x| x.eq_ignore_ascii_case("xqf"))
        {
            out.push(path);
        }
    }
    Ok(())
}

/// The arguments of `game check --json` on one path.
fn check_args(path: &Path) -> Vec<OsString> {
    let mut args: Vec<OsString> = vec!["game".into(), "check".into()];
    args.push(path.into());
    args.push("--json".into());
    args
}

/// The CLI calls that check every file of `dir`: one, on the directory.
fn invocations(dir: &Path) -> Vec<Vec<OsString>> {
    vec![check_args(dir)]
}

/// Games read, games reported broken and plies read (the main lines) by
/// one timed pass; files that gave a warning.
#[derive(Debug, PartialEq, Eq, Clone, Copy)]
struct Counts {
    games: usize,
    errors: usize,
    plies: u64,
    warned: usize,
}

/// One pass of ours: wall seconds and the counts of the JSON lines.
fn ours(bin: &Path, calls: &[Vec<OsString>]) -> Result<(f64, Counts)> {
    let mut counts = Counts {
        games: 0,
        errors: 0,
        plies: 0,
        warned: 0,
    };
    let start = Instant::now();
    for args in calls {
        let mut cmd = Command::new(bin);
        cmd.args(args).stdin(Stdio::null());
        let out = cmd.output().with_context(|| describe(&cmd))?;
        let errors_before = counts.errors;
        for line in out.stdout.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            let row: serde_json::Value = serde_json::from_slice(line)
                .with_context(|| format!("{}: not JSON", describe(&cmd)))?;
            if row.get("summary").is_some() {
                continue; // the collection's last line
            }
            counts.plies += row["plies"].as_u64().unwrap_or(0);
            counts.warned += usize::from(row["warnings"].as_array().is_some_and(|w| !w.is_empty()));
            match row["ok"].as_bool() {
                Some(true) => counts.games += 1,
                Some(false) => counts.errors += 1,
                None => bail!("{}: a line without \"ok\"", describe(&cmd)),
            }
        }
        // A file with a broken game exits with 2 after its line says so;
        // any other failure stops the benchmark.
        let broken_game = out.status.code() == Some(2) && counts.errors > errors_before;
        if !out.status.success() && !broken_game {
            bail!(
                "{} failed ({}): {}",
                describe(&cmd),
                out.status,
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
    Ok((start.elapsed().as_secs_f64(), counts))
}

/// cchess's best pass: reading seconds (inside Python) and games.
fn cchess(venv: &Venv, corpus: &Path, runs: usize) -> Result<(f64, usize)> {
    let row = cchess_row(venv, corpus, "xqf_dir", runs)?;
    match (row["seconds"].as_f64(), row["games"].as_u64()) {
        (Some(seconds), Some(games)) => Ok((seconds, games as usize)),
        _ => bail!("cchess_peer.py: no seconds or games in {row}"),
    }
}

/// The peer script's JSON line for one set.
fn cchess_row(venv: &Venv, corpus: &Path, set: &str, runs: usize) -> Result<serde_json::Value> {
    let mut cmd = venv.command("python");
    cmd.arg(project_root().join(PEER_SCRIPT))
        .arg("--corpus")
        .arg(corpus)
        .args(["--set", set, "--runs", &runs.to_string(), "--json"]);
    let out = cmd.output().with_context(|| describe(&cmd))?;
    if !out.status.success() {
        bail!(
            "{} failed: {}",
            describe(&cmd),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    serde_json::from_slice(out.stdout.trim_ascii())
        .with_context(|| format!("{}: not one JSON line", describe(&cmd)))
}

/// The Big5 PGN folder: ours (`game check DIR --json`, median of
/// `--files-runs`) and cchess's `read_from_pgn` over the same files (best
/// of `--cchess-runs`), files/s and plies read.
fn compare_ccpd(bin: &Path, venv: &Venv, corpus: &Path, dir: &Path, args: &Options) -> Result<()> {
    if !dir.is_dir() {
        bail!("the CCPD sample is missing: {}", dir.display());
    }
    let calls = invocations(dir);
    let mut times = Vec::new();
    let mut counts = None;
    for run in 0..args.files_runs {
        let (seconds, read) = ours(bin, &calls)?;
        if counts.is_some_and(|c| c != read) {
            bail!(
                "game check read {read:?} in run {}, {counts:?} before",
                run + 1
            );
        }
        counts = Some(read);
        eprintln!(
            "run {}/{}  ours: {seconds:.2} s, {read:?}",
            run + 1,
            args.files_runs
        );
        times.push(seconds);
    }
    let counts = counts.expect("at least one run");
    let files = counts.games + counts.errors;
    let ours_seconds = super::median(times);
    let row = cchess_row(venv, corpus, "ccpd_dir", args.cchess_runs)?;
    let number = |key: &str| {
        row[key]
            .as_f64()
            .with_context(|| format!("cchess_peer.py: no {key} in {row}"))
    };
    let (cchess_seconds, cchess_files) = (number("seconds")?, number("files")?);
    let (cchess_games, cchess_errors, cchess_plies) =
        (number("games")?, number("errors")?, number("plies")?);
    let ours_rate = files as f64 / ours_seconds;
    let cchess_rate = cchess_files / cchess_seconds;
    println!(
        "{files} Big5 PGN files of {}:",
        dir.strip_prefix(project_root()).unwrap_or(dir).display()
    );
    println!(
        "  ours    game check --json, 1 process (median of {}): {ours_seconds:>8.2} s  {} games + {} errors, {} with warnings, {} plies  {ours_rate:>8.0} files/s",
        args.files_runs, counts.games, counts.errors, counts.warned, counts.plies,
    );
    println!(
        "  cchess  read_from_pgn in one process, Big5 given (best of {}): {cchess_seconds:>8.2} s  {cchess_games} files read + {cchess_errors} raised, {cchess_plies} plies  {cchess_rate:>8.0} files/s",
        args.cchess_runs,
    );
    println!(
        "  ratio   {:.2}x files/s; plies read {:.1}x",
        ours_rate / cchess_rate,
        counts.plies as f64 / cchess_plies.max(1.0)
    );
    Ok(())
}

fn compare(
    bin: &Path,
    venv: &Venv,
    corpus: &Path,
    dir: &Path,
    files: &[PathBuf],
    args: &Options,
) -> Result<()> {
    let calls = invocations(dir);
    let mut times = Vec::new();
    let mut seen: Option<Counts> = None;
    for run in 0..args.files_runs {
        let (seconds, counts) = ours(bin, &calls)?;
        if seen.is_some_and(|s| s != counts) {
            bail!(
                "game check read {counts:?} in run {}, {seen:?} before",
                run + 1
            );
        }
        seen = Some(counts);
        eprintln!(
            "run {}/{}  ours: {seconds:.2} s, {} games, {} errors",
            run + 1,
            args.files_runs,
            counts.games,
            counts.errors
        );
        times.push(seconds);
    }
    let counts = seen.expect("at least one run");
    let ours_seconds = super::median(times);
    let (cchess_seconds, cchess_games) = cchess(venv, corpus, args.cchess_runs)?;
    let ours_rate = counts.games as f64 / ours_seconds;
    let cchess_rate = cchess_games as f64 / cchess_seconds;
    println!(
        "{} XQF files of {}:",
        files.len(),
        dir.strip_prefix(project_root()).unwrap_or(dir).display()
    );
    println!(
        "  ours    game check --json, {} process{} (median of {}): {ours_seconds:>8.2} s  {} games + {} errors  {ours_rate:>8.0} games/s",
        calls.len(),
        if calls.len() == 1 { "" } else { "es" },
        args.files_runs,
        counts.games,
        counts.errors,
    );
    println!(
        "  cchess  read_from_xqf in one process (best of {}):     {cchess_seconds:>8.2} s  {cchess_games} games  {cchess_rate:>8.1} games/s",
        args.cchess_runs,
    );
    println!("  ratio   {:.1}x", ours_rate / cchess_rate);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_check_on_the_directory() {
        let calls = invocations(Path::new("d"));
        assert_eq!(
            calls,
            [["game", "check", "d", "--json"].map(OsString::from)]
        );
    }
}
