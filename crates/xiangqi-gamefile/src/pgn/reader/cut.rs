//! A line cut at a move that cannot be played, as python-chess reads one:
//! the move is recorded as the game's error, and the rest of its line is
//! read past (moves, comments, NAGs and the variations inside it) up to the
//! `)` that closes it, or to the game's end for the main line. The moves
//! before it, and every other line, are kept.

use super::*;

impl Builder {
    /// Records `error` on the game and starts reading past the rest of the
    /// current line.
    pub(super) fn cut_line(&mut self, error: GameFileError) {
        self.errors.push(error);
        self.cut = Some(0);
    }

    /// Reads past the cut line from byte `i` of `text`; where the line's
    /// closing `)` comes, reading goes on normally after it.
    pub(super) fn feed_cut(
        &mut self,
        line_no: usize,
        text: &str,
        mut i: usize,
    ) -> Result<Fed, Failure> {
        let bytes = text.as_bytes();
        while i < bytes.len() {
            let col = Col::At(text, i);
            match bytes[i] {
                b'{' => match text[i + 1..].find('}') {
                    Some(end) => i += end + 2,
                    None => {
                        // Continued on the next lines; its text is not kept.
                        self.comment = Some((String::new(), line_no));
                        return Ok(Fed::More);
                    }
                },
                b';' => return Ok(Fed::More),
                b'(' => {
                    self.cut = self.cut.map(|nesting| nesting + 1);
                    i += 1;
                }
                b')' => match self.cut {
                    Some(nesting) if nesting > 0 => {
                        self.cut = Some(nesting - 1);
                        i += 1;
                    }
                    _ => {
                        // The cut variation ends here: close it as usual.
                        self.cut = None;
                        return self.feed_line(line_no, text, i);
                    }
                },
                b'[' => {
                    return Err(self.err(
                        line_no,
                        col,
                        ErrorKind::BadTag("tag pair inside the move text"),
                    ))
                }
                b if BYTE_CLASS[b as usize] == ByteClass::Space => i += 1,
                _ => {
                    let next = skip_space(text, i);
                    if next > i {
                        i = next;
                        continue;
                    }
                    let end = match word_end(text, i) {
                        end if end > i => end,
                        _ => i + text[i..].chars().next().map_or(1, char::len_utf8),
                    };
                    let word = &text[i..end];
                    if let Ok(result) = word.parse::<GameResult>() {
                        if self.stack.len() > 1 || self.cut != Some(0) {
                            let opened = self.stack.last().expect("started").opened_at;
                            return Err(self.err(
                                line_no,
                                col,
                                ErrorKind::UnterminatedVariation(opened),
                            ));
                        }
                        self.result = Some(result);
                        let rest = skip_space(text, end);
                        return Ok(Fed::Ended((rest < text.len()).then_some(rest)));
                    }
                    i = end;
                }
            }
        }
        Ok(Fed::More)
    }
}
