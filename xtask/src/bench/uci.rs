//! A UCI engine process for the benchmarks: its output is read on a thread,
//! so every wait has a deadline and an engine that hangs fails the run.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

/// A UCI engine process, its output read on a thread so every wait has a
/// deadline.
pub(super) struct Uci {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Uci {
    pub(super) fn start(name: &str, program: &Path, args: &[&str], setup: &[&str]) -> Result<Uci> {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot start {}", program.display()))?;
        let stdin = child.stdin.take().context("no stdin")?;
        let stdout = child.stdout.take().context("no stdout")?;
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = Uci {
            name: name.to_owned(),
            child,
            stdin,
            lines,
        };
        engine.send("uci")?;
        engine.wait_for("uciok", Duration::from_secs(10))?;
        for line in setup {
            engine.send(line)?;
        }
        engine.send("isready")?;
        engine.wait_for("readyok", Duration::from_secs(10))?;
        Ok(engine)
    }

    pub(super) fn send(&mut self, line: &str) -> Result<()> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .with_context(|| format!("{} stopped reading its input", self.name))
    }

    /// The next line, or an error when none comes within `wait`.
    pub(super) fn line(&self, wait: Duration) -> Result<String> {
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => bail!("{} said nothing for {wait:?}", self.name),
            Err(RecvTimeoutError::Disconnected) => bail!("{} exited", self.name),
        }
    }

    pub(super) fn wait_for(&self, word: &str, wait: Duration) -> Result<()> {
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if self.line(left)?.split_whitespace().next() == Some(word) {
                return Ok(());
            }
        }
    }

    /// The first line starting with `prefix` within `wait`.
    pub(super) fn wait_for_line(&self, prefix: &str, wait: Duration) -> Result<String> {
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self.line(left)?;
            if line.starts_with(prefix) {
                return Ok(line);
            }
        }
    }
}

impl Drop for Uci {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}
