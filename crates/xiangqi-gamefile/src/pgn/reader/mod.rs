//! The streaming PGN reader: one game (or one error) at a time, in memory
//! bounded by [`Limits`] whatever the size of the file.

mod error;
mod moves;
mod tokens;

use std::io::BufRead;
use std::sync::OnceLock;

use xiangqi_core::{Move, Position, Undo};

use xiangqi_notation::{
    is_ranks10_text, parse_quietly, parse_ranks10, parse_text, parse_text_with,
    read_vietnamese_words, read_vietnamese_words_exact, MoveText, MoveTextError, Notation,
    WxfConvention,
};

use crate::text::lines::{LineError, LineFailure, Lines};
use crate::text::scan::{may_start_space, skip_space, word_end, ByteClass, BYTE_CLASS};
use crate::{Game, GameResult, Line, Node, ReaderOptions, TextEncoding};

pub use error::{PgnError, PgnErrorKind};
use tokens::{is_special, is_tag_start, move_number_end, Col};

/// Reads the games of a PGN source one at a time (an [`Iterator`] of
/// `Result<Game, PgnError>`).
///
/// ```
/// use xiangqi_gamefile::pgn::PgnReader;
/// use xiangqi_gamefile::GameResult;
///
/// let pgn = "[Red \"A\"]\n[Black \"B\"]\n\n1. 炮二平五 马8进7 {a comment} 2. 马二进三 (2. 兵七进一) 车9平8 1-0\n";
/// let mut games = PgnReader::new(pgn.as_bytes());
/// let game = games.next().unwrap().unwrap();
/// assert_eq!(game.plies(), 4);
/// assert_eq!(game.mainline.moves[1].comments(), ["a comment"]);
/// assert_eq!(game.mainline.moves[2].variations().len(), 1);
/// assert_eq!(game.result, Some(GameResult::RedWins));
/// assert!(games.next().is_none());
/// ```
pub struct PgnReader<R> {
    lines: Lines<R>,
    options: ReaderOptions,
    games: usize,
    builder: Option<Builder>,
    /// After an error: skip lines up to the next game's tags.
    skipping: Option<bool>,
    finished: bool,
    /// Main-line length of the last game read (see `Builder::plies_hint`).
    plies_hint: usize,
}

impl<R: BufRead> PgnReader<R> {
    /// A reader with default options.
    pub fn new(src: R) -> PgnReader<R> {
        PgnReader::with_options(src, ReaderOptions::default())
    }

    /// A reader with `options`.
    pub fn with_options(src: R, options: ReaderOptions) -> PgnReader<R> {
        PgnReader {
            lines: Lines::new(src, options.limits.max_line_len),
            options,
            games: 0,
            builder: None,
            skipping: None,
            finished: false,
            plies_hint: 0,
        }
    }

    /// Bytes consumed so far (for progress reports).
    pub fn bytes_read(&self) -> u64 {
        self.lines.bytes_read()
    }

    /// The encoding of the non-ASCII text seen so far, if any.
    pub fn encoding(&self) -> Option<TextEncoding> {
        self.lines.encoding()
    }

    fn error(&mut self, line: usize, column: usize, kind: PgnErrorKind) -> PgnError {
        self.builder = None;
        PgnError {
            game: self.games,
            line,
            column,
            kind,
        }
    }

    /// Makes the next line current; returns its number in the file and
    /// the byte offset where its unread text starts.
    fn next_line(&mut self) -> Option<Result<(usize, usize), PgnError>> {
        let LineFailure { line, error } = match self.lines.next_text()? {
            Ok(at) => return Some(Ok(at)),
            Err(failure) => failure,
        };
        let kind = match error {
            LineError::Io(e) => {
                self.finished = true;
                self.games += 1;
                PgnErrorKind::Io(e.to_string())
            }
            LineError::Utf16 => {
                self.finished = true;
                self.games += 1;
                PgnErrorKind::Utf16
            }
            LineError::TooLong => {
                // The line is lost; report it in the current (or a new) game.
                if self.builder.is_none() {
                    self.games += 1;
                }
                self.skipping = Some(false);
                PgnErrorKind::LineTooLong(self.options.limits.max_line_len)
            }
        };
        Some(Err(self.error(line, 1, kind)))
    }
}

impl<R> PgnReader<R> {
    /// Notes the length of a game read, for the next one's `plies_hint`.
    fn finished_game(&mut self, item: Result<Game, PgnError>) -> Result<Game, PgnError> {
        if let Ok(game) = &item {
            // Capped: one huge game should not make every later one reserve as much.
            self.plies_hint = game.mainline.moves.len().min(1024);
        }
        item
    }
}

impl<R: BufRead> Iterator for PgnReader<R> {
    type Item = Result<Game, PgnError>;

    fn next(&mut self) -> Option<Result<Game, PgnError>> {
        if self.finished {
            return None;
        }
        loop {
            let (line_no, offset) = match self.next_line() {
                None => {
                    self.finished = true;
                    let builder = self.builder.take()?;
                    return Some(self.finished_game(builder.finish_at_end(self.lines.line_no())));
                }
                Some(Err(e)) => return Some(Err(e)),
                Some(Ok(l)) => l,
            };
            let text: &str = self.lines.text();
            let trimmed = text.trim_start();
            let is_tag_line = trimmed.starts_with('[');
            if let Some(prev_was_tag) = self.skipping {
                // Skip to a tag line that follows a blank or move-text line: the next game.
                if is_tag_line && !prev_was_tag {
                    self.skipping = None;
                } else {
                    let blank = trimmed.is_empty();
                    self.skipping = Some(is_tag_line && !blank);
                    continue;
                }
            }
            if self
                .builder
                .as_ref()
                .is_some_and(|b| is_tag_line && b.has_moves() && b.comment.is_none())
            {
                // A tag line after move text: the previous game had no result.
                self.lines.resume_at(offset);
                let builder = self.builder.take().expect("checked");
                return Some(self.finished_game(builder.finish(None)));
            }
            if self.builder.is_none() {
                if trimmed.is_empty() {
                    continue;
                }
                self.games += 1;
                self.builder = Some(Builder::new(self.options, self.games, self.plies_hint));
            }
            let builder = self.builder.as_mut().expect("created above");
            match builder.feed(line_no, text, offset) {
                Ok(Fed::More) => {}
                Ok(Fed::Ended(result, rest)) => {
                    let builder = self.builder.take().expect("fed above");
                    if let Some(rest) = rest {
                        self.lines.resume_at(rest);
                    }
                    return Some(self.finished_game(builder.finish(Some(result))));
                }
                Err(Failure::Error(e)) => {
                    self.builder = None;
                    self.skipping = Some(is_tag_line);
                    return Some(Err(e));
                }
                Err(Failure::RestartAt(e)) => {
                    // An unclosed comment ran into the next game's tags: keep that line.
                    self.builder = None;
                    self.lines.resume_at(offset);
                    return Some(Err(e));
                }
            }
        }
    }
}

enum Fed {
    More,
    /// The move text ended with a result token; the rest of the line, if
    /// any, starts at this byte offset.
    Ended(GameResult, Option<usize>),
}

enum Failure {
    Error(PgnError),
    RestartAt(PgnError),
}

struct Frame {
    line: Line,
    pos: Position,
    /// The last move of the line and how to take it back (for a variation
    /// that replaces it); kept as two fields, which the hot path writes
    /// cheaper than one `Option<(Move, Undo)>`.
    last_move: Option<Move>,
    last_undo: Option<Undo>,
    opened_at: usize,
}

/// The standard start position, set up once: most games have no FEN tag,
/// and parsing the start FEN for each would cost as much as reading a dozen moves.
fn standard_start() -> &'static Position {
    static START: OnceLock<Position> = OnceLock::new();
    START.get_or_init(Position::startpos)
}

/// One game being read.
struct Builder {
    options: ReaderOptions,
    game: usize,
    tags: Vec<(String, String)>,
    /// Line and column of the first `FEN` tag, where an invalid one is reported.
    fen_at: Option<(usize, usize)>,
    notation: Option<Notation>,
    convention: WxfConvention,
    /// `[Variant "xiangqi"]`: coordinates number the ranks 1-10 (N-ICCS-RANKS10).
    ranks10: bool,
    /// `[VietnameseStyle "short"]`: Vietnamese in the compact form (N-VI-SHORT).
    vietnamese_short: bool,
    stack: Vec<Frame>,
    moves: usize,
    /// Inside a `{` comment: its text so far and the line it started on.
    comment: Option<(String, usize)>,
    /// Comments before the move text starts (e.g. between tags).
    early_comments: Vec<String>,
    /// Room to reserve for the main line: the length of the previous game's,
    /// so that a file of similar games grows no vectors move by move.
    plies_hint: usize,
}
impl Builder {
    fn new(options: ReaderOptions, game: usize, plies_hint: usize) -> Builder {
        Builder {
            plies_hint,
            options,
            game,
            tags: Vec::new(),
            fen_at: None,
            notation: None,
            convention: options.wxf_convention,
            ranks10: false,
            vietnamese_short: false,
            stack: Vec::new(),
            moves: 0,
            comment: None,
            early_comments: Vec::new(),
        }
    }

    fn has_moves(&self) -> bool {
        self.moves > 0
    }

    fn err(&self, line: usize, column: Col<'_>, kind: PgnErrorKind) -> Failure {
        Failure::Error(PgnError {
            game: self.game,
            line,
            column: column.get(),
            kind,
        })
    }

    /// The value of the first `FEN` tag, unless it is empty (the standard start).
    fn fen_tag(&self) -> Option<&str> {
        match self.tags.iter().find(|(k, _)| k == "FEN") {
            Some((_, fen)) if !fen.trim().is_empty() => Some(fen),
            _ => None,
        }
    }

    fn finish(mut self, result: Option<GameResult>) -> Result<Game, PgnError> {
        if self.stack.len() > 1 {
            let opened = self.stack.last().expect("nonempty").opened_at;
            let line = opened;
            return Err(PgnError {
                game: self.game,
                line,
                column: 1,
                kind: PgnErrorKind::UnterminatedVariation(opened),
            });
        }
        if self.stack.is_empty() {
            // No move was read, so the FEN tag has not been set up yet: a
            // game is only returned with a start position that exists.
            if let (Some(fen), Some((line, column))) = (self.fen_tag(), self.fen_at) {
                if let Err(e) = Position::from_fen(fen) {
                    return Err(PgnError {
                        game: self.game,
                        line,
                        column,
                        kind: PgnErrorKind::BadFen(e),
                    });
                }
            }
        }
        let mut mainline = match self.stack.pop() {
            Some(frame) => frame.line,
            None => Line::default(),
        };
        if !self.early_comments.is_empty() {
            let mut c = std::mem::take(&mut self.early_comments);
            c.append(&mut mainline.comments);
            mainline.comments = c;
        }
        Ok(Game {
            tags: self.tags,
            notation: self.notation.unwrap_or(Notation::Iccs),
            mainline,
            result,
        })
    }

    fn finish_at_end(self, last_line: usize) -> Result<Game, PgnError> {
        if let Some((_, start)) = self.comment {
            return Err(PgnError {
                game: self.game,
                line: last_line,
                column: 1,
                kind: PgnErrorKind::UnterminatedComment(start),
            });
        }
        self.finish(None)
    }

    fn push_comment(&mut self, text: String) {
        match self.stack.last_mut() {
            None => self.early_comments.push(text),
            Some(frame) => match frame.line.moves.last_mut() {
                Some(node) => node.comments_mut().push(text),
                None => frame.line.comments.push(text),
            },
        }
    }

    /// Sets up the main line when the move text starts.
    #[inline]
    fn start_moves(&mut self, line: usize, col: Col<'_>) -> Result<(), Failure> {
        if self.stack.is_empty() {
            self.set_up_mainline(line, col)?;
        }
        Ok(())
    }

    #[cold]
    fn set_up_mainline(&mut self, line: usize, col: Col<'_>) -> Result<(), Failure> {
        let pos = match self.fen_tag() {
            Some(fen) => {
                Position::from_fen(fen).map_err(|e| self.err(line, col, PgnErrorKind::BadFen(e)))?
            }
            None => standard_start().clone(),
        };
        self.stack.push(Frame {
            line: Line {
                comments: Vec::new(),
                moves: Vec::with_capacity(self.plies_hint),
            },
            pos,
            last_move: None,
            last_undo: None,
            opened_at: line,
        });
        Ok(())
    }

    fn comment_too_long(&self, line: usize, col: Col<'_>) -> Failure {
        let limit = self.options.limits.max_comment_len;
        self.err(line, col, PgnErrorKind::CommentTooLong(limit))
    }

    fn feed(&mut self, line_no: usize, text: &str, offset: usize) -> Result<Fed, Failure> {
        let limits = self.options.limits;
        let mut i = offset;
        let bytes = text.as_bytes();
        // Continue a `{` comment from an earlier line.
        if let Some((mut body, start)) = self.comment.take() {
            if is_tag_start(text) && !text.contains('}') {
                return Err(Failure::RestartAt(PgnError {
                    game: self.game,
                    line: start,
                    column: 1,
                    kind: PgnErrorKind::UnterminatedComment(start),
                }));
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
                            PgnErrorKind::UnterminatedVariation(opened),
                        ));
                    }
                    let rest = skip_space(text, end);
                    return Ok(Fed::Ended(result, (rest < text.len()).then_some(rest)));
                }
                i = self.read_word(text, i, end, line_no)?;
                continue;
            }
            let col = Col::At(text, i);
            match b {
                b'[' => {
                    if self.has_moves() || self.stack.len() > 1 {
                        return Err(self.err(
                            line_no,
                            col,
                            PgnErrorKind::BadTag("tag pair inside the move text"),
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
                            PgnErrorKind::VariationTooDeep(limits.max_variation_depth),
                        ));
                    }
                    let parent = self.stack.last().expect("started");
                    let (Some(mv), Some(undo)) = (parent.last_move, parent.last_undo) else {
                        return Err(self.err(line_no, col, PgnErrorKind::VariationWithoutMove));
                    };
                    let mut pos = parent.pos.clone();
                    pos.unmake_move(mv, undo);
                    self.stack.push(Frame {
                        line: Line::default(),
                        pos,
                        last_move: None,
                        last_undo: None,
                        opened_at: line_no,
                    });
                    i += 1;
                }
                b')' => {
                    if self.stack.len() < 2 {
                        return Err(self.err(line_no, col, PgnErrorKind::UnmatchedClose));
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
                                PgnErrorKind::BadNag(text[i..end].to_owned()),
                            ))
                        }
                    }
                    i = end;
                }
                // `}` is the one special byte left: a comment's end without its start.
                _ => return Err(self.err(line_no, col, PgnErrorKind::BadNag("}".into()))),
            }
        }
        Ok(Fed::More)
    }
}
