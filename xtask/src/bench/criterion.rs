//! The criterion benchmarks of every crate (`benches/` directories).

use anyhow::Result;

use crate::run::{cargo, exec};

pub fn run() -> Result<()> {
    exec(&mut cargo(["bench", "--workspace"]))
}
