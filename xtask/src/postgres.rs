//! A throwaway PostgreSQL server for the store tests in `cargo xtask test`.
//!
//! Debian's `postgresql` is installed with apt-get when its programs are
//! missing (as root; they live in `/usr/lib/postgresql/<version>/bin`). A
//! fresh cluster is made under `<target>/postgres/`, listens on 127.0.0.1
//! only, on a free port, without a Unix socket, and trusts local
//! connections (nothing else can reach it). As root, the server programs
//! run as the `postgres` user, which owns the cluster, since PostgreSQL
//! refuses to run as root. The guard stops the server when dropped, so a
//! failed test run stops it too.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result};

use crate::run::{describe, exec, find_on_path, is_root, target_dir};

/// `cargo xtask postgres -- COMMAND…`: runs one command with a test server.
#[derive(clap::Args)]
pub struct Args {
    /// The command, e.g. `cargo test -p xiangqi-server --test store`.
    #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
    command: Vec<String>,
}

/// Runs the command with [`URL_VAR`] set to a fresh server, stopped after.
pub fn run(args: Args) -> Result<()> {
    let server = TestPostgres::start()?;
    let (program, rest) = args.command.split_first().context("no command given")?;
    let mut command = Command::new(program);
    command.args(rest).env(URL_VAR, server.url());
    server.describe_to(&mut command);
    exec(&mut command)
}

/// The variable the store tests read.
pub const URL_VAR: &str = "XIANGQI_TEST_POSTGRES_URL";
/// `pg_ctl` of the test server, for a test that restarts it.
pub const PG_CTL_VAR: &str = "XIANGQI_TEST_POSTGRES_PG_CTL";
/// Its data directory.
pub const DATA_VAR: &str = "XIANGQI_TEST_POSTGRES_DATA";
/// The user `pg_ctl` runs as, when set.
pub const RUN_AS_VAR: &str = "XIANGQI_TEST_POSTGRES_RUN_AS";
/// The database the tests get.
const DATABASE: &str = "xiangqi_test";
/// The superuser initdb makes.
const SUPERUSER: &str = "postgres";
/// The system account that runs the server when we are root.
const SYSTEM_USER: &str = "postgres";

/// A running test server; stopped on drop.
pub struct TestPostgres {
    bin: PathBuf,
    data: PathBuf,
    as_system_user: bool,
    port: u16,
    url: String,
}

impl TestPostgres {
    /// Installs PostgreSQL if needed, then makes and starts a fresh cluster.
    pub fn start() -> Result<TestPostgres> {
        let bin = match server_bin_dir() {
            Some(bin) => bin,
            None => {
                install()?;
                server_bin_dir().context(
                    "apt-get installed postgresql but no initdb and pg_ctl are in /usr/lib/postgresql/*/bin",
                )?
            }
        };
        let as_system_user = is_root();
        let home = cluster_home(as_system_user)?;
        let data = home.join("data");
        let log = home.join("server.log");
        let port = free_port()?;
        let server = TestPostgres {
            bin,
            data,
            as_system_user,
            port,
            url: format!("postgres://{SUPERUSER}@127.0.0.1:{port}/{DATABASE}"),
        };
        exec(
            server
                .server_program("initdb")
                .arg("-D")
                .arg(&server.data)
                .args(["-U", SUPERUSER, "--auth=trust", "-E", "UTF8", "--locale=C"])
                .arg("--no-sync")
                .stdout(std::process::Stdio::null()),
        )
        .context("initdb failed")?;
        // `-k ''`: no Unix socket, so no system directory is needed for one.
        let options = format!("-c listen_addresses=127.0.0.1 -p {port} -k ''");
        exec(
            server
                .server_program("pg_ctl")
                .arg("-D")
                .arg(&server.data)
                .arg("-l")
                .arg(&log)
                .args(["-o", &options, "-w", "-t", "60", "start"])
                .stdout(std::process::Stdio::null()),
        )
        .with_context(|| format!("PostgreSQL did not start; its log: {}", log.display()))?;
        // From here on the guard stops the server, whatever fails.
        exec(
            Command::new(server.bin.join("createdb"))
                .args(["-h", "127.0.0.1", "-p", &port.to_string(), "-U", SUPERUSER])
                .arg(DATABASE),
        )
        .context("createdb failed")?;
        eprintln!("PostgreSQL for the tests: {}", server.url);
        Ok(server)
    }

    /// `postgres://…` of the test database.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Creates the empty database `name` on this server: its `postgres://…`.
    pub fn fresh_database(&self, name: &str) -> Result<String> {
        exec(
            Command::new(self.bin.join("createdb"))
                .args([
                    "-h",
                    "127.0.0.1",
                    "-p",
                    &self.port.to_string(),
                    "-U",
                    SUPERUSER,
                ])
                .arg(name),
        )
        .with_context(|| format!("createdb {name} failed"))?;
        Ok(format!(
            "postgres://{SUPERUSER}@127.0.0.1:{}/{name}",
            self.port
        ))
    }

    /// Sets the variables a test reads to restart this server (an outage
    /// of the database): `pg_ctl`, the data directory, and the user to run
    /// it as, when not the test's own.
    pub fn describe_to(&self, command: &mut Command) {
        command
            .env(PG_CTL_VAR, self.bin.join("pg_ctl"))
            .env(DATA_VAR, &self.data);
        if self.as_system_user {
            command.env(RUN_AS_VAR, SYSTEM_USER);
        }
    }

    fn server_program(&self, name: &str) -> Command {
        server_program(&self.bin, name, self.as_system_user)
    }
}

/// A server program (`initdb`, `pg_ctl`) of `bin`, as the `postgres` user
/// when we are root.
fn server_program(bin: &Path, name: &str, as_system_user: bool) -> Command {
    let program = bin.join(name);
    if as_system_user {
        let mut command = Command::new("runuser");
        command.args(["-u", SYSTEM_USER, "--"]).arg(program);
        command
    } else {
        Command::new(program)
    }
}

impl Drop for TestPostgres {
    fn drop(&mut self) {
        let mut stop = self.server_program("pg_ctl");
        stop.arg("-D")
            .arg(&self.data)
            .args(["-m", "fast", "-w", "stop"])
            .stdout(std::process::Stdio::null());
        if let Err(e) = exec(&mut stop) {
            eprintln!("xtask: could not stop the test PostgreSQL: {e:#}");
        }
    }
}

/// The directory of `initdb` and `pg_ctl`: the newest
/// `/usr/lib/postgresql/<version>/bin`, else where `pg_ctl` on PATH leads.
fn server_bin_dir() -> Option<PathBuf> {
    let has_programs = |dir: &Path| dir.join("initdb").is_file() && dir.join("pg_ctl").is_file();
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let version = entry.file_name().to_str()?.parse().ok()?;
            Some((version, entry.path().join("bin")))
        })
        .filter(|(_, bin)| has_programs(bin))
        .collect();
    versions.sort();
    if let Some((_, bin)) = versions.pop() {
        return Some(bin);
    }
    let pg_ctl = std::fs::canonicalize(find_on_path("pg_ctl")?).ok()?;
    let bin = pg_ctl.parent()?.to_path_buf();
    has_programs(&bin).then_some(bin)
}

/// Debian's `postgresql`, installed as the test command installs every server.
fn install() -> Result<()> {
    crate::apt::install(
        "postgresql",
        &format!("`apt-get install postgresql`, or set {URL_VAR} to a server of yours"),
    )
}

/// A fresh `<target>/postgres/` (a previous cluster's server stopped and
/// its files removed); as root, owned by the `postgres` user. Should that
/// user be unable to reach the target directory (a checkout under a
/// private home), the cluster goes to the system's temporary directory.
fn cluster_home(as_system_user: bool) -> Result<PathBuf> {
    let in_target = target_dir().join("postgres");
    let home = if as_system_user && !system_user_reaches(in_target.parent().unwrap_or(&in_target)) {
        std::env::temp_dir().join("xiangqi-test-postgres")
    } else {
        in_target
    };
    stop_leftover(&home.join("data"), as_system_user);
    if home.exists() {
        std::fs::remove_dir_all(&home)
            .with_context(|| format!("cannot remove the old cluster {}", home.display()))?;
    }
    std::fs::create_dir_all(&home).with_context(|| format!("cannot create {}", home.display()))?;
    if as_system_user {
        exec(Command::new("chown").arg(SYSTEM_USER).arg(&home))?;
    }
    Ok(home)
}

/// Whether the `postgres` user can enter `dir` (and so every parent of it).
fn system_user_reaches(dir: &Path) -> bool {
    std::fs::create_dir_all(dir).is_ok()
        && Command::new("runuser")
            .args(["-u", SYSTEM_USER, "--", "test", "-x"])
            .arg(dir)
            .status()
            .is_ok_and(|s| s.success())
}

/// Stops a server a killed run left on `data`, if any.
fn stop_leftover(data: &Path, as_system_user: bool) {
    if !data.join("postmaster.pid").is_file() {
        return;
    }
    let Some(bin) = server_bin_dir() else {
        return;
    };
    let mut stop = server_program(&bin, "pg_ctl", as_system_user);
    stop.arg("-D")
        .arg(data)
        .args(["-m", "immediate", "-w", "stop"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    eprintln!("$ {} (a leftover server)", describe(&stop));
    let _ = stop.status();
}

/// A port nobody listens on now on 127.0.0.1.
fn free_port() -> Result<u16> {
    let listener = TcpListener::bind("127.0.0.1:0").context("cannot find a free port")?;
    Ok(listener.local_addr()?.port())
}
