//! `xiangqi game` (alias `xiangqi pgn`): check game files game by game
//! (`check.rs`), convert them (`convert.rs`), name their openings
//! (`../game_ecco.rs`) or view them (`../game_view.rs`). Any format `xiangqi-gamefile` reads comes in (PGN,
//! WXF, XQF, CBF, CBR, CBL; sniffed or given), from files, directories and
//! patterns, through the one collection reader (`crate::collection`); PGN,
//! WXF game files or XQF go out.

mod check;
mod convert;

use std::path::PathBuf;
use std::str::FromStr;

use anyhow::Result;
use xiangqi_gamefile::TextEncoding;

use super::convert::style_args::{NotationArg, StyleArgs};
use crate::options::{JobsArg, LegacyEncoding, ReadArgs, INPUTS_HELP};

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
        #[command(flatten)]
        read: ReadArgs,
        /// The encoding of the PGN or WXF text written (default utf-8).
        /// `gb18030` and `big5` write what the Chinese PC programs read
        /// (`big5`: Chinese moves in traditional characters, 車馬炮 for both
        /// sides); a character the encoding cannot hold (a simplified one
        /// in a tag or comment, for Big5) is an error naming the game and
        /// the character. XQF is always written in GB18030. (`--encoding`
        /// is its former name.)
        #[arg(long, alias = "encoding", value_name = "NAME", value_parser = TextEncoding::from_str)]
        output_encoding: Option<TextEncoding>,
        /// What to write: PGN, a WXF game file (`FORMAT WXF … START{ }END`),
        /// or XQF 1.0 (one game per file: `-o` names the file, or a
        /// directory that gets `0001.xqf`, `0002.xqf`, …; from a
        /// collection, `-o` is a directory that gets the inputs' names,
        /// e.g. `sub/a.xqf`, `lib-12.xqf`).
        #[arg(long, value_enum, default_value = "pgn")]
        output_format: convert::OutputFormat,
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
        /// Write each game's opening as `[ECCO]` and `[Opening]` tags (and
        /// `[Variation]`), from the ECCO classification (`game ecco`); a
        /// game's own tags are kept.
        #[arg(long)]
        add_opening: bool,
        /// With `--add-opening`: replace the game's own `[ECCO]`,
        /// `[Opening]` and `[Variation]` tags.
        #[arg(long, requires = "add_opening")]
        replace_opening: bool,
        #[command(flatten)]
        jobs: JobsArg,
    },
    /// Each game's opening in the ECCO classification (A00-E99), one line
    /// per game: code, Chinese and English name, the ply that decided it
    /// (`-`: a game from another position, or without moves).
    Ecco {
        #[arg(required = true, value_name = "INPUT", help = INPUTS_HELP)]
        inputs: Vec<PathBuf>,
        #[command(flatten)]
        read: ReadArgs,
        /// One JSON object per game: `file`, `game` and `tags` as in
        /// `game check --json`, with `code`, `name`, `name_traditional`,
        /// `name_en` and `ply`; from a collection, a last object
        /// `{"summary": {…}}`.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        jobs: JobsArg,
    },
    /// Write the games of files as one self-contained HTML page with the
    /// interactive viewer (board, move tree, evaluation curve, accuracy,
    /// an opening explorer's table with `--explorer`; works offline, opened
    /// by double-click). Several games get a game list.
    View {
        #[arg(required = true, value_name = "INPUT", help = INPUTS_HELP)]
        inputs: Vec<PathBuf>,
        /// Only game N of the games read (from 1).
        #[arg(long, value_name = "N")]
        game: Option<usize>,
        /// The notation the page starts in (switchable on the page).
        #[arg(long, value_enum, default_value = "iccs")]
        notation: super::game_view::ViewNotation,
        #[command(flatten)]
        read: ReadArgs,
        #[command(flatten)]
        legacy: LegacyEncoding,
        /// An opening explorer (`xiangqi explore build`) whose table the
        /// page shows beside the board for the games' positions.
        #[arg(long, value_name = "DB")]
        explorer: Option<PathBuf>,
        /// The HTML file to write.
        #[arg(short, long, required = true)]
        output: PathBuf,
    },
    /// Read every game and report one line per game: index, tags, plies,
    /// result, or the error with its line number.
    Check {
        #[arg(required = true, value_name = "INPUT", help = INPUTS_HELP)]
        inputs: Vec<PathBuf>,
        #[command(flatten)]
        read: ReadArgs,
        #[command(flatten)]
        legacy: LegacyEncoding,
        /// One JSON object per game (JSON Lines, with the encoding its
        /// file was read in); from a collection, a last object
        /// `{"summary": {…}}`.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        jobs: JobsArg,
    },
}

pub fn run(args: Args) -> Result<()> {
    match args.command {
        GameCommand::Check {
            inputs,
            read,
            legacy,
            json,
            jobs,
        } => {
            let collection = read.collection(&inputs, Some(&legacy))?;
            check::check(collection, json, jobs.jobs)
        }
        GameCommand::Ecco {
            inputs,
            read,
            json,
            jobs,
        } => {
            let collection = read.collection(&inputs, None)?;
            super::game_ecco::ecco(collection, json, jobs.jobs)
        }
        GameCommand::View {
            inputs,
            game,
            notation,
            read,
            legacy,
            explorer,
            output,
        } => {
            let collection = read.collection(&inputs, Some(&legacy))?;
            super::game_view::view(super::game_view::ViewArgs {
                collection,
                game,
                notation,
                explorer: explorer.as_deref(),
                output: &output,
            })
        }
        GameCommand::Convert {
            inputs,
            to,
            read,
            output_encoding,
            output_format,
            drop_variations,
            style,
            output,
            add_opening,
            replace_opening,
            jobs,
        } => {
            let collection = read.collection(&inputs, None)?;
            convert::convert(convert::ConvertArgs {
                collection,
                encoding: output_encoding,
                to,
                output_format,
                drop_variations,
                style: &style,
                output: output.as_deref(),
                opening_tags: add_opening.then_some(replace_opening),
                jobs: jobs.jobs,
            })
        }
    }
}
