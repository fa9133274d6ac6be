//! `xiangqi convert`: not built yet (its issue is in progress).

use anyhow::{bail, Result};

#[derive(clap::Args)]
pub struct Args {}

pub fn run(_args: Args) -> Result<()> {
    bail!("the 'convert' command is not built yet")
}
