//! The tokenizer of the PGN reader: move numbers, special bytes, tag
//! pairs and move words, and columns counted only for errors.

use super::*;

/// The end of a move number `12.` or `12...` starting at byte `i` when a
/// space, a special byte or the line end follows it: the common case, read
/// without scanning the word twice. Other shapes (`1.h2e2`, the WXF move
/// `13.4`, `1。`) are left to [`Builder::read_word`].
#[inline(always)]
pub(super) fn move_number_end(bytes: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    while j < bytes.len() && bytes[j].is_ascii_digit() {
        j += 1;
    }
    if bytes.get(j) != Some(&b'.') {
        return None;
    }
    while j < bytes.len() && bytes[j] == b'.' {
        j += 1;
    }
    match bytes.get(j) {
        None => Some(j),
        Some(&b)
            if matches!(
                BYTE_CLASS[b as usize],
                ByteClass::Space | ByteClass::Special
            ) =>
        {
            Some(j)
        }
        Some(_) => None,
    }
}

/// Whether the byte at `i` starts or ends a token by itself (`{ } ( ) ; $ [`).
pub(super) fn is_special(text: &str, i: usize) -> bool {
    text.as_bytes()
        .get(i)
        .is_some_and(|&b| BYTE_CLASS[b as usize] == ByteClass::Special)
}

pub(super) fn is_tag_start(s: &str) -> bool {
    let mut chars = s.trim_start().chars();
    chars.next() == Some('[') && chars.next().is_some_and(|c| c.is_ascii_alphabetic())
}

/// A column, counted in characters only when an error needs it.
#[derive(Copy, Clone)]
pub(super) enum Col<'a> {
    /// At this byte offset of the line.
    At(&'a str, usize),
    /// Already known.
    Known(usize),
}

impl Col<'_> {
    pub(super) fn get(self) -> usize {
        match self {
            Col::At(text, byte) => column(text, byte),
            Col::Known(c) => c,
        }
    }
}

impl Builder {
    /// Reads `[Name "value"]` starting at `i`; returns the offset after it.
    pub(super) fn read_tag(
        &mut self,
        text: &str,
        i: usize,
        line_no: usize,
    ) -> Result<usize, Failure> {
        let col = Col::At(text, i);
        let bad = |this: &Self, what| this.err(line_no, col, ErrorKind::BadTag(what));
        let rest = &text[i + 1..];
        let name_len = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if name_len == 0 {
            return Err(bad(self, "expected a tag name after '['"));
        }
        let name = &rest[..name_len];
        let after = rest[name_len..].trim_start();
        let Some(value_text) = after.strip_prefix('"') else {
            return Err(bad(self, "expected a quoted value"));
        };
        let mut value = String::new();
        let mut chars = value_text.char_indices();
        let mut close = None;
        while let Some((j, c)) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some((_, e)) => value.push(e),
                    None => break,
                },
                '"' => {
                    close = Some(j);
                    break;
                }
                _ => value.push(c),
            }
        }
        let Some(close) = close else {
            return Err(bad(self, "the value is not closed with '\"'"));
        };
        let tail = value_text[close + 1..].trim_start();
        let Some(tail) = tail.strip_prefix(']') else {
            return Err(bad(self, "expected ']'"));
        };
        if self.tags.len() >= self.options.limits.max_tags_per_game {
            return Err(self.err(
                line_no,
                col,
                ErrorKind::TooManyTags(self.options.limits.max_tags_per_game),
            ));
        }
        match name {
            "Format" => self.notation = value.parse().ok(),
            "WXFStyle" if value.parse::<WxfConvention>().is_ok() => {
                self.convention = value.parse().expect("checked")
            }
            "VietnameseStyle" if value.eq_ignore_ascii_case("short") => {
                self.vietnamese_short = true
            }
            "VietnameseStyle" if value.eq_ignore_ascii_case("long") => {
                self.vietnamese_short = false
            }
            _ => {
                if name == "Variant" {
                    self.ranks10 = xiangqi_notation::is_ranks10_variant(&value);
                }
                if name == "FEN" && self.fen_at.is_none() {
                    self.fen_at = Some((line_no, col.get()));
                }
                self.tags.push((name.to_owned(), value))
            }
        }
        Ok(text.len() - tail.len())
    }

    /// Reads a move number, a move (with `!`/`?` suffixes) or a multi-word
    /// Vietnamese move starting at `i` (first word ends at `end`).
    pub(super) fn read_word(
        &mut self,
        text: &str,
        i: usize,
        end: usize,
        line_no: usize,
    ) -> Result<usize, Failure> {
        let col = Col::At(text, i);
        let word = &text[i..end];
        // Move numbers: "12." "12..." and "1.h2e2" (but "13.4" is a WXF move).
        let digits = word.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && word.len() > digits && word.as_bytes()[digits..].iter().all(|&b| b == b'.')
        {
            return Ok(end); // "12." before a non-ASCII space (`move_number_end` reads the rest)
        }
        if digits > 0 {
            let after = &word[digits..];
            let dots = after.find(|c| c != '.' && c != '。').unwrap_or(after.len());
            let rest = &after[dots..];
            if dots > 0 && (rest.is_empty() || rest.chars().nth(1).is_some()) {
                return Ok(i + digits + dots);
            }
            if dots == 0 && rest.is_empty() {
                return Ok(end); // a bare number: treat as a move number
            }
        }
        self.start_moves(line_no, col)?;
        // Annotation suffixes.
        // Bytes, not characters: '!' and '?' are ASCII, so the cut is a character boundary.
        let core_len = word
            .bytes()
            .rposition(|b| b != b'!' && b != b'?')
            .map_or(0, |last| last + 1);
        let core = &word[..core_len];
        let suffix = &word[core.len()..];
        let Ok(nag) = suffix_nag(suffix) else {
            return Err(self.err(
                line_no,
                Col::At(text, i + core.len()),
                ErrorKind::BadAnnotation(suffix.into()),
            ));
        };
        let (mv, consumed_to) = self.resolve_move(text, i, core, end, line_no)?;
        if self.moves >= self.options.limits.max_moves_per_game {
            return Err(self.err(
                line_no,
                col,
                ErrorKind::TooManyMoves(self.options.limits.max_moves_per_game),
            ));
        }
        self.play(mv);
        if let Some(nag) = nag {
            let frame = self.stack.last_mut().expect("started");
            frame
                .line
                .moves
                .last_mut()
                .expect("pushed")
                .nags_mut()
                .push(nag);
        }
        Ok(consumed_to)
    }
}
