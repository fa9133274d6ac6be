//! Move resolution of the PGN reader: a move word to a legal move, in
//! the game's notation, ICCS on the fast path, tolerant of the common
//! slips, and the errors that name the move.

use super::*;

impl Builder {
    /// Appends the legal move `mv` to the current line and plays it.
    #[inline(always)]
    pub(super) fn play(&mut self, mv: Move) {
        self.moves += 1;
        let frame = self.stack.last_mut().expect("started");
        frame.last_undo = Some(frame.pos.make_move(mv));
        frame.last_move = Some(mv);
        frame.line.moves.push(Node::new(mv));
    }

    /// The common case of [`Builder::read_word`], with none of its checks
    /// that cannot apply: the word `text[i..end]` is one whole move, in the
    /// notation the game already uses, with no annotation suffix, in a line
    /// already started and below the move limit. `None` for anything else
    /// (move numbers, results, the first move, Vietnamese words, errors),
    /// which `read_word` then reads.
    #[inline(always)]
    pub(super) fn plain_move(&self, text: &str, i: usize, end: usize) -> Option<Move> {
        let notation = self.notation?;
        let frame = self.stack.last()?;
        let bytes = text.as_bytes();
        let (first, last) = (bytes[i], bytes[end - 1]);
        // Results start with 0, 1, * or ½ (C2); move numbers with a digit.
        if self.ranks10
            || matches!(first, b'0'..=b'9' | b'*' | 0xC2)
            || matches!(last, b'!' | b'?')
            || (notation == Notation::Vietnamese && !self.vietnamese_short)
            || self.moves >= self.options.limits.max_moves_per_game
        {
            return None;
        }
        // Both ends are character boundaries (from `word_end`); `split_at`
        // inlines where `&text[i..end]` called a range check each move.
        let word = text[i..].split_at(end - i).0;
        parse_quietly(
            &frame.pos,
            word,
            notation,
            self.convention,
            self.vietnamese_short,
        )
    }

    /// The legal move written at byte `i` (`core`: its first word without
    /// annotation suffix, which ends at `end`), and where its text ends.
    pub(super) fn resolve_move(
        &mut self,
        text: &str,
        i: usize,
        core: &str,
        end: usize,
        line_no: usize,
    ) -> Result<(Move, usize), Failure> {
        let col = Col::At(text, i);
        if self.ranks10 && is_ranks10_text(core) {
            // Never read as ICCS 0-9: a rank 0 here is an error, not a guess.
            return self.resolve_ranks10(core, end, line_no, col);
        }
        let notation = match self.notation {
            Some(n) => n,
            // The game's first move decides its notation.
            None => match xiangqi_notation::detect(core) {
                Some(n) => *self.notation.insert(n),
                None => {
                    // Text that looks like no notation: the move text
                    // reader's own error says so.
                    let shape = parse_text(core, None, self.convention)
                        .map_err(|e| self.move_err(line_no, col, e.into()))?;
                    *self.notation.insert(shape.notation())
                }
            },
        };
        if let Some(found) = self.resolve_in_game_notation(text, i, core, end, notation) {
            return Ok(found);
        }
        self.resolve_move_tolerantly(text, core, end, line_no, col, notation)
    }

    /// A coordinate move of a `[Variant "xiangqi"]` game (ranks 1-10).
    fn resolve_ranks10(
        &mut self,
        core: &str,
        end: usize,
        line_no: usize,
        col: Col<'_>,
    ) -> Result<(Move, usize), Failure> {
        self.notation.get_or_insert(Notation::Iccs);
        let mv = parse_ranks10(core).map_err(|e| self.move_err(line_no, col, e.into()))?;
        let pos = &self.stack.last().expect("started").pos;
        let mv = MoveText::Coordinates(mv)
            .resolve(pos, core)
            .map_err(|e| self.move_err(line_no, col, e))?;
        Ok((mv, end))
    }

    /// The common case, without copying or building errors: the move is
    /// written correctly in the game's notation. `None` sends the move to
    /// [`Builder::resolve_move_tolerantly`], which also says what is wrong.
    pub(super) fn resolve_in_game_notation(
        &self,
        text: &str,
        i: usize,
        core: &str,
        end: usize,
        notation: Notation,
    ) -> Option<(Move, usize)> {
        let pos = &self.stack.last().expect("started").pos;
        let short = self.vietnamese_short;
        if notation != Notation::Vietnamese || short {
            return parse_quietly(pos, core, notation, self.convention, short).map(|mv| (mv, end));
        }
        if core.len() != end - i {
            return None; // annotation suffixes on a Vietnamese word: the careful path
        }
        // The words as the writer spells them, read straight from the line:
        // they hold no special byte, so the move ends where its last word
        // does if a space, a special byte or the line end follows.
        if let Some((described, len)) = read_vietnamese_words_exact(&text[i..]) {
            let stop = i + len;
            if stop == text.len() || skip_space(text, stop) > stop || is_special(text, stop) {
                return Some((described.resolve_quietly(pos)?, stop));
            }
        }
        // A Vietnamese move spans up to four words ("Pháo 2 bình 5"); it
        // ends where its fourth token does, which must be a word's end.
        let mut word_ends = [end; 4];
        let mut words = 1;
        while words < 4 {
            let start = skip_space(text, word_ends[words - 1]);
            let stop = word_end(text, start);
            if stop == start {
                break;
            }
            word_ends[words] = stop;
            words += 1;
        }
        let (described, len) = read_vietnamese_words(&text[i..word_ends[words - 1]])?;
        let stop = i + len;
        if !word_ends[..words].contains(&stop) {
            return None;
        }
        Some((described.resolve_quietly(pos)?, stop))
    }

    /// Reads a move that [`Builder::resolve_in_game_notation`] could not:
    /// one in another notation than the game's, or a broken one (with the error).
    pub(super) fn resolve_move_tolerantly(
        &mut self,
        text: &str,
        core: &str,
        end: usize,
        line_no: usize,
        col: Col<'_>,
        notation: Notation,
    ) -> Result<(Move, usize), Failure> {
        let mut parsed =
            parse_text_with(core, Some(notation), self.convention, self.vietnamese_short);
        let mut consumed_to = end;
        let mut whole = std::borrow::Cow::Borrowed(core);
        if parsed.is_err() {
            // A Vietnamese move spans several words: "Pháo 2 bình 5".
            if notation == Notation::Vietnamese
                || xiangqi_notation::detect(core) == Some(Notation::Vietnamese)
            {
                let mut j = end;
                for _ in 0..3 {
                    let start = skip_space(text, j);
                    let stop = word_end(text, start);
                    if stop == start {
                        break;
                    }
                    let w = whole.to_mut();
                    w.push(' ');
                    w.push_str(&text[start..stop]);
                    j = stop;
                    let attempt = parse_text(&whole, Some(Notation::Vietnamese), self.convention);
                    if attempt.is_ok() {
                        parsed = attempt;
                        consumed_to = j;
                        break;
                    }
                }
            }
        }
        if parsed.is_err() {
            // Tolerate a move in another notation than the game's.
            if let Ok(other) = parse_text_with(core, None, self.convention, self.vietnamese_short) {
                parsed = Ok(other);
                whole = std::borrow::Cow::Borrowed(core);
                consumed_to = end;
            }
        }
        let mt = parsed.map_err(|e| self.move_err(line_no, col, e.into()))?;
        let pos = &self.stack.last().expect("started").pos;
        let mv = mt
            .resolve(pos, &whole)
            .map_err(|e| self.move_err(line_no, col, e))?;
        Ok((mv, consumed_to))
    }

    pub(super) fn move_err(&self, line: usize, column: Col<'_>, error: MoveTextError) -> Failure {
        let frame = self.stack.last().expect("started");
        self.err(
            line,
            column,
            ErrorKind::MoveText {
                ply: frame.first_ply + frame.line.moves.len(),
                ply_name: ply_name(&frame.pos),
                error: Box::new(error),
            },
        )
    }
}
