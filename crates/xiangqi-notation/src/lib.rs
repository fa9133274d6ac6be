//! # xiangqi-notation
//!
//! Every way people write Xiangqi moves and games, in both directions:
//! ICCS coordinates (`h2e2`), WXF (`C2=5`, official and Fairy-Stockfish
//! styles), Chinese characters (`炮二平五`, simplified or traditional) and
//! Vietnamese (`Pháo 2 bình 5`, or the compact `P2-5` with
//! [`VietnameseStyle::short`]), and the Fairy-Stockfish rank numbering 1-10
//! ([`parse_ranks10`]).
//! Rule IDs (`N-…`) refer to section 9 and 10.2 of the rules reference.
//!
//! This crate owns *move text*: it turns text into a legal [`Move`] of a
//! given [`Position`] and back. Whole games and their files (PGN, WXF, XQF,
//! CCBridge) are `xiangqi-gamefile`'s, which reads their moves through this
//! crate (including the fast paths [`parse_quietly`] and
//! [`read_vietnamese_words`]). Legality itself comes from `xiangqi-core`;
//! game-level rules live in `xiangqi-adjudication`.
//!
//! Errors keep syntax apart from meaning: [`ParseMoveError`] says the text is
//! malformed (and at which character), while [`MoveTextError`] says it names
//! no piece, an impossible or illegal move (with the core's reason), or
//! several moves (listing them).
//!
//! ```
//! use xiangqi_core::Position;
//! use xiangqi_notation::{detect, format, parse, MoveTextError, Notation, Style};
//!
//! let pos = Position::startpos();
//! // One move, four notations.
//! for text in ["h2e2", "C2=5", "炮二平五", "Pháo 2 bình 5"] {
//!     assert_eq!(parse(&pos, text, None).unwrap().to_string(), "h2e2");
//! }
//! assert_eq!(detect("马二进三"), Some(Notation::Chinese));
//!
//! let mv = "h0g2".parse().unwrap();
//! let style = Style::default();
//! assert_eq!(format(&pos, mv, Notation::Wxf, &style).unwrap(), "H2+3");
//! assert_eq!(format(&pos, mv, Notation::Vietnamese, &style).unwrap(), "Mã 2 tiến 3");
//!
//! // Errors say what is wrong.
//! let err = parse(&pos, "R1+4", Notation::Wxf).unwrap_err(); // the soldier on i3 is in the way
//! assert!(matches!(err, MoveTextError::Illegal { .. }), "{err}");
//! ```
#![warn(missing_docs)]

mod chinese;
mod error;
mod full_width;
mod iccs;
mod ranks10;
mod style;
#[cfg(test)]
mod test_support;
mod text;
mod vietnamese;
mod wxf;

pub use error::{MoveTextError, ParseMoveError, SyntaxErrorKind};
pub use full_width::fold_full_width;
pub use ranks10::{
    format_ranks10, is_ranks10_text, is_ranks10_variant, parse_ranks10, rank_numbering,
    RankNumbering,
};
pub use style::{
    ChineseStyle, Notation, Script, SidewaysSign, Style, UnknownNotation, UnknownWxfConvention,
    VietnameseStyle, WxfConvention, WxfStyle,
};
pub use text::{Described, Direction, Marker, MoveText, Origin};
pub use vietnamese::{read_vietnamese_words, read_vietnamese_words_exact};

use xiangqi_core::{Move, Position};

/// Which notation `text` is written in, judged from its shape alone; `None`
/// when it looks like none of them. Full-width forms count as their ASCII
/// characters ([`fold_full_width`]), as in every parser here.
///
/// ```
/// use xiangqi_notation::{detect, Notation};
/// assert_eq!(detect("H2-E2"), Some(Notation::Iccs));
/// assert_eq!(detect("h2e2"), Some(Notation::Iccs));
/// assert_eq!(detect("R++3"), Some(Notation::Wxf));
/// assert_eq!(detect("13=4"), Some(Notation::Wxf));
/// assert_eq!(detect("前车进三"), Some(Notation::Chinese));
/// assert_eq!(detect("Xe truoc binh 4"), Some(Notation::Vietnamese));
/// assert_eq!(detect("hello"), None);
/// assert_eq!(detect("Ｃ２＝５"), Some(Notation::Wxf));
/// ```
pub fn detect(text: &str) -> Option<Notation> {
    let text = fold_full_width(text);
    let t = text.trim();
    let first = t.chars().next()?;
    // ASCII text is never Chinese; the other tests need no allocation either.
    if !t.is_ascii() && t.chars().any(chinese::is_chinese_char) {
        return Some(Notation::Chinese);
    }
    if iccs::looks_like(t) {
        return Some(Notation::Iccs);
    }
    let word_len = t
        .char_indices()
        .find(|&(_, c)| !vietnamese::is_word_char(c))
        .map_or(t.len(), |(i, _)| i);
    let word = &t[..word_len];
    if word.chars().nth(1).is_some() && vietnamese::is_piece_word(word) {
        return Some(Notation::Vietnamese);
    }
    let wxf_start = xiangqi_core::PieceKind::from_letter(first).is_some()
        || matches!(first, '+' | '-' | '1'..='9');
    if t.is_ascii() && (3..=4).contains(&t.len()) && wxf_start {
        return Some(Notation::Wxf);
    }
    None
}

/// Reads `text` without a position: only its shape is checked. `notation`
/// `None` detects it ([`detect`]). `convention` decides the WXF two-digit
/// forms `11` and `33` (see [`WxfStyle::convention`]). The compact
/// Vietnamese form (N-VI-SHORT, `P2-5`) is not read here: its letters are
/// WXF's, so only [`parse_with`] and a [`VietnameseStyle::short`] style read it.
pub fn parse_text(
    text: &str,
    notation: Option<Notation>,
    convention: WxfConvention,
) -> Result<MoveText, ParseMoveError> {
    parse_text_with(text, notation, convention, false)
}

/// [`parse_text`], reading Vietnamese in the compact form too when
/// `vietnamese_short` (N-VI-SHORT, [`VietnameseStyle::short`]).
pub fn parse_text_with(
    text: &str,
    notation: Option<Notation>,
    convention: WxfConvention,
    vietnamese_short: bool,
) -> Result<MoveText, ParseMoveError> {
    let text = &*fold_full_width(text);
    let notation = match notation {
        Some(n) => n,
        None => detect(text).ok_or_else(|| {
            let kind = if text.trim().is_empty() {
                SyntaxErrorKind::Empty
            } else {
                SyntaxErrorKind::Unrecognised
            };
            ParseMoveError::new(None, text, 1, kind)
        })?,
    };
    let described = |description| MoveText::Described {
        notation,
        description,
    };
    match notation {
        Notation::Iccs => iccs::read(text).map(MoveText::Coordinates),
        Notation::Wxf => wxf::read(text, convention).map(described),
        Notation::Chinese => chinese::read(text).map(described),
        Notation::Vietnamese => vietnamese::read(text, vietnamese_short).map(described),
    }
}

/// The legal move of `pos` that `text` names. `notation` is a [`Notation`]
/// or `None` to detect it. WXF is read with the official convention; use
/// [`parse_with`] to read Fairy-Stockfish's `33=4`-style texts in its meaning.
///
/// ```
/// use xiangqi_core::Position;
/// use xiangqi_notation::{parse, Notation};
///
/// let pos = Position::startpos();
/// assert_eq!(parse(&pos, "马二进三", Notation::Chinese).unwrap().to_string(), "h0g2");
/// assert_eq!(parse(&pos, "Ma 2 tien 3", None).unwrap().to_string(), "h0g2");
/// ```
pub fn parse(
    pos: &Position,
    text: &str,
    notation: impl Into<Option<Notation>>,
) -> Result<Move, MoveTextError> {
    parse_with(pos, text, notation, &Style::default())
}

/// [`parse`] with the WXF convention of `style` deciding `11`/`33`.
pub fn parse_with(
    pos: &Position,
    text: &str,
    notation: impl Into<Option<Notation>>,
    style: &Style,
) -> Result<Move, MoveTextError> {
    let notation = notation.into();
    let (convention, short) = (style.wxf.convention, style.vietnamese.short);
    if let Some(mv) = notation
        .or_else(|| detect(text))
        .and_then(|n| parse_quietly(pos, text, n, convention, short))
    {
        return Ok(mv);
    }
    // Malformed, illegal, ambiguous…: read again, this time saying why.
    let mt = parse_text_with(text, notation, convention, short)?;
    mt.resolve(pos, text)
}

/// The legal move `text` names when it is well formed in `notation` and
/// names exactly one legal move, without wording any error: the common case
/// of [`parse_with`] and of the game-file readers, which fall back to
/// [`parse_text_with`] and [`MoveText::resolve`] to say what is wrong.
///
/// ```
/// use xiangqi_core::Position;
/// use xiangqi_notation::{parse_quietly, Notation, WxfConvention};
///
/// let pos = Position::startpos();
/// let mv = parse_quietly(&pos, "C2.5", Notation::Wxf, WxfConvention::Official, false);
/// assert_eq!(mv.map(|m| m.to_string()).as_deref(), Some("h2e2"));
/// assert_eq!(parse_quietly(&pos, "C2+9", Notation::Wxf, WxfConvention::Official, false), None);
/// ```
// Always inlined (across crates too): the PGN reader calls it for every
// move (20 of ~700 instructions a WXF ply were the call).
#[inline(always)]
pub fn parse_quietly(
    pos: &Position,
    text: &str,
    notation: Notation,
    convention: WxfConvention,
    vietnamese_short: bool,
) -> Option<Move> {
    let text = &*fold_full_width(text);
    let described = match notation {
        Notation::Iccs => {
            let mv = iccs::read_plain(text.as_bytes()).or_else(|| iccs::read(text).ok())?;
            return pos.is_legal(mv).then_some(mv);
        }
        Notation::Wxf => wxf::read_described(text, convention).ok()?,
        Notation::Chinese => chinese::read_described(text).ok()?,
        Notation::Vietnamese => vietnamese::read(text, vietnamese_short).ok()?,
    };
    described.resolve_quietly(pos)
}

/// Writes the legal move `mv` of `pos` in `notation`.
///
/// ```
/// use xiangqi_core::Position;
/// use xiangqi_notation::{format, Notation, Style, WxfStyle};
///
/// // EX-WXF-TANDEM: two Red chariots on one file.
/// let pos = Position::from_fen("4k4/9/9/9/3R5/9/9/3R5/9/5K3 w - - 0 1").unwrap();
/// let style = Style::default();
/// assert_eq!(format(&pos, "d5f5".parse().unwrap(), Notation::Wxf, &style).unwrap(), "R+=4");
/// assert_eq!(format(&pos, "d2d1".parse().unwrap(), Notation::Chinese, &style).unwrap(), "后车退一");
/// ```
pub fn format(
    pos: &Position,
    mv: Move,
    notation: Notation,
    style: &Style,
) -> Result<String, MoveTextError> {
    let mut out = String::with_capacity(16);
    format_into(pos, mv, notation, style, &mut out)?;
    Ok(out)
}

/// [`format()`] appending to `out` (no allocation when `out` has room).
pub fn format_into(
    pos: &Position,
    mv: Move,
    notation: Notation,
    style: &Style,
    out: &mut String,
) -> Result<(), MoveTextError> {
    let s = text::situation(pos, mv)?;
    match notation {
        Notation::Iccs => out.extend(mv.iccs_bytes().map(char::from)),
        Notation::Wxf => wxf::write(&s, &style.wxf, out),
        Notation::Chinese => chinese::write(&s, &style.chinese, out),
        Notation::Vietnamese => vietnamese::write(&s, &style.vietnamese, out),
    }
    Ok(())
}
