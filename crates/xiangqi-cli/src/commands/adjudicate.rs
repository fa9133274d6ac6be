//! `xiangqi adjudicate`: who won a game and why (rules.md sections 4-8).
//!
//! ```text
//! xiangqi adjudicate [--fen FEN] [--moves "h2e2 h9g7 …"]
//!                    [--rules online|asian|pikafish|fairy|plain]
//!                    [--no-capture-plies N] [--json]
//! xiangqi adjudicate --pgn INPUT… [--rules …] [--json] [--jobs N] [--strict]
//! xiangqi adjudicate --clock BASE[+INC] --events FILE [--fen FEN] [--json]   (seconds)
//! ```

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::collection::{
    conclude, for_each_game_of_files, report_game_problems, report_unreadable, summary_json, Event,
    GameAt,
};
use crate::common::{write_json_line, PositionArgs};
use crate::options::{ClockArg, JobsArg, LegacyEncoding, ReadArgs};
use anyhow::{bail, Context, Result};
use serde_json::{json, Value};
use xiangqi_adjudication::{
    GameRecord, OnlineGame, Preset, RuleSet, TimeControl, TimedEvent, Verdict,
};
use xiangqi_gamefile::{Game, GameFileError, GameResult};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    start: PositionArgs,
    /// The moves in ICCS coordinates, separated by spaces or commas.
    #[arg(long, conflicts_with_all = ["pgn", "events"])]
    moves: Option<String>,
    /// Game files, directories or patterns of any format `xiangqi game`
    /// reads (PGN, WXF, XQF, CBF, CBR, CBL); every game is judged, one line
    /// per game: its name, players, the recorded result, our verdict and
    /// whether they agree; a summary line on stderr.
    #[arg(long, value_name = "INPUT", num_args = 1.., conflicts_with_all = ["fen", "events"])]
    pgn: Vec<PathBuf>,
    #[command(flatten)]
    read: ReadArgs,
    #[command(flatten)]
    legacy: LegacyEncoding,
    /// Rule set preset (rules.md section 11).
    #[arg(long, default_value = "online", value_parser = parse_preset)]
    rules: Preset,
    /// Plies without a capture that draw the game (overrides the preset; 0 = never).
    #[arg(long, value_name = "N")]
    no_capture_plies: Option<u32>,
    /// Time control for --events: base time and optional increment in
    /// seconds, as `match --clock` (`60+1`; units allowed: `90s`, `1500ms`).
    #[arg(long, value_name = "BASE[+INC]", requires = "events", value_parser = ClockArg::parse)]
    clock: Option<ClockArg>,
    /// Clock and player events, one JSON object per line (needs --clock).
    #[arg(long, value_name = "FILE", requires = "clock")]
    events: Option<PathBuf>,
    /// Machine-readable output: one JSON object per game.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    jobs: JobsArg,
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
    if let (Some(clock), Some(events)) = (args.clock, args.events.as_deref()) {
        let control = TimeControl {
            base_ms: u64::try_from(clock.base.as_millis()).unwrap_or(u64::MAX),
            increment_ms: u64::try_from(clock.increment.as_millis()).unwrap_or(u64::MAX),
        };
        return run_clock(&args, rules, control, events);
    }
    if !args.pgn.is_empty() {
        return run_pgn(&args, &rules);
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

/// How our verdict compares with the result the record gives.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Agreement {
    /// The same result.
    Agree,
    /// Both give a result, and they differ.
    Disagree,
    /// The record gives a result; the moves end no game (a resignation,
    /// a loss on time, an agreed draw): the rules cannot say.
    Undecided,
    /// The record gives none (`*` or no result); ours stands alone.
    Unrecorded,
}

impl Agreement {
    fn of(recorded: GameResult, verdict: &Verdict) -> Agreement {
        match (recorded, verdict.reason) {
            (GameResult::Unknown, _) => Agreement::Unrecorded,
            (_, None) => Agreement::Undecided,
            (recorded, Some(_)) if recorded.as_str() == verdict.result() => Agreement::Agree,
            _ => Agreement::Disagree,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Agreement::Agree => "agree",
            Agreement::Disagree => "disagree",
            Agreement::Undecided => "undecided",
            Agreement::Unrecorded => "unrecorded",
        }
    }
}

/// One game of `adjudicate --pgn` judged, on a worker: the report line
/// (or JSON Lines record), the game's problems for stderr, and how the
/// verdict compares.
struct Judged {
    stdout: Vec<u8>,
    /// The game's reading warnings, or why it could not be read.
    problems: Result<Vec<GameFileError>, GameFileError>,
    /// Why a game read could not be judged (its start position).
    unjudged: Option<String>,
    agreement: Option<Agreement>,
}

/// The players as the report names them.
fn players(game: &Game) -> String {
    let tag = |n: &str| game.tag(n).unwrap_or("?").to_owned();
    format!("{} vs {}", tag("Red"), tag("Black"))
}

fn judge_game(
    at: GameAt<'_>,
    item: Result<Game, GameFileError>,
    rules: &RuleSet,
    json_out: bool,
) -> Result<Judged> {
    let name = at.name();
    let mut stdout = Vec::new();
    let game = match item {
        Ok(game) => game,
        Err(e) => {
            if json_out {
                let row = json!({ "file": at.file.name, "game": at.index, "name": name, "ok": false, "error": e.to_string() });
                write_json_line(&mut stdout, &row)?;
            }
            return Ok(Judged {
                stdout,
                problems: Err(e),
                unjudged: None,
                agreement: None,
            });
        }
    };
    let recorded = game.outcome();
    let (unjudged, agreement) = match adjudicate_pgn_game(&game, rules) {
        Ok(verdict) => {
            let agreement = Agreement::of(recorded, &verdict);
            if json_out {
                // The verdict's fields at the top, as `adjudicate --json`
                // writes them for one game, then where the game is and
                // how the verdict compares with the record.
                let mut row = verdict_json(&verdict);
                let more = json!({
                    "file": at.file.name,
                    "game": at.index,
                    "name": name,
                    "ok": true,
                    "red": game.tag("Red"),
                    "black": game.tag("Black"),
                    "recorded": recorded.as_str(),
                    "agreement": agreement.name(),
                });
                if let (Value::Object(row), Value::Object(more)) = (&mut row, more) {
                    row.extend(more);
                    // A cut game is judged on its legal part, and says so.
                    if !game.errors.is_empty() {
                        let warnings = game.errors.iter().map(ToString::to_string);
                        row.insert("warnings".into(), json!(warnings.collect::<Vec<_>>()));
                    }
                }
                write_json_line(&mut stdout, &row)?;
            } else {
                let ours = match verdict.reason {
                    Some(reason) => format!("{} {reason} at ply {}", verdict.result(), verdict.ply),
                    None => format!("* ongoing after ply {}", verdict.ply),
                };
                writeln!(
                    stdout,
                    "{name}\t{}\trecorded {}\tverdict {ours}\t{}",
                    players(&game),
                    recorded.as_str(),
                    agreement.name()
                )?;
            }
            (None, Some(agreement))
        }
        Err(e) => {
            let why = format!("{name}: cannot be judged: {e:#}");
            if json_out {
                let row = json!({ "file": at.file.name, "game": at.index, "name": name, "ok": false, "error": why });
                write_json_line(&mut stdout, &row)?;
            }
            (Some(why), None)
        }
    };
    Ok(Judged {
        stdout,
        problems: Ok(game.errors),
        unjudged,
        agreement,
    })
}

fn run_pgn(args: &Args, rules: &RuleSet) -> Result<()> {
    let collection = args.read.collection(&args.pgn, Some(&args.legacy))?;
    // Per agreement: agree, disagree, undecided, unrecorded.
    let mut tally = [0usize; 4];
    let mut unjudged = 0usize;
    // One buffered writer: the workers render each game's lines, this
    // thread only copies them out in order.
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut summary = for_each_game_of_files(
        &collection,
        args.jobs.jobs,
        |at, item| judge_game(at, item, rules, args.json),
        |event| -> Result<()> {
            let judged = match event {
                Event::Game(judged) => judged?,
                Event::Unreadable(what) => {
                    out.flush()?;
                    report_unreadable(&what);
                    return Ok(());
                }
            };
            // Flushed first, so that on a terminal a game's problems show
            // after the games before it.
            out.flush()?;
            report_game_problems(&judged.problems);
            if let Some(why) = &judged.unjudged {
                unjudged += 1;
                eprintln!("error: {why}");
            }
            if let Some(agreement) = judged.agreement {
                tally[agreement as usize] += 1;
            }
            Ok(out.write_all(&judged.stdout)?)
        },
    )?;
    // A game that cannot be judged is an error of this command.
    summary.broken_games += unjudged;
    let [agree, disagree, undecided, unrecorded] = tally;
    if args.json {
        let mut value = summary_json(&summary);
        value["summary"]["agree"] = json!(agree);
        value["summary"]["disagree"] = json!(disagree);
        value["summary"]["undecided"] = json!(undecided);
        value["summary"]["unrecorded"] = json!(unrecorded);
        write_json_line(&mut out, &value)?;
    }
    out.flush()?;
    eprintln!(
        "agree: {agree}, disagree: {disagree}, undecided: {undecided}, unrecorded: {unrecorded}"
    );
    conclude(&summary, &collection, "")
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
