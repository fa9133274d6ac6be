//! `cargo xtask test`: every check CI runs, in order, stopping at the first
//! failure. `.ci/run` calls exactly this. The Rust tests get a PostgreSQL
//! server ([`postgres`]) for the store tests and a NATS server ([`nats`]) for
//! the cluster tests.

use anyhow::{Context, Result};

use crate::run::{cargo, exec, is_root, Steps};
use crate::{apt, browser, fuzz, nats, postgres, python, tidy};

#[derive(clap::Args)]
pub struct Args {
    /// Seconds per fuzz target in the fuzz smoke step (0 skips it; only runs when fuzz/ exists).
    #[arg(long, default_value_t = 12)]
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
    steps.step(
        "cargo test --workspace (incl. doc tests, the docs' commands, store on PostgreSQL)",
        || {
            let mut test = cargo(["test", "--workspace"]);
            if args.release {
                test.arg("--release");
            }
            // A server of the developer's own, or a throwaway one stopped when
            // the guard drops (after the tests, passed or failed).
            let _postgres = match std::env::var_os(postgres::URL_VAR) {
                Some(url) if !url.is_empty() => None,
                _ => {
                    let server = postgres::TestPostgres::start()?;
                    test.env(postgres::URL_VAR, server.url());
                    server.describe_to(&mut test);
                    Some(server)
                }
            };
            // The same for the bus of the cluster tests.
            let _nats = match std::env::var_os(nats::URL_VAR) {
                Some(url) if !url.is_empty() => None,
                _ => {
                    let server = nats::TestNats::start()?;
                    test.env(nats::URL_VAR, server.url());
                    test.env(nats::PROGRAM_VAR, server.program());
                    Some(server)
                }
            };
            // The documented proxy in front of a cluster, run by its test.
            if !std::path::Path::new("/usr/sbin/haproxy").is_file() && is_root() {
                apt::install("haproxy", "`apt-get install haproxy`")?;
            }
            // The engine the bot and match tests play against.
            apt::ensure_fairy_stockfish()?;
            exec(&mut test)?;
            Ok(None)
        },
    )?;
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
