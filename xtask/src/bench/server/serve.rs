//! The server under test: `xiangqi serve` on a loopback port with its own
//! data directory (or a PostgreSQL database, and a bus for a cluster's
//! node), and what `/proc` says about its CPU time and memory.

use std::fs;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use anyhow::{bail, Context, Result};

use crate::run::describe;

/// Where a server keeps its games.
pub enum Storage<'a> {
    /// SQLite in the server's fresh directory.
    Sqlite,
    /// A PostgreSQL database; with a bus, the server is a cluster's node.
    Postgres { url: &'a str, bus: Option<&'a str> },
}

/// A running `xiangqi serve`, stopped on drop.
pub struct Server {
    child: Child,
    /// `http://127.0.0.1:PORT`, as the server printed it.
    pub url: String,
    pub log: PathBuf,
}

impl Server {
    /// Starts `bin serve` on 127.0.0.1 port 0 with its log in a fresh
    /// `dir` (and there its SQLite database), and waits for the URL it prints.
    pub fn start(bin: &Path, dir: &Path, storage: &Storage) -> Result<Server> {
        if dir.exists() {
            fs::remove_dir_all(dir).with_context(|| format!("cannot empty {}", dir.display()))?;
        }
        fs::create_dir_all(dir)?;
        let log = dir.join("server.log");
        let mut cmd = Command::new(bin);
        cmd.args(["serve", "--addr", "127.0.0.1:0"]);
        match storage {
            Storage::Sqlite => cmd.arg("--data").arg(dir),
            Storage::Postgres { url, bus } => {
                cmd.args(["--database", url]);
                cmd.args(bus.iter().flat_map(|bus| ["--bus", bus]))
            }
        };
        cmd
            // Every bot is a guest on 127.0.0.1 and half of them seek, and
            // the spectators register there: the per-address limits are set
            // for that crowd (the defaults are for the open internet).
            .args(["--limit-guests", "100000/min"])
            .args(["--limit-sign-ins", "100000/min"])
            .args(["--limit-seeks-per-address", "100000"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(fs::File::create(&log)?);
        let mut child = cmd.spawn().with_context(|| describe(&cmd))?;
        let stdout = child.stdout.take().context("no stdout")?;
        let (lines, url_line) = mpsc::channel();
        // Keep reading after the URL so the server never blocks on a full pipe.
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = lines.send(line);
            }
        });
        let mut server = Server {
            child,
            url: String::new(),
            log,
        };
        loop {
            match url_line.recv_timeout(Duration::from_secs(60)) {
                Ok(line) => {
                    if let Some(url) = printed_url(&line) {
                        server.url = url;
                        return Ok(server);
                    }
                }
                Err(_) => bail!(
                    "`{}` printed no http:// URL within a minute (log: {})",
                    describe(&cmd),
                    server.log.display()
                ),
            }
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Stops the server: SIGTERM, then SIGKILL after five seconds.
    pub fn stop(mut self) -> Result<()> {
        self.terminate()
    }

    fn terminate(&mut self) -> Result<()> {
        if self.child.try_wait()?.is_some() {
            return Ok(());
        }
        // SAFETY: kill(2) on our own child's pid, which has not been reaped.
        unsafe {
            libc::kill(self.child.id() as libc::pid_t, libc::SIGTERM);
        }
        for _ in 0..50 {
            if self.child.try_wait()?.is_some() {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        self.child.kill()?;
        self.child.wait()?;
        Ok(())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.terminate();
    }
}

/// The `http://…` word of a line the server printed, without trailing `/`.
fn printed_url(line: &str) -> Option<String> {
    let start = line.find("http://")?;
    let word = line[start..].split_whitespace().next()?;
    Some(word.trim_end_matches(['/', '.', ',']).to_owned())
}

/// User plus system CPU seconds of process `pid` ("self" for this one), from `/proc/PID/stat`.
pub fn cpu_seconds(pid: &str) -> Result<f64> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat"))?;
    // The command name may hold spaces; the fields after it are plain.
    let after_name = stat.rsplit_once(')').context("odd /proc stat")?.1;
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    // utime and stime are fields 14 and 15; `fields[0]` is field 3.
    let ticks: u64 = fields.get(11).context("no utime")?.parse::<u64>()?
        + fields.get(12).context("no stime")?.parse::<u64>()?;
    // SAFETY: sysconf has no preconditions.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    Ok(ticks as f64 / per_second.max(1) as f64)
}

/// Peak resident memory of process `pid` in MiB (`VmHWM` of `/proc/PID/status`).
pub fn peak_memory_mib(pid: &str) -> Result<f64> {
    let status = fs::read_to_string(format!("/proc/{pid}/status"))?;
    let line = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .context("no VmHWM")?;
    let kib: f64 = line
        .split_whitespace()
        .nth(1)
        .context("odd VmHWM")?
        .parse()?;
    Ok(kib / 1024.0)
}

/// Raises this process's open-file limit to its hard limit (children
/// inherit it) and fails if that is below `needed`.
pub fn raise_open_files(needed: u64) -> Result<()> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit/setrlimit with a valid pointer to a local struct.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            bail!("getrlimit: {}", std::io::Error::last_os_error());
        }
        limit.rlim_cur = limit.rlim_max;
        if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) != 0 {
            bail!("setrlimit: {}", std::io::Error::last_os_error());
        }
    }
    if limit.rlim_cur < needed {
        bail!(
            "the open-file limit is {} and this level needs about {needed}: raise the hard limit (ulimit -Hn)",
            limit.rlim_cur
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_printed_url() {
        assert_eq!(
            printed_url("listening on http://127.0.0.1:40123/ (data: x)").as_deref(),
            Some("http://127.0.0.1:40123")
        );
        assert_eq!(printed_url("starting"), None);
    }

    #[test]
    fn reads_this_process() {
        assert!(cpu_seconds("self").unwrap() >= 0.0);
        assert!(peak_memory_mib("self").unwrap() > 0.0);
        raise_open_files(64).unwrap();
    }
}
