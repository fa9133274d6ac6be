//! `xiangqi ucci`: the engine speaking UCCI as ElephantEye does.
//!
//! Supported: `ucci`, `isready`, `setoption hashsize N|threads N|usemillisec true|false|usennue true|false|evalfile PATH|newgame`,
//! `position fen …|startpos [moves …]`, `banmoves …`,
//! `go [ponder] [draw] time T [increment I|movestogo N] | depth D|infinite | nodes N | infinite`,
//! `ponderhit`, `stop`, `bye`/`quit`, and the shared extensions of
//! [`engine_protocol`](super::engine_protocol) (`go perft N`, `d`, `eval`, `flip`). Times are in seconds unless `usemillisec` is on.
//! UCCI has no mate syntax: a mate in n moves is reported as
//! `score 30000 - plies`, negated when being mated. UCCI has no syntax for
//! several lines of analysis, so MultiPV is offered by UCI only.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use xiangqi_core::Move;
use xiangqi_search::{
    Engine, Limits, Score, SearchInfo, SearchResult, DEFAULT_HASH_MB, MAX_HASH_MB, MAX_THREADS,
};

use super::engine_protocol::*;
use xiangqi_search::wdl::Wdl;

#[derive(clap::Args)]
pub struct Args {
    /// Initial transposition-table size in MiB (also `setoption hashsize N`).
    #[arg(long, default_value_t = DEFAULT_HASH_MB)]
    hash: usize,
}

pub fn run(args: Args) -> Result<()> {
    let dialect = Ucci {
        millis: Arc::new(AtomicBool::new(false)),
    };
    run_loop(
        dialect,
        Arc::new(UcciOutput),
        args.hash.clamp(1, MAX_HASH_MB),
    )
}

/// The UCCI loop on `input` (for `xiangqi-engine`, which has read the first line).
pub fn serve(hash_mb: usize, input: impl std::io::BufRead) -> Result<()> {
    let dialect = Ucci {
        millis: Arc::new(AtomicBool::new(false)),
    };
    run_loop_on(dialect, Arc::new(UcciOutput), hash_mb, input)
}

struct Ucci {
    millis: Arc<AtomicBool>,
}

struct UcciOutput;

/// UCCI scores are plain numbers: mate scores become 30000 minus the plies to mate.
fn ucci_score(score: Score) -> i32 {
    match score {
        Score::Cp(v) => v,
        Score::Mate(n) if n > 0 => 30_000 - (2 * n - 1),
        Score::Mate(n) => -30_000 + 2 * (-n),
    }
}

impl SearchOutput for UcciOutput {
    fn info(&self, i: &SearchInfo, _wdl: Option<Wdl>) -> String {
        format!(
            "info depth {} seldepth {} score {} time {} nodes {} nps {} pv {}",
            i.depth,
            i.seldepth,
            ucci_score(i.score),
            i.time.as_millis(),
            i.nodes,
            i.nps,
            pv_text(&i.pv)
        )
    }

    fn bestmove(&self, r: &SearchResult) -> String {
        bestmove_line(r, "nobestmove")
    }
}

impl Dialect for Ucci {
    fn command(&mut self, s: &mut Session, cmd: &str, args: &[&str]) -> Handled {
        match cmd {
            "ucci" => {
                identify(&s.out);
                s.out.line("option usemillisec type check default false");
                s.out.line(&format!(
                    "option hashsize type spin min 1 max {MAX_HASH_MB} default {}",
                    s.default_hash_mb
                ));
                s.out.line(&format!(
                    "option threads type spin min 1 max {MAX_THREADS} default 1"
                ));
                s.out.line(&format!(
                    "option usennue type check default {}",
                    Engine::nnue_by_default()
                ));
                s.out.line(&format!(
                    "option evalfile type string default {}",
                    embedded_net_name()
                ));
                s.out.line("option newgame type button");
                s.out.line("ucciok");
            }
            "setoption" => {
                if let Err(e) = self.set_option(s, args) {
                    s.out.error(&e);
                }
            }
            "banmoves" => {
                let mut banned = Vec::with_capacity(args.len());
                for a in args {
                    match a.parse::<Move>() {
                        Ok(m) if s.root().is_legal(m) => banned.push(m),
                        Ok(m) => {
                            s.out
                                .error(&format!("banmoves: {m} is not legal here; ignored"));
                        }
                        Err(e) => s.out.error(&format!("banmoves: {e}")),
                    }
                }
                s.ban_moves = banned;
            }
            "bye" => {
                s.stop();
                s.join();
                s.out.line("bye");
                return Handled::Quit;
            }
            "quit" => return Handled::Quit,
            _ => return Handled::No,
        }
        Handled::Yes
    }

    fn parse_go(&self, _s: &Session, args: &[&str]) -> Result<Limits, String> {
        let millis = self.millis.load(Ordering::Relaxed);
        let time = |name: &str, v: Option<&&str>| -> Result<Duration, String> {
            let t: f64 = v
                .and_then(|t| t.parse().ok())
                .filter(|t: &f64| t.is_finite())
                .ok_or_else(|| format!("{name} needs a number"))?;
            let secs = if millis { t / 1000.0 } else { t };
            Ok(Duration::from_secs_f64(secs.clamp(0.0, 1e9)))
        };
        let mut limits = Limits::default();
        let mut i = 0;
        while i < args.len() {
            let word = args[i];
            let value = args.get(i + 1);
            match word {
                // We never accept draws: the flag changes nothing.
                "draw" => {}
                "ponder" => limits.ponder = true,
                "time" => {
                    limits.time_left = Some(time(word, value)?);
                    i += 1;
                }
                "increment" => {
                    limits.increment = Some(time(word, value)?);
                    i += 1;
                }
                "movestogo" => {
                    limits.moves_to_go = Some(number(word, value)?);
                    i += 1;
                }
                "opptime" | "oppincrement" | "oppmovestogo" => {
                    i += 1;
                }
                "depth" => {
                    if value == Some(&"infinite") {
                        limits.infinite = true;
                    } else {
                        limits.depth = Some(number::<u32>(word, value)?.max(1));
                    }
                    i += 1;
                }
                "nodes" => {
                    limits.nodes = Some(number(word, value)?);
                    i += 1;
                }
                "infinite" => limits.infinite = true,
                other => return Err(format!("unknown go parameter {:?}", truncate(other))),
            }
            i += 1;
        }
        Ok(limits)
    }
}

impl Ucci {
    fn set_option(&self, s: &mut Session, args: &[&str]) -> Result<(), String> {
        // Both `setoption hashsize 32` (UCCI) and `setoption name hashsize value 32` are accepted.
        let args: Vec<&str> = args
            .iter()
            .copied()
            .filter(|&a| a != "name" && a != "value")
            .collect();
        match args.first().map(|a| a.to_ascii_lowercase()).as_deref() {
            Some("hashsize") => s.set_hash("hashsize", args.get(1).copied())?,
            Some("threads") => s.set_threads("threads", args.get(1).copied())?,
            Some("usemillisec") => match args.get(1).copied() {
                Some("true") | Some("on") => self.millis.store(true, Ordering::Relaxed),
                Some("false") | Some("off") => self.millis.store(false, Ordering::Relaxed),
                _ => return Err("usemillisec needs true or false".into()),
            },
            Some("newgame") => s.engine().new_game(),
            Some("usennue") => match args.get(1).copied() {
                Some("true") | Some("on") => s.set_use_nnue(true)?,
                Some("false") | Some("off") => s.set_use_nnue(false)?,
                _ => return Err("usennue needs true or false".into()),
            },
            // The path is everything after the name (it may hold spaces).
            Some("evalfile") => s.set_eval_file("evalfile", Some(&args[1..].join(" ")))?,
            Some(other) => return Err(format!("unknown option {:?}", truncate(other))),
            None => return Err("setoption needs an option name".into()),
        }
        Ok(())
    }
}
