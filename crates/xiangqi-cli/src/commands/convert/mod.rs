//! `xiangqi convert`: a sequence of moves from a position, read in one
//! notation (or detected) and written in another.

use anyhow::{Context, Result};
use serde_json::json;
use xiangqi_core::Move;
use xiangqi_notation::{
    detect, format, format_ranks10, parse_ranks10, parse_text, MoveTextError, Notation,
};

use crate::common::{print_json, PositionArgs};

pub(crate) mod style_args;

use style_args::{NotationArg, StyleArgs};

/// A notation to read, or `auto`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
enum FromArg {
    Iccs,
    Wxf,
    Chinese,
    Vietnamese,
    /// Coordinates with ranks 1-10 (Fairy-Stockfish, pychess): h3e3 is ICCS h2e2.
    /// Never detected: `auto` reads coordinates as ICCS 0-9.
    Iccs10,
    /// Detect each move's notation.
    Auto,
}

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    start: PositionArgs,
    /// Notation of the input moves.
    #[arg(long, value_enum, default_value = "auto")]
    from: FromArg,
    /// Notation to write.
    #[arg(long, value_enum)]
    to: NotationArg,
    #[command(flatten)]
    style: StyleArgs,
    /// Machine-readable output: {"moves":[{"input","iccs","output"}…],"fen_after"}.
    #[arg(long)]
    json: bool,
    /// The moves, played in order. A Vietnamese move may be one quoted
    /// argument ("Pháo 2 bình 5") or several words.
    #[arg(required = true)]
    moves: Vec<String>,
}

fn from_notation(f: FromArg) -> Option<Notation> {
    match f {
        FromArg::Iccs => Some(Notation::Iccs),
        FromArg::Wxf => Some(Notation::Wxf),
        FromArg::Chinese => Some(Notation::Chinese),
        FromArg::Vietnamese => Some(Notation::Vietnamese),
        FromArg::Iccs10 => Some(Notation::Iccs),
        FromArg::Auto => None,
    }
}

/// Groups the words of unquoted Vietnamese moves ("Pháo" "2" "bình" "5") into one text each.
fn group_moves(words: &[String], notation: Option<Notation>) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let word = &words[i];
        let vietnamese = notation == Some(Notation::Vietnamese)
            || (notation.is_none() && detect(word) == Some(Notation::Vietnamese));
        let complete =
            |t: &str| parse_text(t, Some(Notation::Vietnamese), Default::default()).is_ok();
        if vietnamese && !complete(word) {
            let mut text = word.clone();
            let mut j = i + 1;
            while j < words.len() && j <= i + 3 && !complete(&text) {
                text.push(' ');
                text.push_str(&words[j]);
                j += 1;
            }
            if complete(&text) {
                out.push(text);
                i = j;
                continue;
            }
        }
        out.push(word.clone());
        i += 1;
    }
    out
}

pub fn run(args: Args) -> Result<()> {
    let mut pos = args.start.position()?;
    let style = args.style.style();
    let from = from_notation(args.from);
    let to: Notation = args.to.into();
    let mut rows = Vec::new();
    for (i, input) in group_moves(&args.moves, from).iter().enumerate() {
        let mv: Move = if args.from == FromArg::Iccs10 {
            read_ranks10(&pos, input)
        } else {
            xiangqi_notation::parse_with(&pos, input, from, &style).map_err(|e| explain(e, from))
        }
        .with_context(|| format!("move {}", i + 1))?;
        let mut output = format(&pos, mv, to, &style).with_context(|| format!("move {}", i + 1))?;
        if args.to == NotationArg::Iccs10 {
            output = format_ranks10(mv);
        }
        pos.make_move(mv);
        rows.push((input.clone(), mv, output));
    }
    if args.json {
        let moves: Vec<_> = rows
            .iter()
            .map(|(input, mv, output)| json!({"input": input, "iccs": mv.to_string(), "output": output}))
            .collect();
        print_json(&json!({"moves": moves, "fen_after": pos.to_fen()}))
    } else {
        for (_, _, output) in &rows {
            println!("{output}");
        }
        Ok(())
    }
}

/// A legal move written with ranks 1-10.
fn read_ranks10(pos: &xiangqi_core::Position, input: &str) -> Result<Move> {
    let mv = parse_ranks10(input)?;
    pos.check_legal(mv)
        .with_context(|| format!("{input} is {mv} in ICCS"))?;
    Ok(mv)
}

fn explain(e: MoveTextError, from: Option<Notation>) -> anyhow::Error {
    match (&e, from) {
        (MoveTextError::Syntax(_), Some(n)) => {
            anyhow::anyhow!("{e} (read as {n}; try --from auto)")
        }
        _ => e.into(),
    }
}
