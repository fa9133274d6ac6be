//! `xiangqi convert`: a sequence of moves from a position, read in one
//! notation (or detected) and written in another.

use anyhow::{Context, Result};
use serde_json::json;
use xiangqi_core::Move;
use xiangqi_notation::{detect, format, parse_text, MoveTextError, Notation};

use crate::common::{position_arg, print_json};

#[path = "convert_style.rs"]
pub(crate) mod style_args;

use style_args::{NotationArg, StyleArgs};

/// A notation to read, or `auto`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
enum FromArg {
    Iccs,
    Wxf,
    Chinese,
    Vietnamese,
    /// Detect each move's notation.
    Auto,
}

#[derive(clap::Args)]
pub struct Args {
    /// The position the moves start from (default: the start position).
    #[arg(long)]
    fen: Option<String>,
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
    let mut pos = position_arg(args.fen.as_deref())?;
    let style = args.style.style();
    let from = from_notation(args.from);
    let to: Notation = args.to.into();
    let mut rows = Vec::new();
    for (i, input) in group_moves(&args.moves, from).iter().enumerate() {
        let mv: Move = xiangqi_notation::parse_with(&pos, input, from, &style)
            .map_err(|e| explain(e, from))
            .with_context(|| format!("move {} ({input:?})", i + 1))?;
        let output = format(&pos, mv, to, &style).with_context(|| format!("move {}", i + 1))?;
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

fn explain(e: MoveTextError, from: Option<Notation>) -> anyhow::Error {
    match (&e, from) {
        (MoveTextError::Syntax(_), Some(n)) => {
            anyhow::anyhow!("{e} (read as {n}; try --from auto)")
        }
        _ => e.into(),
    }
}
