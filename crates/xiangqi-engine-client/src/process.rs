//! The engine process and its pipes. Every output line is read by a thread
//! of its own and handed over a channel, so a silent or dead engine is
//! noticed at a deadline instead of blocking the caller.

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::error::EngineError;
use crate::move_text::MoveText;
use crate::spec::EngineSpec;

/// How long a `quit` may take before the process is killed.
const QUIT_GRACE: Duration = Duration::from_millis(500);
/// Longest engine line kept; the rest of a longer line is dropped, so an
/// engine cannot make the client allocate without bound.
pub const MAX_LINE_BYTES: usize = 64 * 1024;
/// Lines read ahead of the client; a flooding engine then waits on its pipe
/// instead of filling memory.
const LINE_QUEUE: usize = 4096;

/// Every line sent to and read from engines, with the milliseconds since
/// the log was created (for debugging engines). Shared by many engines.
#[derive(Clone)]
pub struct TrafficLog {
    file: Arc<Mutex<File>>,
    start: Instant,
}

impl TrafficLog {
    /// Creates (truncates) the log file.
    pub fn create(path: &Path) -> std::io::Result<TrafficLog> {
        Ok(TrafficLog {
            file: Arc::new(Mutex::new(File::create(path)?)),
            start: Instant::now(),
        })
    }

    fn write(&self, tag: &str, direction: char, line: &str) {
        let ms = self.start.elapsed().as_millis();
        if let Ok(mut f) = self.file.lock() {
            // A failing log must not stop the engine.
            let _ = writeln!(f, "{ms:>9} {tag} {direction} {line}");
        }
    }
}

/// Attempts at starting a program that is "busy" (ETXTBSY), and the pause
/// before the first retry (doubled each time, about 1.3 s in all).
const BUSY_ATTEMPTS: u32 = 7;
const BUSY_FIRST_PAUSE: Duration = Duration::from_millis(20);

/// Starts the program of `spec`. A program file that was just written can
/// be briefly "busy": a process forked by another thread of this program
/// while the file was open for writing holds that descriptor until it
/// execs. The condition clears by itself, so it is retried before failing.
fn spawn_retrying_busy(spec: &EngineSpec) -> std::io::Result<Child> {
    let mut pause = BUSY_FIRST_PAUSE;
    let mut attempt = 1;
    loop {
        let started = Command::new(&spec.argv[0])
            .args(&spec.argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn();
        match started {
            Err(e) if is_busy_program(&e) && attempt < BUSY_ATTEMPTS => {
                thread::sleep(pause);
                pause *= 2;
                attempt += 1;
            }
            other => return other,
        }
    }
}

/// ETXTBSY ("text file busy"), 26 on Linux, the BSDs and macOS; matched by
/// number because `ErrorKind::ExecutableFileBusy` is newer than our MSRV.
fn is_busy_program(e: &std::io::Error) -> bool {
    cfg!(unix) && e.raw_os_error() == Some(26)
}

/// A running engine process: lines in, lines out, deadlines.
pub struct Wire {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    log: Option<(TrafficLog, String)>,
    /// How this engine writes moves.
    pub move_text: MoveText,
    /// False once the process was killed or found dead.
    alive: bool,
}

impl Wire {
    /// Starts the program of `spec` with piped stdin/stdout (stderr dropped).
    pub fn spawn(spec: &EngineSpec, log: Option<&TrafficLog>) -> Result<Wire, EngineError> {
        let mut child = spawn_retrying_busy(spec).map_err(|error| EngineError::Spawn {
            command: spec.command.clone(),
            error,
        })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(EngineError::Died {
                status: "no pipes".into(),
            });
        };
        let log = log.map(|l| (l.clone(), format!("{} [{}]", spec.command, child.id())));
        let reader_log = log.clone();
        let (tx, lines) = mpsc::sync_channel(LINE_QUEUE);
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match read_line_capped(&mut reader, &mut buf) {
                    Ok(0) | Err(_) => {
                        if let Some((log, tag)) = &reader_log {
                            log.write(tag, '<', "(end of output)");
                        }
                        break;
                    }
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim().to_string();
                        if let Some((log, tag)) = &reader_log {
                            log.write(tag, '<', &line);
                        }
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(Wire {
            child,
            stdin,
            lines,
            log,
            move_text: MoveText {
                ranks_from_one: spec.ranks_from_one.unwrap_or(false),
            },
            alive: true,
        })
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        if !self.alive {
            return Err(EngineError::Stopped);
        }
        if let Some((log, tag)) = &self.log {
            log.write(tag, '>', line);
        }
        let written = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
        if written.is_err() {
            return Err(self.died());
        }
        Ok(())
    }

    /// Reads lines until `accept` returns a value or `deadline` passes. On a
    /// timeout the process is killed (its state is unknown).
    pub fn read_until<T>(
        &mut self,
        deadline: Instant,
        waiting_for: &'static str,
        mut accept: impl FnMut(&mut Self, &str) -> Option<T>,
    ) -> Result<T, EngineError> {
        if !self.alive {
            return Err(EngineError::Stopped);
        }
        let start = Instant::now();
        loop {
            // Checked before every read: an engine flooding lines must not
            // keep the wait alive past its deadline.
            let left = deadline.saturating_duration_since(Instant::now());
            let received = if left.is_zero() {
                Err(RecvTimeoutError::Timeout)
            } else {
                self.lines.recv_timeout(left)
            };
            match received {
                Ok(line) => {
                    if let Some(v) = accept(self, &line) {
                        return Ok(v);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.kill();
                    return Err(EngineError::Timeout {
                        waiting_for,
                        after: deadline.saturating_duration_since(start),
                    });
                }
                Err(RecvTimeoutError::Disconnected) => return Err(self.died()),
            }
        }
    }

    /// Like [`Wire::read_until`], but a timeout is no failure: `Ok(None)`
    /// and the process lives on (for optional answers such as xboard features).
    pub fn read_optional<T>(
        &mut self,
        deadline: Instant,
        mut accept: impl FnMut(&mut Self, &str) -> Option<T>,
    ) -> Result<Option<T>, EngineError> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let received = if left.is_zero() {
                Err(RecvTimeoutError::Timeout)
            } else {
                self.lines.recv_timeout(left)
            };
            match received {
                Ok(line) => {
                    if let Some(v) = accept(self, &line) {
                        return Ok(Some(v));
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Ok(None),
                Err(RecvTimeoutError::Disconnected) => return Err(self.died()),
            }
        }
    }

    /// Whether the process was not killed nor found dead.
    pub fn is_alive(&self) -> bool {
        self.alive
    }

    /// Kills the process (after a timeout or garbage).
    pub fn kill(&mut self) {
        self.alive = false;
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
    }

    fn died(&mut self) -> EngineError {
        self.alive = false;
        // The output closes a moment before the process is reaped.
        for _ in 0..20 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return EngineError::Died {
                    status: status.to_string(),
                };
            }
            thread::sleep(Duration::from_millis(10));
        }
        EngineError::Died {
            status: "output closed".into(),
        }
    }

    /// Sends `quit_line`, waits briefly, then kills the process if it lingers.
    pub fn quit(&mut self, quit_line: &str) {
        if self.alive && self.send(quit_line).is_ok() {
            let until = Instant::now() + QUIT_GRACE;
            while Instant::now() < until {
                if let Ok(Some(_)) = self.child.try_wait() {
                    self.alive = false;
                    return;
                }
                thread::sleep(Duration::from_millis(5));
            }
        }
        self.kill();
    }
}

impl Drop for Wire {
    fn drop(&mut self) {
        self.kill();
        let _ = self.child.wait();
    }
}

/// Reads one line, keeping at most [`MAX_LINE_BYTES`] of it.
fn read_line_capped(reader: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<usize> {
    let mut total = 0;
    loop {
        let chunk = reader.fill_buf()?;
        if chunk.is_empty() {
            return Ok(total);
        }
        let (used, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let room = MAX_LINE_BYTES.saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..used.min(room)]);
        reader.consume(used);
        total += used;
        if done {
            return Ok(total);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_capped() {
        let mut text = vec![b'x'; MAX_LINE_BYTES * 3];
        text.extend_from_slice(b"\nok\n");
        let mut reader = BufReader::with_capacity(100, &text[..]);
        let mut buf = Vec::new();
        assert_eq!(
            read_line_capped(&mut reader, &mut buf).unwrap(),
            MAX_LINE_BYTES * 3 + 1
        );
        assert_eq!(buf.len(), MAX_LINE_BYTES);
        buf.clear();
        read_line_capped(&mut reader, &mut buf).unwrap();
        assert_eq!(buf, b"ok\n");
    }
}
