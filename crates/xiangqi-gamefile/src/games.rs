//! Opening a game file of any format and iterating over its games.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Cursor, Read};
use std::path::{Path, PathBuf};

use crate::pgn::PgnReader;
use crate::wxf::WxfReader;
use crate::{Game, ReaderOptions, Shard, ShardReader, TextEncoding};

use crate::ccbridge::{read_cbf, read_cbr, Library};
use crate::error::{ErrorKind, GameFileError, Location};
use crate::xqf::read_xqf;
use crate::Format;

/// Largest binary or XML file read (these are read whole): 256 MiB.
pub const MAX_WHOLE_FILE_LEN: u64 = 256 << 20;
/// How much of a file sniffing looks at, at most.
const SNIFF_LEN: usize = 64 << 10;

pub(crate) type Source = Box<dyn BufRead + Send>;

enum Inner {
    Pgn(Box<PgnReader<Source>>),
    Wxf(Box<WxfReader<Source>>),
    /// A single-game format, read when opened.
    Single(Option<Result<Game, GameFileError>>),
    Library(Box<Library>),
}

/// The games of one file, in order: an [`Iterator`] of
/// `Result<Game, GameFileError>`. After a broken game the reader goes on
/// with the next one where the format allows (PGN, WXF, CBL); the error
/// names the game and where it broke.
pub struct Games {
    file: Option<PathBuf>,
    format: Format,
    options: ReaderOptions,
    inner: Inner,
    /// Games yielded so far (the index of the last one).
    index: usize,
    /// Bytes of binary input consumed, for progress.
    binary_read: u64,
    /// The encoding of a binary or XML file's text.
    binary_encoding: Option<TextEncoding>,
}

impl Games {
    /// Opens the file at `path`; `format` `None` sniffs it from its contents.
    pub fn open(path: impl AsRef<Path>, format: Option<Format>) -> Result<Games, GameFileError> {
        Games::open_with(path, format, ReaderOptions::default())
    }

    /// [`Games::open`] with reader options (limits, the WXF convention).
    pub fn open_with(
        path: impl AsRef<Path>,
        format: Option<Format>,
        options: ReaderOptions,
    ) -> Result<Games, GameFileError> {
        let path = path.as_ref();
        let with_file = |mut e: GameFileError| {
            e.file = Some(path.to_owned());
            e
        };
        let file = File::open(path).map_err(|e| with_file(io_error(&e)))?;
        let mut src = BufReader::with_capacity(1 << 18, file);
        let head = read_head(&mut src).map_err(|e| with_file(io_error(&e)))?;
        let format = format.unwrap_or_else(|| Format::sniff_named(&head, path));
        let source = Box::new(Cursor::new(head).chain(src));
        let mut games = Games::from_source(source, format, options).map_err(with_file)?;
        games.set_file(path);
        Ok(games)
    }

    /// The games of bytes `start..end` of the file at `path`, a range from
    /// [`shards`](crate::shards) (or any range starting at a game start).
    /// `format` `None` sniffs it from the start of the file. A binary or XML
    /// file is one game (or library): the range starting at 0 reads it whole,
    /// any other holds no game. Errors count games and lines from the
    /// start of the range. To read many ranges of one file, open it once
    /// with [`ShardReader`](crate::ShardReader).
    pub fn open_range(
        path: impl AsRef<Path>,
        format: Option<Format>,
        start: u64,
        end: u64,
    ) -> Result<Games, GameFileError> {
        Games::open_range_with(path, format, start, end, ReaderOptions::default())
    }

    /// [`Games::open_range`] with reader options (limits, strictness).
    pub fn open_range_with(
        path: impl AsRef<Path>,
        format: Option<Format>,
        start: u64,
        end: u64,
        options: ReaderOptions,
    ) -> Result<Games, GameFileError> {
        let mut reader = ShardReader::open_with(path, format, options)?;
        Ok(reader.read(Shard { start, end })?.games)
    }

    /// Reads games from `src` (a file, standard input, a buffer). A text
    /// format is read lazily, 64 KiB at a time.
    pub fn from_reader(
        src: impl Read + Send + 'static,
        format: Option<Format>,
        options: ReaderOptions,
    ) -> Result<Games, GameFileError> {
        Games::with_buffer(src, SNIFF_LEN, format, options)
    }

    /// Names the file the games were read from, in them and in the error
    /// of a single-game format that could not be read.
    pub(crate) fn set_file(&mut self, path: &Path) {
        self.file = Some(path.to_owned());
        if let Inner::Single(Some(Err(e))) = &mut self.inner {
            e.file = Some(path.to_owned());
        }
    }

    /// These games are a range of a file that goes on after it: text at
    /// their end is no trailing text.
    pub(crate) fn not_the_end_of_the_file(&mut self) {
        if let Inner::Pgn(r) = &mut self.inner {
            r.not_the_end_of_the_file();
        }
    }

    /// Makes these games none (a shard of a binary file past its start).
    pub(crate) fn hold_nothing(&mut self) {
        self.inner = Inner::Single(None);
    }

    pub(crate) fn with_buffer(
        src: impl Read + Send + 'static,
        buffer: usize,
        format: Option<Format>,
        options: ReaderOptions,
    ) -> Result<Games, GameFileError> {
        let mut src = BufReader::with_capacity(buffer, src);
        let head = read_head(&mut src).map_err(|e| io_error(&e))?;
        let format = format.unwrap_or_else(|| Format::sniff(&head));
        Games::from_source(Box::new(Cursor::new(head).chain(src)), format, options)
    }

    /// The games of `source`, read in `format`.
    pub(crate) fn from_source(
        source: Source,
        format: Format,
        options: ReaderOptions,
    ) -> Result<Games, GameFileError> {
        let limits = &options.limits;
        let at_byte = |(offset, kind)| GameFileError::at_byte(1, offset, kind);
        let mut binary_encoding = match format {
            Format::Cbr | Format::Cbl => Some(TextEncoding::Utf16Le),
            _ => None,
        };
        let inner = match format {
            Format::Pgn => Inner::Pgn(Box::new(PgnReader::with_options(source, options))),
            Format::Wxf => Inner::Wxf(Box::new(WxfReader::with_options(source, options))),
            Format::Xqf => {
                let read = read_xqf(&read_whole(source)?, limits, options.encoding);
                Inner::Single(Some(match read {
                    Ok((game, encoding)) => {
                        binary_encoding = Some(encoding);
                        Ok(game)
                    }
                    Err(e) => Err(at_byte(e)),
                }))
            }
            Format::Cbr => Inner::Single(Some(
                read_cbr(&read_whole(source)?, 0, limits).map_err(at_byte),
            )),
            Format::Cbf => {
                let (text, encoding) = decode_xml(&read_whole(source)?);
                binary_encoding = Some(encoding);
                Inner::Single(Some(read_cbf(&text, limits).map_err(
                    |(line, column, kind)| {
                        GameFileError::new(1, Location::Text { line, column }, kind)
                    },
                )))
            }
            Format::Cbl => match Library::new(read_whole(source)?) {
                Ok(library) => Inner::Library(Box::new(library)),
                Err((offset, kind)) => {
                    Inner::Single(Some(Err(GameFileError::at_byte(0, offset, kind))))
                }
            },
        };
        Ok(Games {
            file: None,
            format,
            options,
            inner,
            index: 0,
            binary_read: 0,
            binary_encoding,
        })
    }

    /// Games from bytes in memory; a file too big to read whole is the
    /// first (and only) item, an error.
    pub fn from_bytes(bytes: &[u8], format: Option<Format>) -> Games {
        let options = ReaderOptions::default();
        Games::from_reader(Cursor::new(bytes.to_vec()), format, options).unwrap_or_else(|e| Games {
            file: None,
            format: format.unwrap_or_else(|| Format::sniff(bytes)),
            options,
            inner: Inner::Single(Some(Err(e))),
            index: 0,
            binary_read: 0,
            binary_encoding: None,
        })
    }

    /// The format read.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The encoding the file's text is read in: for PGN and WXF files the
    /// one forced ([`ReaderOptions::encoding`]) or detected from the file's
    /// start (`None` until the first game is read); for XQF the one its
    /// names and comments are read in; UTF-16LE for CBR and CBL, UTF-8 or
    /// GB18030 for CBF. `None` for a file that could not be read.
    pub fn encoding(&self) -> Option<TextEncoding> {
        match &self.inner {
            Inner::Pgn(r) => r.encoding(),
            Inner::Wxf(r) => r.encoding(),
            Inner::Single(_) | Inner::Library(_) => self.binary_encoding,
        }
    }

    /// The file, when opened from a path.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// Bytes consumed so far (for progress reports).
    pub fn bytes_read(&self) -> u64 {
        match &self.inner {
            Inner::Pgn(r) => r.bytes_read(),
            Inner::Wxf(r) => r.bytes_read(),
            Inner::Single(_) | Inner::Library(_) => self.binary_read,
        }
    }

    /// The records a CBL library's index lists (section headings
    /// included); `None` for the other formats. Every one of them becomes
    /// a game, an error or a skipped heading
    /// ([`headings_skipped`](Games::headings_skipped)): a reader never
    /// yields fewer games than the file holds without saying so.
    pub fn records_listed(&self) -> Option<usize> {
        match &self.inner {
            Inner::Library(l) => Some(l.listed()),
            _ => None,
        }
    }

    /// The section headings of a CBL library skipped so far: records with
    /// an empty board (a title and an introduction, no position), which
    /// are no games. Zero for the other formats.
    pub fn headings_skipped(&self) -> usize {
        match &self.inner {
            Inner::Library(l) => l.headings(),
            _ => 0,
        }
    }

    /// What a file holds besides its games, as warnings: a CBL library's
    /// records in slots its index does not list (old data of deleted or
    /// replaced games, left in the file; `ErrorKind::UnlistedRecord`),
    /// known once the library is opened; text after a PGN file's last game
    /// that is no game (`ErrorKind::AfterLastGame`), known once the games
    /// are read. Empty for the other formats.
    pub fn library_warnings(&self) -> Vec<GameFileError> {
        let with_file = |e: &GameFileError| {
            let mut e = e.clone();
            e.file = e.file.or_else(|| self.file.clone());
            e
        };
        match &self.inner {
            Inner::Pgn(r) => r.trailing_warnings().iter().map(with_file).collect(),
            Inner::Library(l) => l
                .unlisted()
                .iter()
                .map(|(offset, kind)| {
                    let mut e = GameFileError::at_byte(0, *offset, kind.clone());
                    e.file = self.file.clone();
                    e
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The library's name (CBL), when it has one.
    pub fn library_name(&self) -> Option<&str> {
        match &self.inner {
            Inner::Library(l) => l.name.as_deref(),
            _ => None,
        }
    }
}

fn io_error(e: &io::Error) -> GameFileError {
    GameFileError::new(0, Location::File, ErrorKind::Io(e.to_string()))
}

/// Reads the start of `src` without consuming it for good: up to the end of
/// its first non-blank line, at most [`SNIFF_LEN`] bytes.
pub(crate) fn read_head(src: &mut impl BufRead) -> io::Result<Vec<u8>> {
    let mut head = Vec::new();
    loop {
        let start = head.len();
        let room = (SNIFF_LEN - start) as u64;
        let n = (&mut *src).take(room).read_until(b'\n', &mut head)?;
        let blank = head[start..]
            .iter()
            .all(|b| b.is_ascii_whitespace() || [0xEF, 0xBB, 0xBF].contains(b));
        if n == 0 || head.len() >= SNIFF_LEN || !blank {
            return Ok(head);
        }
    }
}

fn read_whole(source: Source) -> Result<Vec<u8>, GameFileError> {
    let mut data = Vec::new();
    source
        .take(MAX_WHOLE_FILE_LEN + 1)
        .read_to_end(&mut data)
        .map_err(|e| io_error(&e))?;
    if data.len() as u64 > MAX_WHOLE_FILE_LEN {
        return Err(GameFileError::at_byte(
            0,
            MAX_WHOLE_FILE_LEN,
            ErrorKind::BadLength {
                what: "a binary or XML game file",
                length: data.len() as i64,
            },
        ));
    }
    Ok(data)
}

/// CBF text: UTF-8 (what CCBridge writes), else GB18030.
fn decode_xml(data: &[u8]) -> (String, TextEncoding) {
    let data = data.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(data);
    match std::str::from_utf8(data) {
        Ok(text) => (text.to_owned(), TextEncoding::Utf8),
        Err(_) => (
            encoding_rs::GB18030.decode(data).0.into_owned(),
            TextEncoding::Gb18030,
        ),
    }
}

impl Iterator for Games {
    type Item = Result<Game, GameFileError>;

    fn next(&mut self) -> Option<Self::Item> {
        let item = match &mut self.inner {
            Inner::Pgn(r) => r.next()?,
            Inner::Wxf(r) => r.next()?,
            Inner::Single(item) => item.take()?,
            Inner::Library(library) => {
                let game = self.index + 1;
                let item = library.next_game(&self.options.limits)?;
                self.binary_read = library.position() as u64;
                item.map_err(|(offset, kind)| GameFileError::at_byte(game, offset, kind))
            }
        };
        self.index += 1;
        let place = |mut e: GameFileError| {
            e.file = self.file.clone();
            e
        };
        Some(match item {
            Ok(mut game) => {
                for e in &mut game.errors {
                    e.file = self.file.clone();
                    e.game = self.index;
                }
                match self.options.strict {
                    true => game.into_strict(),
                    false => Ok(game),
                }
            }
            Err(e) => Err(place(e)),
        })
    }
}
