//! `cargo xtask tune`: fits the evaluation weights with `xiangqi tune`
//! (seeded fixed-node self-play, quiet positions, optionally a stronger
//! engine's scores of them, Texel's fit, a match of the fitted weights
//! against the committed ones) from the release CLI.
//!
//! The fitted table goes to `target/tune/default_weights.rs`; with
//! `--install` it replaces the committed
//! `crates/xiangqi-search/src/eval/default_weights.rs` (do that only when the
//! match shows the fitted weights are not weaker, and record the figures in
//! docs/engine-experiments.md). The file's header names the command, seed and data size.

use std::process::Command;

use anyhow::Result;

use crate::run::{exec, project_root, Steps};

/// The committed weights file, relative to the root.
pub const WEIGHTS_FILE: &str = "crates/xiangqi-search/src/eval/default_weights.rs";

#[derive(clap::Args)]
pub struct Args {
    /// Self-play games for the data.
    #[arg(long, default_value_t = 1000)]
    games: u32,
    /// Nodes per move in self-play and in the match.
    #[arg(long, default_value_t = 2000)]
    nodes: u64,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Adam epochs.
    #[arg(long, default_value_t = 400)]
    epochs: u32,
    /// Games of the fitted weights against the committed ones (0: none).
    #[arg(long, default_value_t = 200)]
    match_games: u32,
    /// Write the result over the committed weights file.
    #[arg(long)]
    install: bool,
    /// A stronger engine that scores every data position (`xiangqi tune
    /// --teacher`), e.g. "/usr/games/fairy-stockfish,option=Threads=1".
    #[arg(long)]
    teacher: Option<String>,
    /// Depth of the teacher's search of each position.
    #[arg(long, default_value_t = 8)]
    teacher_depth: u32,
    /// Share of the teacher's winning chance in each target.
    #[arg(long, default_value_t = 0.75)]
    teacher_weight: f64,
    /// Fit only these weight groups, comma-separated (`xiangqi tune --fit-only`).
    #[arg(long)]
    fit_only: Option<String>,
}

/// The `xiangqi tune` command line.
fn tune_command(cli: &std::path::Path, args: &Args) -> Command {
    let out = if args.install {
        project_root().join(WEIGHTS_FILE)
    } else {
        crate::run::target_dir()
            .join("tune")
            .join("default_weights.rs")
    };
    let mut cmd = Command::new(cli);
    cmd.arg("tune")
        .args(["--games", &args.games.to_string()])
        .args(["--nodes", &args.nodes.to_string()])
        .args(["--seed", &args.seed.to_string()])
        .args(["--epochs", &args.epochs.to_string()])
        .args(["--match-games", &args.match_games.to_string()])
        .arg("--out")
        .arg(out);
    if let Some(teacher) = &args.teacher {
        cmd.args(["--teacher", teacher])
            .args(["--teacher-depth", &args.teacher_depth.to_string()])
            .args(["--teacher-weight", &args.teacher_weight.to_string()]);
    }
    if let Some(groups) = &args.fit_only {
        cmd.args(["--fit-only", groups]);
    }
    cmd
}

pub fn run(args: Args) -> Result<()> {
    let mut steps = Steps::default();
    let cli = crate::bench::release_cli(&mut steps)?;
    let name = format!(
        "tune: {} games at {} nodes (seed {}), {} epochs, {} match games",
        args.games, args.nodes, args.seed, args.epochs, args.match_games
    );
    steps.step(&name, || {
        exec(&mut tune_command(&cli, &args))?;
        Ok(None)
    })?;
    steps.print_summary();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn install_targets_the_committed_file() {
        let args = Args {
            games: 10,
            nodes: 100,
            seed: 4,
            epochs: 5,
            match_games: 0,
            install: true,
            teacher: Some("fsf,option=Threads=1".into()),
            teacher_depth: 6,
            teacher_weight: 0.5,
            fit_only: Some("mobility,tempo".into()),
        };
        let cmd = tune_command(std::path::Path::new("/t/xiangqi"), &args);
        let words: Vec<String> = cmd
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert_eq!(words[0], "tune");
        assert!(words.windows(2).any(|w| w == ["--seed", "4"]));
        assert!(words.iter().any(|w| w.ends_with(WEIGHTS_FILE)));
        assert!(words
            .windows(2)
            .any(|w| w == ["--teacher", "fsf,option=Threads=1"]));
        assert!(words.windows(2).any(|w| w == ["--teacher-depth", "6"]));
        assert!(words.windows(2).any(|w| w == ["--teacher-weight", "0.5"]));
        assert!(words
            .windows(2)
            .any(|w| w == ["--fit-only", "mobility,tempo"]));
    }
}
