//! `cargo xtask`: project automation (test, bench, wheel). Work in progress.
fn main() -> anyhow::Result<()> {
    let status = std::process::Command::new(env!("CARGO"))
        .args(["test", "--workspace"])
        .status()?;
    anyhow::ensure!(status.success(), "tests failed");
    Ok(())
}
