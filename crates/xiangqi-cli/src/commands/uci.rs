//! `xiangqi uci`: the engine speaking UCI as Pikafish does (moves in ICCS,
//! Red is `w`), for GUIs and match runners.
//!
//! Supported: `uci`, `isready`, `setoption name Hash|Threads|MultiPV|Clear
//! Hash|Move Overhead|Ponder|UCI_ShowWDL|Skill Level|UCI_LimitStrength|UCI_Elo|Use NNUE|EvalFile`,
//! `ucinewgame`, `position startpos|fen … [moves …]`, `go` with
//! `wtime btime winc binc movestogo movetime depth nodes infinite ponder searchmoves`,
//! `ponderhit`, `stop`, `quit`, and Pikafish's extensions shared with UCCI
//! (`go perft N`, `d`, `eval`, `flip`). Anything else gets `info string error: …`.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use xiangqi_core::{Color, Move};
use xiangqi_search::wdl::Wdl;
use xiangqi_search::{
    Engine, Limits, SearchInfo, SearchResult, Skill, DEFAULT_HASH_MB, DEFAULT_MOVE_OVERHEAD,
    MAX_HASH_MB, MAX_MOVE_OVERHEAD, MAX_MULTI_PV, MAX_SKILL_LEVEL, MAX_THREADS,
};

use super::engine_protocol::*;

#[derive(clap::Args)]
pub struct Args {
    /// Initial transposition-table size in MiB (also settable with `setoption name Hash`).
    #[arg(long, default_value_t = DEFAULT_HASH_MB)]
    hash: usize,
}

pub fn run(args: Args) -> Result<()> {
    run_loop(Uci, Arc::new(UciOutput), args.hash.clamp(1, MAX_HASH_MB))
}

/// The UCI loop on `input` (for `xiangqi-engine`, which has read the first line).
pub fn serve(hash_mb: usize, input: impl std::io::BufRead) -> Result<()> {
    run_loop_on(Uci, Arc::new(UciOutput), hash_mb, input)
}

struct Uci;

struct UciOutput;

impl SearchOutput for UciOutput {
    fn info(&self, i: &SearchInfo, wdl: Option<Wdl>) -> String {
        let wdl = wdl.map_or_else(String::new, |w| {
            format!(" wdl {} {} {}", w.win, w.draw, w.loss)
        });
        format!(
            "info depth {} seldepth {} multipv {} score {}{wdl} nodes {} nps {} hashfull {} time {} pv {}",
            i.depth,
            i.seldepth,
            i.multipv,
            i.score,
            i.nodes,
            i.nps,
            i.hashfull,
            i.time.as_millis(),
            pv_text(&i.pv)
        )
    }

    /// `info depth 0 score mate 0` (or `cp 0` when the only moves were
    /// excluded by `searchmoves`), as Stockfish and Pikafish send before
    /// `bestmove (none)`: in xiangqi having no legal move loses (R-END-MATE,
    /// R-END-STALEMATE), so the score is mate 0 for both.
    fn no_move_info(&self, r: &SearchResult) -> Option<String> {
        r.best_move
            .is_none()
            .then(|| format!("info depth 0 score {}", r.score))
    }

    fn bestmove(&self, r: &SearchResult) -> String {
        bestmove_line(r, "bestmove (none)")
    }
}

impl Dialect for Uci {
    fn command(&mut self, s: &mut Session, cmd: &str, args: &[&str]) -> Handled {
        match cmd {
            "uci" => {
                identify(&s.out);
                s.out.line(&format!(
                    "option name Hash type spin default {} min 1 max {MAX_HASH_MB}",
                    s.default_hash_mb
                ));
                s.out.line(&format!(
                    "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
                ));
                s.out.line(&format!(
                    "option name MultiPV type spin default 1 min 1 max {MAX_MULTI_PV}"
                ));
                s.out.line("option name Clear Hash type button");
                s.out.line(&format!(
                    "option name Move Overhead type spin default {} min 0 max {}",
                    DEFAULT_MOVE_OVERHEAD.as_millis(),
                    MAX_MOVE_OVERHEAD.as_millis()
                ));
                s.out.line("option name Ponder type check default false");
                s.out
                    .line("option name UCI_ShowWDL type check default false");
                s.out.line(&format!(
                    "option name Skill Level type spin default {MAX_SKILL_LEVEL} min 0 max {MAX_SKILL_LEVEL}"
                ));
                s.out
                    .line("option name UCI_LimitStrength type check default false");
                let (low, high) = Skill::elo_range();
                s.out.line(&format!(
                    "option name UCI_Elo type spin default {high} min {low} max {high}"
                ));
                s.out.line(&format!(
                    "option name Use NNUE type check default {}",
                    Engine::nnue_by_default()
                ));
                s.out.line(&format!(
                    "option name EvalFile type string default {}",
                    embedded_net_name()
                ));
                s.out.line("uciok");
            }
            "ucinewgame" => s.engine().new_game(),
            "setoption" => {
                if let Err(e) = set_option(s, args) {
                    s.out.error(&e);
                }
            }
            "quit" => return Handled::Quit,
            _ => return Handled::No,
        }
        Handled::Yes
    }

    fn parse_go(&self, s: &Session, args: &[&str]) -> Result<Limits, String> {
        let mut limits = Limits::default();
        let red = s.root().side_to_move() == Color::Red;
        let ms = |name: &str, v: Option<&&str>| -> Result<Duration, String> {
            // GUIs may send a negative clock when flagging; treat it as no time left.
            match v.and_then(|t| t.parse::<i64>().ok()) {
                Some(t) => Ok(Duration::from_millis(t.max(0) as u64)),
                None => Err(format!("{name} needs a time in milliseconds")),
            }
        };
        let mut i = 0;
        while i < args.len() {
            let word = args[i];
            let value = args.get(i + 1);
            match word {
                "wtime" | "btime" => {
                    let t = ms(word, value)?;
                    if (word == "wtime") == red {
                        limits.time_left = Some(t);
                    }
                    i += 1;
                }
                "winc" | "binc" => {
                    let t = ms(word, value)?;
                    if (word == "winc") == red {
                        limits.increment = Some(t);
                    }
                    i += 1;
                }
                "movestogo" => {
                    limits.moves_to_go = Some(number(word, value)?);
                    i += 1;
                }
                "movetime" => {
                    limits.move_time = Some(ms(word, value)?);
                    i += 1;
                }
                "depth" => {
                    limits.depth = Some(number::<u32>(word, value)?.max(1));
                    i += 1;
                }
                "nodes" => {
                    limits.nodes = Some(number(word, value)?);
                    i += 1;
                }
                "infinite" => limits.infinite = true,
                "ponder" => limits.ponder = true,
                "searchmoves" => {
                    while let Some(m) = args.get(i + 1).and_then(|t| t.parse::<Move>().ok()) {
                        limits.search_moves.push(m);
                        i += 1;
                    }
                }
                other => return Err(format!("unknown go parameter {:?}", truncate(other))),
            }
            i += 1;
        }
        Ok(limits)
    }
}

fn set_option(s: &mut Session, args: &[&str]) -> Result<(), String> {
    if args.first() != Some(&"name") {
        return Err("setoption needs: name <name> [value <value>]".into());
    }
    let value_at = args.iter().position(|&a| a == "value");
    let name = args[1..value_at.unwrap_or(args.len())].join(" ");
    let value = value_at.map(|i| args[i + 1..].join(" "));
    match name.to_ascii_lowercase().as_str() {
        "hash" => s.set_hash("Hash", value.as_deref())?,
        "threads" => s.set_threads("Threads", value.as_deref())?,
        "multipv" => s.set_multi_pv("MultiPV", value.as_deref())?,
        "clear hash" => s.engine().new_game(),
        "move overhead" => {
            let max = MAX_MOVE_OVERHEAD.as_millis() as u64;
            let ms: u64 = value
                .as_deref()
                .and_then(|v| v.parse().ok())
                .filter(|&ms| ms <= max)
                .ok_or_else(|| format!("Move Overhead needs milliseconds from 0 to {max}"))?;
            s.move_overhead = Some(Duration::from_millis(ms));
        }
        // The GUI's permission to ponder; pondering itself is `go ponder`.
        "ponder" => {
            check("Ponder", value.as_deref())?;
        }
        "uci_showwdl" => s.show_wdl = check("UCI_ShowWDL", value.as_deref())?,
        "use nnue" => s.set_use_nnue(check("Use NNUE", value.as_deref())?)?,
        "evalfile" => s.set_eval_file("EvalFile", value.as_deref())?,
        "skill level" => {
            s.skill_level = value
                .as_deref()
                .and_then(|v| v.parse().ok())
                .filter(|&l| l <= MAX_SKILL_LEVEL)
                .ok_or_else(|| format!("Skill Level needs a number from 0 to {MAX_SKILL_LEVEL}"))?;
            s.apply_skill();
        }
        "uci_limitstrength" => {
            s.limit_strength = check("UCI_LimitStrength", value.as_deref())?;
            s.apply_skill();
        }
        "uci_elo" => {
            let (low, high) = Skill::elo_range();
            s.uci_elo = value
                .as_deref()
                .and_then(|v| v.parse().ok())
                .filter(|e| (low..=high).contains(e))
                .ok_or_else(|| format!("UCI_Elo needs a number from {low} to {high}"))?;
            s.apply_skill();
        }
        _ => return Err(format!("unknown option {:?}", truncate(&name))),
    }
    Ok(())
}

/// A `check` option's value.
fn check(option: &str, value: Option<&str>) -> Result<bool, String> {
    match value.map(str::to_ascii_lowercase).as_deref() {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        _ => Err(format!("{option} needs true or false")),
    }
}
