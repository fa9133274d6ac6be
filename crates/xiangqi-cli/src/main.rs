//! `xiangqi`: the command-line face of the toolkit. Each subcommand lives in
//! its own module under `commands/` (in this package's library, shared with
//! the `xiangqi-engine` program) and only composes the library crates.
//!
//! Contract for scripts: errors go to stderr as `error: …` with exit status 2
//! (1 when a command read some games but not all: docs/cli.md);
//! `--json` output is stable.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

// Games are read on one thread and freed on another (`--jobs`); glibc's
// malloc spends a fifth of `game check`'s time on that, mimalloc does not.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use xiangqi_cli::commands;

#[derive(Parser)]
#[command(
    name = "xiangqi",
    version,
    about = "Xiangqi (Chinese chess) toolkit: rules, notation, adjudication, engine"
)]
struct Cli {
    // Optional so that a bare `xiangqi` is an `error:` (exit 2), not a help page.
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal-move tree (move generator test and benchmark).
    Perft(commands::perft::Args),
    /// List the legal moves of a position.
    Moves(commands::moves::Args),
    /// Convert a sequence of moves between notations.
    Convert(commands::convert::Args),
    /// Check and convert game files: PGN, WXF, XQF, CBF, CBR, CBL in;
    /// PGN, WXF, XQF out (alias: `pgn`).
    #[command(alias = "pgn")]
    Game(commands::game::Args),
    /// Judge a game: who won and why.
    Adjudicate(commands::adjudicate::Args),
    /// Analyse a position with the engine.
    Analyze(commands::analyze::Args),
    /// Play against the engine in the terminal.
    Play(commands::play::Args),
    /// Run the engine as a UCI engine on stdin/stdout.
    Uci(commands::uci::Args),
    /// Run the engine as a UCCI engine on stdin/stdout.
    Ucci(commands::ucci::Args),
    /// Play engines against each other.
    Match(commands::matches::Args),
    /// Search a fixed set of positions: node-count signature and speed.
    Bench(commands::bench::Args),
    /// Elo ratings of the players of PGN files, from the adjudicated results.
    Rate(commands::rate::Args),
    /// Fit the evaluation weights by self-play and Texel's method; write them as Rust source.
    Tune(commands::tune::Args),
    /// The opening explorer over your own games: build it from game files, query a position.
    Explore(commands::explore::Args),
    /// Puzzles: build a verified puzzle set from tactics lists and game files.
    Puzzles(commands::puzzles::Args),
    /// The NNUE evaluation: make self-play data, merge shards, train a network.
    Nnue(commands::nnue::Args),
    /// The game server and its web client: play in a browser, against people or the engine.
    Serve(commands::serve::Args),
    /// Play on a `xiangqi serve` server as a bot: any UCI or UCCI engine, or the built-in one.
    Bot(commands::bot::Args),
}

/// Behave like other Unix filters when the reader goes away (`xiangqi moves | head`):
/// end quietly on SIGPIPE instead of failing on the next write.
fn restore_default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: resetting a signal disposition to its default before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    restore_default_sigpipe();
    std::panic::set_hook(Box::new(|info| {
        eprintln!("error: internal error (please report it): {info}");
    }));
    let cli = Cli::parse();
    let Some(command) = cli.command else {
        eprintln!("error: a subcommand is required (perft, moves, convert, game, adjudicate, analyze, play, uci, ucci, match, bench, rate, tune, explore, puzzles, nnue, serve, bot); try 'xiangqi --help'");
        return ExitCode::from(2);
    };
    let result = match command {
        Command::Perft(a) => commands::perft::run(a),
        Command::Rate(a) => commands::rate::run(a),
        Command::Moves(a) => commands::moves::run(a),
        Command::Convert(a) => commands::convert::run(a),
        Command::Game(a) => commands::game::run(a),
        Command::Adjudicate(a) => commands::adjudicate::run(a),
        Command::Analyze(a) => commands::analyze::run(a),
        Command::Play(a) => commands::play::run(a),
        Command::Uci(a) => commands::uci::run(a),
        Command::Ucci(a) => commands::ucci::run(a),
        Command::Match(a) => commands::matches::run(a),
        Command::Bench(a) => commands::bench::run(a),
        Command::Tune(a) => commands::tune::run(a),
        Command::Explore(a) => commands::explore::run(a),
        Command::Puzzles(a) => commands::puzzles::run(a),
        Command::Nnue(a) => commands::nnue::run(a),
        Command::Serve(a) => commands::serve::run(a),
        Command::Bot(a) => commands::bot::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(xiangqi_cli::exit::status_of(&e))
        }
    }
}
