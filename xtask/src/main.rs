//! `cargo xtask`: project automation in plain Rust, so CI and developers run
//! exactly the same steps on any machine with a Rust toolchain.
//!
//! One module per subcommand; each shells out to `cargo` (and, for the
//! Python bindings, to a virtual environment in `<root>/.venv`). Shared
//! plumbing (running commands, timing steps, finding the project root) lives
//! in [`run`].
//!
//! * `cargo xtask test`: everything CI checks, in order, stopping at the first failure.
//! * `cargo xtask bench [perft|criterion|strength|…|server|all]`: benchmarks against peers.
//! * `cargo xtask wheel`: the Python wheel into `target/wheels`.
//! * `cargo xtask fuzz --seconds N`: every cargo-fuzz target for N seconds.
//! * `cargo xtask tidy`: repository rules (dependency direction, module docs).
//! * `cargo xtask tune`: fit the evaluation weights (self-play, Texel's method).
//! * `cargo xtask browser`: the web client in headless Chromium (a step of `test`).
//! * `cargo xtask postgres -- COMMAND`: one command with a throwaway PostgreSQL server.
//! * `cargo xtask nats -- COMMAND`: one command with a throwaway NATS server.

use clap::{Parser, Subcommand};

mod apt;
mod bench;
mod browser;
mod fuzz;
mod nats;
mod postgres;
mod python;
mod run;
mod test;
mod tidy;
mod tune;
mod wheel;

#[derive(Parser)]
#[command(
    name = "cargo xtask",
    about = "Project automation for the xiangqi workspace"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run everything CI checks: fmt, clippy, tidy, Rust tests, Python tests, fuzz smoke.
    Test(test::Args),
    /// Run benchmarks (perft and engine strength against fairy-stockfish, criterion).
    Bench(Box<bench::Args>),
    /// Build the Python wheel into target/wheels.
    Wheel(wheel::Args),
    /// Run every cargo-fuzz target in fuzz/ for a while.
    Fuzz(fuzz::Args),
    /// Check repository rules: the crate dependency direction and module docs.
    Tidy,
    /// Fit the evaluation weights: self-play data, Texel's method, a match.
    Tune(tune::Args),
    /// Run the web client's tests in headless Chromium against `xiangqi serve`.
    Browser,
    /// Run one command with a throwaway PostgreSQL server in XIANGQI_TEST_POSTGRES_URL.
    Postgres(postgres::Args),
    /// Run one command with a throwaway NATS server in XIANGQI_TEST_NATS_URL.
    Nats(nats::Args),
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Test(args) => test::run(args),
        Command::Bench(args) => bench::run(*args),
        Command::Wheel(args) => wheel::run(args),
        Command::Fuzz(args) => fuzz::run(args),
        Command::Tidy => tidy::run(),
        Command::Tune(args) => tune::run(args),
        Command::Browser => browser::run(),
        Command::Postgres(args) => postgres::run(args),
        Command::Nats(args) => nats::run(args),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn command_line_definition_is_consistent() {
        <super::Cli as clap::CommandFactory>::command().debug_assert();
    }
}
