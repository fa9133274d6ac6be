//! `cargo xtask fuzz --seconds N`: runs every cargo-fuzz target in `fuzz/`
//! for N seconds each. cargo-fuzz needs nightly-only compiler flags; on the
//! stable toolchain `RUSTC_BOOTSTRAP=1` unlocks them.

use std::path::PathBuf;
use std::process::Command;

use anyhow::{bail, Result};

use crate::run::{cargo, exec, output, project_root, target_dir};

#[derive(clap::Args)]
pub struct Args {
    /// Seconds per target.
    #[arg(long, default_value_t = 60)]
    seconds: u64,
    /// Only this target (default: all targets `cargo fuzz list` reports).
    #[arg(long)]
    target: Option<String>,
}

fn fuzz_dir() -> Option<PathBuf> {
    let dir = project_root().join("fuzz");
    dir.join("Cargo.toml").is_file().then_some(dir)
}

/// `cargo fuzz ARGS` from the fuzz directory, with the nightly features unlocked.
fn cargo_fuzz(args: &[&str]) -> Command {
    let mut cmd = cargo(["fuzz"]);
    cmd.args(args).env("RUSTC_BOOTSTRAP", "1");
    if let Some(dir) = fuzz_dir() {
        cmd.current_dir(dir);
    }
    cmd
}

/// The fuzz directory as an explicit `--fuzz-dir` value (no guessing from the working directory).
fn fuzz_dir_arg() -> String {
    project_root().join("fuzz").to_string_lossy().into_owned()
}

fn ensure_cargo_fuzz() -> Result<()> {
    let installed = cargo_fuzz(&["--version"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !installed {
        eprintln!("cargo-fuzz is not installed; installing it");
        exec(&mut cargo(["install", "cargo-fuzz", "--locked"]))?;
    }
    Ok(())
}

fn targets() -> Result<Vec<String>> {
    let dir = fuzz_dir_arg();
    let listed = output(&mut cargo_fuzz(&["list", "--fuzz-dir", &dir]))?;
    Ok(listed
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect())
}

/// Runs the chosen targets. With `scratch_corpus`, new inputs go to a corpus
/// under the target directory (seeded read-only from `fuzz/corpus/<target>`),
/// so a smoke run leaves the source tree unchanged.
fn run_targets(seconds: u64, only: Option<&str>, scratch_corpus: bool) -> Result<()> {
    ensure_cargo_fuzz()?;
    let all = targets()?;
    let chosen: Vec<&String> = match only {
        Some(t) if !all.iter().any(|a| a == t) => {
            bail!("no fuzz target {t:?}; targets: {}", all.join(", "))
        }
        Some(t) => all.iter().filter(|a| *a == t).collect(),
        None => all.iter().collect(),
    };
    if chosen.is_empty() {
        bail!("fuzz/ exists but `cargo fuzz list` reports no targets");
    }
    let max_time = format!("-max_total_time={seconds}");
    for target in chosen {
        eprintln!("fuzzing {target} for {seconds} s");
        let mut cmd = cargo_fuzz(&["run", "--fuzz-dir", &fuzz_dir_arg(), target]);
        if scratch_corpus {
            let scratch = target_dir().join("fuzz-corpus").join(target);
            std::fs::create_dir_all(&scratch)?;
            cmd.arg(&scratch);
            let seeds = project_root().join("fuzz").join("corpus").join(target);
            if seeds.is_dir() {
                cmd.arg(seeds);
            }
        }
        cmd.args(["--", &max_time]);
        exec(&mut cmd)?;
    }
    Ok(())
}

/// The short run inside `xtask test`; a skip reason when there is no fuzz/ directory.
pub fn smoke(seconds: u64) -> Result<Option<String>> {
    if fuzz_dir().is_none() {
        return Ok(Some("no fuzz/ directory".into()));
    }
    run_targets(seconds, None, true)?;
    Ok(None)
}

pub fn run(args: Args) -> Result<()> {
    if fuzz_dir().is_none() {
        bail!("there is no fuzz/ directory with a Cargo.toml (cargo fuzz init creates one)");
    }
    run_targets(args.seconds, args.target.as_deref(), false)
}
