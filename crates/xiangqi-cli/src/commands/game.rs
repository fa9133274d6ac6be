//! `xiangqi game` (alias `xiangqi pgn`): check game files game by game,
//! convert them, or view them (`game_view.rs`). Any format `xiangqi-gamefile` reads comes in (PGN, WXF,
//! XQF, CBF, CBR, CBL; sniffed or given), from files, directories and
//! patterns (a collection: `xiangqi_gamefile::collection`); PGN, WXF game
//! files or XQF go out.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;

use anyhow::{anyhow, bail, Context, Result};
use serde_json::json;
use xiangqi_gamefile::collection::{CollectedFile, CollectionError, UniqueNames};
use xiangqi_gamefile::pgn::{write_game_to, WriteOptions};
use xiangqi_gamefile::wxf::{write_wxf_to, WxfWriteOptions};
use xiangqi_gamefile::{write_xqf, Format, Game, GameFileError, Location, TextEncoding};
use xiangqi_notation::{ChineseStyle, Script, WxfStyle};

use super::convert::style_args::{NotationArg, StyleArgs};
use crate::collection::{for_each_game_of_files, Collection, Event, GameAt, Summary, Unreadable};
use crate::common::{write_json_line, ENCODING_HELP, JOBS_HELP};

/// The help of the inputs of `game check` and `game convert`.
const INPUTS_HELP: &str = "Game files (`-`: standard input), directories (walked recursively \
     for *.pgn, *.wxf, *.xqf, *.cbf, *.cbr, *.cbl, sorted) or patterns (quoted: 'dir/**/*.xqf'). \
     More than one file, a directory or a pattern: every game is named by its file, a file that \
     cannot be read is reported and the run goes on, a summary line ends it";

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
        #[arg(required = true, value_name = "INPUT", help = INPUTS_HELP)]
        inputs: Vec<PathBuf>,
        /// Notation to write (required for PGN output; WXF game files always
        /// hold WXF moves).
        #[arg(long, value_enum)]
        to: Option<NotationArg>,
        /// What the input is; `auto`: by its first bytes (magic bytes, an
        /// XML start, a `FORMAT` line, else PGN).
        #[arg(long, value_enum, default_value = "auto")]
        input_format: InputFormat,
        #[arg(long, value_name = "NAME", value_parser = TextEncoding::from_str, help = ENCODING_HELP)]
        input_encoding: Option<TextEncoding>,
        /// The encoding of the PGN or WXF text written (default utf-8).
        /// `gb18030` and `big5` write what the Chinese PC programs read
        /// (`big5`: Chinese moves in traditional characters, 車馬炮 for both
        /// sides); a character the encoding cannot hold (a simplified one
        /// in a tag or comment, for Big5) is an error naming the game and
        /// the character. XQF is always written in GB18030.
        #[arg(long, value_name = "NAME", value_parser = TextEncoding::from_str)]
        encoding: Option<TextEncoding>,
        /// What to write: PGN, a WXF game file (`FORMAT WXF … START{ }END`),
        /// or XQF 1.0 (one game per file: `-o` names the file, or a
        /// directory that gets `0001.xqf`, `0002.xqf`, …; from a
        /// collection, `-o` is a directory that gets the inputs' names,
        /// e.g. `sub/a.xqf`, `lib-12.xqf`).
        #[arg(long, value_enum, default_value = "pgn")]
        output_format: OutputFormat,
        /// WXF output: leave out variations and annotations the format
        /// cannot hold instead of refusing the game.
        #[arg(long)]
        drop_variations: bool,
        #[command(flatten)]
        style: StyleArgs,
        /// Output file (default: standard output; XQF needs one). Text is
        /// UTF-8. From a collection every game gets a `Source` tag naming
        /// its file (`sub/a.xqf`, `lib.CBL#12`).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// A game read with errors (a line cut at a move that cannot be
        /// played, a diagram's side to move corrected) is an error, not a
        /// game with warnings.
        #[arg(long)]
        strict: bool,
        /// Write each game's opening as `[ECCO]` and `[Opening]` tags (and
        /// `[Variation]`), from the ECCO classification (`game ecco`); a
        /// game's own tags are kept.
        #[arg(long)]
        add_opening: bool,
        /// With `--add-opening`: replace the game's own `[ECCO]`,
        /// `[Opening]` and `[Variation]` tags.
        #[arg(long, requires = "add_opening")]
        replace_opening: bool,
        #[arg(long, short = 'j', value_name = "N", default_value_t = 0, help = JOBS_HELP)]
        jobs: usize,
    },
    /// Write the games of a file as one self-contained HTML page with the
    /// interactive viewer (board, move tree, evaluation curve, accuracy,
    /// an opening explorer's table with `--explorer`; works offline, opened
    /// by double-click). Several games get a game list.
    View {
        /// A game file of any format `game check` reads.
        input: PathBuf,
        /// Only game N of the file (from 1).
        #[arg(long, value_name = "N")]
        game: Option<usize>,
        /// The notation the page starts in (switchable on the page).
        #[arg(long, value_enum, default_value = "coordinate")]
        notation: super::game_view::ViewNotation,
        /// What the input is; `auto`: by its first bytes.
        #[arg(long, value_enum, default_value = "auto")]
        input_format: InputFormat,
        #[arg(long, value_name = "NAME", value_parser = TextEncoding::from_str, help = ENCODING_HELP)]
        encoding: Option<TextEncoding>,
        /// An opening explorer (`xiangqi explore build`) whose table the
        /// page shows beside the board for the games' positions.
        #[arg(long, value_name = "DB")]
        explorer: Option<PathBuf>,
        /// The HTML file to write.
        #[arg(short, long, required = true)]
        output: PathBuf,
    },
    /// Each game's opening in the ECCO classification (A00-E99), one line
    /// per game: code, Chinese and English name, the ply that decided it
    /// (`-`: a game from another position, or without moves).
    Ecco {
        #[arg(required = true, value_name = "INPUT", help = INPUTS_HELP)]
        inputs: Vec<PathBuf>,
        /// What the input is; `auto`: by its first bytes.
        #[arg(long, value_enum, default_value = "auto")]
        input_format: InputFormat,
        #[arg(long, value_name = "NAME", value_parser = TextEncoding::from_str, help = ENCODING_HELP)]
        encoding: Option<TextEncoding>,
        /// One JSON object per game: `file`, `game` and `tags` as in
        /// `game check --json`, with `code`, `name`, `name_traditional`,
        /// `name_en` and `ply`.
        #[arg(long)]
        json: bool,
        #[arg(long, short = 'j', value_name = "N", default_value_t = 0, help = JOBS_HELP)]
        jobs: usize,
    },
    /// Read every game and report one line per game: index, tags, plies,
    /// result, or the error with its line number.
    Check {
        #[arg(required = true, value_name = "INPUT", help = INPUTS_HELP)]
        inputs: Vec<PathBuf>,
        /// What the input is; `auto`: by its first bytes.
        #[arg(long, value_enum, default_value = "auto")]
        input_format: InputFormat,
        #[arg(long, value_name = "NAME", value_parser = TextEncoding::from_str, help = ENCODING_HELP)]
        encoding: Option<TextEncoding>,
        /// One JSON object per game (JSON Lines, with the encoding its
        /// file was read in); from a collection, a last object
        /// `{"summary": {…}}`.
        #[arg(long)]
        json: bool,
        /// A game read with errors (a line cut at a move that cannot be
        /// played, a diagram's side to move corrected) is an error, not a
        /// game with warnings.
        #[arg(long)]
        strict: bool,
        #[arg(long, short = 'j', value_name = "N", default_value_t = 0, help = JOBS_HELP)]
        jobs: usize,
    },
}

/// The kind of game file read: `auto` (decided by the content) or one of
/// the formats the game-file library reads, by its name.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct InputFormat(Option<Format>);

impl InputFormat {
    fn format(self) -> Option<Format> {
        self.0
    }
}

impl clap::ValueEnum for InputFormat {
    fn value_variants<'a>() -> &'a [Self] {
        const VARIANTS: [InputFormat; Format::ALL.len() + 1] = {
            let mut variants = [InputFormat(None); Format::ALL.len() + 1];
            let mut i = 0;
            while i < Format::ALL.len() {
                variants[i + 1] = InputFormat(Some(Format::ALL[i]));
                i += 1;
            }
            variants
        };
        &VARIANTS
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        let value = clap::builder::PossibleValue::new(self.0.map_or("auto", Format::name));
        Some(value.help(self.0.map_or("Decide by the content", Format::description)))
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

/// The report line (or JSON Lines record) of one game; `file` names its
/// file, when it comes from a collection.
/// Where an error is and what it says, as `check --json` writes it (a
/// broken game's fields, and each of a game's warnings): `line` and
/// `column`, or `byte`, then `error`.
fn error_json(e: &GameFileError) -> serde_json::Value {
    let mut place = serde_json::Map::new();
    match e.location {
        Location::Text { line, column } => {
            place.insert("line".into(), json!(line));
            place.insert("column".into(), json!(column));
        }
        Location::Byte(offset) => {
            place.insert("byte".into(), json!(offset));
        }
        Location::File => {}
    }
    place.insert("error".into(), json!(e.kind.to_string()));
    place.into()
}

fn check_line(
    file: Option<&CollectedFile>,
    index: usize,
    encoding: Option<TextEncoding>,
    item: Result<Game, GameFileError>,
    as_json: bool,
) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut row = serde_json::Map::new();
    if let Some(file) = file {
        if as_json {
            row.insert("file".into(), json!(file.path.to_string_lossy()));
        } else {
            write!(out, "{}\t", file.path.display())?;
        }
    }
    row.insert("game".into(), json!(index));
    // The file's: known once it was opened (not for a file that was not).
    if let Some(encoding) = encoding {
        row.insert("encoding".into(), json!(encoding.name()));
    }
    match (item, as_json) {
        (Ok(game), false) => {
            write!(
                out,
                "{index}\t{}\t{} plies\t{}\t{}",
                tag_summary(&game),
                game.plies(),
                game.outcome(),
                game.notation
            )?;
            for e in &game.errors {
                write!(out, "\twarning: {}: {}", e.location, e.kind)?;
            }
            writeln!(out)?
        }
        (Ok(game), true) => {
            let tags: serde_json::Map<String, serde_json::Value> = game
                .tags
                .iter()
                .map(|(k, v)| (k.clone(), json!(v)))
                .collect();
            for (key, value) in [
                ("ok", json!(true)),
                ("tags", json!(tags)),
                ("notation", json!(game.notation.name())),
                ("plies", json!(game.plies())),
                ("moves_with_variations", json!(game.mainline.count_moves())),
                ("result", json!(game.outcome().as_str())),
                ("result_token", json!(game.result.map(|r| r.as_str()))),
                ("warnings", game.errors.iter().map(error_json).collect()),
            ] {
                row.insert(key.into(), value);
            }
            write_json_line(&mut out, &row.into())?;
        }
        (Err(e), false) => writeln!(out, "{index}\terror: {}: {}", e.location, e.kind)?,
        (Err(e), true) => {
            row.insert("ok".into(), json!(false));
            if let serde_json::Value::Object(place) = error_json(&e) {
                row.extend(place);
            }
            write_json_line(&mut out, &row.into())?;
        }
    }
    Ok(out)
}

/// The report line (or JSON Lines record) of a file or folder of a
/// collection that could not be read: like a broken game's, numbered by
/// the game where reading stopped (0: before any).
fn unreadable_line(what: Unreadable<'_>, as_json: bool) -> Result<Vec<u8>> {
    let (path, reason) = match what {
        Unreadable::File(file, e) => return check_line(Some(file), e.game, None, Err(e), as_json),
        Unreadable::Folder(CollectionError::Unreadable { path, reason }) => {
            (path.to_string_lossy(), reason.clone())
        }
        Unreadable::Folder(other) => (Default::default(), other.to_string()),
    };
    let mut out = Vec::new();
    if as_json {
        let row = json!({ "file": path, "game": 0, "ok": false, "error": reason });
        write_json_line(&mut out, &row)?;
    } else {
        writeln!(out, "{path}\t0\terror: {reason}")?;
    }
    Ok(out)
}

/// A file or folder that could not be read: from a collection, reported on
/// stderr and the run goes on; a single file named alone fails the run.
fn report_unreadable(what: Unreadable<'_>, collection: &Collection) -> Result<()> {
    if collection.single {
        return Err(anyhow!("{what}"));
    }
    eprintln!("error: {what}");
    Ok(())
}

/// Ends a run: the summary line on stderr (a collection), and the exit
/// status: broken games and unreadable files fail the run, warnings do not.
/// `and_then` says what became of the broken games.
fn conclude(summary: &Summary, collection: &Collection, and_then: &str) -> Result<()> {
    if let (true, [Ok(file)]) = (collection.single, collection.files.as_slice()) {
        if summary.broken_games > 0 {
            bail!(
                "{} of {} games in {} could not be read{and_then}",
                summary.broken_games,
                summary.games,
                file.path.display()
            );
        }
        return Ok(());
    }
    eprintln!("{}", summary.line());
    match summary.failure(and_then) {
        Some(failure) => bail!(failure),
        None => Ok(()),
    }
}

fn check(
    inputs: &[PathBuf],
    format: InputFormat,
    encoding: Option<TextEncoding>,
    as_json: bool,
    strict: bool,
    jobs: usize,
) -> Result<()> {
    let mut collection = Collection::of(inputs)?;
    collection.strict = strict;
    collection.encoding = encoding;
    let named = !collection.single;
    // One buffered writer for the whole report: a write per game (what
    // `println!` does on a line-buffered stdout) costs more than reading the game.
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let summary = for_each_game_of_files(
        &collection,
        format.format(),
        jobs,
        |at, item| {
            let file = named.then_some(at.file);
            check_line(file, at.index, at.encoding, item, as_json)
        },
        |event| match event {
            Event::Game(line) => Ok(out.write_all(&line?)?),
            Event::Unreadable(what) if named => {
                Ok(out.write_all(&unreadable_line(what, as_json)?)?)
            }
            Event::Unreadable(what) => report_unreadable(what, &collection),
        },
    )?;
    if as_json && named {
        write_json_line(&mut out, &summary.json())?;
    }
    out.flush()?;
    conclude(&summary, &collection, "")
}

/// Where `convert --output-format xqf` puts each game.
enum XqfPlace {
    /// `-o FILE`: the one game of the one file named.
    OneFile,
    /// `-o DIRECTORY`, one file named: `0001.xqf`, `0002.xqf`, …
    Numbered,
    /// `-o DIRECTORY`, a collection: names from the inputs'.
    Named(UniqueNames),
}

/// How a game is named in an error: by its number in the one file named,
/// by its name in a collection.
fn game_label(at: &GameAt<'_>, collection: &Collection) -> String {
    if collection.single {
        format!("game {}", at.index)
    } else {
        at.name()
    }
}

/// XQF output: one file per game, into `output` (a file for a single game,
/// or a directory).
fn convert_to_xqf(args: &ConvertArgs<'_>) -> Result<()> {
    let (format, jobs) = (args.input_format, args.jobs);
    let Some(output) = args.output else {
        bail!("XQF output is binary, one game per file: name it with -o FILE or -o DIRECTORY");
    };
    if args.encoding.is_some_and(|e| e != TextEncoding::Gb18030) {
        bail!("XQF stores its text in GB18030: leave out --encoding or use --encoding gb18030");
    }
    let mut collection = Collection::of(args.inputs)?;
    collection.strict = args.strict;
    collection.encoding = args.input_encoding;
    if !collection.single {
        // Not read on the next run (`convert DIR --output-format xqf -o DIR/xqf`).
        collection.leave_out(output);
    }
    let collection = &collection;
    let mut place = if !collection.single {
        std::fs::create_dir_all(output)
            .with_context(|| format!("cannot create {}", output.display()))?;
        XqfPlace::Named(UniqueNames::new())
    } else if output.is_dir() || names_a_directory(output) {
        // `-o xqf-dir/`: a folder by its trailing separator, made if missing.
        std::fs::create_dir_all(output)
            .with_context(|| format!("cannot create {}", output.display()))?;
        XqfPlace::Numbered
    } else {
        XqfPlace::OneFile
    };
    let mut written = 0;
    let summary = for_each_game_of_files(
        collection,
        format.format(),
        jobs,
        |at, item| {
            item.map(|mut game| {
                if let Some(replace) = args.opening_tags {
                    super::game_ecco::add_opening_tags(&mut game, replace, false);
                }
                let bytes = write_xqf(&game).with_context(|| game_label(&at, collection));
                (at, bytes, game.errors)
            })
        },
        |event| {
            let (at, bytes, warnings) = match event {
                Event::Game(Ok(done)) => done,
                Event::Game(Err(e)) => {
                    eprintln!("error: {e}");
                    return Ok(());
                }
                Event::Unreadable(what) => return report_unreadable(what, collection),
            };
            report_warnings(&warnings);
            let path = match &mut place {
                XqfPlace::Named(names) => {
                    let path = output.join(names.next(at.file, at.format, at.index, "xqf"));
                    if let Some(folder) = path.parent() {
                        std::fs::create_dir_all(folder)
                            .with_context(|| format!("cannot create {}", folder.display()))?;
                    }
                    path
                }
                XqfPlace::Numbered => output.join(format!("{:04}.xqf", at.index)),
                XqfPlace::OneFile if written == 0 => output.to_owned(),
                XqfPlace::OneFile => bail!(
                    "{} holds more than one game: give -o a directory",
                    at.file.path.display()
                ),
            };
            std::fs::write(&path, bytes?)
                .with_context(|| format!("cannot write {}", path.display()))?;
            written += 1;
            Ok(())
        },
    )?;
    conclude(&summary, collection, " and were left out")
}

/// Whether `path` is written as a directory: it ends with a separator.
fn names_a_directory(path: &Path) -> bool {
    path.as_os_str()
        .to_string_lossy()
        .ends_with(std::path::is_separator)
}

/// One game converted, or why not.
enum Converted {
    /// The text, and the game's errors (reported as warnings).
    Text(Vec<u8>, Vec<GameFileError>),
    Unreadable(GameFileError),
    Unwritable(anyhow::Error),
}

/// What `pgn convert` writes.
enum Target {
    Pgn(NotationArg, WriteOptions),
    Wxf(WxfWriteOptions),
}

struct ConvertArgs<'a> {
    inputs: &'a [PathBuf],
    input_format: InputFormat,
    input_encoding: Option<TextEncoding>,
    encoding: Option<TextEncoding>,
    to: Option<NotationArg>,
    output_format: OutputFormat,
    drop_variations: bool,
    style: &'a StyleArgs,
    output: Option<&'a Path>,
    strict: bool,
    /// `--add-opening` (`Some(replace)`: `--replace-opening`).
    opening_tags: Option<bool>,
    jobs: usize,
}

/// A game's errors, converted anyway (the legal part of a cut line):
/// warnings on stderr, each naming its file, game and place.
fn report_warnings(warnings: &[GameFileError]) {
    for warning in warnings {
        eprintln!("warning: {warning}");
    }
}

/// One game written as text in `encoding` (UTF-8 by default), `label`
/// naming it in an error.
fn convert_game(
    item: Result<Game, GameFileError>,
    target: &Target,
    encoding: Option<TextEncoding>,
    label: String,
) -> Converted {
    let mut text = Vec::new();
    let warnings = item
        .as_ref()
        .map_or_else(|_| Vec::new(), |g| g.errors.clone());
    let written = match (item, target) {
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
    let encoded = written.and_then(|()| match encoding {
        None | Some(TextEncoding::Utf8) => Ok(text),
        Some(encoding) => {
            // The writers write UTF-8.
            let text = String::from_utf8(text)?;
            Ok(encoding.encode(&text)?.into_owned())
        }
    });
    match encoded {
        Ok(text) => Converted::Text(text, warnings),
        Err(e) => Converted::Unwritable(e.context(label)),
    }
}

fn convert(args: ConvertArgs<'_>) -> Result<()> {
    let mut style = args.style.style();
    if args.encoding == Some(TextEncoding::Big5) {
        // What Big5 holds and Big5 files write (the CCPD's): traditional
        // characters, one set for both sides (車馬炮: 俥傌 are not in Big5).
        style.chinese = ChineseStyle {
            script: Script::Traditional,
            red_black_sets: false,
        };
    }
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
            return convert_to_xqf(&args);
        }
        (OutputFormat::Xqf, Some(_)) => bail!("XQF stores squares, not move text: leave out --to"),
    };
    let mut collection = Collection::of(args.inputs)?;
    collection.strict = args.strict;
    collection.encoding = args.input_encoding;
    let named = !collection.single;
    if let (true, Some(output)) = (named, args.output) {
        // Not read while it is written (`convert DIR -o DIR/all.pgn`, run again).
        collection.leave_out(output);
    }
    let mut out: Box<dyn Write> = match args.output {
        Some(p) => Box::new(BufWriter::new(
            File::create(p).with_context(|| format!("cannot create {}", p.display()))?,
        )),
        None => Box::new(BufWriter::new(io::stdout().lock())),
    };
    let summary = for_each_game_of_files(
        &collection,
        args.input_format.format(),
        args.jobs,
        |at, item| {
            let item = item.map(|mut game| {
                if named {
                    game.set_tag("Source", &at.name());
                }
                if let Some(replace) = args.opening_tags {
                    let big5 = args.encoding == Some(TextEncoding::Big5);
                    super::game_ecco::add_opening_tags(&mut game, replace, big5);
                }
                game
            });
            convert_game(item, &target, args.encoding, game_label(&at, &collection))
        },
        |event| match event {
            Event::Game(Converted::Text(text, warnings)) => {
                report_warnings(&warnings);
                Ok(out.write_all(&text)?)
            }
            Event::Game(Converted::Unreadable(e)) => {
                // Keep going: report the broken game and convert the others.
                eprintln!("error: {e}");
                Ok(())
            }
            Event::Game(Converted::Unwritable(e)) => Err(e),
            Event::Unreadable(what) => report_unreadable(what, &collection),
        },
    )?;
    out.flush()?;
    conclude(&summary, &collection, " and were left out")
}

pub fn run(args: Args) -> Result<()> {
    match args.command {
        GameCommand::Check {
            inputs,
            input_format,
            encoding,
            json,
            strict,
            jobs,
        } => check(&inputs, input_format, encoding, json, strict, jobs),
        GameCommand::Ecco {
            inputs,
            input_format,
            encoding,
            json,
            jobs,
        } => super::game_ecco::ecco(super::game_ecco::EccoArgs {
            inputs: &inputs,
            format: input_format.format(),
            encoding,
            json,
            jobs,
        }),
        GameCommand::View {
            input,
            game,
            notation,
            input_format,
            encoding,
            explorer,
            output,
        } => super::game_view::view(super::game_view::ViewArgs {
            input: &input,
            format: input_format.format(),
            encoding,
            game,
            notation,
            explorer: explorer.as_deref(),
            output: &output,
        }),
        GameCommand::Convert {
            inputs,
            to,
            input_format,
            input_encoding,
            encoding,
            output_format,
            drop_variations,
            style,
            output,
            strict,
            add_opening,
            replace_opening,
            jobs,
        } => convert(ConvertArgs {
            inputs: &inputs,
            input_format,
            input_encoding,
            encoding,
            to,
            output_format,
            drop_variations,
            style: &style,
            output: output.as_deref(),
            strict,
            opening_tags: add_opening.then_some(replace_opening),
            jobs,
        }),
    }
}
