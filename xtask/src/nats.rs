//! A throwaway NATS server for the cluster tests in `cargo xtask test`.
//!
//! Debian's `nats-server` is installed with apt-get when missing (as root).
//! It listens on 127.0.0.1 only, on a free port, keeps nothing on disk (no
//! JetStream) and is stopped when the guard drops, so a failed test run
//! stops it too.

use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use crate::run::{exec, find_on_path, target_dir};

/// `cargo xtask nats -- COMMAND…`: runs one command with a test server.
#[derive(clap::Args)]
pub struct Args {
    /// The command, e.g. `cargo test -p xiangqi-cli --test serve_cluster`.
    #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
    command: Vec<String>,
}

/// Runs the command with [`URL_VAR`] set to a fresh server, stopped after.
pub fn run(args: Args) -> Result<()> {
    let server = TestNats::start()?;
    let (program, rest) = args.command.split_first().context("no command given")?;
    let mut command = Command::new(program);
    command
        .args(rest)
        .env(URL_VAR, server.url())
        .env(PROGRAM_VAR, &server.program);
    exec(&mut command)
}

/// The variable the cluster tests read: `nats://127.0.0.1:PORT`.
pub const URL_VAR: &str = "XIANGQI_TEST_NATS_URL";
/// The server program, for tests that stop and start a bus of their own
/// (an outage of the bus).
pub const PROGRAM_VAR: &str = "XIANGQI_TEST_NATS_SERVER";

/// A running test server; stopped on drop.
pub struct TestNats {
    child: Child,
    program: PathBuf,
    url: String,
}

impl TestNats {
    /// Installs nats-server if needed, then starts one.
    pub fn start() -> Result<TestNats> {
        let program = match program() {
            Some(program) => program,
            None => {
                install()?;
                program().context("apt-get installed nats-server but it is not on PATH")?
            }
        };
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .context("cannot find a free port")?
            .local_addr()?
            .port();
        let log = target_dir().join("nats-server.log");
        let log_file = std::fs::File::create(&log)
            .with_context(|| format!("cannot create {}", log.display()))?;
        let child = Command::new(&program)
            .args(["-a", "127.0.0.1", "-p", &port.to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log_file)
            .spawn()
            .with_context(|| format!("cannot start {}", program.display()))?;
        let server = TestNats {
            child,
            program,
            url: format!("nats://127.0.0.1:{port}"),
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            if Instant::now() > deadline {
                bail!(
                    "nats-server did not listen in time; its log: {}",
                    log.display()
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        eprintln!("NATS for the tests: {}", server.url);
        Ok(server)
    }

    /// `nats://127.0.0.1:PORT`.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The server program.
    pub fn program(&self) -> &std::path::Path {
        &self.program
    }
}

impl Drop for TestNats {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `nats-server` on PATH, or where Debian puts it.
fn program() -> Option<PathBuf> {
    find_on_path("nats-server").or_else(|| {
        let debian = PathBuf::from("/usr/sbin/nats-server");
        debian.is_file().then_some(debian)
    })
}

/// Debian's `nats-server`, installed as the test command installs every server.
fn install() -> Result<()> {
    crate::apt::install(
        "nats-server",
        &format!("`apt-get install nats-server`, or set {URL_VAR} to a server of yours"),
    )
}
