//! The streaming PGN reader: one game (or one error) at a time, in memory
//! bounded by [`Limits`](crate::Limits) whatever the size of the file. The
//! shared text loop ([`TextReader`]) splits the file into games; this module
//! reads one game ([`Builder`]), its tokens in `tokens` and its moves in `moves`.

mod cut;
mod moves;
mod tokens;

use std::io::BufRead;
use std::sync::OnceLock;

use xiangqi_core::{Diagram, Move, Position, Undo, Validation};

use xiangqi_notation::{
    is_ranks10_text, parse_quietly, parse_ranks10, parse_text, parse_text_with,
    read_vietnamese_words, read_vietnamese_words_exact, MoveText, MoveTextError, Notation,
    WxfConvention,
};

use crate::text::reader::{
    column, ply_name, suffix_nag, Failure, Fed, GameText, Skip, TextFormat, TextReader,
};
use crate::text::scan::{may_start_space, skip_space, word_end, ByteClass, BYTE_CLASS};
use crate::{ErrorKind, Game, GameFileError, GameResult, Line, Node, ReaderOptions, TextEncoding};
use tokens::{is_special, Col};

/// Reads the games of a PGN source one at a time (an [`Iterator`] of
/// `Result<Game, GameFileError>`), in memory bounded by
/// [`Limits`](crate::Limits). After a broken game it goes on at the next
/// game's tags.
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
pub struct PgnReader<R>(TextReader<R, Pgn>);

impl<R: BufRead> PgnReader<R> {
    /// A reader with default options.
    pub fn new(src: R) -> PgnReader<R> {
        PgnReader::with_options(src, ReaderOptions::default())
    }

    /// A reader with `options`: the limits, and how WXF `11`/`33` are read
    /// when the file does not say (`[WXFStyle "fsf"]`).
    pub fn with_options(src: R, options: ReaderOptions) -> PgnReader<R> {
        PgnReader(TextReader::new(src, options, Pgn::default()))
    }

    /// Bytes consumed so far (for progress reports).
    pub fn bytes_read(&self) -> u64 {
        self.0.bytes_read()
    }

    /// Text after the last game that is no game (a line of `=` signs), as
    /// warnings on the file rather than a broken game; known once the
    /// games are read.
    pub fn trailing_warnings(&self) -> &[GameFileError] {
        self.0.trailing_warnings()
    }

    /// This text is a range of a file that goes on after it (see
    /// `ShardReader`): bare text at its end is a broken game.
    pub(crate) fn not_the_end_of_the_file(&mut self) {
        self.0.not_the_end_of_the_file();
    }

    /// The file's encoding: forced ([`ReaderOptions::encoding`]), or
    /// detected from its start; `None` until the first game is read.
    pub fn encoding(&self) -> Option<TextEncoding> {
        self.0.encoding()
    }
}

impl<R: BufRead> Iterator for PgnReader<R> {
    type Item = Result<Game, GameFileError>;

    fn next(&mut self) -> Option<Result<Game, GameFileError>> {
        self.0.next()
    }
}

/// What PGN tells the shared loop: games start at tag lines.
#[derive(Default)]
struct Pgn {
    /// Main-line length of the last game read (see `Builder::plies_hint`).
    plies_hint: usize,
    /// While skipping a broken game: whether the last line was a tag line.
    prev_was_tag: bool,
}

fn is_tag_line(text: &str) -> bool {
    text.trim_start().starts_with('[')
}

impl TextFormat for Pgn {
    type Game = Builder;

    fn start_game(&mut self, options: ReaderOptions, game: usize) -> Builder {
        Builder::new(options, game, self.plies_hint)
    }

    fn game_read(&mut self, game: &Game) {
        // Capped: one huge game should not make every later one reserve as much.
        self.plies_hint = game.mainline.moves.len().min(1024);
    }

    fn start_skipping(&mut self, text: &str) {
        self.prev_was_tag = is_tag_line(text);
    }

    fn skip(&mut self, text: &str, _offset: usize) -> Skip {
        // The next game: a tag line after a blank or move-text line.
        let tag_line = is_tag_line(text);
        if tag_line && !self.prev_was_tag {
            return Skip::StartHere;
        }
        self.prev_was_tag = tag_line;
        Skip::Line
    }
}

impl GameText for Builder {
    fn feed(&mut self, line: usize, text: &str, offset: usize) -> Result<Fed, Failure> {
        self.feed_line(line, text, offset)
    }

    fn ends_before(&self, text: &str) -> bool {
        // A tag line after move text: the game had no result.
        self.has_moves() && self.comment.is_none() && is_tag_line(text)
    }

    fn is_bare(&self) -> bool {
        !self.has_something_to_keep()
    }

    fn finish(self) -> Result<Game, GameFileError> {
        self.into_game()
    }

    fn finish_at_end(self, line: usize, _column: usize) -> Result<Game, GameFileError> {
        if let Some((_, start)) = self.comment {
            let kind = ErrorKind::UnterminatedComment(start);
            return Err(GameFileError::at_text(self.game, line, 1, kind));
        }
        self.into_game()
    }
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
    /// Ply of the line's first move from the start position.
    first_ply: usize,
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
    /// The result token that ended the move text.
    result: Option<GameResult>,
    /// Reading past a line cut at a move that cannot be played: how many
    /// variations opened inside the cut part are still open.
    cut: Option<usize>,
    /// The moves that cut their lines (`Game::errors`).
    errors: Vec<GameFileError>,
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
            result: None,
            cut: None,
            errors: Vec::new(),
        }
    }

    fn has_moves(&self) -> bool {
        self.moves > 0
    }

    /// Whether the game has tags or moves that an error after them must
    /// not lose.
    fn has_something_to_keep(&self) -> bool {
        self.has_moves() || !self.tags.is_empty()
    }

    fn error(&self, line: usize, column: usize, kind: ErrorKind) -> Box<GameFileError> {
        Box::new(GameFileError::at_text(self.game, line, column, kind))
    }

    /// A broken game: skip to the next one.
    fn err(&self, line: usize, column: Col<'_>, kind: ErrorKind) -> Failure {
        Failure::Skip(self.error(line, column.get(), kind), None)
    }

    /// The value of the first `FEN` tag, unless it is empty (the standard start).
    fn fen_tag(&self) -> Option<&str> {
        match self.tags.iter().find(|(k, _)| k == "FEN") {
            Some((_, fen)) if !fen.trim().is_empty() => Some(fen),
            _ => None,
        }
    }

    fn into_game(mut self) -> Result<Game, GameFileError> {
        if self.stack.len() > 1 {
            let opened = self.stack.last().expect("nonempty").opened_at;
            let kind = ErrorKind::UnterminatedVariation(opened);
            return Err(*self.error(opened, 1, kind));
        }
        if self.stack.is_empty() {
            // No move was read, so the FEN tag has not been set up yet: a
            // game is only returned with a start position that exists.
            // A game without moves may start from a diagram no game can
            // reach (a finished mate with both generals in check): shown,
            // with an error saying what is wrong.
            if let (Some(fen), Some((line, column))) = (self.fen_tag(), self.fen_at) {
                if let Err(e) = Position::from_fen(fen) {
                    let Ok(diagram) = Diagram::from_fen(fen) else {
                        return Err(*self.error(line, column, bad_fen(e)));
                    };
                    let error = diagram.problems(Validation::Strict).into_iter().next();
                    let kind = ErrorKind::InvalidDiagram {
                        error: Box::new(error.unwrap_or(e)),
                        moves_skipped: false,
                    };
                    let error = *self.error(line, column, kind);
                    self.errors.push(error);
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
            result: self.result,
            errors: self.errors,
        })
    }

    fn push_comment(&mut self, text: String) {
        if self.cut.is_some() {
            return; // a comment on moves that are dropped
        }
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
        let mut diagram = None;
        let pos = match self.fen_tag().map(Position::from_fen) {
            Some(Ok(pos)) => pos,
            Some(Err(e)) => {
                let fen = self.fen_tag().expect("a FEN tag");
                let Ok(shown) = Diagram::from_fen(fen) else {
                    // Reported at the tag's own line, not where the moves start.
                    let error = match self.fen_at {
                        Some((line, column)) => self.error(line, column, bad_fen(e)),
                        None => self.error(line, col.get(), bad_fen(e)),
                    };
                    return Err(Failure::Skip(error, None));
                };
                // A diagram no game can reach: its moves cannot be played
                // and are read past; the line holds no move, so the
                // position it is built on is never used.
                let error = shown.problems(Validation::Strict).into_iter().next();
                diagram = Some(error.unwrap_or(e));
                standard_start().clone()
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
            first_ply: 1,
        });
        if let (Some(error), Some((line, column))) = (diagram, self.fen_at) {
            let kind = ErrorKind::InvalidDiagram {
                error: Box::new(error),
                moves_skipped: true,
            };
            let error = *self.error(line, column, kind);
            self.cut_line(error);
        }
        Ok(())
    }
}

fn bad_fen(error: xiangqi_core::FenError) -> ErrorKind {
    ErrorKind::BadFen {
        field: "tag",
        error: Box::new(error),
    }
}
