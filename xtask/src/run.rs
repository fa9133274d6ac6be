//! Shared plumbing: the project root, building and running commands, and
//! timing named steps.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

/// The workspace root: the parent of this crate's manifest directory.
pub fn project_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the workspace root")
        .to_path_buf()
}

/// Cargo's target directory: `$CARGO_TARGET_DIR` (relative to the root) or `<root>/target`.
pub fn target_dir() -> PathBuf {
    let root = project_root();
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => root.join(dir),
        _ => root.join("target"),
    }
}

/// A `cargo` command (the same cargo that runs xtask) started in the project root.
pub fn cargo<I, S>(args: I) -> Command
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.args(args).current_dir(project_root());
    cmd
}

/// Human-readable command line, for messages.
pub fn describe(cmd: &Command) -> String {
    let mut s = cmd.get_program().to_string_lossy().into_owned();
    for a in cmd.get_args() {
        s.push(' ');
        s.push_str(&a.to_string_lossy());
    }
    s
}

/// Runs `cmd` with inherited stdio; fails unless it exits successfully.
pub fn exec(cmd: &mut Command) -> Result<()> {
    let line = describe(cmd);
    eprintln!("$ {line}");
    let status = cmd
        .status()
        .with_context(|| format!("cannot start `{line}`"))?;
    if !status.success() {
        bail!("`{line}` failed ({status})");
    }
    Ok(())
}

/// Runs `cmd` and returns its stdout; stderr is passed through.
pub fn output(cmd: &mut Command) -> Result<String> {
    let line = describe(cmd);
    let out = cmd
        .stderr(std::process::Stdio::inherit())
        .output()
        .with_context(|| format!("cannot start `{line}`"))?;
    if !out.status.success() {
        bail!("`{line}` failed ({})", out.status);
    }
    String::from_utf8(out.stdout).with_context(|| format!("`{line}` printed invalid UTF-8"))
}

/// The first executable called `name` on `$PATH`.
pub fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// True when running as root (CI), where installing system packages is allowed.
pub fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

/// How a step ended.
enum Outcome {
    Passed,
    Skipped(String),
    Failed,
}

/// A sequence of named, timed steps that stops at the first failure and
/// prints a timing summary either way.
#[derive(Default)]
pub struct Steps {
    done: Vec<(String, Duration, Outcome)>,
}

impl Steps {
    /// Runs one step. Its result is `Ok(None)` when it ran, `Ok(Some(reason))` when
    /// it chose to skip itself.
    pub fn step(
        &mut self,
        name: &str,
        body: impl FnOnce() -> Result<Option<String>>,
    ) -> Result<()> {
        eprintln!("\n==> {name}");
        let start = Instant::now();
        let result = body();
        let elapsed = start.elapsed();
        match result {
            Ok(None) => {
                self.done.push((name.to_owned(), elapsed, Outcome::Passed));
                Ok(())
            }
            Ok(Some(reason)) => {
                eprintln!("note: skipped {name}: {reason}");
                self.done
                    .push((name.to_owned(), elapsed, Outcome::Skipped(reason)));
                Ok(())
            }
            Err(e) => {
                self.done.push((name.to_owned(), elapsed, Outcome::Failed));
                self.print_summary();
                Err(e.context(format!("step `{name}` failed")))
            }
        }
    }

    /// Prints one line per step with its time and outcome, and the total.
    pub fn print_summary(&self) {
        eprintln!("\n==> summary");
        let mut total = Duration::ZERO;
        for (name, took, outcome) in &self.done {
            total += *took;
            let status = match outcome {
                Outcome::Passed => "ok".to_owned(),
                Outcome::Skipped(why) => format!("skipped ({why})"),
                Outcome::Failed => "FAILED".to_owned(),
            };
            eprintln!("{:>8.1} s  {name:<40} {status}", took.as_secs_f64());
        }
        eprintln!("{:>8.1} s  total", total.as_secs_f64());
    }
}
