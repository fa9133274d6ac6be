//! The supported formats and how a file's first bytes tell them apart.

use std::ffi::OsStr;
use std::fmt;
use std::str::FromStr;

use crate::wxf::looks_like_wxf;

use crate::ccbridge;

/// A game-file format.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// PGN (N-PGN) in UTF-8, UTF-16, GB18030/GBK or Big5, any move notation.
    Pgn,
    /// WXF game file (`FORMAT WXF … START{ … }END`).
    Wxf,
    /// XQF (象棋演播室), versions 1.0-1.8.
    Xqf,
    /// CCBridge XML game.
    Cbf,
    /// CCBridge binary game.
    Cbr,
    /// CCBridge binary library of games.
    Cbl,
}

impl Format {
    /// Every format, in the order help texts and messages list them.
    pub const ALL: [Format; 6] = [
        Format::Pgn,
        Format::Wxf,
        Format::Xqf,
        Format::Cbf,
        Format::Cbr,
        Format::Cbl,
    ];

    /// The lower-case name (`pgn`, `wxf`, `xqf`, `cbf`, `cbr`, `cbl`).
    pub const fn name(self) -> &'static str {
        match self {
            Format::Pgn => "pgn",
            Format::Wxf => "wxf",
            Format::Xqf => "xqf",
            Format::Cbf => "cbf",
            Format::Cbr => "cbr",
            Format::Cbl => "cbl",
        }
    }

    /// A short description for help texts (`PGN (N-PGN)`, `CCBridge library`, …).
    pub const fn description(self) -> &'static str {
        match self {
            Format::Pgn => "PGN (N-PGN)",
            Format::Wxf => "WXF game file",
            Format::Xqf => "XQF (象棋演播室) 1.0-1.8",
            Format::Cbf => "CCBridge XML game",
            Format::Cbr => "CCBridge binary game",
            Format::Cbl => "CCBridge library",
        }
    }

    /// Whether a file of this format may hold more than one game (PGN, WXF,
    /// CBL), so that a game is named by its file and its number in it.
    pub const fn holds_many_games(self) -> bool {
        matches!(self, Format::Pgn | Format::Wxf | Format::Cbl)
    }

    /// The format an extension names (`xqf`, `XQF`, `pgn`, …, any case), if any.
    pub fn from_extension(extension: &OsStr) -> Option<Format> {
        let extension = extension.to_str()?;
        Format::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(extension))
    }

    /// Whether the format is binary (read whole into memory, errors at byte offsets).
    pub const fn is_binary(self) -> bool {
        matches!(self, Format::Xqf | Format::Cbr | Format::Cbl)
    }

    /// Whether the format is line-based text (PGN, WXF): read as a stream
    /// or in ranges, in one encoding decided for the whole file.
    pub const fn is_text(self) -> bool {
        matches!(self, Format::Pgn | Format::Wxf)
    }

    /// The format of a file that starts with `head`: magic bytes for the
    /// binary formats, an XML start for CBF, a `FORMAT` line for WXF, else
    /// PGN. `head` should hold the first non-blank line (a few KiB do).
    /// UTF-16 text (with its byte-order mark) is looked at as text.
    pub fn sniff(head: &[u8]) -> Format {
        if let Some(le) = [(b"\xFF\xFE", true), (b"\xFE\xFF", false)]
            .into_iter()
            .find_map(|(mark, le)| head.starts_with(mark).then_some(le))
        {
            let units = head[2..].chunks_exact(2).map(|c| match le {
                true => u16::from_le_bytes([c[0], c[1]]),
                false => u16::from_be_bytes([c[0], c[1]]),
            });
            let text: String = char::decode_utf16(units)
                .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
                .collect();
            // The text formats only: no binary format starts with a
            // byte-order mark, and CBF is UTF-8 XML.
            return match looks_like_wxf(text.as_bytes()) {
                true => Format::Wxf,
                false => Format::Pgn,
            };
        }
        if head.starts_with(b"XQ") {
            return Format::Xqf;
        }
        if head.starts_with(ccbridge::RECORD_MAGIC) {
            return Format::Cbr;
        }
        if head.starts_with(ccbridge::LIBRARY_MAGIC) {
            return Format::Cbl;
        }
        let text = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
        let start = text
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(text.len());
        let text = &text[start..];
        if text.starts_with(b"<?xml") || text.starts_with(b"<ChineseChessRecord") {
            return Format::Cbf;
        }
        if looks_like_wxf(head) {
            return Format::Wxf;
        }
        Format::Pgn
    }
}

impl Format {
    /// The format of the file at `path` that starts with `head`: what its
    /// content says ([`Format::sniff`]), except that a file named as a
    /// binary format (`*.xqf`, `*.cbr`, `*.cbl`) whose content names no
    /// format is read as the format of its name, so that junk under such a
    /// name is reported as "not an XQF file", not as moves of a PGN game.
    pub fn sniff_named(head: &[u8], path: &std::path::Path) -> Format {
        let sniffed = Format::sniff(head);
        let named = path
            .extension()
            .and_then(Format::from_extension)
            .filter(|f| f.is_binary());
        match named {
            Some(named) if sniffed == Format::Pgn && !looks_like_text(head) => named,
            _ => sniffed,
        }
    }
}

/// Whether `head` reads as text: no control bytes but tab, line ends and
/// form feed (a PGN or WXF file mis-named `.xqf` still reads as text).
fn looks_like_text(head: &[u8]) -> bool {
    !head
        .iter()
        .any(|&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c | 0x1a))
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Pgn => "PGN",
            Format::Wxf => "WXF",
            Format::Xqf => "XQF",
            Format::Cbf => "CBF",
            Format::Cbr => "CBR",
            Format::Cbl => "CBL",
        })
    }
}

/// Error for a text that names no format.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown game-file format {0:?}: expected pgn, wxf, xqf, cbf, cbr or cbl")]
pub struct UnknownFormat(pub String);

impl FromStr for Format {
    type Err = UnknownFormat;
    fn from_str(s: &str) -> Result<Format, UnknownFormat> {
        let lower = s.trim().to_ascii_lowercase();
        Format::ALL
            .into_iter()
            .find(|f| f.name() == lower)
            .ok_or_else(|| UnknownFormat(s.to_owned()))
    }
}
