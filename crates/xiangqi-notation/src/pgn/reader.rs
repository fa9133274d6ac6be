//! The streaming PGN reader: one game (or one error) at a time, in memory
//! bounded by [`Limits`] whatever the size of the file.

use std::io::BufRead;
use std::sync::OnceLock;

use xiangqi_core::{FenError, Move, Position, Undo};

use super::game::{Game, GameResult, Line, Node};
use super::lines::{LineError, LineFailure, Lines};
use super::scan::{may_start_space, skip_space, word_end, ByteClass, BYTE_CLASS};
use super::text::TextEncoding;
use crate::{
    parse_quietly, parse_ranks10, parse_text, ranks10, read_text, vietnamese, MoveTextError,
    Notation, ParseMoveError, WxfConvention,
};

/// Resource limits of the reader. A game that exceeds one is reported as an
/// error and skipped; reading goes on with the next game.
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

/// Options of the reader.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ReaderOptions {
    /// Resource limits.
    pub limits: Limits,
    /// How WXF `11`/`33` are read when the file does not say
    /// (`[WXFStyle "fsf"]`, which our writer adds for that style).
    pub wxf_convention: WxfConvention,
}

/// What went wrong in a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PgnErrorKind {
    /// Reading the input failed (the reader stops).
    #[error("read error: {0}")]
    Io(String),
    /// The input is UTF-16, which the reader does not decode.
    #[error("UTF-16 input is not supported: convert it to UTF-8")]
    Utf16,
    /// A line is longer than [`Limits::max_line_len`].
    #[error("line longer than {0} bytes")]
    LineTooLong(usize),
    /// A comment is longer than [`Limits::max_comment_len`].
    #[error("comment longer than {0} bytes")]
    CommentTooLong(usize),
    /// A `{` comment is not closed (before the end of the file or the next game's tags).
    #[error("comment opened at line {0} is not closed")]
    UnterminatedComment(usize),
    /// Variations nest deeper than [`Limits::max_variation_depth`].
    #[error("variations nested deeper than {0}")]
    VariationTooDeep(usize),
    /// More moves than [`Limits::max_moves_per_game`].
    #[error("more than {0} moves in one game")]
    TooManyMoves(usize),
    /// More tags than [`Limits::max_tags_per_game`].
    #[error("more than {0} tags in one game")]
    TooManyTags(usize),
    /// A tag pair that is not `[Name "value"]`.
    #[error("malformed tag pair: {0}")]
    BadTag(&'static str),
    /// The `FEN` tag is invalid.
    #[error("invalid FEN tag: {0}")]
    BadFen(FenError),
    /// `(` before any move of the line.
    #[error("a variation must follow a move")]
    VariationWithoutMove,
    /// `)` without `(`.
    #[error("')' without '('")]
    UnmatchedClose,
    /// The game ended inside a variation.
    #[error("variation opened at line {0} is not closed")]
    UnterminatedVariation(usize),
    /// A NAG before any move or not `$0`-`$255`.
    #[error("bad annotation {0:?}")]
    BadNag(String),
    /// A move text that is not a legal move here.
    #[error("move {ply_name}: {error}")]
    Move {
        /// Move number and side, e.g. `12.` or `12...`.
        ply_name: String,
        /// Why.
        error: MoveTextError,
    },
}

/// An error in one game of a PGN file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("game {game}, line {line}, column {column}: {kind}")]
pub struct PgnError {
    /// 1-based index of the game in the file (broken games count).
    pub game: usize,
    /// 1-based line number.
    pub line: usize,
    /// 1-based character column.
    pub column: usize,
    /// What is wrong.
    pub kind: PgnErrorKind,
}

/// Reads the games of a PGN source one at a time (an [`Iterator`] of
/// `Result<Game, PgnError>`).
///
/// ```
/// use xiangqi_notation::pgn::{GameResult, Reader};
///
/// let pgn = "[Red \"A\"]\n[Black \"B\"]\n\n1. 炮二平五 马8进7 {a comment} 2. 马二进三 (2. 兵七进一) 车9平8 1-0\n";
/// let mut games = Reader::new(pgn.as_bytes());
/// let game = games.next().unwrap().unwrap();
/// assert_eq!(game.plies(), 4);
/// assert_eq!(game.mainline.moves[1].comments(), ["a comment"]);
/// assert_eq!(game.mainline.moves[2].variations().len(), 1);
/// assert_eq!(game.result, Some(GameResult::RedWins));
/// assert!(games.next().is_none());
/// ```
pub struct Reader<R> {
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

impl<R: BufRead> Reader<R> {
    /// A reader with default options.
    pub fn new(src: R) -> Reader<R> {
        Reader::with_options(src, ReaderOptions::default())
    }

    /// A reader with `options`.
    pub fn with_options(src: R, options: ReaderOptions) -> Reader<R> {
        Reader {
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

impl<R> Reader<R> {
    /// Notes the length of a game read, for the next one's `plies_hint`.
    fn finished_game(&mut self, item: Result<Game, PgnError>) -> Result<Game, PgnError> {
        if let Ok(game) = &item {
            // Capped: one huge game should not make every later one reserve as much.
            self.plies_hint = game.mainline.moves.len().min(1024);
        }
        item
    }
}

impl<R: BufRead> Iterator for Reader<R> {
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

/// The end of a move number `12.` or `12...` starting at byte `i` when a
/// space, a special byte or the line end follows it: the common case, read
/// without scanning the word twice. Other shapes (`1.h2e2`, the WXF move
/// `13.4`, `1。`) are left to [`Builder::read_word`].
#[inline(always)]
fn move_number_end(bytes: &[u8], i: usize) -> Option<usize> {
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
fn is_special(text: &str, i: usize) -> bool {
    text.as_bytes()
        .get(i)
        .is_some_and(|&b| BYTE_CLASS[b as usize] == ByteClass::Special)
}

fn is_tag_start(s: &str) -> bool {
    let mut chars = s.trim_start().chars();
    chars.next() == Some('[') && chars.next().is_some_and(|c| c.is_ascii_alphabetic())
}

fn column(text: &str, byte: usize) -> usize {
    text[..byte.min(text.len())].chars().count() + 1
}

/// A column, counted in characters only when an error needs it.
#[derive(Copy, Clone)]
enum Col<'a> {
    /// At this byte offset of the line.
    At(&'a str, usize),
    /// Already known.
    Known(usize),
}

impl Col<'_> {
    fn get(self) -> usize {
        match self {
            Col::At(text, byte) => column(text, byte),
            Col::Known(c) => c,
        }
    }
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

    /// Reads `[Name "value"]` starting at `i`; returns the offset after it.
    fn read_tag(&mut self, text: &str, i: usize, line_no: usize) -> Result<usize, Failure> {
        let col = Col::At(text, i);
        let bad = |this: &Self, what| this.err(line_no, col, PgnErrorKind::BadTag(what));
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
                PgnErrorKind::TooManyTags(self.options.limits.max_tags_per_game),
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
                    self.ranks10 = ranks10::is_ranks10_variant(&value);
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
    fn read_word(
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
        let nag = match suffix {
            "" => None,
            "!" => Some(1),
            "?" => Some(2),
            "!!" => Some(3),
            "??" => Some(4),
            "!?" => Some(5),
            "?!" => Some(6),
            _ => {
                return Err(self.err(
                    line_no,
                    Col::At(text, i + core.len()),
                    PgnErrorKind::BadNag(suffix.into()),
                ))
            }
        };
        let (mv, consumed_to) = self.resolve_move(text, i, core, end, line_no)?;
        if self.moves >= self.options.limits.max_moves_per_game {
            return Err(self.err(
                line_no,
                col,
                PgnErrorKind::TooManyMoves(self.options.limits.max_moves_per_game),
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

    /// Appends the legal move `mv` to the current line and plays it.
    #[inline(always)]
    fn play(&mut self, mv: Move) {
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
    fn plain_move(&self, text: &str, i: usize, end: usize) -> Option<Move> {
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

    fn ply_name(&self) -> String {
        let pos = &self.stack.last().expect("started").pos;
        match pos.side_to_move() {
            xiangqi_core::Color::Red => format!("{}.", pos.fullmove_number()),
            xiangqi_core::Color::Black => format!("{}...", pos.fullmove_number()),
        }
    }

    /// The legal move written at byte `i` (`core`: its first word without
    /// annotation suffix, which ends at `end`), and where its text ends.
    fn resolve_move(
        &mut self,
        text: &str,
        i: usize,
        core: &str,
        end: usize,
        line_no: usize,
    ) -> Result<(Move, usize), Failure> {
        let col = Col::At(text, i);
        if self.ranks10 && ranks10::is_coordinate_text(core) {
            // Never read as ICCS 0-9: a rank 0 here is an error, not a guess.
            return self.resolve_ranks10(core, end, line_no, col);
        }
        let notation = match self.notation {
            Some(n) => n,
            None => match crate::detect(core) {
                Some(n) => *self.notation.insert(n),
                None => {
                    let e =
                        ParseMoveError::new(None, core, 1, crate::SyntaxErrorKind::Unrecognised);
                    return Err(self.move_err(line_no, col, e.into()));
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
        match crate::text::legality(pos, mv) {
            Ok(()) => Ok((mv, end)),
            Err(reason) => {
                let error = MoveTextError::Illegal {
                    text: core.to_owned(),
                    mv,
                    reason,
                };
                Err(self.move_err(line_no, col, error))
            }
        }
    }

    /// The common case, without copying or building errors: the move is
    /// written correctly in the game's notation. `None` sends the move to
    /// [`Builder::resolve_move_tolerantly`], which also says what is wrong.
    fn resolve_in_game_notation(
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
        if let Some((described, len)) = vietnamese::read_exact_words(&text[i..]) {
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
        let (described, len) = vietnamese::read_leading(&text[i..word_ends[words - 1]])?;
        let stop = i + len;
        if !word_ends[..words].contains(&stop) {
            return None;
        }
        Some((described.resolve_quietly(pos)?, stop))
    }

    /// Reads a move that [`Builder::resolve_in_game_notation`] could not:
    /// one in another notation than the game's, or a broken one (with the error).
    fn resolve_move_tolerantly(
        &mut self,
        text: &str,
        core: &str,
        end: usize,
        line_no: usize,
        col: Col<'_>,
        notation: Notation,
    ) -> Result<(Move, usize), Failure> {
        let mut parsed = read_text(core, Some(notation), self.convention, self.vietnamese_short);
        let mut consumed_to = end;
        let mut whole = std::borrow::Cow::Borrowed(core);
        if parsed.is_err() {
            // A Vietnamese move spans several words: "Pháo 2 bình 5".
            if notation == Notation::Vietnamese || crate::detect(core) == Some(Notation::Vietnamese)
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
            if let Ok(other) = read_text(core, None, self.convention, self.vietnamese_short) {
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

    fn move_err(&self, line: usize, column: Col<'_>, error: MoveTextError) -> Failure {
        self.err(
            line,
            column,
            PgnErrorKind::Move {
                ply_name: self.ply_name(),
                error,
            },
        )
    }
}
