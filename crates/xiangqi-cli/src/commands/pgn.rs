//! `xiangqi pgn`: check PGN files game by game, or convert them to another notation.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::json;
use xiangqi_notation::pgn::{write_game_to, Game, PgnError, Reader, WriteOptions};

use super::convert::style_args::{NotationArg, StyleArgs};

#[derive(clap::Args)]
#[command(subcommand_required = true, arg_required_else_help = false)]
pub struct Args {
    #[command(subcommand)]
    command: PgnCommand,
}

#[derive(clap::Subcommand)]
enum PgnCommand {
    /// Rewrite every game in another notation (variations and comments kept).
    Convert {
        /// The PGN file (`-` for standard input); UTF-8 or GBK/GB18030.
        file: PathBuf,
        /// Notation to write.
        #[arg(long, value_enum)]
        to: NotationArg,
        #[command(flatten)]
        style: StyleArgs,
        /// Output file (default: standard output). Always UTF-8.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Read every game and report one line per game: index, tags, plies,
    /// result, or the error with its line number.
    Check {
        /// The PGN file (`-` for standard input).
        file: PathBuf,
        /// One JSON object per game (JSON Lines).
        #[arg(long)]
        json: bool,
    },
}

/// Files at least this big get a progress bar (when stderr is a terminal).
const PROGRESS_MIN_BYTES: u64 = 1 << 20;

fn open(path: &Path) -> Result<(Box<dyn BufRead>, Option<u64>)> {
    if path.as_os_str() == "-" {
        return Ok((Box::new(BufReader::new(io::stdin())), None));
    }
    let f = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let len = f.metadata().ok().map(|m| m.len());
    Ok((Box::new(BufReader::with_capacity(1 << 18, f)), len))
}

fn progress(len: Option<u64>) -> ProgressBar {
    match len {
        Some(len) if len >= PROGRESS_MIN_BYTES => {
            let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
            bar.set_style(
                ProgressStyle::with_template(
                    "{bar:40} {bytes}/{total_bytes} {bytes_per_sec} {msg}",
                )
                .expect("valid template"),
            );
            bar
        }
        _ => ProgressBar::hidden(),
    }
}

/// Calls `each` for every game or error, with a progress bar by bytes read.
fn for_each_game(
    path: &Path,
    mut each: impl FnMut(usize, Result<Game, PgnError>) -> Result<()>,
) -> Result<usize> {
    let (src, len) = open(path)?;
    let bar = progress(len);
    let mut reader = Reader::new(src);
    let mut errors = 0;
    let mut index = 0;
    while let Some(item) = reader.next() {
        index += 1;
        if item.is_err() {
            errors += 1;
        }
        each(index, item)?;
        if index % 256 == 0 {
            bar.set_position(reader.bytes_read());
            bar.set_message(format!("{index} games"));
        }
    }
    bar.finish_and_clear();
    Ok(errors)
}

fn tag_summary(game: &Game) -> String {
    let tag = |n: &str| game.tag(n).unwrap_or("?").to_owned();
    let mut s = format!("{} vs {}", tag("Red"), tag("Black"));
    let extra: Vec<&str> = ["Event", "Date"]
        .iter()
        .filter_map(|n| game.tag(n))
        .collect();
    if !extra.is_empty() {
        s.push_str(&format!(" ({})", extra.join(", ")));
    }
    s
}

fn check(file: &Path, as_json: bool) -> Result<()> {
    // One buffered writer for the whole report: a write per game (what
    // `println!` does on a line-buffered stdout) costs more than reading the game.
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut games = 0;
    let errors = for_each_game(file, |index, item| {
        games = index;
        match (item, as_json) {
            (Ok(game), false) => writeln!(
                out,
                "{index}\t{}\t{} plies\t{}\t{}",
                tag_summary(&game),
                game.plies(),
                game.outcome(),
                game.notation
            )?,
            (Ok(game), true) => {
                let tags: serde_json::Map<String, serde_json::Value> = game
                    .tags
                    .iter()
                    .map(|(k, v)| (k.clone(), json!(v)))
                    .collect();
                write_json_line(
                    &mut out,
                    &json!({
                        "game": index,
                        "ok": true,
                        "tags": tags,
                        "notation": game.notation.name(),
                        "plies": game.plies(),
                        "moves_with_variations": game.mainline.count_moves(),
                        "result": game.outcome().as_str(),
                        "result_token": game.result.map(|r| r.as_str()),
                    }),
                )?;
            }
            (Err(e), false) => writeln!(
                out,
                "{index}\terror: line {}, column {}: {}",
                e.line, e.column, e.kind
            )?,
            (Err(e), true) => write_json_line(
                &mut out,
                &json!({
                    "game": index,
                    "ok": false,
                    "line": e.line,
                    "column": e.column,
                    "error": e.kind.to_string(),
                }),
            )?,
        }
        Ok(())
    })?;
    out.flush()?;
    if errors > 0 {
        bail!(
            "{errors} of {games} games in {} could not be read",
            file.display()
        );
    }
    Ok(())
}

/// One JSON Lines record, the format of [`print_json`](crate::common::print_json).
fn write_json_line(out: &mut impl Write, value: &serde_json::Value) -> Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    out.write_all(b"\n")?;
    Ok(())
}

fn convert(file: &Path, to: NotationArg, style: &StyleArgs, output: Option<&Path>) -> Result<()> {
    let options = WriteOptions {
        notation: to.into(),
        style: style.style(),
        line_width: 80,
    };
    let mut out: Box<dyn Write> = match output {
        Some(p) => Box::new(BufWriter::new(
            File::create(p).with_context(|| format!("cannot create {}", p.display()))?,
        )),
        None => Box::new(BufWriter::new(io::stdout().lock())),
    };
    let mut games = 0;
    let errors = for_each_game(file, |index, item| {
        games = index;
        match item {
            Ok(mut game) => {
                if to == NotationArg::Iccs10 {
                    // The tag by which readers know ranks are numbered 1-10 (N-ICCS-RANKS10).
                    game.set_tag("Variant", "xiangqi");
                }
                write_game_to(&mut out, &game, &options).with_context(|| format!("game {index}"))
            }
            Err(e) => {
                // Keep going: report the broken game and convert the others.
                eprintln!("error: {e}");
                Ok(())
            }
        }
    })?;
    out.flush()?;
    if errors > 0 {
        bail!(
            "{errors} of {games} games in {} could not be read and were left out",
            file.display()
        );
    }
    Ok(())
}

pub fn run(args: Args) -> Result<()> {
    match args.command {
        PgnCommand::Check { file, json } => check(&file, json),
        PgnCommand::Convert {
            file,
            to,
            style,
            output,
        } => convert(&file, to, &style, output.as_deref()),
    }
}
