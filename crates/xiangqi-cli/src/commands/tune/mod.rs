//! `xiangqi tune`: fits the evaluation weights (the `xiangqi_search::tune`
//! pipeline) and writes them as the Rust source of `default_weights.rs`.
//!
//! Steps, each with progress on stderr: seeded self-play at fixed nodes from
//! balanced random openings; the quiet positions of those games (not in
//! check, no capture winning material by static exchange); Texel's logistic
//! fit with a fitted scaling constant (Adam), optionally towards a stronger
//! engine's scores of the positions (`--teacher`); a fixed-node match of the
//! fitted weights against the starting ones. `--write-current` only writes
//! the committed weights with a header (to regenerate the file). `--wdl`
//! instead fits the win-rate model (`xiangqi_search::wdl`) to self-play
//! scores and those of match games (`--wdl-games`, module `wdl_games`) and
//! prints its constants (module `wdl`).

mod teacher;
mod wdl;
mod wdl_games;

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use xiangqi_engine_client::EngineSpec;
use xiangqi_search::tune::{
    fit, generate_with_endings, play_match, Endings, FitOptions, FitReport, MatchTally, Sample,
    SelfPlay,
};
use xiangqi_search::weights::GROUPS;
use xiangqi_search::{weights_source, Weights};

use super::matches::elo::{format_elo, format_error};
use xiangqi_rating::match_stats::Tally;

#[derive(clap::Args)]
pub struct Args {
    /// Self-play games for the data.
    #[arg(long, default_value_t = 200)]
    games: usize,
    /// Nodes per move in self-play and in the match.
    #[arg(long, default_value_t = 2_000)]
    nodes: u64,
    /// Seed of the random openings (the data depends only on it and the settings).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Random plies of each opening.
    #[arg(long, default_value_t = 6)]
    opening_plies: usize,
    /// Adam epochs (full passes over the data).
    #[arg(long, default_value_t = 300)]
    epochs: usize,
    /// Adam step size in centipawns.
    #[arg(long, default_value_t = 1.0)]
    learning_rate: f64,
    /// Games of the fitted weights against the starting ones (0: no match).
    #[arg(long, default_value_t = 100)]
    match_games: usize,
    /// Where to write the weights file.
    #[arg(long, default_value = "target/tune/default_weights.rs")]
    out: PathBuf,
    /// Write the committed weights (no fit) with `--note` lines as the header.
    #[arg(long)]
    write_current: bool,
    /// Header lines for `--write-current`.
    #[arg(long)]
    note: Vec<String>,
    /// Threads playing the self-play and match games (0: one per core); the
    /// games and the data are the same for any number.
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// A stronger engine scoring every data position, as for `xiangqi
    /// match --engine` (e.g. "fairy-stockfish,option=Threads=1"); one
    /// process per thread.
    #[arg(long)]
    teacher: Option<String>,
    /// Depth of the teacher's search of each position.
    #[arg(long, default_value_t = 8)]
    teacher_depth: u32,
    /// Share of the teacher's winning chance in each target (the rest is the
    /// game result); used with `--teacher`.
    #[arg(long, default_value_t = 0.75)]
    teacher_weight: f64,
    /// Fit only these weight groups, comma-separated (e.g.
    /// "mobility,tempo"); the rest keep the committed values.
    #[arg(long, value_delimiter = ',', value_name = "GROUPS")]
    fit_only: Vec<String>,
    /// Fit the win-rate model (`UCI_ShowWDL`, annotation, accuracy) to the
    /// self-play games' scores and results instead of the weights; prints
    /// its constants.
    #[arg(long)]
    wdl: bool,
    /// With `--wdl`: also fit to these `xiangqi match --pgn` files (the
    /// scores of `--wdl-player`'s moves and the games' results).
    #[arg(long, num_args = 1.., value_name = "PGN")]
    wdl_games: Vec<PathBuf>,
    /// With `--wdl-games`: the player (PGN `Red`/`Black` name) whose scores
    /// count; our engine's UCI name by default.
    #[arg(long, default_value = concat!("xiangqi ", env!("CARGO_PKG_VERSION")))]
    wdl_player: String,
    /// With `--wdl`: write the observed and fitted W/D/L by ply band and
    /// score bucket as CSV (the data of `docs/images/winrate.png`).
    #[arg(long, value_name = "CSV")]
    wdl_table: Option<PathBuf>,
}

fn bar(len: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    let template = format!("{what} {{pos}}/{{len}} [{{elapsed_precise}}] {{wide_bar}} {{msg}}");
    bar.set_style(
        ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

fn tally(t: &MatchTally) -> Tally {
    Tally {
        wins: t.wins,
        draws: t.draws,
        losses: t.losses,
    }
}

fn write(path: &Path, text: &str) -> Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

/// A parsed teacher: the text as typed (for the weights file's header)
/// and its spec.
type Teacher<'a> = Option<(&'a str, EngineSpec)>;

pub fn run(args: Args) -> Result<()> {
    let start = Weights::default();
    if args.write_current {
        return write_current(&args, &start);
    }
    check(&args)?;
    let teacher = parse_teacher(&args)?;
    let config = self_play_config(&args);
    if args.wdl {
        let options = wdl::Options {
            match_games: &args.wdl_games,
            player: &args.wdl_player,
            table: args.wdl_table.as_deref(),
        };
        return wdl::run(&config, &start, &options);
    }
    let (mut samples, endings) = play_data(&args, &config, &start)?;
    if let Some((_, spec)) = &teacher {
        label_with_teacher(&args, &config, spec, &mut samples)?;
    }
    let report = fit_weights(&args, &samples, &start);
    let mut header = weights_header(&args, &teacher, &report, &endings);
    if args.match_games > 0 {
        header.push(match_fitted_against_start(
            &args,
            &config,
            &report.weights,
            &start,
        ));
    }
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    write(&args.out, &weights_source(&report.weights, &header))?;
    println!("wrote {}", args.out.display());
    Ok(())
}

/// `--write-current`: the committed weights with the `--note` lines.
fn write_current(args: &Args, start: &Weights) -> Result<()> {
    let notes: Vec<&str> = args.note.iter().map(String::as_str).collect();
    write(&args.out, &weights_source(start, &notes))?;
    println!("wrote the committed weights to {}", args.out.display());
    Ok(())
}

/// The options' values, checked before any game is played.
fn check(args: &Args) -> Result<()> {
    if args.games == 0 || args.nodes == 0 {
        bail!("--games and --nodes must be positive");
    }
    if !(0.0..=1.0).contains(&args.teacher_weight) {
        bail!("--teacher-weight must lie between 0 and 1");
    }
    for name in &args.fit_only {
        if !GROUPS.iter().any(|g| g.linear && g.name == name) {
            let names: Vec<&str> = GROUPS.iter().filter(|g| g.linear).map(|g| g.name).collect();
            bail!(
                "--fit-only: {name:?} is not a fittable weight group; they are: {}",
                names.join(", ")
            );
        }
    }
    if args.teacher.is_some() && args.teacher_depth == 0 {
        bail!("--teacher-depth must be positive");
    }
    Ok(())
}

/// The teacher, kept as typed as well, so the weights file records the
/// options too.
fn parse_teacher(args: &Args) -> Result<Teacher<'_>> {
    Ok(match &args.teacher {
        Some(text) => Some((text.as_str(), text.parse::<EngineSpec>()?)),
        None => None,
    })
}

fn self_play_config(args: &Args) -> SelfPlay {
    SelfPlay {
        games: args.games,
        nodes: args.nodes,
        seed: args.seed,
        opening_plies: args.opening_plies,
        threads: xiangqi_parallel::worker_count(args.threads),
        ..SelfPlay::default()
    }
}

/// Self-play and its quiet positions.
fn play_data(args: &Args, config: &SelfPlay, start: &Weights) -> Result<(Vec<Sample>, Endings)> {
    let progress = bar(args.games as u64, "self-play");
    let (samples, endings) = generate_with_endings(config, start, |done, positions| {
        progress.set_position(done as u64);
        progress.set_message(format!("{positions} quiet positions"));
    });
    progress.finish_and_clear();
    if samples.is_empty() {
        bail!("self-play gave no quiet position; play more games");
    }
    println!(
        "data: {} games, {} quiet positions (seed {}, {} nodes a move)",
        args.games,
        samples.len(),
        args.seed,
        args.nodes
    );
    println!("endings: {endings}");
    Ok((samples, endings))
}

/// `--teacher`: the stronger engine's score of every position.
fn label_with_teacher(
    args: &Args,
    config: &SelfPlay,
    spec: &EngineSpec,
    samples: &mut [Sample],
) -> Result<()> {
    let progress = bar(samples.len() as u64, "teacher");
    teacher::label(samples, spec, args.teacher_depth, config.threads, |done| {
        progress.set_position(done as u64)
    })?;
    progress.finish_and_clear();
    println!(
        "teacher: {} scored {} positions at depth {}",
        spec.command,
        samples.len(),
        args.teacher_depth
    );
    Ok(())
}

/// Texel's fit of the weights, with its progress and summary.
fn fit_weights(args: &Args, samples: &[Sample], start: &Weights) -> FitReport {
    let options = FitOptions {
        epochs: args.epochs,
        learning_rate: args.learning_rate,
        teacher_weight: if args.teacher.is_some() {
            args.teacher_weight
        } else {
            0.0
        },
        only: args.fit_only.clone(),
        ..FitOptions::default()
    };
    let progress = bar(args.epochs as u64, "fit");
    let report = fit(samples, start, &options, |epoch, error| {
        progress.set_position(epoch as u64);
        progress.set_message(format!("error {error:.6}"));
    });
    progress.finish_and_clear();
    println!(
        "fit: mean squared error {:.6} (K {:.6}) -> {:.6} (K {:.6}) over {} positions, {} epochs",
        report.error_before,
        report.k_before,
        report.error_after,
        report.k_after,
        report.positions,
        args.epochs
    );
    if let Some(k) = report.k_teacher {
        println!(
            "targets: {} of {} positions blend the teacher's winning chance (weight {}, teacher's K {:.6})",
            report.taught, report.positions, args.teacher_weight, k
        );
    }
    report
}

/// The weights file's header: the command that refits it, the data and
/// the fit.
fn weights_header(
    args: &Args,
    teacher: &Teacher<'_>,
    report: &FitReport,
    endings: &Endings,
) -> Vec<String> {
    let mut command = format!(
        "xiangqi tune --games {} --nodes {} --seed {} --opening-plies {} --epochs {} --learning-rate {}",
        args.games, args.nodes, args.seed, args.opening_plies, args.epochs, args.learning_rate
    );
    if let Some((typed, _)) = teacher {
        command.push_str(&format!(
            " --teacher \"{typed}\" --teacher-depth {} --teacher-weight {}",
            args.teacher_depth, args.teacher_weight
        ));
    }
    if !args.fit_only.is_empty() {
        command.push_str(&format!(" --fit-only {}", args.fit_only.join(",")));
    }
    let mut header = vec![
        format!("fitted by `{command}`"),
        format!(
            "data: {} self-play games, {} quiet positions",
            args.games, report.positions
        ),
        format!("endings: {endings}"),
        format!(
            "fit: mean squared error {:.6} -> {:.6}",
            report.error_before, report.error_after
        ),
    ];
    if !args.fit_only.is_empty() {
        header.push(
            "the other groups kept the values committed before this fit (see git history)"
                .to_string(),
        );
    }
    header
}

/// A fixed-node match of the fitted weights against the starting ones on
/// other openings than the data's; returns (and prints) its result line.
fn match_fitted_against_start(
    args: &Args,
    config: &SelfPlay,
    fitted: &Weights,
    start: &Weights,
) -> String {
    let match_config = SelfPlay {
        games: args.match_games,
        // Other openings than the data's.
        seed: args.seed.wrapping_add(1_000_003),
        ..config.clone()
    };
    let progress = bar(args.match_games.div_ceil(2) as u64 * 2, "match");
    let result = play_match(&match_config, fitted, start, |done, t| {
        progress.set_position(done as u64);
        progress.set_message(format!("W/D/L {}/{}/{}", t.wins, t.draws, t.losses));
    });
    progress.finish_and_clear();
    let t = tally(&result);
    let line = format!(
        "match fitted vs start ({} nodes, seed {}): W/D/L {}/{}/{} ({} stopped at the ply cap), score {:.1}%, Elo {} ± {}",
        args.nodes,
        match_config.seed,
        t.wins,
        t.draws,
        t.losses,
        result.capped,
        t.score().unwrap_or(0.5) * 100.0,
        format_elo(t.elo().unwrap_or(0.0)),
        format_error(t.elo_error().unwrap_or(f64::INFINITY))
    );
    println!("{line}");
    line
}
