//! Tactics: the forced mates of `../shared/testdata/tactics.jsonl` (from a
//! published middlegame manual). Each position is searched for `--movetime`
//! milliseconds by our engine (`xiangqi uci`) and by Debian's
//! fairy-stockfish, one thread each, alternating who goes first, with a
//! fresh hash (`ucinewgame`) per position. A position counts as found when
//! the engine's last reported score is a mate for the side to move; the
//! first move is also compared with the manual's. Prints both counts and
//! their ratio (the bar of the engine issue: ours ≥ 1.1 × fairy-stockfish).

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{bail, Context, Result};

use super::uci::Uci;
use crate::run::{project_root, Steps};

#[derive(clap::Args)]
#[group(id = "tactics")] // the other kinds name their options `Options` too
#[command(next_help_heading = "Tactics (forced mates) options")]
pub struct Options {
    /// Milliseconds of search per position, for both engines.
    #[arg(long, default_value_t = 1000)]
    pub(super) movetime: u64,
    /// Only the first N positions (0: all).
    #[arg(long, default_value_t = 0)]
    pub(super) positions: usize,
}

struct Position {
    id: String,
    fen: String,
    first_move: String,
}

pub fn run(args: &Options, steps: &mut Steps) -> Result<()> {
    if args.movetime == 0 {
        bail!("--movetime must be at least 1");
    }
    let path = project_root().join("../shared/testdata/tactics.jsonl");
    let mut positions = Vec::new();
    steps.step("read tactics.jsonl", || {
        positions = read_positions(&path)?;
        if args.positions > 0 {
            positions.truncate(args.positions);
        }
        eprintln!("{} positions", positions.len());
        Ok(None)
    })?;
    let ours = super::release_cli(steps)?;
    let mut fsf = PathBuf::new();
    steps.step("find fairy-stockfish", || {
        fsf = super::perft::fairy_stockfish()?;
        Ok(None)
    })?;
    steps.step(
        &format!("tactics at {} ms a position", args.movetime),
        || {
            compare(&ours, &fsf, &positions, args.movetime)?;
            Ok(None)
        },
    )
}

fn read_positions(path: &Path) -> Result<Vec<Position>> {
    let text = std::fs::read_to_string(path).with_context(|| {
        format!(
            "the tactics file is missing: {} (see DEVELOPERS.md)",
            path.display()
        )
    })?;
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, line)| {
            let row: serde_json::Value = serde_json::from_str(line)
                .with_context(|| format!("{} line {}", path.display(), i + 1))?;
            let field = |name: &str| {
                row[name]
                    .as_str()
                    .map(str::to_owned)
                    .with_context(|| format!("{} line {}: no {name:?}", path.display(), i + 1))
            };
            Ok(Position {
                id: field("id")?,
                fen: field("fen")?,
                first_move: row["solution"][0].as_str().unwrap_or("").to_owned(),
            })
        })
        .collect()
}

/// What one search ended with.
struct Answer {
    /// Mate in this many moves for the side to move (negative: mated).
    mate: Option<i64>,
    best: String,
}

fn solve(engine: &mut Uci, fen: &str, movetime: u64) -> Result<Answer> {
    engine.send("ucinewgame")?;
    engine.send("isready")?;
    engine.wait_for("readyok", Duration::from_secs(10))?;
    engine.send(&format!("position fen {fen}"))?;
    engine.send(&format!("go movetime {movetime}"))?;
    let wait = Duration::from_millis(movetime) + Duration::from_secs(10);
    let mut mate = None;
    loop {
        let line = engine.line(wait)?;
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first() {
            Some(&"info") => {
                if let Some(i) = words.iter().position(|w| *w == "score") {
                    mate = match words.get(i + 1) {
                        Some(&"mate") => words.get(i + 2).and_then(|n| n.parse().ok()),
                        _ => None,
                    };
                }
            }
            Some(&"bestmove") => {
                return Ok(Answer {
                    mate,
                    best: words.get(1).unwrap_or(&"").to_string(),
                })
            }
            _ => {}
        }
    }
}

/// fairy-stockfish numbers ranks 1-10; ICCS (ours, the manual) 0-9.
fn iccs_from_ranks10(mv: &str) -> String {
    let bytes = mv.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < bytes.len() {
        let file = bytes[i] as char;
        let mut j = i + 1;
        while j < bytes.len() && bytes[j].is_ascii_digit() {
            j += 1;
        }
        match mv[i + 1..j].parse::<u32>() {
            Ok(rank) if rank >= 1 => out.push_str(&format!("{file}{}", rank - 1)),
            _ => return mv.to_owned(),
        }
        i = j;
    }
    out
}

fn compare(ours_bin: &Path, fsf_bin: &Path, positions: &[Position], movetime: u64) -> Result<()> {
    let mut ours = Uci::start(
        "xiangqi",
        ours_bin,
        &["uci"],
        &["setoption name Threads value 1"],
    )?;
    let mut fsf = Uci::start(
        "fairy-stockfish",
        fsf_bin,
        &[],
        &[
            "setoption name UCI_Variant value xiangqi",
            "setoption name Threads value 1",
        ],
    )?;
    // [mates found, first move as the manual's] for ours and fairy-stockfish.
    let mut found = [[0usize; 2]; 2];
    for (n, position) in positions.iter().enumerate() {
        let order = if n % 2 == 0 { [0, 1] } else { [1, 0] };
        let mut answers: [Option<Answer>; 2] = [None, None];
        for which in order {
            let engine = if which == 0 { &mut ours } else { &mut fsf };
            let mut answer = solve(engine, &position.fen, movetime)?;
            if which == 1 {
                answer.best = iccs_from_ranks10(&answer.best);
            }
            answers[which] = Some(answer);
        }
        let mut cells = Vec::new();
        for (which, answer) in answers.iter().enumerate() {
            let answer = answer.as_ref().expect("both searched");
            let mated = answer.mate.is_some_and(|m| m > 0);
            let same = answer.best == position.first_move;
            found[which][0] += usize::from(mated);
            found[which][1] += usize::from(same);
            cells.push(format!(
                "{:<6} {:<5}{}",
                answer.mate.map_or("-".into(), |m| format!("#{m}")),
                answer.best,
                if same { "=" } else { " " }
            ));
        }
        eprintln!(
            "{:>3}/{} {}  xiangqi {}  fairy-stockfish {}  (manual {})",
            n + 1,
            positions.len(),
            position.id,
            cells[0],
            cells[1],
            position.first_move
        );
    }
    let total = positions.len();
    println!("tactics: {total} forced mates, {movetime} ms a position, one thread each:");
    for (which, name) in ["xiangqi", "fairy-stockfish"].iter().enumerate() {
        println!(
            "  {name:<16} mate found {:>3}/{total}, manual's first move {:>3}/{total}",
            found[which][0], found[which][1]
        );
    }
    if found[1][0] > 0 {
        println!(
            "  ratio            {:.2}x (mates found: xiangqi / fairy-stockfish)",
            found[0][0] as f64 / found[1][0] as f64
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_1_to_10_become_0_to_9() {
        assert_eq!(iccs_from_ranks10("h3e3"), "h2e2");
        assert_eq!(iccs_from_ranks10("a10a9"), "a9a8");
        assert_eq!(iccs_from_ranks10("e1e2"), "e0e1");
        assert_eq!(iccs_from_ranks10("(none)"), "(none)");
    }
}
