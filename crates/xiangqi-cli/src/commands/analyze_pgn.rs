//! `xiangqi analyze --pgn IN -o OUT (--movetime MS|--depth N|--nodes N)
//! [--engine SPEC]`: reviews every game of a PGN file with an engine
//! (default: this program's own engine over UCI) and writes each game back
//! with `[%eval …]` comments, `?!`/`?`/`??` and the engine's line for
//! mistakes. The review is `xiangqi-engine-client`'s `annotate` module; this
//! only reads, writes and reports progress.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Write};
use std::path::Path;

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::json;
use xiangqi_engine_client::annotate::pgn::{annotate_game, AnnotateError};
use xiangqi_engine_client::annotate::{Judgement, ReviewOptions};
use xiangqi_engine_client::{Engine, EngineSpec, Limit, Protocol, SearchOptions};
use xiangqi_notation::pgn::{write_game_to, Reader, WriteOptions};

use crate::common::print_json;

/// What `analyze --pgn` needs from the command line.
pub struct AnnotateArgs<'a> {
    pub input: &'a Path,
    pub output: &'a Path,
    pub limit: Limit,
    pub engine: Option<&'a str>,
    pub hash_mb: usize,
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
    let mut engine = Engine::start(&spec, None)
        .with_context(|| format!("engine {:?} ({})", spec.command, spec.protocol.name()))?;
    if !engine.supports(args.limit) {
        bail!(
            "engine {:?}: {} engines cannot search {}",
            spec.command,
            spec.protocol.name(),
            args.limit.describe()
        );
    }
    let mut out: Box<dyn Write> = if args.output == Path::new("-") {
        Box::new(io::stdout().lock())
    } else {
        Box::new(BufWriter::new(File::create(args.output).with_context(
            || format!("cannot create -o {}", args.output.display()),
        )?))
    };
    let options = ReviewOptions::new(SearchOptions::new(args.limit));
    let bar = progress(len);
    let mut reader = Reader::new(BufReader::with_capacity(1 << 16, file));
    let (mut games, mut skipped, mut positions) = (0usize, 0usize, 0usize);
    let mut judged = [0usize; 3];
    let mut index = 0usize;
    while let Some(next) = reader.next() {
        index += 1;
        bar.set_position(reader.bytes_read());
        let mut game = match next {
            Ok(game) => game,
            Err(e) => {
                // Not `bar.println`: that is dropped when stderr is no terminal.
                bar.suspend(|| eprintln!("warning: game {index} skipped: {e}"));
                skipped += 1;
                continue;
            }
        };
        let reviewed = annotate_game(&mut engine, &mut game, &options, |done, total| {
            bar.set_message(format!("game {index}: position {done}/{total}"));
        });
        match reviewed {
            Ok(reviews) => {
                positions += reviews.len() + 1;
                for r in &reviews {
                    match r.judgement {
                        Some(Judgement::Inaccuracy) => judged[0] += 1,
                        Some(Judgement::Mistake) => judged[1] += 1,
                        Some(Judgement::Blunder) => judged[2] += 1,
                        None => {}
                    }
                }
            }
            Err(AnnotateError::Game(e)) => {
                bar.suspend(|| eprintln!("warning: game {index} skipped: {e}"));
                skipped += 1;
                continue;
            }
            Err(AnnotateError::Engine(e)) => {
                bar.finish_and_clear();
                bail!("game {index}: engine {:?}: {e}", engine.name());
            }
        }
        write_game_to(&mut out, &game, &WriteOptions::new(game.notation))
            .context("cannot write -o")?;
        games += 1;
    }
    bar.finish_and_clear();
    out.flush().context("cannot write -o")?;
    engine.quit();
    if args.json {
        print_json(&json!({
            "games": games,
            "skipped": skipped,
            "positions": positions,
            "inaccuracies": judged[0],
            "mistakes": judged[1],
            "blunders": judged[2],
        }))?;
    } else {
        eprintln!(
            "annotated {games} game(s), {positions} positions; {} ?!, {} ?, {} ??; {skipped} skipped",
            judged[0], judged[1], judged[2]
        );
    }
    Ok(())
}
