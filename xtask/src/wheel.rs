//! `cargo xtask wheel`: builds the Python wheel with maturin into `target/wheels`.

use anyhow::Result;

use crate::python::{bindings_dir, Venv};
use crate::run::project_root;

#[derive(clap::Args)]
pub struct Args {
    /// Also build a source distribution.
    #[arg(long)]
    sdist: bool,
}

pub fn run(args: Args) -> Result<()> {
    let dir = match bindings_dir() {
        Ok(dir) => dir,
        Err(why) => {
            eprintln!("note: no wheel to build: {why}");
            return Ok(());
        }
    };
    let out = project_root().join("target").join("wheels");
    let venv = Venv::ensure()?;
    venv.ensure_maturin()?;
    let out_text = out.to_string_lossy();
    let mut maturin_args = vec!["build", "--release", "--out", &*out_text];
    if args.sdist {
        maturin_args.push("--sdist");
    }
    venv.maturin(&dir, &maturin_args)?;
    eprintln!("wheel(s) written to {}", out.display());
    Ok(())
}
