//! WXF game files (rules reference 10.2, the option after N-PGN): the
//! `FORMAT WXF … START{ … }END` format of XieXie and PlayOK, read into and
//! written from the same [`Game`](crate::Game) as PGN: [`WxfReader`],
//! [`write_wxf`], and [`looks_like_wxf`] to tell the two formats apart.
//! Moves are WXF (N-WXF), read and written by the crate's WXF notation
//! code; Black's moves may be upper or lower case and the sideways sign `.`
//! or `=`. `docs/notation.md` says where each convention comes from.
//!
//! A file holds one game or several in a row:
//!
//! ```text
//! FORMAT  WXF
//! RED     Lin ; 2400 ;;
//! BLACK   Wang
//! RESULT  1-0
//! FEN     rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r
//! START{
//!  1. C2.5 h8+7   2. H2+3 {a comment}
//!  2. ... r9.8
//! }END
//! ```
//!
//! * header lines `KEY value` (spaces or tabs between): `FORMAT` (`WXF`, its
//!   older name `AXF`, or `ICCS` for `H2-E2` moves) and `WXFSTYLE`
//!   (`official`/`fsf`, N-WXF-FSF) say how moves are read and are not kept
//!   as tags; every other key becomes a PGN tag (`RED` → `Red`, `PLACE` →
//!   `Site`, unknown keys verbatim). A `RED`/`BLACK` value of the
//!   `name ; rating ;;` form becomes `Red` and `RedElo`. `FEN` (N-FEN, `r`
//!   or `w` for Red) is stored normalised; `RESULT` is also the game's result;
//! * `START{`, the moves (move numbers `1.`, `1...`, placeholders `...`,
//!   `{…}` comments, `!`/`?` suffixes read as NAGs `$1`-`$6`, check marks
//!   `+`/`#` after a move ignored, a result token), then `}END`. The side to
//!   move alternates from the start position, whatever the case of the
//!   letters (XieXie writes Black in upper case).
//!
//! The writer writes this back; reading what it wrote gives the same game.
//! The format has no variations: the writer refuses a game with variations
//! (or with NAGs other than one of `$1`-`$6` per move) unless
//! [`WxfWriteOptions::drop_variations`] is set.
//!
//! ```
//! use xiangqi_gamefile::wxf::{read_str, write_wxf, WxfWriteOptions};
//! use xiangqi_gamefile::GameResult;
//!
//! let file = "FORMAT  WXF\nRED     A ; 1200 ;;\nBLACK   B\nRESULT  0-1\n\
//!             START{\n 1. C2.5 h8+7   2. H2+3 {main line} r9.8\n}END\n";
//! let game = read_str(file).next().unwrap().unwrap();
//! assert_eq!(game.tag("Red"), Some("A"));
//! assert_eq!(game.tag("RedElo"), Some("1200"));
//! assert_eq!(game.result, Some(GameResult::BlackWins));
//! assert_eq!(game.moves().map(|m| m.to_string()).collect::<Vec<_>>(), ["h2e2", "h9g7", "h0g2", "i9h9"]);
//! assert_eq!(game.mainline.moves[2].comments(), ["main line"]);
//!
//! let written = write_wxf(&game, &WxfWriteOptions::default()).unwrap();
//! assert!(written.contains(" 1. C2.5 h8+7   2. H2+3 {main line}\n 2. ... r9.8\n}END\n"), "{written}");
//! assert_eq!(read_str(&written).next().unwrap().unwrap(), game);
//! ```

mod read;
#[cfg(test)]
mod tests;
mod write;

pub use read::{looks_like_wxf, read_str, WxfReader};
pub use write::{write_wxf, write_wxf_to, WxfWriteOptions};

/// Header keys and the PGN tags they stand for (both directions).
const KEYS: [(&str, &str); 19] = [
    ("GAME", "Game"),
    ("EVENT", "Event"),
    ("SITE", "Site"),
    ("DATE", "Date"),
    ("ROUND", "Round"),
    ("RED", "Red"),
    ("BLACK", "Black"),
    ("RESULT", "Result"),
    ("FEN", "FEN"),
    ("REDTEAM", "RedTeam"),
    ("BLACKTEAM", "BlackTeam"),
    ("REDELO", "RedElo"),
    ("BLACKELO", "BlackElo"),
    ("TIMECONTROL", "TimeControl"),
    ("OPENING", "Opening"),
    ("VARIATION", "Variation"),
    ("ECCO", "ECCO"),
    ("TERMINATION", "Termination"),
    ("ANNOTATOR", "Annotator"),
];

/// The tag a header key is stored as.
fn tag_name(key: &str) -> String {
    let upper = key.to_ascii_uppercase();
    if upper == "PLACE" {
        return "Site".to_owned(); // an older name for the site
    }
    KEYS.iter()
        .find(|(k, _)| *k == upper)
        .map_or_else(|| key.to_owned(), |(_, tag)| (*tag).to_owned())
}

/// The header key a tag is written as.
fn header_key(tag: &str) -> &str {
    KEYS.iter()
        .find(|(_, t)| *t == tag)
        .map_or(tag, |(key, _)| key)
}

/// A header key: a letter, then letters, digits or `_` (as PGN tag names).
fn is_key(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}
