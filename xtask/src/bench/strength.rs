//! Engine strength: `xiangqi match` between our engine (`xiangqi uci`, with
//! `--threads N` search threads) and Debian's fairy-stockfish single-threaded,
//! or (`--opponent self`) our own engine with one thread; a fixed time per move,
//! random balanced openings played with both colours (seeded, so every run
//! and every version gets the same openings), one game at a time unless
//! `--concurrency` says otherwise. Prints the
//! runner's summary: W/D/L, score, Elo ± 95% error, results by colour.
//!
//! fairy-stockfish is found (or installed) by the same function as the perft
//! comparison uses; when it is missing and cannot be installed (not root),
//! the step is skipped with the reason.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{bail, Result};

use crate::run::{exec, Steps};

#[derive(clap::Args)]
#[group(id = "strength")] // perft's options are a group called `Options` too
#[command(next_help_heading = "Strength (engine match) options")]
pub struct Options {
    /// Games of the strength match (pairs of games share an opening).
    #[arg(long, default_value_t = 100)]
    games: u32,
    /// Milliseconds per move for both engines.
    #[arg(long, default_value_t = 100)]
    tc: u64,
    /// Random plies of each opening (no captures; both colours play it).
    #[arg(long, default_value_t = 4)]
    opening_plies: u32,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Also write the games to this PGN file.
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Search threads of our engine (UCI `Threads`).
    #[arg(long, default_value_t = 1)]
    threads: u32,
    /// The opponent: fairy-stockfish, or self (our engine with one thread,
    /// to measure what more threads gain).
    #[arg(long, value_enum, default_value_t = Opponent::FairyStockfish)]
    opponent: Opponent,
    /// Games played at once. With one thread per engine, J games keep at
    /// most J searches running (one engine of each game thinks at a time),
    /// so J up to the number of cores gives every search a core of its own.
    #[arg(long, default_value_t = 1)]
    concurrency: u32,
}

/// Who our engine plays against.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Opponent {
    /// Debian's fairy-stockfish, one thread.
    FairyStockfish,
    /// Our own engine with one thread.
    #[value(name = "self")]
    Itself,
}

pub fn run(args: &Options, steps: &mut Steps) -> Result<()> {
    if args.games == 0 || args.tc == 0 || args.threads == 0 || args.concurrency == 0 {
        bail!("--games, --tc, --threads and --concurrency must be at least 1");
    }
    if args.threads > 1 && args.concurrency > 1 {
        // The engine with more threads needs every core while it thinks.
        bail!("--threads above 1 needs --concurrency 1");
    }
    let ours = super::release_cli(steps)?;
    if args.opponent == Opponent::Itself {
        let name = format!(
            "strength: {} games at {} ms/move, {} threads against 1",
            args.games, args.tc, args.threads
        );
        return steps.step(&name, || {
            exec(&mut match_command(&ours, None, args)?)?;
            Ok(None)
        });
    }
    let mut fsf = None;
    steps.step(
        "find fairy-stockfish",
        || match super::perft::fairy_stockfish() {
            Ok(path) => {
                fsf = Some(path);
                Ok(None)
            }
            Err(e) => Ok(Some(format!("{e:#}"))),
        },
    )?;
    let name = format!(
        "strength: {} games at {} ms/move against fairy-stockfish",
        args.games, args.tc
    );
    steps.step(&name, || match &fsf {
        Some(fsf) => {
            exec(&mut match_command(&ours, Some(fsf), args)?)?;
            Ok(None)
        }
        None => Ok(Some("fairy-stockfish is not available".into())),
    })
}

/// The `xiangqi match` command line: our engine first, so W/D/L are ours;
/// the opponent is fairy-stockfish at `fsf`, or our engine with one thread.
fn match_command(ours: &Path, fsf: Option<&Path>, args: &Options) -> Result<Command> {
    let mut cmd = Command::new(ours);
    let first = if args.threads > 1 {
        format!(
            "{} uci,option=Threads={},name=xiangqi-{}t",
            spec_word(ours)?,
            args.threads,
            args.threads
        )
    } else {
        format!("{} uci", spec_word(ours)?)
    };
    let second = match fsf {
        // Threads 1 is fairy-stockfish's default; the runner selects the variant.
        Some(fsf) => format!("{},option=Threads=1", spec_word(fsf)?),
        None => format!("{} uci,option=Threads=1,name=xiangqi-1t", spec_word(ours)?),
    };
    cmd.arg("match")
        .arg("--engine")
        .arg(first)
        .arg("--engine")
        .arg(second)
        .args(["--games", &args.games.to_string()])
        .args(["--tc", &args.tc.to_string()])
        .args(["--random-openings", &args.opening_plies.to_string()])
        .args(["--seed", &args.seed.to_string()])
        .args(["--concurrency", &args.concurrency.to_string()]);
    if let Some(pgn) = &args.pgn {
        cmd.arg("--pgn").arg(pgn);
    }
    Ok(cmd)
}

/// A path as one word of an engine spec: the runner splits a spec at commas
/// (which therefore cannot be escaped), then its command at white space,
/// where a backslash escapes the next character.
fn spec_word(path: &Path) -> Result<String> {
    let text = path.to_string_lossy();
    if text.contains(',') {
        bail!("{text:?}: an engine path with a comma cannot be passed to `xiangqi match`");
    }
    let mut word = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_whitespace() || matches!(c, '\'' | '"' | '\\') {
            word.push('\\');
        }
        word.push(c);
    }
    Ok(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words_of(cmd: &Command) -> Vec<String> {
        cmd.get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn match_command_puts_our_engine_first() {
        let args = Options {
            games: 10,
            tc: 50,
            opening_plies: 4,
            seed: 3,
            pgn: None,
            threads: 1,
            opponent: Opponent::FairyStockfish,
            concurrency: 1,
        };
        let cmd = match_command(
            Path::new("/t/xiangqi"),
            Some(Path::new("/usr/games/fairy-stockfish")),
            &args,
        )
        .unwrap();
        let words = words_of(&cmd);
        assert_eq!(
            words[..5],
            [
                "match",
                "--engine",
                "/t/xiangqi uci",
                "--engine",
                "/usr/games/fairy-stockfish,option=Threads=1"
            ]
        );
        assert!(words.windows(2).any(|w| w == ["--tc", "50"]));
        assert!(words.windows(2).any(|w| w == ["--concurrency", "1"]));
        assert_eq!(spec_word(Path::new("/a b/x'y")).unwrap(), "/a\\ b/x\\'y");
        assert!(spec_word(Path::new("/a,b")).is_err());
        let threads = Options {
            threads: 2,
            opponent: Opponent::Itself,
            ..args
        };
        let cmd = match_command(Path::new("/t/xiangqi"), None, &threads).unwrap();
        let words = words_of(&cmd);
        assert_eq!(words[2], "/t/xiangqi uci,option=Threads=2,name=xiangqi-2t");
        assert_eq!(words[4], "/t/xiangqi uci,option=Threads=1,name=xiangqi-1t");
        let two_at_once = Options {
            concurrency: 2,
            pgn: None,
            ..args
        };
        let cmd = match_command(Path::new("/t/xiangqi"), None, &two_at_once).unwrap();
        let words = words_of(&cmd);
        assert!(words.windows(2).any(|w| w == ["--concurrency", "2"]));
    }
}
