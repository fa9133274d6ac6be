//! `xiangqi analyze [--fen FEN] [--moves "h2e2 …"] (--depth N|--movetime MS|--nodes N)
//! [--multipv K] [--threads N] [--notation iccs|wxf|chinese|vietnamese] [--json]`:
//! searches one position and prints the best move, score, depth, nodes and PV.
//! JSON keeps moves in ICCS (`best_move`, `pv`); with `--notation` it adds
//! `pv_text` in that notation. `lines` lists the K best lines (one by default),
//! best first, each with its `multipv` number, `score`, `pv` (and `pv_text`).
//!
//! With `--pgn IN -o OUT [--engine SPEC]` it reviews whole games instead
//! ([`super::analyze_pgn`]).

use std::time::Duration;

use anyhow::{bail, Context, Result};
use serde_json::json;
use xiangqi_core::{Move, Position};
use xiangqi_notation::{Notation, Style};
use xiangqi_search::{
    Engine, Limits, Score, SearchInfo, SearchResult, DEFAULT_HASH_MB, MAX_DEPTH, MAX_HASH_MB,
    MAX_MULTI_PV, MAX_THREADS,
};

use crate::common::{print_json, PositionArgs};

#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("limit").required(true).args(["depth", "movetime", "nodes"])))]
pub struct Args {
    #[command(flatten)]
    start: PositionArgs,
    /// Moves played from that position first, in ICCS, separated by spaces.
    #[arg(long)]
    moves: Option<String>,
    /// Search to this depth in plies.
    #[arg(long)]
    depth: Option<u32>,
    /// Search for this many milliseconds.
    #[arg(long)]
    movetime: Option<u64>,
    /// Search this many nodes.
    #[arg(long)]
    nodes: Option<u64>,
    /// Also write the PV in this notation: iccs, wxf, chinese, vietnamese.
    #[arg(long)]
    notation: Option<String>,
    /// Transposition-table size in MiB.
    #[arg(long, default_value_t = DEFAULT_HASH_MB)]
    hash: usize,
    /// Report the K best lines (distinct first moves, best first).
    #[arg(long, default_value_t = 1)]
    multipv: usize,
    /// Search threads (Lazy SMP; more than one is not deterministic).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Machine-readable output (one JSON object).
    #[arg(long)]
    json: bool,
    /// Review every game of these game files, directories or patterns
    /// (any format `xiangqi game` reads) instead of one position (see
    /// docs/engine-client.md; reading as every command reads: docs/cli.md).
    #[arg(long, value_name = "INPUT", num_args = 1.., conflicts_with_all = ["fen", "lenient", "moves", "notation"], requires = "output")]
    pgn: Vec<std::path::PathBuf>,
    #[command(flatten)]
    read: crate::options::ReadArgs,
    #[command(flatten)]
    legacy: crate::options::LegacyEncoding,
    /// With --pgn: the annotated games go here (`-` for stdout).
    #[arg(short = 'o', long, value_name = "OUT", requires = "pgn")]
    output: Option<std::path::PathBuf>,
    /// With --pgn: the engine, `CMD[,proto=uci|ucci|xboard][,ranks=0|1][,option=Name=Value]...`
    /// (default: this program's engine over UCI).
    #[arg(long, value_name = "SPEC", requires = "pgn")]
    engine: Option<String>,
    /// With --pgn: engine processes working at once, games written in
    /// input order (0: one per core).
    #[command(flatten)]
    jobs: crate::options::JobsArg,
}

pub fn run(args: Args) -> Result<()> {
    if let (false, Some(output)) = (args.pgn.is_empty(), &args.output) {
        return super::analyze_pgn::run(super::analyze_pgn::AnnotateArgs {
            collection: args.read.collection(&args.pgn, Some(&args.legacy))?,
            output,
            limit: pgn_limit(&args)?,
            engine: args.engine.as_deref(),
            hash_mb: args.hash,
            jobs: args.jobs.jobs,
            json: args.json,
        });
    }
    let (root, history) = searched_position(&args)?;
    let limits = search_limits(&args)?;
    let notation = notation_arg(&args)?;
    let mut engine = Engine::new(args.hash);
    engine.set_threads(args.threads);
    let several = args.multipv > 1;
    let result = engine.search(&root, &history, &limits, |info| {
        if !args.json {
            println!("{}", info_line(&root, info, notation, several));
        }
    });
    if args.json {
        print_json(&result_json(&root, &result, notation))
    } else {
        print_result(&root, &result, notation, several);
        Ok(())
    }
}

/// The position to search (`--fen` after `--moves`) and the positions
/// before it, for repetitions.
fn searched_position(args: &Args) -> Result<(Position, Vec<Position>)> {
    let start = args.start.position()?;
    let moves: Vec<Move> = match &args.moves {
        None => Vec::new(),
        Some(text) => text
            .split_whitespace()
            // The error quotes the move.
            .map(|m| m.parse::<Move>().context("cannot read --moves"))
            .collect::<Result<_>>()?,
    };
    start.replay(&moves).context("cannot play --moves")
}

/// The search's limits from `--depth`, `--nodes`, `--movetime` and
/// `--multipv`, once every number (`--hash` and `--threads` too) is
/// checked against what the engine takes.
fn search_limits(args: &Args) -> Result<Limits> {
    if let Some(d) = args.depth {
        if d == 0 || d > MAX_DEPTH {
            bail!("--depth must be between 1 and {MAX_DEPTH}, got {d}");
        }
    }
    if args.hash == 0 || args.hash > MAX_HASH_MB {
        bail!(
            "--hash must be between 1 and {MAX_HASH_MB} MiB, got {}",
            args.hash
        );
    }
    if args.multipv == 0 || args.multipv > MAX_MULTI_PV {
        bail!(
            "--multipv must be between 1 and {MAX_MULTI_PV}, got {}",
            args.multipv
        );
    }
    if args.threads == 0 || args.threads > MAX_THREADS {
        bail!(
            "--threads must be between 1 and {MAX_THREADS}, got {}",
            args.threads
        );
    }
    if args.nodes == Some(0) || args.movetime == Some(0) {
        bail!("--nodes and --movetime must be positive");
    }
    Ok(Limits {
        depth: args.depth,
        nodes: args.nodes,
        move_time: args.movetime.map(Duration::from_millis),
        multi_pv: args.multipv,
        ..Limits::default()
    })
}

/// `--notation`, if given.
fn notation_arg(args: &Args) -> Result<Option<Notation>> {
    match &args.notation {
        None => Ok(None),
        Some(n) => Ok(Some(
            n.parse()
                .map_err(|e| anyhow::anyhow!("bad --notation: {e}"))?,
        )),
    }
}

/// One line of text output per search iteration (and line, with `--multipv`).
fn info_line(
    root: &Position,
    info: &SearchInfo,
    notation: Option<Notation>,
    several: bool,
) -> String {
    let pv = pv_in(root, &info.pv, notation.unwrap_or(Notation::Iccs));
    let line = if several {
        format!("multipv {:>2} ", info.multipv)
    } else {
        String::new()
    };
    format!(
        "depth {:>2} seldepth {:>2} {line}score {:<9} nodes {:>9} time {:>6} ms  pv {}",
        info.depth,
        info.seldepth,
        info.score.to_string(),
        info.nodes,
        info.time.as_millis(),
        pv.join(" ")
    )
}

/// The `--json` object: the best move, score, depth, nodes, PV, and every line.
fn result_json(
    root: &Position,
    result: &SearchResult,
    notation: Option<Notation>,
) -> serde_json::Value {
    let pv: Vec<String> = result.pv.iter().map(|m| m.to_string()).collect();
    let mut value = json!({
        "fen": root.to_fen(),
        "best_move": result.best_move.map(|m| m.to_string()),
        "score": score_json(result.score),
        "depth": result.depth,
        "seldepth": result.seldepth,
        "nodes": result.nodes,
        "time_ms": result.time.as_millis() as u64,
        "pv": pv,
    });
    if let Some(n) = notation {
        value["pv_text"] = json!(pv_in(root, &result.pv, n));
    }
    let lines: Vec<serde_json::Value> = result
        .lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let mut v = json!({
                "multipv": i + 1,
                "score": score_json(line.score),
                "pv": line.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
            });
            if let Some(n) = notation {
                v["pv_text"] = json!(pv_in(root, &line.pv, n));
            }
            v
        })
        .collect();
    value["lines"] = json!(lines);
    value
}

/// The text result: every line with `--multipv`, then the best move, or
/// why there is none.
fn print_result(root: &Position, result: &SearchResult, notation: Option<Notation>, several: bool) {
    let notation = notation.unwrap_or(Notation::Iccs);
    if several {
        for (i, line) in result.lines.iter().enumerate() {
            let pv = pv_in(root, &line.pv, notation);
            println!("line {}  score {}  pv {}", i + 1, line.score, pv.join(" "));
        }
    }
    match result.best_move {
        Some(b) => println!(
            "best move {b}  score {}  depth {}  nodes {}  pv {}",
            result.score,
            result.depth,
            result.nodes,
            pv_in(root, &result.pv, notation).join(" ")
        ),
        None => println!(
            "no legal move: {} has lost ({})",
            root.side_to_move(),
            if root.is_check() {
                "checkmate"
            } else {
                "stalemate"
            }
        ),
    }
}

/// The one limit of `--pgn` mode (an external engine takes one).
fn pgn_limit(args: &Args) -> Result<xiangqi_engine_client::Limit> {
    use xiangqi_engine_client::Limit;
    match (args.movetime, args.depth, args.nodes) {
        (Some(0), _, _) | (_, _, Some(0)) => bail!("--nodes and --movetime must be positive"),
        (_, Some(d), _) if d == 0 || d > MAX_DEPTH => {
            bail!("--depth must be between 1 and {MAX_DEPTH}, got {d}")
        }
        (Some(ms), None, None) => Ok(Limit::move_time(Duration::from_millis(ms))),
        (None, Some(d), None) => Ok(Limit::depth(d)),
        (None, None, Some(n)) => Ok(Limit::nodes(n)),
        _ => bail!("with --pgn give one limit: --movetime, --depth or --nodes"),
    }
}

/// `{"cp": N}` or `{"mate": N}`.
fn score_json(score: Score) -> serde_json::Value {
    match score {
        Score::Cp(v) => json!({ "cp": v }),
        Score::Mate(n) => json!({ "mate": n }),
    }
}

/// The PV written in `notation`, each move in the position it is played from.
fn pv_in(root: &Position, pv: &[Move], notation: Notation) -> Vec<String> {
    let style = Style::default();
    let mut pos = root.clone();
    let mut out = Vec::with_capacity(pv.len());
    for &mv in pv {
        // The PV is legal by construction; fall back to ICCS rather than lose a move.
        out.push(
            xiangqi_notation::format(&pos, mv, notation, &style).unwrap_or_else(|_| mv.to_string()),
        );
        if pos.play(mv).is_err() {
            break;
        }
    }
    out
}
