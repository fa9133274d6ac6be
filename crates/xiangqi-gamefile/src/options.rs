//! The limits and options every game-file reader takes: resource limits
//! (lines, comments, variations, moves, tags) and how WXF `11`/`33` are read.

use xiangqi_notation::WxfConvention;

use crate::TextEncoding;

/// Resource limits of the readers. A game that exceeds one is reported as an
/// error and skipped; reading goes on with the next game where the format
/// allows. The text limits (lines) apply to PGN and WXF files only.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Longest line in bytes (default 256 KiB). Longer lines are an error.
    pub max_line_len: usize,
    /// Longest comment in bytes (default 64 KiB).
    pub max_comment_len: usize,
    /// Deepest nesting of variations (default 32).
    pub max_variation_depth: usize,
    /// Most moves in one game, variations included (default 10 000).
    pub max_moves_per_game: usize,
    /// Most tag pairs in one game (default 1 000).
    pub max_tags_per_game: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_line_len: 256 * 1024,
            max_comment_len: 64 * 1024,
            max_variation_depth: 32,
            max_moves_per_game: 10_000,
            max_tags_per_game: 1_000,
        }
    }
}

/// Options of the readers.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ReaderOptions {
    /// Resource limits.
    pub limits: Limits,
    /// How WXF `11`/`33` are read when the file does not say
    /// (`[WXFStyle "fsf"]`, which our writer adds for that style).
    pub wxf_convention: WxfConvention,
    /// A game with errors (`Game::errors`: a line cut at a move that
    /// cannot be played, a diagram's side to move corrected) is a broken
    /// game: [`Games`](crate::Games) yields its first error instead of it.
    /// Off by default: such games are returned with their errors.
    pub strict: bool,
    /// The encoding of the file's text (PGN and WXF files, XQF's names and
    /// comments), forced; `None` (the default) detects it once per file
    /// ([`detect_encoding`](crate::detect_encoding) on its start). CBR and
    /// CBL files store UTF-16 and CBF files XML, which need no guess: this
    /// does not apply to them.
    pub encoding: Option<TextEncoding>,
}
