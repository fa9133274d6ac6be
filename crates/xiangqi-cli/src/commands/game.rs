//! `xiangqi game` (alias `xiangqi pgn`): check game files game by game, or
//! convert them. Any format `xiangqi-gamefile` reads comes in (PGN, WXF,
//! XQF, CBF, CBR, CBL; sniffed or given); PGN, WXF game files or XQF go out.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde_json::json;
use xiangqi_gamefile::pgn::{write_game_to, WriteOptions};
use xiangqi_gamefile::wxf::{write_wxf_to, WxfWriteOptions};
use xiangqi_gamefile::{write_xqf, Format, Game, GameFileError, Location};
use xiangqi_notation::WxfStyle;

use super::convert::style_args::{NotationArg, StyleArgs};
use crate::common::write_json_line;
use crate::corpus::for_each_game;
use crate::parallel;

#[derive(clap::Args)]
#[command(subcommand_required = true, arg_required_else_help = false)]
pub struct Args {
    #[command(subcommand)]
    command: GameCommand,
}

#[derive(clap::Subcommand)]
enum GameCommand {
    /// Rewrite every game as PGN in a notation, as a WXF game file, or as
    /// XQF (variations and comments kept where the format has room).
    Convert {
        /// The game file (`-` for standard input): PGN or WXF (UTF-8 or
        /// GBK/GB18030), XQF, CBF, CBR or CBL.
        file: PathBuf,
        /// Notation to write (required for PGN output; WXF game files always
        /// hold WXF moves).
        #[arg(long, value_enum)]
        to: Option<NotationArg>,
        /// What the input is; `auto`: by its first bytes (magic bytes, an
        /// XML start, a `FORMAT` line, else PGN).
        #[arg(long, value_enum, default_value = "auto")]
        input_format: InputFormat,
        /// What to write: PGN, a WXF game file (`FORMAT WXF … START{ }END`),
        /// or XQF 1.0 (one game per file: `-o` names the file, or a
        /// directory that gets `0001.xqf`, `0002.xqf`, …).
        #[arg(long, value_enum, default_value = "pgn")]
        output_format: OutputFormat,
        /// WXF output: leave out variations and annotations the format
        /// cannot hold instead of refusing the game.
        #[arg(long)]
        drop_variations: bool,
        #[command(flatten)]
        style: StyleArgs,
        /// Output file (default: standard output; XQF needs one). Text is UTF-8.
        #[arg(short, long)]
        output: Option<PathBuf>,
        #[arg(long, short = 'j', value_name = "N", default_value_t = 0, help = parallel::JOBS_HELP)]
        jobs: usize,
    },
    /// Read every game and report one line per game: index, tags, plies,
    /// result, or the error with its line number.
    Check {
        /// The game file (`-` for standard input): PGN, WXF, XQF, CBF, CBR or CBL.
        file: PathBuf,
        /// What the input is; `auto`: by its first bytes.
        #[arg(long, value_enum, default_value = "auto")]
        input_format: InputFormat,
        /// One JSON object per game (JSON Lines).
        #[arg(long)]
        json: bool,
        #[arg(long, short = 'j', value_name = "N", default_value_t = 0, help = parallel::JOBS_HELP)]
        jobs: usize,
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
    /// XQF (象棋演播室) 1.0-1.8.
    Xqf,
    /// CCBridge XML game.
    Cbf,
    /// CCBridge binary game.
    Cbr,
    /// CCBridge library.
    Cbl,
}

impl InputFormat {
    fn format(self) -> Option<Format> {
        match self {
            InputFormat::Auto => None,
            InputFormat::Pgn => Some(Format::Pgn),
            InputFormat::Wxf => Some(Format::Wxf),
            InputFormat::Xqf => Some(Format::Xqf),
            InputFormat::Cbf => Some(Format::Cbf),
            InputFormat::Cbr => Some(Format::Cbr),
            InputFormat::Cbl => Some(Format::Cbl),
        }
    }
}

/// The kind of game file written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
enum OutputFormat {
    /// PGN in the notation of `--to`.
    Pgn,
    /// WXF game file (WXF moves, Black in lower case, `.` for sideways moves).
    Wxf,
    /// XQF 1.0, one game per file.
    Xqf,
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

/// The report line (or JSON Lines record) of one game.
fn check_line(index: usize, item: Result<Game, GameFileError>, as_json: bool) -> Result<Vec<u8>> {
    let mut out = Vec::new();
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
        (Err(e), false) => writeln!(out, "{index}\terror: {}: {}", e.location, e.kind)?,
        (Err(e), true) => {
            let mut row = json!({ "game": index, "ok": false });
            match e.location {
                Location::Text { line, column } => {
                    row["line"] = json!(line);
                    row["column"] = json!(column);
                }
                Location::Byte(offset) => row["byte"] = json!(offset),
                Location::File => {}
            }
            row["error"] = json!(e.kind.to_string());
            write_json_line(&mut out, &row)?;
        }
    }
    Ok(out)
}

fn check(file: &Path, format: InputFormat, as_json: bool, jobs: usize) -> Result<()> {
    // One buffered writer for the whole report: a write per game (what
    // `println!` does on a line-buffered stdout) costs more than reading the game.
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let counts = for_each_game(
        file,
        format.format(),
        jobs,
        |index, item| check_line(index, item, as_json),
        |line| Ok(out.write_all(&line?)?),
    )?;
    out.flush()?;
    if counts.errors > 0 {
        bail!(
            "{} of {} games in {} could not be read",
            counts.errors,
            counts.games,
            file.display()
        );
    }
    Ok(())
}

/// XQF output: one file per game, into `output` (a file for a single game,
/// or a directory).
fn convert_to_xqf(
    file: &Path,
    format: InputFormat,
    output: Option<&Path>,
    jobs: usize,
) -> Result<()> {
    let Some(output) = output else {
        bail!("XQF output is binary, one game per file: name it with -o FILE or -o DIRECTORY");
    };
    let into_dir = output.is_dir();
    let mut written = 0;
    let counts = for_each_game(
        file,
        format.format(),
        jobs,
        |index, item| {
            item.map(|game| {
                (
                    index,
                    write_xqf(&game).with_context(|| format!("game {index}")),
                )
            })
        },
        |answer| {
            let (index, bytes) = match answer {
                Ok(done) => done,
                Err(e) => {
                    eprintln!("error: {e}");
                    return Ok(());
                }
            };
            let path = if into_dir {
                output.join(format!("{index:04}.xqf"))
            } else if written == 0 {
                output.to_owned()
            } else {
                bail!(
                    "{} holds more than one game: give -o a directory",
                    file.display()
                );
            };
            std::fs::write(&path, bytes?)
                .with_context(|| format!("cannot write {}", path.display()))?;
            written += 1;
            Ok(())
        },
    )?;
    if counts.errors > 0 {
        bail!(
            "{} of {} games in {} could not be read and were left out",
            counts.errors,
            counts.games,
            file.display()
        );
    }
    Ok(())
}

/// One game converted, or why not.
enum Converted {
    Text(Vec<u8>),
    Unreadable(GameFileError),
    Unwritable(anyhow::Error),
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
    jobs: usize,
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
        (OutputFormat::Xqf, None | Some(NotationArg::Iccs)) => {
            return convert_to_xqf(args.file, args.input_format, args.output, args.jobs);
        }
        (OutputFormat::Xqf, Some(_)) => bail!("XQF stores squares, not move text: leave out --to"),
    };
    let (file, output) = (args.file, args.output);
    let mut out: Box<dyn Write> = match output {
        Some(p) => Box::new(BufWriter::new(
            File::create(p).with_context(|| format!("cannot create {}", p.display()))?,
        )),
        None => Box::new(BufWriter::new(io::stdout().lock())),
    };
    let counts = for_each_game(
        file,
        args.input_format.format(),
        args.jobs,
        |index, item| {
            let mut text = Vec::new();
            let written = match (item, &target) {
                (Ok(mut game), Target::Pgn(to, options)) => {
                    if *to == NotationArg::Iccs10 {
                        // The tag by which readers know ranks are numbered 1-10 (N-ICCS-RANKS10).
                        game.set_tag("Variant", "xiangqi");
                    }
                    write_game_to(&mut text, &game, options).map_err(anyhow::Error::from)
                }
                (Ok(game), Target::Wxf(options)) => {
                    write_wxf_to(&mut text, &game, options).map_err(anyhow::Error::from)
                }
                (Err(e), _) => return Converted::Unreadable(e),
            };
            match written {
                Ok(()) => Converted::Text(text),
                Err(e) => Converted::Unwritable(e.context(format!("game {index}"))),
            }
        },
        |answer| match answer {
            Converted::Text(text) => Ok(out.write_all(&text)?),
            Converted::Unreadable(e) => {
                // Keep going: report the broken game and convert the others.
                eprintln!("error: {e}");
                Ok(())
            }
            Converted::Unwritable(e) => Err(e),
        },
    )?;
    out.flush()?;
    if counts.errors > 0 {
        bail!(
            "{} of {} games in {} could not be read and were left out",
            counts.errors,
            counts.games,
            file.display()
        );
    }
    Ok(())
}

pub fn run(args: Args) -> Result<()> {
    match args.command {
        GameCommand::Check {
            file,
            input_format,
            json,
            jobs,
        } => check(&file, input_format, json, jobs),
        GameCommand::Convert {
            file,
            to,
            input_format,
            output_format,
            drop_variations,
            style,
            output,
            jobs,
        } => convert(ConvertArgs {
            file: &file,
            input_format,
            to,
            output_format,
            drop_variations,
            style: &style,
            output: output.as_deref(),
            jobs,
        }),
    }
}
