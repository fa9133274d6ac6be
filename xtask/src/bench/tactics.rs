//! Tactics: the forced mates of `../shared/testdata/tactics.jsonl` (from a
//! published middlegame manual). Each position is searched for `--movetime`
//! milliseconds by our engine (`xiangqi uci`; with `--tactics-option`, twice:
//! that check option off and on, so both evaluations are measured in one
//! run) and by Debian's fairy-stockfish, one thread each, taking turns at
//! going first, with a fresh hash (`ucinewgame`) per position. A position
//! counts as found when the engine's last reported score is a mate for the
//! side to move; the first move is also compared with the manual's. Prints
//! the counts and each of ours against fairy-stockfish's (the bar of the
//! engine issue: ours ≥ 1.1 × fairy-stockfish).

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
    /// A UCI check option of our engine measured off and on (`Use NNUE`):
    /// our engine then searches every position twice, once each way.
    #[arg(long = "tactics-option", value_name = "NAME")]
    pub(super) option: Option<String>,
    /// A net file our engine loads (`EvalFile`) for the run with
    /// `--tactics-option` on; default: the net built in.
    #[arg(long = "tactics-eval-file", value_name = "PATH", requires = "option")]
    pub(super) eval_file: Option<PathBuf>,
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
            compare(&engines(args, &ours, &fsf), &positions, args.movetime)?;
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

/// One engine as the run starts it: a label, its program and arguments,
/// the options set after `uci`, and whether it numbers ranks 1-10.
#[derive(Debug, PartialEq)]
struct Contender {
    label: String,
    program: PathBuf,
    args: Vec<String>,
    options: Vec<String>,
    ranks_from_one: bool,
}

/// Ours (once, or with `--tactics-option` off and on), then fairy-stockfish.
fn engines(args: &Options, ours: &Path, fsf: &Path) -> Vec<Contender> {
    let threads = "setoption name Threads value 1".to_owned();
    let ours_with = |label: String, extra: Vec<String>| Contender {
        label,
        program: ours.to_owned(),
        args: vec!["uci".to_owned()],
        options: std::iter::once(threads.clone()).chain(extra).collect(),
        ranks_from_one: false,
    };
    let mut list = match &args.option {
        None => vec![ours_with("xiangqi".to_owned(), Vec::new())],
        Some(name) => {
            let mut on = Vec::new();
            if let Some(net) = &args.eval_file {
                on.push(format!("setoption name EvalFile value {}", net.display()));
            }
            on.push(format!("setoption name {name} value true"));
            vec![
                ours_with(
                    format!("xiangqi, {name} off"),
                    vec![format!("setoption name {name} value false")],
                ),
                ours_with(format!("xiangqi, {name} on"), on),
            ]
        }
    };
    list.push(Contender {
        label: "fairy-stockfish".to_owned(),
        program: fsf.to_owned(),
        args: Vec::new(),
        options: vec![
            "setoption name UCI_Variant value xiangqi".to_owned(),
            threads,
        ],
        ranks_from_one: true,
    });
    list
}

fn compare(contenders: &[Contender], positions: &[Position], movetime: u64) -> Result<()> {
    let mut running = Vec::new();
    for contender in contenders {
        let args: Vec<&str> = contender.args.iter().map(String::as_str).collect();
        let options: Vec<&str> = contender.options.iter().map(String::as_str).collect();
        running.push(Uci::start(
            &contender.label,
            &contender.program,
            &args,
            &options,
        )?);
    }
    // Per engine: [mates found, first move as the manual's].
    let mut found = vec![[0usize; 2]; contenders.len()];
    for (n, position) in positions.iter().enumerate() {
        let mut answers: Vec<Option<Answer>> = contenders.iter().map(|_| None).collect();
        // Who goes first turns round, so the machine's load falls on all alike.
        for k in 0..contenders.len() {
            let which = (n + k) % contenders.len();
            let mut answer = solve(&mut running[which], &position.fen, movetime)?;
            if contenders[which].ranks_from_one {
                answer.best = iccs_from_ranks10(&answer.best);
            }
            answers[which] = Some(answer);
        }
        let mut cells = Vec::new();
        for (which, answer) in answers.iter().enumerate() {
            let answer = answer.as_ref().expect("every engine searched");
            let mated = answer.mate.is_some_and(|m| m > 0);
            let same = answer.best == position.first_move;
            found[which][0] += usize::from(mated);
            found[which][1] += usize::from(same);
            cells.push(format!(
                "{}: {:<6} {:<5}{}",
                contenders[which].label,
                answer.mate.map_or("-".into(), |m| format!("#{m}")),
                answer.best,
                if same { "=" } else { " " }
            ));
        }
        eprintln!(
            "{:>3}/{} {}  {}  (manual {})",
            n + 1,
            positions.len(),
            position.id,
            cells.join("  "),
            position.first_move
        );
    }
    let total = positions.len();
    println!("tactics: {total} forced mates, {movetime} ms a position, one thread each:");
    let width = contenders.iter().map(|c| c.label.len()).max().unwrap_or(0);
    for (which, contender) in contenders.iter().enumerate() {
        println!(
            "  {:<width$} mate found {:>3}/{total}, manual's first move {:>3}/{total}",
            contender.label, found[which][0], found[which][1]
        );
    }
    let fsf = contenders.len() - 1;
    if found[fsf][0] > 0 {
        for (which, contender) in contenders[..fsf].iter().enumerate() {
            println!(
                "  ratio {:.2}x (mates found: {} / fairy-stockfish)",
                found[which][0] as f64 / found[fsf][0] as f64,
                contender.label
            );
        }
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

    fn options(option: Option<&str>, eval_file: Option<&str>) -> Options {
        Options {
            movetime: 500,
            positions: 0,
            option: option.map(str::to_owned),
            eval_file: eval_file.map(PathBuf::from),
        }
    }

    #[test]
    fn without_an_option_ours_plays_once_then_fairy_stockfish() {
        let list = engines(
            &options(None, None),
            Path::new("/x/xiangqi"),
            Path::new("/f"),
        );
        let labels: Vec<&str> = list.iter().map(|c| c.label.as_str()).collect();
        assert_eq!(labels, ["xiangqi", "fairy-stockfish"]);
        assert!(list[1].ranks_from_one && !list[0].ranks_from_one);
    }

    #[test]
    fn an_option_is_measured_off_and_on_with_the_net_file_on_the_on_side() {
        let list = engines(
            &options(Some("Use NNUE"), Some("/n/net.xqnn")),
            Path::new("/x/xiangqi"),
            Path::new("/f"),
        );
        let labels: Vec<&str> = list.iter().map(|c| c.label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "xiangqi, Use NNUE off",
                "xiangqi, Use NNUE on",
                "fairy-stockfish"
            ]
        );
        assert_eq!(
            list[0].options,
            [
                "setoption name Threads value 1",
                "setoption name Use NNUE value false"
            ]
        );
        assert_eq!(
            list[1].options,
            [
                "setoption name Threads value 1",
                "setoption name EvalFile value /n/net.xqnn",
                "setoption name Use NNUE value true"
            ]
        );
    }
}
