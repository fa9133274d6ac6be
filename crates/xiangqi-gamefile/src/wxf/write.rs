//! Writing WXF game files: [`write_wxf`].

use std::io;

use xiangqi_core::{Color, Diagram, Position};

use super::{header_key, is_key};
use xiangqi_notation::{format_into, Notation, SidewaysSign, Style, WxfConvention, WxfStyle};

use crate::{Game, Node, WriteError};

/// How a game is written as a WXF file.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct WxfWriteOptions {
    /// Style of the moves. Default: official conventions, `.` for sideways
    /// moves and Black in lower case, as PlayOK writes them. The fsf
    /// convention adds a `WXFSTYLE fsf` line, which the reader honours.
    pub style: WxfStyle,
    /// Full moves per line (default 3; 0: one line).
    pub moves_per_line: usize,
    /// Drop what the format cannot hold (variations, NAGs other than one of
    /// `$1`-`$6` per move) instead of refusing the game.
    pub drop_variations: bool,
}

impl Default for WxfWriteOptions {
    fn default() -> WxfWriteOptions {
        WxfWriteOptions {
            style: WxfStyle {
                convention: WxfConvention::Official,
                sideways: SidewaysSign::Dot,
                black_lowercase: true,
            },
            moves_per_line: 3,
            drop_variations: false,
        }
    }
}

/// The game as a WXF file (UTF-8, lines ending with `\n`).
pub fn write_wxf(game: &Game, options: &WxfWriteOptions) -> Result<String, WriteError> {
    let mut out = String::with_capacity(256 + 12 * game.plies());
    write_header(game, options, &mut out)?;
    out.push_str("START{\n");
    write_moves(game, options, &mut out)?;
    out.push_str("}END\n");
    Ok(out)
}

/// Writes the game as a WXF file to `out`.
pub fn write_wxf_to<W: io::Write>(
    out: &mut W,
    game: &Game,
    options: &WxfWriteOptions,
) -> Result<(), WriteError> {
    out.write_all(write_wxf(game, options)?.as_bytes())?;
    Ok(())
}

fn header_line(key: &str, value: &str, out: &mut String) {
    out.push_str(key);
    if !value.is_empty() {
        out.push_str(&" ".repeat(8usize.saturating_sub(key.len()).max(1)));
        out.push_str(value);
    }
    out.push('\n');
}

/// `placement r|b`, plus the counters when they are not `0 1` (N-FEN).
/// From a diagram: a game without moves may start from one no game can reach.
fn wxf_fen(board: &Diagram) -> String {
    // WXF's letters (H, E), as XieXie writes them; readers take both.
    let fen = board
        .to_fen()
        .replace('N', "H")
        .replace('n', "h")
        .replace('B', "E")
        .replace('b', "e");
    // `placement side - - halfmove fullmove`, as `to_fen` writes it.
    let fields: Vec<&str> = fen.split(' ').collect();
    let side = if board.side_to_move() == Color::Red {
        "r"
    } else {
        "b"
    };
    match (fields[4], fields[5]) {
        ("0", "1") => format!("{} {side}", fields[0]),
        (halfmove, fullmove) => format!("{} {side} - - {halfmove} {fullmove}", fields[0]),
    }
}

fn write_header(
    game: &Game,
    options: &WxfWriteOptions,
    out: &mut String,
) -> Result<(), WriteError> {
    header_line("FORMAT", "WXF", out);
    if options.style.convention == WxfConvention::Fsf {
        header_line("WXFSTYLE", WxfConvention::Fsf.name(), out);
    }
    // `name ; rating ;;` for a rating tag right after its player's (the
    // order the reader gives back), when the rating can be told apart from
    // the name; each player tag takes the rating after it, so repeated
    // headers come back as they were.
    let merged = |at: usize| {
        let (side, name) = &game.tags[at];
        let (elo_tag, elo) = game.tags.get(at + 1)?;
        let plain = matches!(side.as_str(), "Red" | "Black")
            && *elo_tag == format!("{side}Elo")
            && !name.contains(';')
            && !elo.is_empty()
            && elo.bytes().all(|b| b.is_ascii_digit());
        plain.then(|| format!("{name} ; {elo} ;;"))
    };
    let mut result_written = false;
    // The first FEN header is the start position, which the reader
    // normalises; it leaves later ones as they are, and so does the writer.
    let mut fen_written = false;
    let mut at = 0;
    while let Some((name, value)) = game.tags.get(at) {
        at += 1;
        let bad = |reason| WriteError::Tag {
            name: name.clone(),
            reason,
        };
        if value.contains(['\n', '\r']) {
            return Err(bad("its value holds a line break"));
        }
        let key = header_key(name);
        if !is_key(key) {
            return Err(bad("a header key is a letter, then letters, digits or '_'"));
        }
        if matches!(key.to_ascii_uppercase().as_str(), "FORMAT" | "WXFSTYLE") {
            return Err(bad("the name is reserved for the file's move format"));
        }
        if let Some(player) = merged(at - 1) {
            header_line(key, &player, out);
            at += 1; // the rating tag, written with its player
            continue;
        }
        match name.as_str() {
            "FEN" if value.trim().is_empty() => {}
            "FEN" if !fen_written => {
                fen_written = true;
                header_line(key, &wxf_fen(&Diagram::from_fen(value)?), out);
            }
            "Result" if !result_written => {
                result_written = true;
                let value = match game.result {
                    Some(result) => result.as_str(),
                    None => value.as_str(),
                };
                header_line(key, value, out);
            }
            _ => header_line(key, value.trim(), out),
        }
    }
    if let (false, Some(result)) = (result_written, game.result) {
        header_line("RESULT", result.as_str(), out);
    }
    Ok(())
}

fn write_moves(game: &Game, options: &WxfWriteOptions, out: &mut String) -> Result<(), WriteError> {
    for c in &game.mainline.comments {
        out.push_str(&comment_text(c)?);
        out.push('\n');
    }
    let style = Style {
        wxf: options.style,
        ..Style::default()
    };
    let per_line = options.moves_per_line;
    let mut pos = match game.start_position() {
        Ok(pos) => pos,
        // A diagram no game can reach, without moves: its FEN header is
        // written as read, and no move consults a position.
        Err(_) if game.mainline.moves.is_empty() && game.start_diagram().is_ok() => {
            Position::startpos()
        }
        Err(error) => return Err(error.into()),
    };
    let mut line = String::new();
    let mut entries = 0;
    // A Red move waiting for Black's reply on the same entry.
    let mut open = false;
    for (index, node) in game.mainline.moves.iter().enumerate() {
        let ply = index + 1;
        if !node.variations().is_empty() && !options.drop_variations {
            return Err(WriteError::Variations(ply));
        }
        let suffix = nag_suffix(node, ply, options.drop_variations)?;
        let mut text = String::with_capacity(8);
        format_into(&pos, node.mv, Notation::Wxf, &style, &mut text)?;
        let number = pos.fullmove_number();
        if pos.side_to_move() == Color::Black && open {
            line.push(' ');
        } else {
            if per_line > 0 && entries >= per_line {
                out.push_str(&line);
                out.push('\n');
                line.clear();
                entries = 0;
            }
            if !line.is_empty() {
                line.push_str("  ");
            }
            let dots = if pos.side_to_move() == Color::Black {
                " ..."
            } else {
                ""
            };
            line.push_str(&format!("{number:>2}.{dots} "));
            entries += 1;
        }
        line.push_str(&text);
        line.push_str(suffix);
        open = pos.side_to_move() == Color::Red;
        for c in node.comments() {
            line.push(' ');
            line.push_str(&comment_text(c)?);
        }
        if !node.comments().is_empty() {
            // A comment ends the line; Black's reply gets its own number.
            out.push_str(&line);
            out.push('\n');
            line.clear();
            entries = 0;
            open = false;
        }
        pos.make_move(node.mv);
    }
    if !line.is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
    Ok(())
}

fn comment_text(comment: &str) -> Result<String, WriteError> {
    if comment.contains('}') {
        return Err(WriteError::CommentBrace(comment.to_owned()));
    }
    Ok(format!("{{{comment}}}"))
}

/// The `!`/`?` suffix of a move's NAG.
fn nag_suffix(node: &Node, ply: usize, drop: bool) -> Result<&'static str, WriteError> {
    const SUFFIX: [&str; 7] = ["", "!", "?", "!!", "??", "!?", "?!"];
    match node.nags() {
        [] => Ok(""),
        [n @ 1..=6] => Ok(SUFFIX[*n as usize]),
        nags if drop => Ok(nags
            .iter()
            .find(|n| (1..=6).contains(*n))
            .map_or("", |n| SUFFIX[*n as usize])),
        nags => Err(WriteError::Nags {
            ply,
            nags: nags.to_vec(),
        }),
    }
}
