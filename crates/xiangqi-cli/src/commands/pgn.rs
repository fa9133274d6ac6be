//! `xiangqi pgn`: check PGN files game by game, or convert them to another
//! notation; WXF game files (`FORMAT WXF … START{ … }END`) are read and
//! written too.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Cursor, Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::json;
use xiangqi_notation::pgn::wxf_file::looks_like_wxf;
use xiangqi_notation::pgn::{
    write_game_to, write_wxf_to, Game, Reader, WriteOptions, WxfReader, WxfWriteOptions,
};
use xiangqi_notation::WxfStyle;

use super::convert::style_args::{NotationArg, StyleArgs};

#[derive(clap::Args)]
#[command(subcommand_required = true, arg_required_else_help = false)]
pub struct Args {
    #[command(subcommand)]
    command: PgnCommand,
}

#[derive(clap::Subcommand)]
enum PgnCommand {
    /// Rewrite every game in another notation (variations and comments kept),
    /// as PGN or as a WXF game file.
    Convert {
        /// The PGN or WXF game file (`-` for standard input); UTF-8 or GBK/GB18030.
        file: PathBuf,
        /// Notation to write (required for PGN output; WXF game files always
        /// hold WXF moves).
        #[arg(long, value_enum)]
        to: Option<NotationArg>,
        /// What the input is; `auto`: a WXF game file when its first line is
        /// a `FORMAT` line, else PGN.
        #[arg(long, value_enum, default_value = "auto")]
        input_format: InputFormat,
        /// What to write: PGN, or a WXF game file (`FORMAT WXF … START{ }END`).
        #[arg(long, value_enum, default_value = "pgn")]
        output_format: OutputFormat,
        /// WXF output: leave out variations and annotations the format
        /// cannot hold instead of refusing the game.
        #[arg(long)]
        drop_variations: bool,
        #[command(flatten)]
        style: StyleArgs,
        /// Output file (default: standard output). Always UTF-8.
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Read every game and report one line per game: index, tags, plies,
    /// result, or the error with its line number.
    Check {
        /// The PGN or WXF game file (`-` for standard input).
        file: PathBuf,
        /// What the input is; `auto`: a WXF game file when its first line is
        /// a `FORMAT` line, else PGN.
        #[arg(long, value_enum, default_value = "auto")]
        input_format: InputFormat,
        /// One JSON object per game (JSON Lines).
        #[arg(long)]
        json: bool,
    },
}

/// The kind of game file read.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
enum InputFormat {
    /// Decide by the content.
    Auto,
    /// PGN (N-PGN).
    Pgn,
    /// WXF game file.
    Wxf,
}

/// The kind of game file written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
enum OutputFormat {
    /// PGN in the notation of `--to`.
    Pgn,
    /// WXF game file (WXF moves, Black in lower case, `.` for sideways moves).
    Wxf,
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

/// Reads from `src` up to its first non-blank line (at most 1 MiB) and says
/// whether it starts a WXF game file; the source returned still holds it all.
fn sniff(mut src: Box<dyn BufRead>) -> Result<(bool, Box<dyn BufRead>)> {
    let mut head = Vec::new();
    loop {
        let start = head.len();
        let room = (1u64 << 20).saturating_sub(start as u64);
        let n = (&mut src).take(room).read_until(b'\n', &mut head)?;
        let line = String::from_utf8_lossy(&head[start..]);
        if n == 0
            || room == 0
            || !line
                .trim_matches(['\u{feff}', ' ', '\t', '\r', '\n'])
                .is_empty()
        {
            break;
        }
    }
    let is_wxf = looks_like_wxf(&head);
    Ok((is_wxf, Box::new(Cursor::new(head).chain(src))))
}

/// A broken game, from either reader.
struct GameError {
    line: usize,
    column: usize,
    /// What is wrong.
    kind: String,
    /// The whole message, with the game's index and place.
    message: String,
}

/// The games of a PGN or WXF game file (boxed: the readers differ in size).
enum Games {
    Pgn(Box<Reader<Box<dyn BufRead>>>),
    Wxf(Box<WxfReader<Box<dyn BufRead>>>),
}

impl Games {
    fn open(path: &Path, format: InputFormat) -> Result<(Games, Option<u64>)> {
        let (src, len) = open(path)?;
        let (is_wxf, src) = match format {
            InputFormat::Auto => sniff(src)?,
            InputFormat::Pgn => (false, src),
            InputFormat::Wxf => (true, src),
        };
        let games = if is_wxf {
            Games::Wxf(Box::new(WxfReader::new(src)))
        } else {
            Games::Pgn(Box::new(Reader::new(src)))
        };
        Ok((games, len))
    }

    fn next(&mut self) -> Option<Result<Game, GameError>> {
        Some(match self {
            Games::Pgn(r) => r.next()?.map_err(|e| GameError {
                line: e.line,
                column: e.column,
                kind: e.kind.to_string(),
                message: e.to_string(),
            }),
            Games::Wxf(r) => r.next()?.map_err(|e| GameError {
                line: e.line,
                column: e.column,
                kind: e.kind.to_string(),
                message: e.to_string(),
            }),
        })
    }

    fn bytes_read(&self) -> u64 {
        match self {
            Games::Pgn(r) => r.bytes_read(),
            Games::Wxf(r) => r.bytes_read(),
        }
    }
}

/// Calls `each` for every game or error, with a progress bar by bytes read.
fn for_each_game(
    path: &Path,
    format: InputFormat,
    mut each: impl FnMut(usize, Result<Game, GameError>) -> Result<()>,
) -> Result<usize> {
    let (mut reader, len) = Games::open(path, format)?;
    let bar = progress(len);
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

fn check(file: &Path, format: InputFormat, as_json: bool) -> Result<()> {
    // One buffered writer for the whole report: a write per game (what
    // `println!` does on a line-buffered stdout) costs more than reading the game.
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut games = 0;
    let errors = for_each_game(file, format, |index, item| {
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
                    "error": e.kind,
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

/// What `pgn convert` writes.
enum Target {
    Pgn(NotationArg, WriteOptions),
    Wxf(WxfWriteOptions),
}

struct ConvertArgs<'a> {
    file: &'a Path,
    input_format: InputFormat,
    to: Option<NotationArg>,
    output_format: OutputFormat,
    drop_variations: bool,
    style: &'a StyleArgs,
    output: Option<&'a Path>,
}

fn convert(args: ConvertArgs<'_>) -> Result<()> {
    let style = args.style.style();
    let target = match (args.output_format, args.to) {
        (OutputFormat::Pgn, None) => bail!("--to is required: the notation to write"),
        (OutputFormat::Pgn, Some(to)) => Target::Pgn(
            to,
            WriteOptions {
                notation: to.into(),
                style,
                line_width: 80,
            },
        ),
        (OutputFormat::Wxf, None | Some(NotationArg::Wxf)) => Target::Wxf(WxfWriteOptions {
            style: WxfStyle {
                convention: style.wxf.convention,
                ..WxfWriteOptions::default().style
            },
            drop_variations: args.drop_variations,
            ..WxfWriteOptions::default()
        }),
        (OutputFormat::Wxf, Some(_)) => {
            bail!("WXF game files hold WXF moves: leave out --to or use --to wxf")
        }
    };
    let (file, output) = (args.file, args.output);
    let mut out: Box<dyn Write> = match output {
        Some(p) => Box::new(BufWriter::new(
            File::create(p).with_context(|| format!("cannot create {}", p.display()))?,
        )),
        None => Box::new(BufWriter::new(io::stdout().lock())),
    };
    let mut games = 0;
    let errors = for_each_game(file, args.input_format, |index, item| {
        games = index;
        match (item, &target) {
            (Ok(mut game), Target::Pgn(to, options)) => {
                if *to == NotationArg::Iccs10 {
                    // The tag by which readers know ranks are numbered 1-10 (N-ICCS-RANKS10).
                    game.set_tag("Variant", "xiangqi");
                }
                write_game_to(&mut out, &game, options).with_context(|| format!("game {index}"))
            }
            (Ok(game), Target::Wxf(options)) => {
                write_wxf_to(&mut out, &game, options).with_context(|| format!("game {index}"))
            }
            (Err(e), _) => {
                // Keep going: report the broken game and convert the others.
                eprintln!("error: {}", e.message);
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
        PgnCommand::Check {
            file,
            input_format,
            json,
        } => check(&file, input_format, json),
        PgnCommand::Convert {
            file,
            to,
            input_format,
            output_format,
            drop_variations,
            style,
            output,
        } => convert(ConvertArgs {
            file: &file,
            input_format,
            to,
            output_format,
            drop_variations,
            style: &style,
            output: output.as_deref(),
        }),
    }
}
