//! `cargo xtask test`: every check CI runs, in order, stopping at the first
//! failure. `.ci/run` calls exactly this.

use anyhow::{Context, Result};

use crate::run::{cargo, exec, Steps};
use crate::{browser, fuzz, python, tidy};

#[derive(clap::Args)]
pub struct Args {
    /// Seconds per fuzz target in the fuzz smoke step (0 skips it; only runs when fuzz/ exists).
    #[arg(long, default_value_t = 20)]
    fuzz_seconds: u64,
    /// Run the Rust tests in release mode (faster heavy tests, slower build, no debug assertions).
    #[arg(long)]
    release: bool,
    /// Skip the Python bindings step (for quick local runs; CI never skips it).
    #[arg(long)]
    skip_python: bool,
}

pub fn run_all(args: &Args, steps: &mut Steps) -> Result<()> {
    steps.step("cargo fmt --check", || {
        exec(&mut cargo(["fmt", "--all", "--", "--check"]))
            .context("code is not formatted; `cargo fmt --all` fixes it")?;
        Ok(None)
    })?;
    steps.step("tidy (dependency rule, module docs)", || {
        tidy::check()?;
        Ok(None)
    })?;
    steps.step("cargo clippy -D warnings", || {
        exec(&mut cargo([
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ]))?;
        Ok(None)
    })?;
    steps.step("cargo test --workspace (incl. doc tests)", || {
        let mut test = cargo(["test", "--workspace"]);
        if args.release {
            test.arg("--release");
        }
        exec(&mut test)?;
        Ok(None)
    })?;
    steps.step("python bindings: build + pytest", || {
        if args.skip_python {
            return Ok(Some("--skip-python".into()));
        }
        python::test()
    })?;
    steps.step("browser: web client in headless Chromium", browser::test)?;
    steps.step("fuzz smoke", || {
        if args.fuzz_seconds == 0 {
            return Ok(Some("--fuzz-seconds 0".into()));
        }
        fuzz::smoke(args.fuzz_seconds)
    })?;
    Ok(())
}

pub fn run(args: Args) -> Result<()> {
    let mut steps = Steps::default();
    run_all(&args, &mut steps)?;
    steps.print_summary();
    eprintln!("all checks passed");
    Ok(())
}
