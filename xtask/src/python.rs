//! The Python bindings (bindings/python, built with maturin) and the
//! virtual environment in `<root>/.venv` used to build and test them.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Context, Result};

use crate::run::{exec, project_root};

/// Where the bindings live, relative to the root.
pub const BINDINGS_DIR: &str = "bindings/python";
/// Test requirements (pytest, maturin, peers for comparison tests).
pub const REQUIREMENTS: &str = "bindings/python/requirements-test.txt";
/// The pytest suite.
pub const TESTS_DIR: &str = "bindings/python/tests";

/// The bindings directory, or why the Python steps are skipped.
pub fn bindings_dir() -> std::result::Result<PathBuf, String> {
    let dir = project_root().join(BINDINGS_DIR);
    if dir.join("pyproject.toml").is_file() || dir.join("Cargo.toml").is_file() {
        Ok(dir)
    } else {
        Err(format!("{BINDINGS_DIR} does not exist yet"))
    }
}

/// The project's virtual environment, created on first use.
pub struct Venv {
    dir: PathBuf,
}

impl Venv {
    /// Opens `<root>/.venv`, creating it with `python3 -m venv` if missing.
    pub fn ensure() -> Result<Venv> {
        let dir = project_root().join(".venv");
        let venv = Venv { dir };
        if !venv.python().is_file() {
            exec(Command::new("python3").arg("-m").arg("venv").arg(&venv.dir))
                .context("cannot create the virtual environment (is python3-venv installed?)")?;
        }
        Ok(venv)
    }

    fn bin(&self, name: &str) -> PathBuf {
        self.dir.join("bin").join(name)
    }

    /// The venv's interpreter.
    pub fn python(&self) -> PathBuf {
        self.bin("python")
    }

    /// A command for a program inside the venv, with the environment an
    /// activated venv would have (maturin uses `VIRTUAL_ENV` to pick its target).
    pub fn command(&self, program: &str) -> Command {
        let mut cmd = Command::new(self.bin(program));
        cmd.env("VIRTUAL_ENV", &self.dir);
        let mut paths = vec![self.dir.join("bin")];
        if let Some(path) = std::env::var_os("PATH") {
            paths.extend(std::env::split_paths(&path));
        }
        if let Ok(joined) = std::env::join_paths(paths) {
            cmd.env("PATH", joined);
        }
        cmd.env_remove("PYTHONHOME");
        cmd.current_dir(project_root());
        cmd
    }

    /// `pip install ARGS` into the venv.
    pub fn pip_install(&self, args: &[&str]) -> Result<()> {
        let mut cmd = self.command("python");
        cmd.args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
        ])
        .args(args);
        exec(&mut cmd)
    }

    /// Makes sure maturin is available inside the venv.
    pub fn ensure_maturin(&self) -> Result<()> {
        if !self.bin("maturin").is_file() {
            self.pip_install(&["maturin"])?;
        }
        Ok(())
    }

    /// `maturin ARGS` run from `dir`.
    pub fn maturin(&self, dir: &Path, args: &[&str]) -> Result<()> {
        let mut cmd = self.command("maturin");
        cmd.args(args).current_dir(dir);
        exec(&mut cmd)
    }
}

/// Installs the test requirements, builds the module into the venv and runs pytest.
/// Returns a skip reason while the bindings do not exist yet.
pub fn test() -> Result<Option<String>> {
    let dir = match bindings_dir() {
        Ok(dir) => dir,
        Err(why) => return Ok(Some(why)),
    };
    let root = project_root();
    let requirements = root.join(REQUIREMENTS);
    if !requirements.is_file() {
        return Ok(Some(format!("{REQUIREMENTS} does not exist yet")));
    }
    let venv = Venv::ensure()?;
    venv.pip_install(&["-r", &requirements.to_string_lossy()])?;
    venv.ensure_maturin()?;
    venv.maturin(&dir, &["develop", "--profile", "pytest"])?;
    let mut pytest = venv.command("python");
    pytest.args(["-m", "pytest", TESTS_DIR, "-q"]);
    let line = crate::run::describe(&pytest);
    eprintln!("$ {line}");
    let status = pytest
        .status()
        .with_context(|| format!("cannot start `{line}`"))?;
    match status.code() {
        Some(0) => Ok(None),
        // pytest's "no tests were collected": a suite that tests nothing is a failure.
        Some(5) => bail!("pytest collected no tests in {TESTS_DIR}"),
        _ => bail!("`{line}` failed ({status})"),
    }
}
