//! The option types every command shares (docs/cli.md, "Conventions"): the
//! game files read and how (`--input-format`, `--input-encoding`,
//! `--strict`), `--jobs`, `--json`. One definition each, so every command
//! takes the same names and values.

use std::path::PathBuf;
use std::str::FromStr;

use xiangqi_gamefile::{Format, TextEncoding};

use crate::collection::Collection;

/// The help of the inputs of every command that reads game files.
pub const INPUTS_HELP: &str = "Game files (`-`: standard input), directories (walked recursively \
     for *.pgn, *.wxf, *.xqf, *.cbf, *.cbr, *.cbl, sorted) or patterns (quoted: 'dir/**/*.xqf'). \
     More than one file, a directory or a pattern: every game is named by its file, a file that \
     cannot be read is reported and the run goes on, a summary line ends it";

/// The help of `--input-encoding`.
pub const ENCODING_HELP: &str = "The encoding of the files' text (PGN, WXF; XQF's names and \
     comments): utf-8, utf-16le, utf-16be, gb18030 (gbk, gb2312) or big5. Default: detected once \
     per file (a byte-order mark, else from the file's start); bytes it cannot decode are read \
     as U+FFFD with a warning";

/// The help of every `--jobs`.
pub const JOBS_HELP: &str =
    "Games worked on at once, one thread each; output stays in input order (0: one per core)";

/// How the game files are read: the same three options in every command
/// that reads games.
#[derive(Clone, Debug, clap::Args)]
pub struct ReadArgs {
    /// What the input is; `auto`: by its first bytes (magic bytes, an
    /// XML start, a `FORMAT` line, else PGN).
    #[arg(long, value_enum, default_value = "auto")]
    pub input_format: InputFormat,
    #[arg(long, value_name = "NAME", value_parser = TextEncoding::from_str, help = ENCODING_HELP)]
    pub input_encoding: Option<TextEncoding>,
    /// A game read with errors (a line cut at a move that cannot be
    /// played, a diagram's side to move corrected) is an error, not a
    /// game with warnings.
    #[arg(long)]
    pub strict: bool,
}

/// `--encoding`, the former name of `--input-encoding` in the commands
/// that do not write text (hidden; kept for one release, CHANGELOG.md).
#[derive(Clone, Debug, clap::Args)]
pub struct LegacyEncoding {
    #[arg(long = "encoding", value_name = "NAME", value_parser = TextEncoding::from_str, hide = true, conflicts_with = "input_encoding")]
    pub encoding: Option<TextEncoding>,
}

impl ReadArgs {
    /// The collection `inputs` name, read as these options say;
    /// `legacy` is the command's old `--encoding`, if it had one.
    pub fn collection(
        &self,
        inputs: &[PathBuf],
        legacy: Option<&LegacyEncoding>,
    ) -> anyhow::Result<Collection> {
        let mut collection = Collection::of(inputs)?;
        collection.strict = self.strict;
        collection.encoding = self.input_encoding.or(legacy.and_then(|l| l.encoding));
        collection.format = self.input_format.format();
        Ok(collection)
    }
}

/// `--jobs`.
#[derive(Clone, Copy, Debug, clap::Args)]
pub struct JobsArg {
    #[arg(long, short = 'j', value_name = "N", default_value_t = 0, help = JOBS_HELP)]
    pub jobs: usize,
}

/// The kind of game file read: `auto` (decided by the content) or one of
/// the formats the game-file library reads, by its name.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct InputFormat(Option<Format>);

impl InputFormat {
    pub fn format(self) -> Option<Format> {
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

/// `--clock BASE[+INC]`, the one time-control spelling: seconds, decimals
/// allowed (`10+0.1`, `300+2`), or with a unit on each part (`90s`,
/// `1500ms`, `5m`). Bare whole numbers of 1000 or more with no unit are
/// the former milliseconds of `adjudicate --clock` (`60000+1000`): still
/// read as milliseconds for one release, with a warning (CHANGELOG.md).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ClockArg {
    pub base: std::time::Duration,
    pub increment: std::time::Duration,
}

impl ClockArg {
    /// Parses `text` (see the type).
    pub fn parse(text: &str) -> Result<ClockArg, String> {
        let (base, inc) = match text.trim().split_once('+') {
            Some((base, inc)) => (base.trim(), Some(inc.trim())),
            None => (text.trim(), None),
        };
        // The former spelling: whole milliseconds, e.g. `60000+1000`.
        let legacy_ms = base.len() >= 4
            && base.bytes().all(|b| b.is_ascii_digit())
            && inc.map_or(true, |i| i.bytes().all(|b| b.is_ascii_digit()));
        let part = |part: &str| -> Result<std::time::Duration, String> {
            let (number, scale) = if legacy_ms {
                (part, 0.001)
            } else if let Some(n) = part.strip_suffix("ms") {
                (n, 0.001)
            } else if let Some(n) = part.strip_suffix('s') {
                (n, 1.0)
            } else if let Some(n) = part.strip_suffix('m') {
                (n, 60.0)
            } else {
                (part, 1.0)
            };
            number
                .trim()
                .parse::<f64>()
                .ok()
                .map(|n| n * scale)
                .filter(|s| s.is_finite() && *s >= 0.0 && *s < 1e7)
                .map(std::time::Duration::from_secs_f64)
                .ok_or_else(|| {
                    format!(
                        "{part:?} in {text:?} is not a time: BASE[+INC] in seconds (e.g. 10+0.1)"
                    )
                })
        };
        let base_time = part(base)?;
        if base_time.is_zero() {
            return Err("the clock's base time must be more than 0 s".into());
        }
        if legacy_ms {
            eprintln!(
                "warning: --clock {text}: read as milliseconds, its former unit; \
                 write seconds ({}+{}) or units (60s, 1500ms): bare milliseconds \
                 go in the next release",
                base_time.as_secs_f64(),
                inc.map_or(Ok(std::time::Duration::ZERO), part)?
                    .as_secs_f64()
            );
        }
        Ok(ClockArg {
            base: base_time,
            increment: inc.map_or(Ok(std::time::Duration::ZERO), part)?,
        })
    }
}
