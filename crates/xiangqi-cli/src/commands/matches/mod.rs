//! `xiangqi match`: plays two engines against each other and measures the
//! difference in strength.
//!
//! Engines are separate processes driven by `xiangqi-engine-client` (UCI,
//! UCCI or xboard); each game ([`game`]) is judged move by move by
//! `xiangqi-adjudication` under a rule preset (default: online, with perpetual
//! check and chase); the results become W/D/L, score and an Elo difference
//! with its 95% error bar (`xiangqi_rating::match_stats`, written by [`elo`]),
//! pentanomial counts of the game pairs and, with `--sprt`, a sequential test
//! that stops the match when it decides ([`pairs`]) and, with `--pgn`, games
//! appended to a PGN file as they finish, in round order ([`pgn`]); the games
//! are played on `xiangqi_parallel`'s ordered map, one engine pair per thread.
//! See `docs/match.md`.

pub(crate) mod elo;
mod game;
mod openings;
mod pairs;
mod pgn;

use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{anyhow, bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{json, Value};
use xiangqi_adjudication::{Preset, RuleSet};
use xiangqi_core::Position;

use crate::common::{print_json, start_engine};
use crate::exit::Failed;
use elo::{finite, format_elo_and_error};
use game::{run_game, GameConfig, GameSetup, PlayedGame};
use openings::{random_openings, read_openings, Opening};
use pairs::{PairCounts, SprtRun};
use xiangqi_engine_client::{Clock, Engine, EngineSpec, Limit, SearchOptions, TrafficLog};
use xiangqi_rating::match_stats::{Sprt, SprtVerdict, Tally};

/// Reads `--clock BASE[+INC]` (seconds, decimals allowed): the one clock
/// option of every command (`crate::options::ClockArg`).
fn parse_clock(text: &str) -> Result<Clock, String> {
    let clock = crate::options::ClockArg::parse(text)?;
    Ok(Clock::new(clock.base, clock.increment))
}

#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("limit").required(true).args(["tc", "clock", "depth", "nodes"])))]
pub struct Args {
    /// An engine: `CMD[,proto=uci|ucci|xboard][,ranks=0|1][,option=Name=Value]...[,name=NAME]`.
    /// Give it twice; results are from the first engine's side.
    #[arg(long = "engine", value_name = "SPEC", required = true)]
    engines: Vec<String>,
    /// Number of games (colours alternate over each opening); with --sprt
    /// the most games the test may take (default 20000), an even number.
    #[arg(long)]
    games: Option<usize>,
    /// Run a sequential probability ratio test over the game pairs and stop
    /// when it decides: `elo0=0 elo1=5 [alpha=0.05] [beta=0.05]
    /// [model=normalized|logistic]` (one word or several).
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    sprt: Option<Vec<String>>,
    /// Milliseconds per move.
    #[arg(long, value_name = "MS")]
    tc: Option<u64>,
    /// A game clock: BASE+INC in seconds (`10+0.1`), each side's time and
    /// the increment per move; sent as `wtime btime winc binc` (UCI).
    /// An engine whose move comes after its time ran out loses on time.
    #[arg(long, value_name = "BASE+INC", value_parser = parse_clock)]
    clock: Option<Clock>,
    /// Fixed search depth per move.
    #[arg(long)]
    depth: Option<u32>,
    /// Fixed node count per move (UCI and UCCI engines).
    #[arg(long)]
    nodes: Option<u64>,
    /// Openings, one per line: a FEN, `FEN moves …`, or moves from the start in any notation.
    #[arg(long, value_name = "FILE", conflicts_with = "random_openings")]
    openings: Option<PathBuf>,
    /// Start each pair of games after K random legal plies without captures.
    #[arg(long, value_name = "K")]
    random_openings: Option<u32>,
    /// Seed of --random-openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at the same time, each in its own pair of engine
    /// processes (`--concurrency` is its former name).
    #[arg(
        long = "jobs",
        short = 'j',
        alias = "concurrency",
        value_name = "N",
        default_value_t = 1
    )]
    concurrency: usize,
    /// Append the games to this PGN file (created when missing) in round
    /// order, each as soon as it and every earlier round are over.
    #[arg(long, value_name = "OUT")]
    pgn: Option<PathBuf>,
    /// With --tc: extra milliseconds an engine may take for a move before it loses on time.
    #[arg(long, value_name = "MS", default_value_t = 500)]
    margin: u64,
    /// With --depth or --nodes: milliseconds an engine may take for a move before it loses on time.
    #[arg(long, value_name = "MS", default_value_t = 60_000)]
    move_timeout: u64,
    /// Rule preset the games are judged by: online, asian, pikafish, fairy or plain.
    #[arg(long, default_value_t = Preset::Online)]
    rules: Preset,
    /// Write every line exchanged with the engines to this file (for debugging engines).
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    /// Machine-readable summary on stdout.
    #[arg(long)]
    json: bool,
}

/// Results from the first engine's side.
#[derive(Default)]
struct Summary {
    total: Tally,
    as_red: Tally,
    as_black: Tally,
    reasons: BTreeMap<String, u32>,
    games: Vec<PlayedGame>,
    pairs: PairCounts,
    sprt: Option<SprtRun>,
}

impl Summary {
    /// Counts a game; true when it completed a counted pair.
    fn add(&mut self, game: PlayedGame) -> bool {
        let side = if game.setup.first_is_red {
            &mut self.as_red
        } else {
            &mut self.as_black
        };
        for t in [&mut self.total, side] {
            match game.first_engine_result() {
                Some(1) => t.wins += 1,
                Some(0) => t.draws += 1,
                Some(_) => t.losses += 1,
                None => {}
            }
        }
        *self.reasons.entry(game.reason.clone()).or_default() += 1;
        let pair_done = self
            .pairs
            .add_game(game.setup.round, game.first_engine_result());
        if pair_done {
            if let Some(sprt) = self.sprt.as_mut() {
                sprt.update(&self.pairs);
            }
        }
        self.games.push(game);
        pair_done
    }
}

/// The error that ends the map of games once the SPRT has decided: not a
/// failure, the games still in flight are finished and left out.
#[derive(Debug)]
struct TestDecided;

impl std::fmt::Display for TestDecided {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the SPRT decided")
    }
}

impl std::error::Error for TestDecided {}

/// A match writes to engines that may have died: writing to a closed pipe
/// must be an error the runner scores (a crash), not a SIGPIPE that kills it
/// (`main` restores the default disposition for the filter commands).
fn ignore_sigpipe() {
    #[cfg(unix)]
    // SAFETY: changing a signal disposition before this command starts any thread.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
}

/// SIGPIPE back to its default, as `main` sets it for every other command.
fn default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: changing a signal disposition; no engine pipe is written after this.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// A worker's pair of engine processes (`run_game` restarts one that
/// crashed), asked to quit when the map is over however it ends.
struct EnginePair([Option<Engine>; 2]);

impl Drop for EnginePair {
    fn drop(&mut self) {
        for engine in self.0.iter_mut().filter_map(Option::take) {
            engine.quit();
        }
    }
}

/// The search limit of `--tc`, `--clock`, `--depth` or `--nodes`.
fn search_limit(args: &Args) -> Result<Limit> {
    Ok(match (args.tc, args.depth, args.nodes) {
        (Some(0), _, _) => bail!("--tc must be at least 1 ms"),
        (Some(ms), _, _) => Limit::move_time(Duration::from_millis(ms)),
        _ if args.clock.is_some() => Limit::clock(args.clock.expect("checked")),
        (_, Some(d), _) if d == 0 || d > 100 => bail!("--depth must be between 1 and 100, got {d}"),
        (_, Some(d), _) => Limit::depth(d),
        (_, _, Some(0)) => bail!("--nodes must be at least 1"),
        (_, _, Some(n)) => Limit::nodes(n),
        _ => bail!("one of --tc, --depth or --nodes is required"),
    })
}

/// Every game's setup, colours alternating over each opening, and how the
/// openings are described in the summary.
fn game_setups(args: &Args, games: usize, rules: &RuleSet) -> Result<(Vec<GameSetup>, String)> {
    let pairs = games.div_ceil(2);
    let (openings, opening_note) = match (&args.openings, args.random_openings) {
        (Some(path), _) => {
            let o = read_openings(path, rules)?;
            let note = format!("{} from {}", o.len(), path.display());
            (o, note)
        }
        (None, Some(k)) => (
            random_openings(pairs, k, args.seed, rules),
            format!("{pairs} random ({k} plies, seed {})", args.seed),
        ),
        (None, None) => (vec![Opening::startpos()], "start position".to_string()),
    };
    let setups = (0..games)
        .map(|g| {
            let opening_index = (g / 2) % openings.len();
            GameSetup {
                round: g + 1,
                opening_index,
                opening: openings[opening_index].clone(),
                first_is_red: g % 2 == 0,
            }
        })
        .collect();
    Ok((setups, opening_note))
}

fn game_config(args: &Args, limit: Limit, rules: RuleSet) -> Result<GameConfig> {
    let log = match args.log.as_deref() {
        Some(path) => Some(
            TrafficLog::create(path)
                .with_context(|| format!("cannot create --log {}", path.display()))?,
        ),
        None => None,
    };
    Ok(GameConfig {
        search: SearchOptions {
            limit,
            multipv: 1,
            timeout: match limit {
                Limit {
                    move_time: Some(t), ..
                } => Some(t + Duration::from_millis(args.margin)),
                // The engine client waits as long as the mover's clock allows.
                Limit { clock: Some(_), .. } => None,
                _ => Some(Duration::from_millis(args.move_timeout)),
            },
        },
        rules,
        log,
    })
}

/// Starts a pair of engines per game played at once, so a wrong command is
/// an error, not a lost match, and checks they can play the openings.
fn start_pairs(
    jobs: usize,
    specs: &[EngineSpec; 2],
    setups: &[GameSetup],
    log: Option<&TrafficLog>,
) -> Result<(Vec<EnginePair>, Started)> {
    let mut pairs = Vec::with_capacity(jobs);
    for _ in 0..jobs {
        let first = start_engine(&specs[0], log)?;
        let second = start_engine(&specs[1], log)?;
        pairs.push(EnginePair([Some(first), Some(second)]));
    }
    let started = [0, 1].map(|i| {
        let e = pairs[0].0[i].as_ref().expect("just started");
        (e.name().to_string(), e.ranks_from_one())
    });
    let set_up = setups
        .iter()
        .any(|s| s.opening.start != Position::startpos());
    for engine in pairs[0].0.iter().flatten() {
        if set_up && !engine.can_set_up_positions() {
            bail!(
                "engine {:?} (xboard without setboard) can only play from the start position, \
                 but the openings set up other positions",
                engine.spec().command
            );
        }
    }
    Ok((pairs, started))
}

fn progress_bar(games: usize) -> ProgressBar {
    let bar = ProgressBar::new(games as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "match {pos}/{len} games [{elapsed_precise}<{eta_precise}] {wide_bar} {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// Plays every game on one thread per engine pair and takes them in round
/// order: appended to `--pgn`, shown above the progress bar, summed up;
/// with a test, its line printed after each pair (on stdout, on stderr with
/// `--json`) and the games stopped once it decides.
fn play_games(
    pairs: Vec<EnginePair>,
    setups: Vec<GameSetup>,
    specs: &[EngineSpec; 2],
    config: &GameConfig,
    output: (Option<File>, bool),
    sprt: Option<Sprt>,
    bar: &ProgressBar,
) -> Result<Summary> {
    let (mut pgn_out, json) = output;
    let limit = config.search.limit;
    let date = pgn::today();
    let mut summary = Summary {
        sprt: sprt.map(SprtRun::new),
        ..Summary::default()
    };
    let played = xiangqi_parallel::ordered_map_with(
        pairs,
        setups.into_iter(),
        |pair, setup| run_game(&mut pair.0, specs, setup, config),
        |game| -> Result<()> {
            if let Some(out) = pgn_out.as_mut() {
                let text = pgn::game_pgn(&game, limit, &date)?;
                out.write_all(text.as_bytes())
                    .and_then(|()| out.flush())
                    .context("cannot write --pgn")?;
            }
            bar.println(format!(
                "game {}: {} - {} {} ({})",
                game.setup.round,
                game.names[0],
                game.names[1],
                game.outcome.result(),
                game.reason
            ));
            let pair_done = summary.add(game);
            let t = summary.total;
            bar.set_message(format!("+{} ={} -{}", t.wins, t.draws, t.losses));
            bar.inc(1);
            if let Some(run) = summary.sprt.as_ref().filter(|_| pair_done) {
                let line = run.progress_line(&summary.pairs);
                bar.suspend(|| {
                    if json {
                        eprintln!("{line}");
                    } else {
                        println!("{line}");
                    }
                });
            }
            match &summary.sprt {
                Some(run) if run.verdict != SprtVerdict::Continue => Err(anyhow!(TestDecided)),
                _ => Ok(()),
            }
        },
    );
    match played {
        Err(e) if !e.is::<TestDecided>() => Err(e),
        _ => Ok(summary),
    }
}

/// The test of `--sprt`, its words joined: `None` without it.
fn sprt_settings(args: &Args) -> Result<Option<Sprt>> {
    let Some(words) = &args.sprt else {
        return Ok(None);
    };
    let sprt = words
        .join(" ")
        .parse::<Sprt>()
        .map_err(|e| anyhow!("--sprt: {e}"))?;
    Ok(Some(sprt))
}

/// The number of games: `--games`, else 2, or 20000 as a test's limit.
fn game_count(args: &Args, sprt: Option<&Sprt>) -> Result<usize> {
    let games = args
        .games
        .unwrap_or(if sprt.is_some() { 20_000 } else { 2 });
    if games == 0 {
        bail!("--games must be at least 1");
    }
    if sprt.is_some() && games % 2 == 1 {
        bail!("--games must be even with --sprt (the test counts game pairs), got {games}");
    }
    Ok(games)
}

pub fn run(args: Args) -> Result<()> {
    ignore_sigpipe();
    if args.engines.len() != 2 {
        bail!(
            "--engine must be given exactly twice, got {}",
            args.engines.len()
        );
    }
    let specs: [EngineSpec; 2] = [args.engines[0].parse()?, args.engines[1].parse()?];
    let sprt = sprt_settings(&args)?;
    let games = game_count(&args, sprt.as_ref())?;
    let limit = search_limit(&args)?;
    for spec in &specs {
        if spec.protocol == xiangqi_engine_client::Protocol::Xboard && limit.nodes.is_some() {
            bail!("--engine {:?}: xboard engines cannot search a fixed node count; use --tc or --depth", spec.command);
        }
    }
    let rules = RuleSet::preset(args.rules);
    let (setups, opening_note) = game_setups(&args, games, &rules)?;
    let config = game_config(&args, limit, rules)?;
    let jobs = args.concurrency.clamp(1, games);
    let (pairs, started) = start_pairs(jobs, &specs, &setups, config.log.as_ref())?;
    let pgn_out = match &args.pgn {
        Some(path) => Some(pgn::open_for_append(path)?),
        None => None,
    };
    let bar = progress_bar(games);
    let output = (pgn_out, args.json);
    let summary = play_games(pairs, setups, &specs, &config, output, sprt, &bar);
    bar.finish_and_clear();
    let summary = summary?;
    // The engines are gone (their pairs dropped with the map): the summary
    // goes to stdout as any filter's output does, so a reader that stops
    // early (`| head -3`) ends the command quietly instead of a failed print.
    default_sigpipe();
    if args.json {
        print_json(&json_summary(
            &summary,
            &specs,
            &started,
            limit,
            &opening_note,
        ))?;
    } else {
        print_summary(&summary, &specs, &started, limit, &opening_note);
    }
    sprt_status(&summary)
}

/// The exit status of a test (docs/cli.md): 0 when H1 is accepted (or
/// without a test), 1 when H0 is, 3 when the game limit came first.
fn sprt_status(summary: &Summary) -> Result<()> {
    let Some(run) = &summary.sprt else {
        return Ok(());
    };
    match run.verdict {
        SprtVerdict::AcceptH1 => Ok(()),
        SprtVerdict::AcceptH0 => {
            Err(Failed::new(1, format!("SPRT: H0 accepted ({})", run.describe_llr())).into())
        }
        SprtVerdict::Continue => Err(Failed::new(
            3,
            format!(
                "SPRT: inconclusive at the game limit ({})",
                run.describe_llr()
            ),
        )
        .into()),
    }
}

fn tally_json(t: &Tally) -> Value {
    json!({"wins": t.wins, "draws": t.draws, "losses": t.losses})
}

/// Each engine's name and whether it numbers ranks 1-10.
type Started = [(String, bool); 2];

fn json_summary(
    s: &Summary,
    specs: &[EngineSpec; 2],
    started: &Started,
    limit: Limit,
    openings: &str,
) -> Value {
    let engines: Vec<Value> = specs
        .iter()
        .zip(started)
        .map(|(spec, (name, from_one))| {
            json!({
                "name": name,
                "command": spec.command,
                "protocol": spec.protocol.name(),
                "ranks": if *from_one { "1-10" } else { "0-9" },
            })
        })
        .collect();
    let limit = match limit {
        // One part at a time: the match runner sets one limit kind.
        Limit {
            move_time: Some(t), ..
        } => json!({"movetime_ms": t.as_millis() as u64}),
        Limit { depth: Some(d), .. } => json!({"depth": d}),
        Limit { nodes: Some(n), .. } => json!({"nodes": n}),
        Limit { clock: Some(c), .. } => json!({
            "clock_base_ms": c.red.as_millis() as u64,
            "clock_increment_ms": c.red_increment.as_millis() as u64,
        }),
        _ => json!({}),
    };
    let results: Vec<Value> = s
        .games
        .iter()
        .map(|g| {
            json!({
                "round": g.setup.round,
                "red": g.names[0],
                "black": g.names[1],
                "first_engine_red": g.setup.first_is_red,
                "opening_index": g.setup.opening_index,
                "opening": g.setup.opening.describe(),
                "result": g.outcome.result(),
                "reason": g.reason,
                "plies": g.moves.len(),
                "detail": g.detail,
            })
        })
        .collect();
    let t = &s.total;
    json!({
        "engines": engines,
        "games": t.games(),
        "limit": limit,
        "openings": openings,
        "wins": t.wins,
        "draws": t.draws,
        "losses": t.losses,
        "points": t.points(),
        "score": t.score(),
        "elo": finite(t.elo()),
        "elo_error": finite(t.elo_error()),
        "as_red": tally_json(&s.as_red),
        "as_black": tally_json(&s.as_black),
        "pentanomial": s.pairs.to_json(),
        "sprt": s.sprt.as_ref().map(SprtRun::to_json),
        "reasons": s.reasons,
        "results": results,
    })
}

fn print_summary(
    s: &Summary,
    specs: &[EngineSpec; 2],
    started: &Started,
    limit: Limit,
    openings: &str,
) {
    let t = &s.total;
    for (i, (spec, (name, from_one))) in specs.iter().zip(started).enumerate() {
        let ranks = if *from_one { "1-10" } else { "0-9" };
        println!(
            "Engine {}: {name} ({}, {}, ranks {ranks})",
            i + 1,
            spec.command,
            spec.protocol.name()
        );
    }
    println!(
        "Games: {} at {}, openings: {openings}",
        t.games(),
        limit.describe()
    );
    println!("W/D/L: {}/{}/{} (engine 1)", t.wins, t.draws, t.losses);
    println!(
        "Score: {:.1}/{} ({:.1}%)",
        t.points(),
        t.games(),
        100.0 * t.score().unwrap_or_default()
    );
    match (t.elo(), t.elo_error()) {
        (Some(_), Some(_)) => println!(
            "Elo difference: {} (95%)",
            format_elo_and_error(t.elo(), t.elo_error())
        ),
        _ => println!("Elo difference: n/a"),
    }
    let (r, b) = (&s.as_red, &s.as_black);
    println!(
        "As red: W/D/L {}/{}/{}; as black: W/D/L {}/{}/{}",
        r.wins, r.draws, r.losses, b.wins, b.draws, b.losses
    );
    let reasons: Vec<String> = s.reasons.iter().map(|(k, v)| format!("{k} {v}")).collect();
    println!("Endings: {}", reasons.join(", "));
    println!(
        "Pairs: {}, Ptnml(0-2) {}; {} (95%)",
        s.pairs.counts.pairs(),
        s.pairs.describe(),
        s.pairs.describe_elo()
    );
    if let Some(run) = &s.sprt {
        let sprt = &run.sprt;
        println!(
            "SPRT: elo0={} elo1={} alpha={} beta={} ({} Elo): {}",
            sprt.elo0(),
            sprt.elo1(),
            sprt.alpha(),
            sprt.beta(),
            sprt.model(),
            run.verdict_text()
        );
        println!("{}", run.describe_llr());
    }
}
