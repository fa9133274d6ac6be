//! The outer loop of both text readers (PGN and WXF files), written once:
//! it takes lines from [`Lines`], counts games, hands each line to the
//! game being read ([`GameText::feed`]), and after a broken game skips to
//! where the format says the next one starts ([`TextFormat::skip`]). A
//! format only says how one game reads and where games begin.

use std::io::BufRead;

use xiangqi_core::{Color, Position};

use super::lines::{LineError, LineFailure, Lines};
use crate::{ErrorKind, Game, GameFileError, ReaderOptions, TextEncoding};

/// What a text format tells the shared loop.
pub(crate) trait TextFormat {
    /// One game while it is read.
    type Game: GameText;
    /// Starts game number `game` (1-based) at a non-blank line.
    fn start_game(&mut self, options: ReaderOptions, game: usize) -> Self::Game;
    /// A game was read (PGN sizes the next game's main line by it).
    fn game_read(&mut self, _game: &Game) {}
    /// A game broke on the line `text` (empty for a line too long to keep):
    /// skipping to the next game starts here.
    fn start_skipping(&mut self, _text: &str) {}
    /// While skipping: what to do with the unread text `text[offset..]`.
    fn skip(&mut self, text: &str, offset: usize) -> Skip;
}

/// One game of a text format while it is read.
pub(crate) trait GameText {
    /// Reads the unread text `text[offset..]` of line `line`.
    fn feed(&mut self, line: usize, text: &str, offset: usize) -> Result<Fed, Failure>;
    /// Whether the line `text` starts the next game although this one has
    /// not ended (PGN: a tag line after the move text, the game without a result).
    fn ends_before(&self, _text: &str) -> bool {
        false
    }
    /// Whether the game holds nothing a reader would keep (no tag, no
    /// move): text that failed as a game, which after the last game is
    /// trailing text rather than one more broken game.
    fn is_bare(&self) -> bool {
        false
    }
    /// The game, once its text has ended.
    fn finish(self) -> Result<Game, GameFileError>;
    /// The input ended inside the game, after line `line` (column `column`
    /// is the end of that line).
    fn finish_at_end(self, line: usize, column: usize) -> Result<Game, GameFileError>;
}

/// What a fed line did.
pub(crate) enum Fed {
    /// The game goes on.
    More,
    /// The game's text ended; the rest of the line, from this offset, is
    /// read again (the next game may start there).
    Ended(Option<usize>),
}

/// A broken game.
pub(crate) enum Failure {
    /// Skip to the next game, from this offset of the line if any (the
    /// rest of the line may end the broken game).
    Skip(Box<GameFileError>, Option<usize>),
    /// The line starts the next game: read it again as such.
    Restart(Box<GameFileError>),
}

/// What skipping does with a line.
pub(crate) enum Skip {
    /// Still the broken game: go on skipping.
    Line,
    /// The next game starts at this text.
    StartHere,
    /// The broken game ended in this line; the text from this offset, if
    /// any, is read again.
    EndedAt(Option<usize>),
}

/// The games of a text source, one at a time, in the format `F`.
pub(crate) struct TextReader<R, F: TextFormat> {
    lines: Lines<R>,
    options: ReaderOptions,
    format: F,
    /// Games started so far (broken ones count).
    games: usize,
    game: Option<F::Game>,
    skipping: bool,
    finished: bool,
    /// Lines of the current game that held undecodable bytes: the first
    /// one's line and column, and how many.
    undecodable: Option<(usize, usize, usize)>,
    /// The last failure was a bare game's (see [`GameText::is_bare`]).
    failed_bare: bool,
    /// An item read ahead, and whether it was bare text that failed.
    ahead: Option<(Result<Game, GameFileError>, bool)>,
    /// Items handed out so far.
    handed_out: usize,
    /// Text after the last game that is no game, as warnings on the file.
    trailing: Vec<GameFileError>,
    /// Whether the text ends the file: a range before the file's last has
    /// no trailing text (what follows is the next range's games).
    ends_file: bool,
}

impl<R, F: TextFormat> TextReader<R, F> {
    pub(crate) fn new(src: R, options: ReaderOptions, format: F) -> TextReader<R, F> {
        TextReader {
            lines: Lines::new(src, options.limits.max_line_len, options.encoding),
            options,
            format,
            games: 0,
            game: None,
            skipping: false,
            finished: false,
            undecodable: None,
            failed_bare: false,
            ahead: None,
            handed_out: 0,
            trailing: Vec::new(),
            ends_file: true,
        }
    }

    /// This text is a range of a file that goes on after it: bare text at
    /// its end is a broken game, as when the whole file is read.
    pub(crate) fn not_the_end_of_the_file(&mut self) {
        self.ends_file = false;
    }

    /// Text after the last game that is no game (a line of `=` signs, a
    /// signature), as warnings on the file, known once the games are read.
    pub(crate) fn trailing_warnings(&self) -> &[GameFileError] {
        &self.trailing
    }

    /// Bytes consumed so far (for progress reports).
    pub(crate) fn bytes_read(&self) -> u64 {
        self.lines.bytes_read()
    }

    /// The file's encoding: forced, or detected from its start (`None`
    /// until the first game is read).
    pub(crate) fn encoding(&self) -> Option<TextEncoding> {
        self.lines.encoding()
    }
}

impl<R: BufRead, F: TextFormat> TextReader<R, F> {
    /// Makes the next line current: its number and the offset of its unread
    /// text; a line that could not be read is the current game's error (or
    /// a new game's, between games).
    fn next_line(&mut self) -> Option<Result<(usize, usize), GameFileError>> {
        let LineFailure { line, error } = match self.lines.next_text()? {
            Ok(at) => return Some(Ok(at)),
            Err(failure) => failure,
        };
        if self.game.take().is_none() {
            self.games += 1;
        }
        let kind = match error {
            LineError::Io(e) => {
                self.finished = true;
                ErrorKind::Io(e.to_string())
            }
            LineError::TooLong => {
                self.skipping = true;
                self.format.start_skipping("");
                ErrorKind::LineTooLong(self.options.limits.max_line_len)
            }
        };
        Some(Err(GameFileError::at_text(self.games, line, 1, kind)))
    }

    /// A game (or broken game) read: the undecodable lines seen since the
    /// last one become a warning on it. (A broken game's error is reported
    /// instead: its text is not read on.)
    fn read_game(&mut self, mut item: Result<Game, GameFileError>) -> Result<Game, GameFileError> {
        let undecodable = self.undecodable.take();
        if let Ok(game) = &mut item {
            self.format.game_read(game);
            if let (Some((line, column, count)), Some(encoding)) =
                (undecodable, self.lines.encoding())
            {
                let kind = ErrorKind::Undecodable { encoding, count };
                let warning = GameFileError::at_text(self.games, line, column, kind);
                let at = game
                    .errors
                    .partition_point(|e| e.line_column() <= Some((line, column)));
                game.errors.insert(at, warning);
            }
        }
        item
    }
}

impl<R: BufRead, F: TextFormat> Iterator for TextReader<R, F> {
    type Item = Result<Game, GameFileError>;

    /// The next game; bare text that fails as a game after at least one
    /// game and before the end is no game but a warning on the file
    /// ([`TextReader::trailing_warnings`]): one item is read ahead to know.
    fn next(&mut self) -> Option<Result<Game, GameFileError>> {
        let (item, bare) = match self.ahead.take() {
            Some(ahead) => ahead,
            None => self.next_item()?,
        };
        if bare && self.ends_file && self.handed_out > 0 {
            match self.next_item() {
                None => {
                    if let Err(mut e) = item {
                        e.kind = ErrorKind::AfterLastGame(Box::new(e.kind));
                        e.game = 0;
                        self.trailing.push(e);
                    }
                    return None;
                }
                Some(following) => self.ahead = Some(following),
            }
        }
        self.handed_out += 1;
        Some(item)
    }
}

impl<R: BufRead, F: TextFormat> TextReader<R, F> {
    /// The next game or error, and whether it was bare text that failed.
    fn next_item(&mut self) -> Option<(Result<Game, GameFileError>, bool)> {
        self.next_raw().map(|item| {
            let bare = std::mem::take(&mut self.failed_bare);
            (item, bare)
        })
    }

    fn next_raw(&mut self) -> Option<Result<Game, GameFileError>> {
        if self.finished {
            return None;
        }
        loop {
            let (line_no, offset) = match self.next_line() {
                None => {
                    self.finished = true;
                    let game = self.game.take()?;
                    let text = self.lines.text();
                    let (line, column) = (self.lines.line_no().max(1), column(text, text.len()));
                    return Some(self.read_game(game.finish_at_end(line, column)));
                }
                Some(Err(e)) => {
                    self.undecodable = None;
                    return Some(Err(e));
                }
                Some(Ok(at)) => at,
            };
            let text = self.lines.text();
            if self.skipping {
                match self.format.skip(text, offset) {
                    Skip::Line => continue,
                    Skip::StartHere => self.skipping = false,
                    Skip::EndedAt(rest) => {
                        self.skipping = false;
                        if let Some(rest) = rest {
                            self.lines.resume_at(rest);
                        }
                        continue;
                    }
                }
            }
            if self.game.as_ref().is_some_and(|g| g.ends_before(text)) {
                self.lines.resume_at(offset);
                let game = self.game.take().expect("checked");
                return Some(self.read_game(game.finish()));
            }
            let game = match &mut self.game {
                Some(game) => game,
                None => {
                    if text[offset..].trim().is_empty() {
                        continue;
                    }
                    self.games += 1;
                    self.game
                        .insert(self.format.start_game(self.options, self.games))
                }
            };
            if let (Some(column), 0) = (self.lines.malformed_at(), offset) {
                let seen = self.undecodable.get_or_insert((line_no, column, 0));
                seen.2 += 1;
            }
            match game.feed(line_no, text, offset) {
                Ok(Fed::More) => {}
                Ok(Fed::Ended(rest)) => {
                    let game = self.game.take().expect("fed above");
                    if let Some(rest) = rest {
                        self.lines.resume_at(rest);
                    }
                    return Some(self.read_game(game.finish()));
                }
                Err(Failure::Skip(e, resume)) => {
                    self.failed_bare = self.game.as_ref().is_some_and(GameText::is_bare);
                    self.game = None;
                    self.skipping = true;
                    self.format.start_skipping(text);
                    // The rest of the line may end the broken game; never
                    // the same text again, which could fail the same way.
                    if let Some(resume) = resume.filter(|&r| r > offset) {
                        self.lines.resume_at(resume);
                    }
                    self.undecodable = None;
                    return Some(Err(*e));
                }
                Err(Failure::Restart(e)) => {
                    self.game = None;
                    self.lines.resume_at(offset);
                    self.undecodable = None;
                    return Some(Err(*e));
                }
            }
        }
    }
}

/// The 1-based character column of byte `at` of `text`.
pub(crate) fn column(text: &str, at: usize) -> usize {
    text.get(..at.min(text.len()))
        .map_or(1, |t| t.chars().count() + 1)
}

/// The NAG a move suffix stands for (`!` is `$1` … `?!` is `$6`): `Ok(None)`
/// for no suffix, `Err(())` for any other.
pub(crate) fn suffix_nag(suffix: &str) -> Result<Option<u8>, ()> {
    Ok(Some(match suffix {
        "" => return Ok(None),
        "!" => 1,
        "?" => 2,
        "!!" => 3,
        "??" => 4,
        "!?" => 5,
        "?!" => 6,
        _ => return Err(()),
    }))
}

/// The move number and side of the move to play in `pos`, as errors name
/// it: `12.` for Red, `12...` for Black.
pub(crate) fn ply_name(pos: &Position) -> String {
    match pos.side_to_move() {
        Color::Red => format!("{}.", pos.fullmove_number()),
        Color::Black => format!("{}...", pos.fullmove_number()),
    }
}
