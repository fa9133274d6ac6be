//! `xiangqi adjudicate`: who won a game and why (rules.md sections 4-8).
//!
//! ```text
//! xiangqi adjudicate [--fen FEN] [--moves "h2e2 h9g7 …" | --pgn FILE]
//!                    [--rules online|asian|pikafish|fairy|plain]
//!                    [--no-capture-plies N] [--json] [--jobs N]
//! xiangqi adjudicate --clock BASE_MS[+INC_MS] --events FILE [--fen FEN] [--json]
//! ```

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;

use crate::common::{write_json_line, PositionArgs};
use anyhow::{bail, Context, Result};
use serde_json::{json, Value};
use xiangqi_adjudication::{
    GameRecord, OnlineGame, Preset, RuleSet, TimeControl, TimedEvent, Verdict,
};
use xiangqi_gamefile::corpus::read_each_game_with;
use xiangqi_gamefile::{Game, GameFileError};
use xiangqi_gamefile::{ReaderOptions, TextEncoding};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    start: PositionArgs,
    /// The moves in ICCS coordinates, separated by spaces or commas.
    #[arg(long, conflicts_with_all = ["pgn", "events"])]
    moves: Option<String>,
    /// A game file of any format `xiangqi game` reads (PGN, WXF, XQF, CBF,
    /// CBR, CBL); every game in it is judged (one line of output per game).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["fen", "events"])]
    pgn: Option<PathBuf>,
    /// Rule set preset (rules.md section 11).
    #[arg(long, default_value = "online", value_parser = parse_preset)]
    rules: Preset,
    /// Plies without a capture that draw the game (overrides the preset; 0 = never).
    #[arg(long, value_name = "N")]
    no_capture_plies: Option<u32>,
    /// Time control for --events: base time and optional increment, in ms.
    #[arg(long, value_name = "BASE_MS[+INC_MS]", requires = "events")]
    clock: Option<TimeControl>,
    /// Clock and player events, one JSON object per line (needs --clock).
    #[arg(long, value_name = "FILE", requires = "clock")]
    events: Option<PathBuf>,
    /// Machine-readable output: one JSON object per game.
    #[arg(long)]
    json: bool,
    /// With --pgn: the encoding of the games' text (utf-8, utf-16le,
    /// utf-16be, gb18030, big5); default: detected from the file's start.
    #[arg(long, value_name = "NAME", requires = "pgn", value_parser = TextEncoding::from_str)]
    encoding: Option<TextEncoding>,
    /// With --pgn: games judged at once, one thread each; output stays in
    /// input order (0: one per core).
    #[arg(
        long,
        short = 'j',
        value_name = "N",
        default_value_t = 0,
        requires = "pgn"
    )]
    jobs: usize,
}

fn parse_preset(s: &str) -> Result<Preset, String> {
    s.parse()
        .map_err(|e: xiangqi_adjudication::UnknownPresetError| e.to_string())
}

pub fn run(args: Args) -> Result<()> {
    let mut rules = RuleSet::preset(args.rules);
    if let Some(n) = args.no_capture_plies {
        rules.no_capture_limit = (n > 0).then_some(n);
    }
    if let (Some(control), Some(events)) = (args.clock, args.events.as_deref()) {
        return run_clock(&args, rules, control, events);
    }
    if let Some(path) = args.pgn.as_deref() {
        return run_pgn(&args, &rules, path);
    }
    let start = args.start.position()?;
    let record = GameRecord::parse(None, args.moves.as_deref().unwrap_or(""))
        .context("cannot read --moves")?;
    let record = GameRecord::new(start, record.moves);
    let verdict = record.adjudicate(&rules)?;
    print_verdict(&verdict, args.json, Value::Null)
}

/// The stable JSON form of a verdict (field names and values as the
/// adjudication issue lists them), plus the repetition evidence.
fn verdict_json(verdict: &Verdict) -> Value {
    json!({
        "outcome": verdict.outcome.name(),
        "result": verdict.result(),
        "reason": verdict.reason.map(|r| r.code()),
        "ply": verdict.ply,
        "detail": verdict.detail,
        "repetition": verdict.repetition,
    })
}

fn print_verdict(verdict: &Verdict, json_out: bool, extra: Value) -> Result<()> {
    let mut out = io::stdout().lock();
    write_verdict(&mut out, verdict, json_out, extra)?;
    Ok(out.flush()?)
}

fn write_verdict(
    out: &mut impl Write,
    verdict: &Verdict,
    json_out: bool,
    extra: Value,
) -> Result<()> {
    if json_out {
        let mut value = verdict_json(verdict);
        if let (Value::Object(map), Value::Object(more)) = (&mut value, extra) {
            map.extend(more);
        }
        write_json_line(out, &value)
    } else {
        match verdict.reason {
            Some(reason) => writeln!(
                out,
                "{} {} at ply {}: {}",
                verdict.result(),
                reason,
                verdict.ply,
                verdict.detail
            )?,
            None => writeln!(out, "* ongoing after ply {}", verdict.ply)?,
        }
        if let Value::Object(more) = extra {
            if let Some(clocks) = more.get("clocks") {
                writeln!(
                    out,
                    "clocks: red {} ms, black {} ms; rated: {}",
                    clocks["red"],
                    clocks["black"],
                    match more.get("rated").and_then(Value::as_bool) {
                        Some(true) => "yes",
                        Some(false) => "no",
                        None => "not yet decided",
                    }
                )?;
            }
        }
        Ok(())
    }
}

/// What `adjudicate --pgn` writes for one game: stdout text, and the error
/// for stderr when the game could not be judged.
struct Judged {
    stdout: Vec<u8>,
    error: Option<String>,
    /// A game cut at a move that cannot be played is judged on its legal
    /// part; these say so on stderr.
    warnings: Vec<String>,
}

fn judge_game(
    number: usize,
    item: Result<Game, GameFileError>,
    rules: &RuleSet,
    json_out: bool,
) -> Result<Judged> {
    let warnings: Vec<String> = match &item {
        Ok(game) => game.errors.iter().map(|e| e.to_string()).collect(),
        Err(_) => Vec::new(),
    };
    let outcome = item
        .map_err(anyhow::Error::from)
        .and_then(|game| adjudicate_pgn_game(&game, rules));
    let mut stdout = Vec::new();
    let error = match outcome {
        Ok(verdict) => {
            let extra = match warnings.is_empty() {
                true => json!({ "game": number }),
                false => json!({ "game": number, "warnings": warnings }),
            };
            write_verdict(&mut stdout, &verdict, json_out, extra)?;
            None
        }
        Err(e) => {
            let why = format!("{e:#}");
            if json_out {
                write_json_line(&mut stdout, &json!({ "game": number, "error": why }))?;
            }
            // A reading error names its file and game already.
            if e.is::<GameFileError>() {
                Some(format!("error: {why}"))
            } else {
                Some(format!("error: game {number}: {why}"))
            }
        }
    };
    Ok(Judged {
        stdout,
        error,
        warnings: warnings
            .into_iter()
            .map(|w| format!("warning: {w}"))
            .collect(),
    })
}

fn run_pgn(args: &Args, rules: &RuleSet, path: &Path) -> Result<()> {
    // Any game file: PGN, WXF, XQF, CBF, CBR, CBL (sniffed).
    let mut failed = 0usize;
    // One buffered writer: the workers render each game's lines, this
    // thread only copies them out in order.
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let options = ReaderOptions {
        encoding: args.encoding,
        ..ReaderOptions::default()
    };
    let read = read_each_game_with(
        path,
        None,
        options,
        args.jobs,
        |_| {},
        |_, number, item| judge_game(number, item, rules, args.json),
        |judged| -> Result<()> {
            let judged = judged?;
            if !judged.warnings.is_empty() {
                out.flush()?;
                for warning in &judged.warnings {
                    eprintln!("{warning}");
                }
            }
            if let Some(error) = judged.error {
                failed += 1;
                // Flushed first, so that on a terminal the error shows
                // after the games before it.
                out.flush()?;
                eprintln!("{error}");
            }
            Ok(out.write_all(&judged.stdout)?)
        },
    )?;
    out.flush()?;
    // A file that could not be read (or stopped being readable): an error
    // once the games before it are out.
    if let Some(failure) = read.failure {
        return Err(failure.into());
    }
    let counts = read.counts;
    if counts.games == 0 {
        bail!("{} holds no game", path.display());
    }
    if failed > 0 {
        bail!(
            "{failed} of {} games could not be adjudicated (see above)",
            counts.games
        );
    }
    Ok(())
}

fn adjudicate_pgn_game(game: &Game, rules: &RuleSet) -> Result<Verdict> {
    let start = game.start_position().context("bad FEN tag")?;
    let record = GameRecord::new(start, game.moves().collect());
    Ok(record.adjudicate(rules)?)
}

fn run_clock(args: &Args, rules: RuleSet, control: TimeControl, events: &Path) -> Result<()> {
    if rules.clock.is_none() {
        bail!(
            "the {} rule set has no clock model (rules.md section 11); use --rules online",
            args.rules
        );
    }
    let start = args.start.position()?;
    let mut game = OnlineGame::new(start, rules, control, 0)?;
    let file =
        File::open(events).with_context(|| format!("cannot open --events {}", events.display()))?;
    for (index, line) in BufReader::new(file).lines().enumerate() {
        let number = index + 1;
        let line = line.with_context(|| format!("cannot read {}", events.display()))?;
        if line.trim().is_empty() {
            continue;
        }
        let event: TimedEvent = serde_json::from_str(&line)
            .with_context(|| format!("{} line {number}: bad event {line:?}", events.display()))?;
        game.apply(&event)
            .with_context(|| format!("{} line {number}", events.display()))?;
    }
    let [red, black] = game.clocks();
    let extra = json!({
        "clocks": { "red": red, "black": black },
        "rated": game.rated(),
    });
    print_verdict(game.verdict(), args.json, extra)
}
