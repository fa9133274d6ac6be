//! The tokenizer of the PGN reader: a line's tags, comments, variations,
//! NAGs, move numbers, move words and result, and columns counted only for
//! errors. The moves themselves are read in `moves`.

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
    fn comment_too_long(&self, line: usize, col: Col<'_>) -> Failure {
        let limit = self.options.limits.max_comment_len;
        self.err(line, col, ErrorKind::CommentTooLong(limit))
    }

    /// Reads the unread text `text[offset..]` of line `line_no`: tags,
    /// comments, variations, NAGs, move numbers, moves and the result.
    pub(super) fn feed_line(
        &mut self,
        line_no: usize,
        text: &str,
        offset: usize,
    ) -> Result<Fed, Failure> {
        let limits = self.options.limits;
        let mut i = offset;
        let bytes = text.as_bytes();
        // Continue a `{` comment from an earlier line.
        if let Some((mut body, start)) = self.comment.take() {
            if is_tag_start(text) && !text.contains('}') {
                // An unclosed comment ran into the next game's tags: keep that line.
                let kind = ErrorKind::UnterminatedComment(start);
                return Err(Failure::Restart(self.error(start, 1, kind)));
            }
            match text[i..].find('}') {
                Some(end) => {
                    body.push('\n');
                    body.push_str(&text[i..i + end]);
                    i += end + 1;
                    if body.len() > limits.max_comment_len {
                        return Err(self.comment_too_long(start, Col::Known(1)));
                    }
                    self.push_comment(body.trim().to_owned());
                }
                None => {
                    body.push('\n');
                    body.push_str(&text[i..]);
                    if body.len() > limits.max_comment_len {
                        return Err(self.comment_too_long(start, Col::Known(1)));
                    }
                    self.comment = Some((body, start));
                    return Ok(Fed::More);
                }
            }
        }
        if i == 0 && bytes.first() == Some(&b'%') {
            return Ok(Fed::More); // escape line
        }
        if self.cut.is_some() {
            return self.feed_cut(line_no, text, i);
        }
        while i < bytes.len() {
            let b = bytes[i];
            // Branches, not a `match` on the class: its jump table was
            // mispredicted about three times a ply (spaces, numbers and moves
            // alternate too irregularly for an indirect jump).
            let class = BYTE_CLASS[b as usize];
            if class == ByteClass::Space {
                i += 1;
                continue;
            }
            if !b.is_ascii() && may_start_space(b) {
                let next = skip_space(text, i);
                if next > i {
                    i = next;
                    continue;
                }
            }
            if class != ByteClass::Special {
                if b.is_ascii_digit() {
                    if let Some(next) = move_number_end(bytes, i) {
                        i = next;
                        continue;
                    }
                }
                let end = word_end(text, i);
                if let Some(mv) = self.plain_move(text, i, end) {
                    self.play(mv);
                    i = end;
                    continue;
                }
                let word = &text[i..end];
                // `½-½` starts with the byte 0xC2; move numbers such as `1.` are no result.
                let maybe_result = matches!(b, b'0' | b'1' | b'*' | 0xC2) && !word.ends_with('.');
                if let Some(result) = maybe_result
                    .then(|| word.parse::<GameResult>().ok())
                    .flatten()
                {
                    if self.stack.len() > 1 {
                        let opened = self.stack.last().expect("nonempty").opened_at;
                        return Err(self.err(
                            line_no,
                            Col::At(text, i),
                            ErrorKind::UnterminatedVariation(opened),
                        ));
                    }
                    let rest = skip_space(text, end);
                    self.result = Some(result);
                    return Ok(Fed::Ended((rest < text.len()).then_some(rest)));
                }
                i = self.read_word(text, i, end, line_no)?;
                if self.cut.is_some() {
                    return self.feed_cut(line_no, text, i);
                }
                continue;
            }
            let col = Col::At(text, i);
            match b {
                b'[' => {
                    if self.has_moves() || self.stack.len() > 1 {
                        return Err(self.err(
                            line_no,
                            col,
                            ErrorKind::BadTag("tag pair inside the move text"),
                        ));
                    }
                    i = self.read_tag(text, i, line_no)?;
                }
                b'{' => {
                    let body_start = i + 1;
                    match text[body_start..].find('}') {
                        Some(end) => {
                            if end > limits.max_comment_len {
                                return Err(self.comment_too_long(line_no, col));
                            }
                            self.push_comment(text[body_start..body_start + end].trim().to_owned());
                            i = body_start + end + 1;
                        }
                        None => {
                            let body = text[body_start..].to_owned();
                            if body.len() > limits.max_comment_len {
                                return Err(self.comment_too_long(line_no, col));
                            }
                            self.comment = Some((body, line_no));
                            return Ok(Fed::More);
                        }
                    }
                }
                b';' => {
                    let body = text[i + 1..].trim();
                    if body.len() > limits.max_comment_len {
                        return Err(self.comment_too_long(line_no, col));
                    }
                    self.push_comment(body.to_owned());
                    return Ok(Fed::More);
                }
                b'(' => {
                    self.start_moves(line_no, col)?;
                    if self.stack.len() > limits.max_variation_depth {
                        return Err(self.err(
                            line_no,
                            col,
                            ErrorKind::VariationTooDeep(limits.max_variation_depth),
                        ));
                    }
                    let parent = self.stack.last().expect("started");
                    let (Some(mv), Some(undo)) = (parent.last_move, parent.last_undo) else {
                        return Err(self.err(line_no, col, ErrorKind::VariationWithoutMove));
                    };
                    let mut pos = parent.pos.clone();
                    pos.unmake_move(mv, undo);
                    // The variation replaces the parent's last move.
                    let first_ply = parent.first_ply + parent.line.moves.len() - 1;
                    self.stack.push(Frame {
                        line: Line::default(),
                        pos,
                        last_move: None,
                        last_undo: None,
                        opened_at: line_no,
                        first_ply,
                    });
                    i += 1;
                }
                b')' => {
                    if self.stack.len() < 2 {
                        return Err(self.err(line_no, col, ErrorKind::UnmatchedClose));
                    }
                    let child = self.stack.pop().expect("checked");
                    let parent = self.stack.last_mut().expect("checked");
                    parent
                        .line
                        .moves
                        .last_mut()
                        .expect("a variation follows a move")
                        .variations_mut()
                        .push(child.line);
                    i += 1;
                }
                b'$' => {
                    let digits = bytes[i + 1..]
                        .iter()
                        .take_while(|b| b.is_ascii_digit())
                        .count();
                    let end = i + 1 + digits;
                    let nag = text[i + 1..end].parse::<u8>().ok();
                    let node = self.stack.last_mut().and_then(|f| f.line.moves.last_mut());
                    match (nag, node) {
                        (Some(n), Some(node)) => node.nags_mut().push(n),
                        _ => {
                            return Err(self.err(
                                line_no,
                                col,
                                ErrorKind::BadAnnotation(text[i..end].to_owned()),
                            ))
                        }
                    }
                    i = end;
                }
                // `}` is the one special byte left: a comment's end without its start.
                _ => return Err(self.err(line_no, col, ErrorKind::BadAnnotation("}".into()))),
            }
        }
        Ok(Fed::More)
    }

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
        let closed = close.and_then(|close| value_text[close + 1..].trim_start().strip_prefix(']'));
        let tail = match closed {
            Some(tail) => tail,
            // Chinese PC programs write a quote inside a value unescaped
            // (`[Event "第八屆"銀荔杯"象棋…"]`): the value runs to the last
            // `"` before the `]` that ends the line, as python-chess reads
            // it. Strict reading refuses it.
            None => match value_text.trim_end().strip_suffix("\"]") {
                Some(whole) if !self.options.strict => {
                    value.clear();
                    let mut chars = whole.chars();
                    while let Some(c) = chars.next() {
                        match c {
                            '\\' => value.extend(chars.next()),
                            _ => value.push(c),
                        }
                    }
                    ""
                }
                _ if close.is_none() => return Err(bad(self, "the value is not closed with '\"'")),
                _ => return Err(bad(self, "expected ']'")),
            },
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
        // A move number in full-width forms ("１２．"): the moves themselves
        // are folded by the notation's parsers.
        if word.as_bytes().contains(&0xEF) {
            let folded = xiangqi_notation::fold_full_width(word);
            let digits = folded.bytes().take_while(u8::is_ascii_digit).count();
            if digits > 0 && folded.len() > digits && folded.bytes().skip(digits).all(|b| b == b'.')
            {
                return Ok(end);
            }
        }
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
        if self.cut.is_some() {
            return Ok(end); // the moves of a diagram no game can reach
        }
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
        let (mv, consumed_to) = match self.resolve_move(text, i, core, end, line_no) {
            Ok(found) => found,
            Err(Failure::Skip(error, _))
                if error.kind.cuts_the_line() || self.has_something_to_keep() =>
            {
                // Text that is no move at all cuts the line too once the
                // game has tags or moves to keep (python-chess keeps them);
                // before anything, it is no game (a broken one).
                self.cut_line(*error);
                return Ok(end);
            }
            Err(failure) => return Err(failure),
        };
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
