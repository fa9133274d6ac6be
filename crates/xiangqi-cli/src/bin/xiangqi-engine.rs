//! `xiangqi-engine`: the engine alone, as GUIs and Pikafish clients start
//! it. With no arguments it speaks UCI on stdin/stdout, or UCCI when the
//! first command is `ucci`; `xiangqi-engine bench` prints the node-count
//! signature as Pikafish does. See `commands::engine` and `docs/engine.md`.

use std::process::ExitCode;

use clap::Parser;
use xiangqi_cli::commands::engine::{run, Args};

fn main() -> ExitCode {
    std::panic::set_hook(Box::new(|info| {
        eprintln!("error: internal error (please report it): {info}");
    }));
    match run(Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
