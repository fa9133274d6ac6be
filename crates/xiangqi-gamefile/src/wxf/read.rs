//! Reading WXF game files: [`WxfReader`], line by line.

use std::io::BufRead;

use xiangqi_core::{Diagram, FenError, Position, Validation};
use xiangqi_notation::{parse_with, Notation, Style, WxfConvention, WxfStyle};

use super::{is_key, tag_name};
use crate::text::reader::{
    column, ply_name, suffix_nag, Failure, Fed, GameText, Skip, TextFormat, TextReader,
};
use crate::{ErrorKind, Game, GameFileError, GameResult, Line, Node, ReaderOptions, TextEncoding};

fn starts_with_ignore_case(text: &str, prefix: &str) -> bool {
    text.len() >= prefix.len()
        && text.as_bytes()[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
}

/// Whether `line` is a `FORMAT` header line, the first line of a game.
/// `line` without its leading whitespace and byte-order marks (U+FEFF is
/// no whitespace to `char`, but starts many a line of concatenated files).
fn trim_line_start(line: &str) -> &str {
    line.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
}

fn is_format_line(line: &str) -> bool {
    let t = trim_line_start(line);
    starts_with_ignore_case(t, "FORMAT") && t[6..].chars().next().map_or(true, char::is_whitespace)
}

/// Whether `text` (the start of a file) is a WXF game file rather than PGN:
/// its first non-blank line is a `FORMAT` header line. For choosing a reader.
///
/// ```
/// use xiangqi_gamefile::wxf::looks_like_wxf;
/// assert!(looks_like_wxf(b"\xEF\xBB\xBF\nFORMAT\tWXF\nSTART{\n}END\n"));
/// assert!(!looks_like_wxf(b"[Event \"x\"]\n"));
/// ```
pub fn looks_like_wxf(text: &[u8]) -> bool {
    let text = text.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(text);
    text.split(|&b| b == b'\n')
        .map(|l| String::from_utf8_lossy(l))
        .find(|l| !l.trim().is_empty())
        .is_some_and(|l| is_format_line(&l))
}

/// Reads the games of a WXF file one at a time (an [`Iterator`] of
/// `Result<Game, GameFileError>`), line by line in bounded memory
/// ([`Limits`](crate::Limits)). Lines are decoded in the file's one
/// encoding, forced or detected from its start (`ReaderOptions::encoding`).
/// After a broken game it goes on after that game's `}END` (or at the next
/// `FORMAT` line).
pub struct WxfReader<R>(TextReader<R, Wxf>);

/// A reader over an in-memory WXF file.
pub fn read_str(text: &str) -> WxfReader<&[u8]> {
    WxfReader::new(text.as_bytes())
}

impl<R: BufRead> WxfReader<R> {
    /// A reader with default options.
    pub fn new(src: R) -> WxfReader<R> {
        WxfReader::with_options(src, ReaderOptions::default())
    }

    /// A reader with `options`: the limits, and how WXF `11`/`33` are read
    /// when the file has no `WXFSTYLE` line.
    pub fn with_options(src: R, options: ReaderOptions) -> WxfReader<R> {
        WxfReader(TextReader::new(src, options, Wxf))
    }

    /// Bytes consumed so far (for progress reports).
    pub fn bytes_read(&self) -> u64 {
        self.0.bytes_read()
    }

    /// The file's encoding: forced ([`ReaderOptions::encoding`]), or
    /// detected from its start; `None` until the first game is read.
    pub fn encoding(&self) -> Option<TextEncoding> {
        self.0.encoding()
    }
}

impl<R: BufRead> Iterator for WxfReader<R> {
    type Item = Result<Game, GameFileError>;

    fn next(&mut self) -> Option<Result<Game, GameFileError>> {
        self.0.next()
    }
}

/// What WXF tells the shared loop: games start at `FORMAT` lines and end
/// at `}END`.
struct Wxf;

impl TextFormat for Wxf {
    type Game = Builder;

    fn start_game(&mut self, options: ReaderOptions, game: usize) -> Builder {
        Builder::new(options, game)
    }

    fn skip(&mut self, text: &str, offset: usize) -> Skip {
        let rest = &text[offset..];
        if is_format_line(rest) {
            return Skip::StartHere;
        }
        match find_end(rest) {
            Some(end) => {
                let after = offset + end + 4;
                Skip::EndedAt((!text[after..].trim().is_empty()).then_some(after))
            }
            None => Skip::Line,
        }
    }
}

impl GameText for Builder {
    fn feed(&mut self, line: usize, text: &str, offset: usize) -> Result<Fed, Failure> {
        self.feed_line(line, text, offset)
    }

    fn finish(self) -> Result<Game, GameFileError> {
        Ok(self.into_game())
    }

    fn finish_at_end(self, line: usize, column: usize) -> Result<Game, GameFileError> {
        let kind = match (&self.comment, self.started_at) {
            (Some((_, opened)), _) => ErrorKind::UnterminatedComment(*opened),
            (None, Some(start)) => ErrorKind::MissingEnd(start),
            (None, None) => ErrorKind::MissingStart,
        };
        Err(*self.err(line, column, kind))
    }
}

/// Byte offset of `}END` (any case) in `text`.
fn find_end(text: &str) -> Option<usize> {
    text.char_indices()
        .find(|&(i, c)| c == '}' && starts_with_ignore_case(&text[i..], "}END"))
        .map(|(i, _)| i)
}

/// One game being read.
struct Builder {
    options: ReaderOptions,
    game: usize,
    tags: Vec<(String, String)>,
    notation: Option<Notation>,
    format_seen: bool,
    convention: WxfConvention,
    /// Index in `tags` of the FEN header, and where it was.
    fen_at: Option<(usize, usize, usize)>,
    /// Line of `START{`, once read.
    started_at: Option<usize>,
    pos: Position,
    mainline: Line,
    /// A comment still open: its text so far and the line it opened on.
    comment: Option<(String, usize)>,
    result: Option<GameResult>,
    /// The moves were cut at a move that cannot be played: the rest are
    /// read past (a WXF game has no variations).
    cut: bool,
    /// The move that cut the moves (`Game::errors`).
    errors: Vec<GameFileError>,
    /// A FEN header that is a diagram no game can reach: what is wrong and
    /// where the header was, until the moves say whether any are skipped.
    diagram: Option<(Box<FenError>, usize, usize)>,
}

impl Builder {
    fn new(options: ReaderOptions, game: usize) -> Builder {
        Builder {
            options,
            game,
            tags: Vec::new(),
            notation: None,
            format_seen: false,
            convention: options.wxf_convention,
            fen_at: None,
            started_at: None,
            pos: Position::startpos(),
            mainline: Line::default(),
            comment: None,
            result: None,
            cut: false,
            errors: Vec::new(),
            diagram: None,
        }
    }

    fn err(&self, line: usize, column: usize, kind: ErrorKind) -> Box<GameFileError> {
        Box::new(GameFileError::at_text(self.game, line, column, kind))
    }

    /// A broken game: skip to its end, from byte `at` of the line.
    fn skip(&self, line: usize, text: &str, at: usize, kind: ErrorKind) -> Failure {
        let resume = (at < text.len()).then_some(at);
        Failure::Skip(self.err(line, column(text, at), kind), resume)
    }

    /// The diagram's error on the game, when it starts from one.
    fn note_diagram(&mut self, moves_skipped: bool) {
        if let Some((error, line, column)) = self.diagram.take() {
            let kind = ErrorKind::InvalidDiagram {
                error,
                moves_skipped,
            };
            let error = *self.err(line, column, kind);
            self.errors.insert(0, error);
        }
    }

    fn into_game(mut self) -> Game {
        self.note_diagram(false);
        Game {
            tags: self.tags,
            notation: self.notation.unwrap_or(Notation::Wxf),
            mainline: self.mainline,
            result: self.result,
            errors: self.errors,
        }
    }

    fn feed_line(&mut self, line_no: usize, text: &str, offset: usize) -> Result<Fed, Failure> {
        if self.started_at.is_some() {
            return self.feed_moves(line_no, text, offset);
        }
        let rest = &text[offset..];
        // Trimmed as `is_format_line` trims: the reader restarts a game at a
        // line that test accepts, which must then read as that header.
        let t = trim_line_start(rest);
        let at = offset + rest.len() - t.len();
        let t = t.trim_end();
        if t.is_empty() {
            return Ok(Fed::More);
        }
        if starts_with_ignore_case(t, "START{") {
            self.begin_moves(line_no, at)?;
            return self.feed_moves(line_no, text, at + "START{".len());
        }
        let key_len = t.find(char::is_whitespace).unwrap_or(t.len());
        let (key, value) = (&t[..key_len], t[key_len..].trim());
        if !is_key(key) {
            let what =
                "expected `KEY value` (a word of letters and digits, then the value) or START{";
            return Err(self.skip(line_no, text, at, ErrorKind::BadHeader(what)));
        }
        let upper = key.to_ascii_uppercase();
        match upper.as_str() {
            "FORMAT" if self.format_seen => {
                // The next game's first line: this one never started its moves.
                Err(Failure::Restart(self.err(
                    line_no,
                    column(text, at),
                    ErrorKind::MissingStart,
                )))
            }
            "FORMAT" => {
                self.format_seen = true;
                let name = value
                    .split(|c: char| c == ',' || c.is_whitespace())
                    .next()
                    .unwrap_or("");
                self.notation = match name.to_ascii_uppercase().as_str() {
                    "WXF" | "AXF" => Some(Notation::Wxf),
                    "ICCS" => Some(Notation::Iccs),
                    _ => {
                        let kind = ErrorKind::UnsupportedMoveFormat(value.to_owned());
                        return Err(self.skip(line_no, text, text.len(), kind));
                    }
                };
                Ok(Fed::More)
            }
            "WXFSTYLE" => {
                self.convention = match value.parse() {
                    Ok(convention) => convention,
                    Err(_) => {
                        let what = "WXFSTYLE must be `official` or `fsf`";
                        return Err(self.skip(
                            line_no,
                            text,
                            text.len(),
                            ErrorKind::BadHeader(what),
                        ));
                    }
                };
                Ok(Fed::More)
            }
            _ => {
                let max = self.options.limits.max_tags_per_game;
                if self.tags.len() >= max {
                    let kind = ErrorKind::TooManyTags(max);
                    return Err(self.skip(line_no, text, text.len(), kind));
                }
                let tag = tag_name(key);
                if tag == "FEN" && self.fen_at.is_none() {
                    self.fen_at = Some((self.tags.len(), line_no, column(text, at)));
                }
                match (tag.as_str(), split_player(value)) {
                    ("Red" | "Black", Some((name, rating))) => {
                        self.tags.push((tag.clone(), name.to_owned()));
                        if !rating.is_empty() {
                            self.tags.push((format!("{tag}Elo"), rating.to_owned()));
                        }
                    }
                    _ => {
                        // The first RESULT header gives the result (the one
                        // the writer writes it into); later ones are tags only.
                        if tag == "Result" && !self.tags.iter().any(|(k, _)| k == "Result") {
                            self.result = value.parse().ok();
                        }
                        self.tags.push((tag, value.to_owned()));
                    }
                }
                Ok(Fed::More)
            }
        }
    }

    /// At `START{`: sets up the start position from the FEN header.
    fn begin_moves(&mut self, line_no: usize, at: usize) -> Result<(), Failure> {
        if let Some((index, line, col)) = self.fen_at {
            match Position::from_fen(&self.tags[index].1) {
                Ok(pos) => {
                    self.tags[index].1 = pos.to_fen();
                    self.pos = pos;
                }
                Err(e) if Diagram::from_fen(&self.tags[index].1).is_ok() => {
                    // A diagram no game can reach: shown, never played;
                    // its moves, if any, are read past (`note_diagram`).
                    let diagram = Diagram::from_fen(&self.tags[index].1).expect("checked");
                    let error = diagram.problems(Validation::Strict).into_iter().next();
                    self.tags[index].1 = diagram.to_fen();
                    self.diagram = Some((Box::new(error.unwrap_or(e)), line, col));
                }
                Err(e) => {
                    // Skipping goes on from `START{`, which may share its line with `}END`.
                    let kind = ErrorKind::BadFen {
                        field: "header",
                        error: Box::new(e),
                    };
                    return Err(Failure::Skip(self.err(line, col, kind), Some(at)));
                }
            }
        }
        self.started_at = Some(line_no);
        Ok(())
    }

    fn feed_moves(&mut self, line_no: usize, text: &str, offset: usize) -> Result<Fed, Failure> {
        let bytes = text.as_bytes();
        let mut i = offset;
        if let Some((mut comment, opened)) = self.comment.take() {
            let close = text[i..].find('}').map(|j| i + j);
            if i == 0 {
                comment.push('\n');
            }
            comment.push_str(&text[i..close.unwrap_or(text.len())]);
            let max = self.options.limits.max_comment_len;
            if comment.len() > max {
                return Err(self.skip(line_no, text, text.len(), ErrorKind::CommentTooLong(max)));
            }
            match close {
                None => {
                    self.comment = Some((comment, opened));
                    return Ok(Fed::More);
                }
                Some(j) => {
                    self.add_comment(comment.trim().to_owned());
                    i = j + 1;
                }
            }
        } else if i == 0 && is_format_line(text) {
            let start = self.started_at.unwrap_or(line_no);
            let e = self.err(line_no, 1, ErrorKind::MissingEnd(start));
            return Err(Failure::Restart(e));
        }
        while i < text.len() {
            let b = bytes[i];
            if b.is_ascii_whitespace() {
                i += 1;
                continue;
            }
            match b {
                b'{' => match text[i + 1..].find('}') {
                    Some(j) => {
                        let max = self.options.limits.max_comment_len;
                        if j > max {
                            let kind = ErrorKind::CommentTooLong(max);
                            return Err(self.skip(line_no, text, i, kind));
                        }
                        self.add_comment(text[i + 1..i + 1 + j].trim().to_owned());
                        i += j + 2;
                    }
                    None => {
                        let max = self.options.limits.max_comment_len;
                        if text.len() - i - 1 > max {
                            let kind = ErrorKind::CommentTooLong(max);
                            return Err(self.skip(line_no, text, i, kind));
                        }
                        self.comment = Some((text[i + 1..].to_owned(), line_no));
                        return Ok(Fed::More);
                    }
                },
                b'}' if starts_with_ignore_case(&text[i..], "}END") => {
                    let after = i + 4;
                    let rest = !text[after..].trim().is_empty();
                    return Ok(Fed::Ended(rest.then_some(after)));
                }
                b'}' => {
                    let kind = ErrorKind::Unexpected("}".to_owned());
                    return Err(self.skip(line_no, text, i, kind));
                }
                _ => {
                    let end = text[i..]
                        .find(|c: char| c.is_whitespace() || c == '{' || c == '}')
                        .map_or(text.len(), |j| i + j);
                    if end == i {
                        // Whitespace the ASCII test above does not know (a
                        // vertical tab, U+3000): step over it, or the loop
                        // would stand still.
                        i += text[i..].chars().next().map_or(1, char::len_utf8);
                        continue;
                    }
                    self.read_word(line_no, text, i, end)?;
                    i = end;
                }
            }
        }
        Ok(Fed::More)
    }

    fn add_comment(&mut self, comment: String) {
        if self.cut {
            return; // a comment on moves that are dropped
        }
        match self.mainline.moves.last_mut() {
            Some(node) => node.comments_mut().push(comment),
            None => self.mainline.comments.push(comment),
        }
    }

    /// Reads the word `text[i..end]`: a move number, a placeholder, a result or a move.
    fn read_word(
        &mut self,
        line_no: usize,
        text: &str,
        i: usize,
        end: usize,
    ) -> Result<(), Failure> {
        let word = &text[i..end];
        let mut start = i;
        let digits = word.bytes().take_while(u8::is_ascii_digit).count();
        let dots = word[digits..].bytes().take_while(|&b| b == b'.').count();
        if dots == word.len() - digits || word == "…" {
            return Ok(()); // "12.", "12...", "..."
        }
        if digits > 0 && dots > 0 && word.len() - digits - dots >= 3 {
            start = i + digits + dots; // "12.C2.5"; "33.4" is a soldier move
        }
        let word = &text[start..end];
        if matches!(word.as_bytes()[0], b'0' | b'1' | b'*') {
            if let Ok(result) = word.parse::<GameResult>() {
                // The result in the moves wins, as in PGN; the tag follows it
                // so that the game writes back (as the RESULT header) to itself.
                self.result = Some(result);
                match self.tags.iter_mut().find(|(k, _)| k == "Result") {
                    Some((_, v)) => result.as_str().clone_into(v),
                    None => self
                        .tags
                        .push(("Result".to_owned(), result.as_str().to_owned())),
                }
                return Ok(());
            }
        }
        if self.diagram.is_some() {
            // No move can be played from a diagram no game can reach.
            self.note_diagram(true);
            self.cut = true;
        }
        if self.cut {
            return Ok(()); // after the move that cut the moves
        }
        let core = word.trim_end_matches(['!', '?']);
        let suffix = &word[core.len()..];
        let Ok(nag) = suffix_nag(suffix) else {
            let kind = ErrorKind::BadAnnotation(suffix.to_owned());
            return Err(self.skip(line_no, text, start + core.len(), kind));
        };
        let mut core = std::borrow::Cow::Borrowed(core);
        if core.len() > 4 && core.is_ascii() {
            // A check or mate mark after a complete move ("R2+7+"): implied by the position.
            let unmarked = core.trim_end_matches(['+', '#']);
            if unmarked.len() >= 4 {
                core = std::borrow::Cow::Owned(unmarked.to_owned());
            }
        }
        // "+R.3" (the tandem marker before the letter) and full-width
        // moves are read by the notation's WXF parser itself.
        let style = Style {
            wxf: WxfStyle {
                convention: self.convention,
                ..WxfStyle::default()
            },
            ..Style::default()
        };
        let mv = match parse_with(&self.pos, &core, self.notation, &style) {
            Ok(mv) => mv,
            Err(error) => {
                let kind = ErrorKind::MoveText {
                    ply: self.mainline.moves.len() + 1,
                    ply_name: ply_name(&self.pos),
                    error: Box::new(error),
                };
                if kind.cuts_the_line() {
                    let error = self.err(line_no, column(text, start), kind);
                    self.errors.push(*error);
                    self.cut = true;
                    return Ok(());
                }
                return Err(self.skip(line_no, text, start, kind));
            }
        };
        if self.notation.is_none() {
            // No FORMAT line: the notation of the first move holds for the game.
            self.notation = xiangqi_notation::detect(&core);
        }
        let max = self.options.limits.max_moves_per_game;
        if self.mainline.moves.len() >= max {
            return Err(self.skip(line_no, text, start, ErrorKind::TooManyMoves(max)));
        }
        self.pos.make_move(mv);
        let mut node = Node::new(mv);
        node.nags_mut().extend(nag);
        self.mainline.moves.push(node);
        Ok(())
    }
}

/// `name ; rating ;;` (PlayOK; XieXie writes `;;;`): the name and the
/// rating (possibly empty); `None` for any other value, kept verbatim.
fn split_player(value: &str) -> Option<(&str, &str)> {
    let mut fields = value.split(';');
    let (name, rating) = (fields.next()?.trim(), fields.next()?.trim());
    let rest: Vec<&str> = fields.collect();
    let plain = rest.len() == 2 && rest.iter().all(|f| f.trim().is_empty());
    (plain && rating.bytes().all(|b| b.is_ascii_digit())).then_some((name, rating))
}
