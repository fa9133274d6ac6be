//! `xiangqi game convert`: every game of a collection rewritten as PGN in
//! a notation, as a WXF game file, or as XQF files, in collection order;
//! a broken game reported and left out, the run going on.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use anyhow::{bail, Context, Result};
use xiangqi_gamefile::collection::UniqueNames;
use xiangqi_gamefile::pgn::{write_game_to, WriteOptions};
use xiangqi_gamefile::wxf::{write_wxf_to, WxfWriteOptions};
use xiangqi_gamefile::{write_xqf, Game, GameFileError, TextEncoding};
use xiangqi_notation::{ChineseStyle, Script, WxfStyle};

use crate::collection::{
    conclude, for_each_game_of_files, report_unreadable, Collection, Event, GameAt,
};
use crate::commands::convert::style_args::{NotationArg, StyleArgs};

/// The kind of game file written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum OutputFormat {
    /// PGN in the notation of `--to`.
    Pgn,
    /// WXF game file (WXF moves, Black in lower case, `.` for sideways moves).
    Wxf,
    /// XQF 1.0, one game per file.
    Xqf,
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
fn convert_to_xqf(args: ConvertArgs<'_>) -> Result<()> {
    let jobs = args.jobs;
    let opening_tags = args.opening_tags;
    let Some(output) = args.output else {
        bail!("XQF output is binary, one game per file: name it with -o FILE or -o DIRECTORY");
    };
    if args.encoding.is_some_and(|e| e != TextEncoding::Gb18030) {
        bail!("XQF stores its text in GB18030: leave out --encoding or use --encoding gb18030");
    }
    let mut collection = args.collection;
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
        jobs,
        |at, item| {
            item.map(|mut game| {
                if let Some(replace) = opening_tags {
                    crate::commands::game_ecco::add_opening_tags(&mut game, replace, false);
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
                Event::Unreadable(what) => {
                    report_unreadable(&what);
                    return Ok(());
                }
            };
            report_warnings(&warnings);
            let path = match &mut place {
                XqfPlace::Named(names) => {
                    let path = output.join(names.next(at.file, at.format(), at.index, "xqf"));
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

pub(super) struct ConvertArgs<'a> {
    /// The games to convert.
    pub collection: Collection,
    /// `--output-encoding`.
    pub encoding: Option<TextEncoding>,
    pub to: Option<NotationArg>,
    pub output_format: OutputFormat,
    pub drop_variations: bool,
    pub style: &'a StyleArgs,
    pub output: Option<&'a Path>,
    /// `--add-opening` (`Some(replace)`: `--replace-opening`).
    pub opening_tags: Option<bool>,
    pub jobs: usize,
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

pub(super) fn convert(args: ConvertArgs<'_>) -> Result<()> {
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
            return convert_to_xqf(args);
        }
        (OutputFormat::Xqf, Some(_)) => bail!("XQF stores squares, not move text: leave out --to"),
    };
    let mut collection = args.collection;
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
        args.jobs,
        |at, item| {
            let item = item.map(|mut game| {
                if named {
                    game.set_tag("Source", &at.name());
                }
                if let Some(replace) = args.opening_tags {
                    let big5 = args.encoding == Some(TextEncoding::Big5);
                    crate::commands::game_ecco::add_opening_tags(&mut game, replace, big5);
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
            Event::Unreadable(what) => {
                report_unreadable(&what);
                Ok(())
            }
        },
    )?;
    out.flush()?;
    conclude(&summary, &collection, " and were left out")
}
