//! The browser step of `cargo xtask test`: the web client in headless
//! Chromium, driven over WebDriver by the pytest suite in
//! `crates/xiangqi-server/tests/browser`, against a real `xiangqi serve` on
//! 127.0.0.1 with a fresh data directory and an opening explorer built from
//! the suite's fixture games.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{bail, Context, Result};

use crate::python::Venv;
use crate::run::{cargo, exec, find_on_path, is_root, project_root, target_dir};

/// The pytest suite and its requirements, relative to the root.
pub const TESTS_DIR: &str = "crates/xiangqi-server/tests/browser";
const REQUIREMENTS: &str = "crates/xiangqi-server/tests/browser/requirements.txt";
/// The games the server's opening explorer is built from.
const EXPLORER_GAMES: &str = "crates/xiangqi-server/tests/browser/fixtures/openings.pgn";
/// Debian's browser, its WebDriver, and CJK fonts for the pieces in screenshots.
const PACKAGES: [&str; 4] = [
    "chromium",
    "chromium-driver",
    "fonts-arphic-ukai",
    "fonts-wqy-microhei",
];
/// How long the server may take to print its URL.
const SERVER_START: Duration = Duration::from_secs(60);

/// `cargo xtask browser`: the browser step on its own, where a missing
/// browser is an error rather than a skip.
pub fn run() -> Result<()> {
    if let Some(why) = test()? {
        bail!("the browser tests cannot run: {why}");
    }
    Ok(())
}

/// Runs the browser tests; returns a skip reason when no browser can be had
/// outside CI (under `CI=true` that is a failure).
pub fn test() -> Result<Option<String>> {
    let (chromium, driver) = match browser() {
        Ok(found) => found,
        Err(why) if std::env::var("CI").as_deref() == Ok("true") => {
            bail!("no headless browser for the web client tests: {why}")
        }
        Err(why) => return Ok(Some(why)),
    };
    // A person plays Fairy-Stockfish run as a bot (test_fairy_bot.py).
    crate::apt::ensure_fairy_stockfish()?;
    let root = project_root();
    let venv = Venv::ensure()?;
    venv.pip_install(&["-r", &root.join(REQUIREMENTS).to_string_lossy()])?;
    exec(&mut cargo([
        "build",
        "-p",
        "xiangqi-cli",
        "--bin",
        "xiangqi",
    ]))?;
    let binary = target_dir().join("debug").join("xiangqi");

    let data = scratch_dir()?;
    let explorer = data.join("openings.db");
    exec(
        Command::new(&binary)
            .args(["explore", "build", "--jobs", "1", "-o"])
            .arg(&explorer)
            .arg(root.join(EXPLORER_GAMES)),
    )?;
    let mut server = Server::start(&binary, &data, &explorer)?;
    let screenshots = target_dir().join("browser-screenshots");
    // Only this run's pictures: a stale one would pass for a fresh one.
    let _ = std::fs::remove_dir_all(&screenshots);
    let mut pytest = venv.command("python");
    pytest
        .args(["-m", "pytest", TESTS_DIR, "-q", "-p", "no:cacheprovider"])
        .env("XQ_SERVER_URL", &server.url)
        // The viewer's tests write pages with `xiangqi game view`.
        .env("XQ_XIANGQI", &binary)
        // The server's explorer, which the tests query for the expected tables.
        .env("XQ_EXPLORER_DB", &explorer)
        .env("XQ_CHROMIUM", &chromium)
        .env("XQ_CHROMEDRIVER", &driver)
        .env("XQ_SCREENSHOTS", &screenshots);
    let result = exec(&mut pytest);
    server.stop();
    let _ = std::fs::remove_dir_all(&data);
    result?;
    eprintln!("screenshots in {}", screenshots.display());
    Ok(None)
}

/// Chromium and chromedriver, installed with apt-get when missing and allowed.
fn browser() -> std::result::Result<(PathBuf, PathBuf), String> {
    if let Some(found) = find_browser() {
        return Ok(found);
    }
    if !is_root() {
        return Err("chromium and chromedriver are not installed (`apt-get install chromium chromium-driver` as root)".into());
    }
    let install = || {
        Command::new("apt-get")
            .args(["install", "-y", "--no-install-recommends"])
            .args(PACKAGES)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .status()
            .is_ok_and(|s| s.success())
    };
    if !install() {
        let updated = Command::new("apt-get")
            .arg("update")
            .status()
            .is_ok_and(|s| s.success());
        if !updated || !install() {
            return Err(format!("`apt-get install {}` failed", PACKAGES.join(" ")));
        }
    }
    find_browser().ok_or_else(|| "chromium was installed but cannot be found".into())
}

fn find_browser() -> Option<(PathBuf, PathBuf)> {
    let chromium = ["chromium", "chromium-browser"]
        .iter()
        .find_map(|name| find_on_path(name))?;
    let driver = find_on_path("chromedriver")?;
    Some((chromium, driver))
}

/// A fresh, empty directory for the server's database.
fn scratch_dir() -> Result<PathBuf> {
    let stamp = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or_default();
    let dir = std::env::temp_dir().join(format!("xq-browser-{}-{stamp}", std::process::id()));
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    Ok(dir)
}

/// `xiangqi serve` on a free loopback port, stopped on drop.
struct Server {
    child: Child,
    url: String,
}

impl Server {
    fn start(binary: &Path, data: &Path, explorer: &Path) -> Result<Server> {
        let mut child = Command::new(binary)
            .args(["serve", "--addr", "127.0.0.1:0", "--data"])
            .arg(data)
            .arg("--explorer")
            .arg(explorer)
            // Every browser of the suite is a guest on 127.0.0.1 and several
            // sign in, and the lobby test fills the lobby from there: the
            // per-address limits are set for that crowd.
            .args(["--limit-guests", "1000/h", "--limit-sign-ins", "1000/h"])
            .args(["--limit-seeks-per-address", "1000"])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .with_context(|| format!("cannot start {}", binary.display()))?;
        let stdout = child.stdout.take().context("no stdout from the server")?;
        let (found, url) = mpsc::channel();
        // The reader keeps draining the server's stdout after the URL so it never blocks on a full pipe.
        std::thread::spawn(move || {
            let mut sent = false;
            for line in BufReader::new(stdout).lines().map_while(|l| l.ok()) {
                if !sent {
                    if let Some(url) = line.split_whitespace().find(|w| w.starts_with("http://")) {
                        sent = found.send(url.to_owned()).is_ok();
                    }
                }
            }
        });
        let mut server = Server {
            child,
            url: String::new(),
        };
        match url.recv_timeout(SERVER_START) {
            Ok(url) => {
                eprintln!("server at {url}");
                server.url = url;
                Ok(server)
            }
            Err(_) => {
                server.stop();
                bail!("`xiangqi serve` printed no http:// URL within {SERVER_START:?}")
            }
        }
    }

    fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}
