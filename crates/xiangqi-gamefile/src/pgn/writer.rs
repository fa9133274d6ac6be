//! Writing games as PGN in any notation.

use std::io;

use xiangqi_core::{Color, Position};

use xiangqi_notation::{
    format_into, format_ranks10, is_ranks10_variant, Notation, Style, WxfConvention,
};

use crate::{Game, Line, WriteError};

/// How to write a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// Notation of the moves; written as the `[Format]` tag.
    pub notation: Notation,
    /// Style of each notation.
    pub style: Style,
    /// Wrap move text after this many characters (0: one line).
    pub line_width: usize,
}

impl WriteOptions {
    /// Default style, lines of 80 characters.
    pub fn new(notation: Notation) -> WriteOptions {
        WriteOptions {
            notation,
            style: Style::default(),
            line_width: 80,
        }
    }
}

/// The game as PGN text (ending with a blank line).
pub fn write_game(game: &Game, options: &WriteOptions) -> Result<String, WriteError> {
    let mut out = String::new();
    write_text(game, options, &mut out)?;
    Ok(out)
}

/// Writes the game as PGN (UTF-8) to `out`.
pub fn write_game_to<W: io::Write>(
    out: &mut W,
    game: &Game,
    options: &WriteOptions,
) -> Result<(), WriteError> {
    let text = write_game(game, options)?;
    out.write_all(text.as_bytes())?;
    Ok(())
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Move-text tokens joined with spaces, no space inside parentheses, lines
/// wrapped at `width`; a `;` comment ends its line.
fn layout(tokens: &[String], width: usize, out: &mut String) {
    let mut column = 0;
    let mut prev: Option<&str> = None;
    for token in tokens {
        let len = token.chars().count();
        let glue = prev == Some("(") || token == ")";
        let after_line_comment = prev.is_some_and(|p| p.starts_with(';'));
        if after_line_comment {
            out.push('\n');
            column = 0;
        } else if let (Some(_), false) = (prev, glue) {
            if width > 0 && column + 1 + len > width {
                out.push('\n');
                column = 0;
            } else {
                out.push(' ');
                column += 1;
            }
        }
        out.push_str(token);
        column = match token.rfind('\n') {
            Some(nl) => token[nl + 1..].chars().count(),
            None => column + len,
        };
        prev = Some(token);
    }
    if prev.is_some_and(|p| p.starts_with(';')) {
        out.push('\n');
    }
}

fn write_text(game: &Game, options: &WriteOptions, out: &mut String) -> Result<(), WriteError> {
    for (name, value) in &game.tags {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    }
    out.push_str(&format!("[Format \"{}\"]\n", options.notation.pgn_format()));
    if options.notation == Notation::Wxf && options.style.wxf.convention == WxfConvention::Fsf {
        out.push_str(&format!("[WXFStyle \"{}\"]\n", WxfConvention::Fsf.name()));
    }
    if options.notation == Notation::Vietnamese && options.style.vietnamese.short {
        // The compact form is only read where the file says so (N-VI-SHORT).
        out.push_str("[VietnameseStyle \"short\"]\n");
    }
    out.push('\n');
    let pos = match game.start_position() {
        Ok(pos) => pos,
        // A diagram no game can reach, without moves: its FEN tag is
        // written as read, and a line without moves consults no position.
        Err(_) if game.mainline.moves.is_empty() && game.start_diagram().is_ok() => {
            Position::startpos()
        }
        Err(error) => return Err(error.into()),
    };
    let mut tokens = Vec::new();
    let ranks10 = game.tag("Variant").is_some_and(is_ranks10_variant);
    write_line(&game.mainline, pos, options, ranks10, &mut tokens)?;
    match game.result {
        Some(r) => tokens.push(r.as_str().to_owned()),
        // A game with nothing at all still needs a token to exist in the file.
        None if tokens.is_empty() => tokens.push(game.outcome().as_str().to_owned()),
        None => {}
    }
    layout(&tokens, options.line_width, out);
    out.push_str("\n\n");
    Ok(())
}

fn comment_token(text: &str) -> Result<String, WriteError> {
    if !text.contains('}') {
        Ok(format!("{{{text}}}"))
    } else if !text.contains('\n') {
        Ok(format!(";{text}"))
    } else {
        Err(WriteError::Comment(text.to_owned()))
    }
}

fn write_line(
    line: &Line,
    mut pos: Position,
    options: &WriteOptions,
    ranks10: bool,
    tokens: &mut Vec<String>,
) -> Result<(), WriteError> {
    for c in &line.comments {
        tokens.push(comment_token(c)?);
    }
    let mut need_number = true;
    for node in &line.moves {
        let number = pos.fullmove_number();
        match pos.side_to_move() {
            Color::Red => tokens.push(format!("{number}.")),
            Color::Black if need_number => tokens.push(format!("{number}...")),
            Color::Black => {}
        }
        let mut text = String::with_capacity(24);
        format_into(&pos, node.mv, options.notation, &options.style, &mut text)?;
        if ranks10 && options.notation == Notation::Iccs {
            // A `[Variant "xiangqi"]` game numbers ranks 1-10 (N-ICCS-RANKS10).
            text = format_ranks10(node.mv);
        }
        tokens.push(text);
        for nag in node.nags() {
            tokens.push(format!("${nag}"));
        }
        need_number = !node.comments().is_empty() || !node.variations().is_empty();
        for c in node.comments() {
            tokens.push(comment_token(c)?);
        }
        for v in node.variations() {
            tokens.push("(".to_owned());
            write_line(v, pos.clone(), options, ranks10, tokens)?;
            tokens.push(")".to_owned());
        }
        pos.make_move(node.mv);
    }
    Ok(())
}
