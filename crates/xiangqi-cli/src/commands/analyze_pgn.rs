//! `xiangqi analyze --pgn IN -o OUT (--movetime MS|--depth N|--nodes N)
//! [--engine SPEC] [--jobs N]`: reviews every game of a game file (PGN or
//! any format `xiangqi-gamefile` reads; written back as PGN) with an
//! engine (default: this program's own engine over UCI) and writes each
//! game back with `[%eval …]` comments, `?!`/`?`/`??` and the engine's line
//! for mistakes. The review is `xiangqi-engine-client`'s `annotate` module;
//! this only reads, hands games to `--jobs` engine processes (one thread
//! each), writes them back in input order and reports progress.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::sync::mpsc;
use std::thread;

use anyhow::{anyhow, bail, Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::json;
use xiangqi_engine_client::annotate::pgn::{annotate_game, AnnotateError};
use xiangqi_engine_client::annotate::{Judgement, MoveReview, ReviewOptions};
use xiangqi_engine_client::{Engine, EngineSpec, Limit, Protocol, SearchOptions};
use xiangqi_gamefile::pgn::{write_game, WriteOptions};
use xiangqi_gamefile::Game;
use xiangqi_gamefile::Games;

use crate::common::{print_json, start_engine as start_named_engine};

/// What `analyze --pgn` needs from the command line.
pub struct AnnotateArgs<'a> {
    pub input: &'a Path,
    pub output: &'a Path,
    pub limit: Limit,
    pub engine: Option<&'a str>,
    pub hash_mb: usize,
    /// Engine processes working at once (0: one per core).
    pub jobs: usize,
    pub json: bool,
}

/// This program's own engine, driven over UCI like any other.
fn own_engine(hash_mb: usize) -> Result<EngineSpec> {
    let exe = std::env::current_exe().context("cannot find this program to run its engine")?;
    let argv = vec![
        exe.display().to_string(),
        "uci".to_string(),
        "--hash".to_string(),
        hash_mb.to_string(),
    ];
    Ok(EngineSpec::new(argv, Protocol::Uci))
}

fn progress(len: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "analyze [{elapsed_precise}<{eta_precise}] {wide_bar} {bytes}/{total_bytes} {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// A worker's answer for game `index` (1-based): the annotated PGN text
/// and its review, or why the game was skipped, or an engine failure.
enum Done {
    Annotated(String, Vec<MoveReview>),
    Skipped(String),
    EngineFailed(String),
}

fn start_engine(spec: &EngineSpec, limit: Limit) -> Result<Engine> {
    let engine = start_named_engine(spec, None)?;
    if !engine.supports(limit) {
        bail!(
            "engine {:?}: {} engines cannot search {}",
            spec.command,
            spec.protocol.name(),
            limit.describe()
        );
    }
    Ok(engine)
}

fn review(engine: &mut Engine, mut game: Game, options: &ReviewOptions) -> Done {
    match annotate_game(engine, &mut game, options, |_, _| {}) {
        Ok(reviews) => match write_game(&game, &WriteOptions::new(game.notation)) {
            Ok(text) => Done::Annotated(text, reviews),
            Err(e) => Done::Skipped(format!("cannot write it: {e}")),
        },
        Err(AnnotateError::Game(e)) => Done::Skipped(e.to_string()),
        Err(AnnotateError::Engine(e)) => {
            Done::EngineFailed(format!("engine {:?}: {e}", engine.name()))
        }
    }
}

#[derive(Default)]
struct Totals {
    games: usize,
    skipped: usize,
    positions: usize,
    /// ?!, ?, ??
    judged: [usize; 3],
}

impl Totals {
    fn add(&mut self, reviews: &[MoveReview]) {
        self.games += 1;
        self.positions += reviews.len() + 1;
        for r in reviews {
            match r.judgement {
                Some(Judgement::Inaccuracy) => self.judged[0] += 1,
                Some(Judgement::Mistake) => self.judged[1] += 1,
                Some(Judgement::Blunder) => self.judged[2] += 1,
                None => {}
            }
        }
    }
}

pub fn run(args: AnnotateArgs<'_>) -> Result<()> {
    if args.json && args.output == Path::new("-") {
        bail!("--json prints a summary on stdout: write the games to a file with -o FILE");
    }
    let spec = match args.engine {
        Some(text) => text.parse::<EngineSpec>()?,
        None => own_engine(args.hash_mb)?,
    };
    let file = File::open(args.input)
        .with_context(|| format!("cannot open --pgn {}", args.input.display()))?;
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    let jobs = xiangqi_parallel::worker_count(args.jobs);
    // Start every engine now, so a wrong command is an error before any work.
    let engines = (0..jobs)
        .map(|_| start_engine(&spec, args.limit))
        .collect::<Result<Vec<_>>>()?;
    let mut out: Box<dyn Write> = if args.output == Path::new("-") {
        Box::new(io::stdout().lock())
    } else {
        Box::new(BufWriter::new(File::create(args.output).with_context(
            || format!("cannot create -o {}", args.output.display()),
        )?))
    };
    let options = ReviewOptions::new(SearchOptions::new(args.limit));
    let bar = progress(len);
    // Any game-file format, as every other command that reads games.
    let mut reader = Games::open(args.input, None)?;
    let mut totals = Totals::default();

    let outcome: Result<()> = thread::scope(|scope| {
        let (work_tx, work_rx) = mpsc::channel::<(usize, Game)>();
        let work_rx = std::sync::Arc::new(std::sync::Mutex::new(work_rx));
        let (done_tx, done_rx) = mpsc::channel::<(usize, Done)>();
        for mut engine in engines {
            let (work_rx, done_tx, options) = (work_rx.clone(), done_tx.clone(), &options);
            scope.spawn(move || {
                loop {
                    let next = work_rx.lock().map(|rx| rx.recv());
                    let Ok(Ok((index, game))) = next else { break };
                    let done = review(&mut engine, game, options);
                    let failed = matches!(done, Done::EngineFailed(_));
                    if done_tx.send((index, done)).is_err() || failed {
                        break;
                    }
                }
                engine.quit();
            });
        }
        drop(done_tx);
        // Games in flight are bounded, so the reorder buffer is too.
        let in_flight_max = 2 * jobs;
        let (mut sent, mut written, mut in_workers) = (0usize, 0usize, 0usize);
        let mut ready: BTreeMap<usize, Done> = BTreeMap::new();
        let mut input_done = false;
        let mut work_tx = Some(work_tx);
        loop {
            while !input_done && sent - written < in_flight_max {
                match reader.next() {
                    None => {
                        input_done = true;
                        work_tx = None;
                    }
                    Some(item) => {
                        sent += 1;
                        match item {
                            Ok(game) => {
                                let tx = work_tx.as_ref().expect("open while reading");
                                if tx.send((sent, game)).is_err() {
                                    return Err(anyhow!("every engine stopped"));
                                }
                                in_workers += 1;
                            }
                            Err(e) => {
                                ready.insert(sent, Done::Skipped(e.to_string()));
                            }
                        }
                    }
                }
                bar.set_position(reader.bytes_read());
            }
            // Write what is next in input order.
            while let Some(done) = ready.remove(&(written + 1)) {
                written += 1;
                match done {
                    Done::Annotated(text, reviews) => {
                        out.write_all(text.as_bytes()).context("cannot write -o")?;
                        totals.add(&reviews);
                    }
                    Done::Skipped(why) => {
                        // Not `bar.println`: that is dropped when stderr is no terminal.
                        bar.suspend(|| eprintln!("warning: game {written} skipped: {why}"));
                        totals.skipped += 1;
                    }
                    Done::EngineFailed(why) => bail!("game {written}: {why}"),
                }
                bar.set_message(format!("{written} games done"));
            }
            if input_done && written == sent {
                return Ok(());
            }
            if in_workers == 0 {
                // Everything read so far was unreadable: read on.
                continue;
            }
            in_workers -= 1;
            // A failure waits its turn like any answer, so the error named
            // is the first in input order, whatever engine failed first.
            match done_rx.recv() {
                Ok((index, done)) => {
                    ready.insert(index, done);
                }
                Err(_) => {
                    if let Some((index, Done::EngineFailed(why))) = ready
                        .iter()
                        .find(|(_, done)| matches!(done, Done::EngineFailed(_)))
                    {
                        bail!("game {index}: {why}");
                    }
                    bail!("every engine stopped before the games were done")
                }
            }
        }
    });
    bar.finish_and_clear();
    outcome?;
    out.flush().context("cannot write -o")?;
    let Totals {
        games,
        skipped,
        positions,
        judged,
    } = totals;
    if args.json {
        print_json(&json!({
            "games": games,
            "skipped": skipped,
            "positions": positions,
            "inaccuracies": judged[0],
            "mistakes": judged[1],
            "blunders": judged[2],
            "jobs": jobs,
        }))?;
    } else {
        eprintln!(
            "annotated {games} game(s), {positions} positions with {jobs} engine(s); {} ?!, {} ?, {} ??; {skipped} skipped",
            judged[0], judged[1], judged[2]
        );
    }
    Ok(())
}
