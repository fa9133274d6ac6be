//! `xiangqi.pgn.read_games`: reading games lazily from a path, a file
//! object, bytes or a collection of files, in any format `xiangqi-gamefile`
//! reads (PGN, WXF game files, XQF, CBF, CBR, CBL).
//!
//! Reading streams: one game is in memory at a time, whatever the size of
//! the file, and the GIL is released while a path is read.

use std::io::Read;
use std::sync::Mutex;

use pyo3::exceptions::{PyStopIteration, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use xiangqi_gamefile::collection::collect;
use xiangqi_gamefile::corpus::{
    CollectionCursor, CollectionEntry, CollectionOptions, Pulled, Unreadable,
};
use xiangqi_gamefile::Game;
use xiangqi_gamefile::{ErrorKind, GameFileError, Games, ReaderOptions};

use super::args::{collection_paths, encoding_arg, format_arg, offset_arg, path_of};
use super::game::PyGame;
use crate::errors::{type_name, ToPyErr};
use crate::types::Frozen;

type Source = Box<dyn Read + Send>;

/// Reads from a Python file object (text or binary) through its `read`.
struct PyFileReader {
    file: Py<PyAny>,
    /// Bytes of a `str` chunk not yet handed out.
    pending: Vec<u8>,
}

impl Read for PyFileReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.pending.is_empty() {
            let chunk = Python::attach(|py| -> PyResult<Vec<u8>> {
                let data = self
                    .file
                    .bind(py)
                    .call_method1("read", (buf.len().max(1),))?;
                if let Ok(bytes) = data.cast::<PyBytes>() {
                    Ok(bytes.as_bytes().to_vec())
                } else if let Ok(text) = data.cast::<PyString>() {
                    Ok(text.to_cow()?.as_bytes().to_vec())
                } else {
                    Err(PyTypeError::new_err(format!(
                        "read() returned {}, expected bytes or str",
                        type_name(&data)
                    )))
                }
            })
            .map_err(|e| std::io::Error::other(e.to_string()))?;
            self.pending = chunk;
        }
        let n = self.pending.len().min(buf.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

fn open_source(source: &Bound<'_, PyAny>) -> PyResult<Source> {
    if let Ok(bytes) = source.cast::<PyBytes>() {
        let data = bytes.as_bytes().to_vec();
        return Ok(Box::new(std::io::Cursor::new(data)));
    }
    if let Some(path) = path_of(source) {
        let file = std::fs::File::open(&path).map_err(|e| {
            pyo3::exceptions::PyOSError::new_err(format!("cannot open {}: {e}", path.display()))
        })?;
        return Ok(Box::new(file));
    }
    if source.hasattr("read")? {
        let reader = PyFileReader {
            file: source.clone().unbind(),
            pending: Vec::new(),
        };
        return Ok(Box::new(reader));
    }
    Err(PyTypeError::new_err(format!(
        "expected a path, a file object or bytes of a game file, not {}",
        type_name(source)
    )))
}

/// What `read_games` does with a game that could not be read.
#[derive(Copy, Clone, PartialEq, Eq)]
enum OnError {
    /// It comes out as a `Game` without moves whose `errors` say why.
    Keep,
    /// It is left out.
    Skip,
    /// Iterating raises `PgnError` there (and may go on after it).
    Raise,
}

impl OnError {
    fn parse(errors: Option<&str>, strict: bool) -> PyResult<OnError> {
        match errors {
            // Strict reading is for raising: a game with any error raises.
            None if strict => Ok(OnError::Raise),
            None | Some("keep") => Ok(OnError::Keep),
            Some("skip") => Ok(OnError::Skip),
            Some("raise") => Ok(OnError::Raise),
            Some(other) => Err(PyValueError::new_err(format!(
                "errors={other:?}: expected 'keep', 'skip' or 'raise'"
            ))),
        }
    }
}

/// The next item of `games` as `read_games` hands it out. A failed read of
/// a single source is never kept or skipped: it raises (`file_errors_too`
/// is false); in a collection a file that cannot be read is one more broken
/// game and the rest are read.
fn next_game(
    games: &mut Games,
    on_error: OnError,
    file_errors_too: bool,
) -> Option<Result<Game, GameFileError>> {
    loop {
        let item = games.next()?;
        match handled(item, on_error, file_errors_too) {
            Some(item) => return Some(item),
            None => continue,
        }
    }
}

/// `item` as `on_error` says: kept as a game whose errors say why, left
/// out (`None`), or raised.
fn handled(
    item: Result<Game, GameFileError>,
    on_error: OnError,
    file_errors_too: bool,
) -> Option<Result<Game, GameFileError>> {
    match item {
        Err(e) if e.is_io() && !file_errors_too => Some(Err(e)),
        Err(_) if on_error == OnError::Skip => None,
        Err(e) if on_error == OnError::Keep => Some(Ok(Game {
            errors: vec![e],
            ..Game::default()
        })),
        other => Some(other),
    }
}

/// Where `read_games` takes its games from: one source, or the files of a
/// collection (a directory, a pattern, a list of paths) one after another,
/// through the one collection reader's cursor (`xiangqi_gamefile::corpus`).
struct Reading {
    /// One source being read, and its path for `Game.source`.
    single: Option<(Games, Option<String>)>,
    /// A collection: its files and where the reading is.
    collection: Option<(Vec<CollectionEntry>, CollectionCursor)>,
    /// What the files read so far hold besides their games.
    warnings: Vec<GameFileError>,
}

impl Reading {
    fn next(&mut self, on_error: OnError) -> Option<(Result<Game, GameFileError>, Option<String>)> {
        if let Some((games, source)) = &mut self.single {
            let item = next_game(games, on_error, false);
            if item.is_none() {
                // Known once the games are read: text after the last game
                // (a library's unlisted records came at its opening).
                let trailing = games
                    .library_warnings()
                    .into_iter()
                    .filter(|w| matches!(w.kind, ErrorKind::AfterLastGame(_)));
                self.warnings.extend(trailing);
            }
            return Some((item?, source.clone()));
        }
        let (files, cursor) = self.collection.as_mut()?;
        let source = |at: usize| match &files[at] {
            Ok(file) => Some(file.path.display().to_string()),
            Err(e) => Unreadable::Folder(e)
                .to_file_error()
                .file
                .map(|p| p.display().to_string()),
        };
        loop {
            // In a collection a file that cannot be read is one more broken game.
            let (item, at) = match cursor.next(files)? {
                Pulled::File(_) => continue,
                Pulled::Game { file, item, .. } => (item, file),
                Pulled::Finished(at, read, _) => {
                    self.warnings.extend(read.warnings);
                    match read.failure {
                        Some(e) => (Err(e), at),
                        None => continue,
                    }
                }
                Pulled::Folder(at) => {
                    let Err(e) = &files[at] else { continue };
                    (Err(Unreadable::Folder(e).to_file_error()), at)
                }
            };
            if let Some(item) = handled(item, on_error, true) {
                return Some((item, source(at)));
            }
        }
    }
}

/// A lazy iterator over the games of a game file or a collection of them
/// (see `read_games`).
#[pyclass(module = "xiangqi.pgn", name = "GameIterator")]
pub struct PyGameIterator {
    reading: Mutex<Reading>,
    on_error: OnError,
}

impl PyGameIterator {
    fn new(reading: Reading, on_error: OnError) -> PyGameIterator {
        PyGameIterator {
            reading: Mutex::new(reading),
            on_error,
        }
    }
}

#[pymethods]
impl PyGameIterator {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// What the files opened so far hold besides their games, as
    /// `PgnError`s: a CCBridge library's records that its index does not
    /// list (old data of deleted games), which are no games.
    #[getter]
    fn warnings(&self) -> PyResult<Frozen<PyErr>> {
        let reading = self.reading.lock().map_err(|_| {
            pyo3::exceptions::PyRuntimeError::new_err(
                "the game reader was poisoned by an earlier panic",
            )
        })?;
        Ok(reading.warnings.iter().map(ToPyErr::to_py_err).collect())
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<PyGame> {
        let next = py.detach(|| {
            let mut reading = self
                .reading
                .lock()
                .map_err(|_| "the game reader was poisoned by an earlier panic")?;
            Ok::<_, &str>(reading.next(self.on_error))
        });
        match next.map_err(pyo3::exceptions::PyRuntimeError::new_err)? {
            None => Err(PyStopIteration::new_err(())),
            Some((Ok(game), source)) => Ok(PyGame(game, source)),
            Some((Err(e), _)) => Err(e.to_py_err()),
        }
    }
}

/// The games of `source`, read one at a time: `source` is a path (`str` or
/// `os.PathLike`), a file object opened in text or binary mode, or `bytes`,
/// or a collection of files: a directory (walked recursively, in sorted
/// order, for files named *.pgn, *.wxf, *.xqf, *.cbf, *.cbr, *.cbl), a
/// pattern (`"manuals/**/*.xqf"`) or a list of paths; each file holding PGN, a WXF game file (`FORMAT WXF … START{ … }END`),
/// XQF, or CCBridge's CBF, CBR or CBL. `format="auto"` (the default) tells
/// them apart by the first bytes; `"pgn"`, `"wxf"`, `"xqf"`, `"cbf"`,
/// `"cbr"` and `"cbl"` say which.
///
/// The text of each file (PGN, WXF, XQF's names and comments) is decoded in
/// one encoding, detected once per file (a byte-order mark, else from the
/// file's start: UTF-8, UTF-16, GB18030/GBK or Big5); `encoding="big5"`
/// (`"utf-8"`, `"utf-16le"`, `"utf-16be"`, `"gb18030"`, `"gbk"`) forces
/// one. Bytes it cannot decode are read as U+FFFD, with a warning in the
/// game's `errors`.
///
/// Every game comes out, as python-chess reads: a move that cannot be
/// played ends its line, and the game keeps the moves before it and lists
/// the problem in `Game.errors` (`PgnError`s with `game`, `ply`, `line`,
/// `column`, `offset` and `message`). A game that cannot be read at all
/// comes out without moves, its error in `errors` (`errors="keep"`, the
/// default); `errors="skip"` leaves it out and `errors="raise"` raises
/// `PgnError` there. `strict=True` counts any error as a broken game, and
/// raises unless `errors` says otherwise. In a collection a file that
/// cannot be read is one more broken game (its error an `OSError` or
/// `PgnError`), and the other files are read; `Game.source` names the file
/// of each game. `start` and `end` (byte offsets,
/// for a path only) read the games of that range of the file, one of
/// `shards`.
#[pyfunction]
#[pyo3(signature = (source, *, errors = None, strict = false, format = "auto", encoding = None, start = None, end = None))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments
pub fn read_games(
    source: &Bound<'_, PyAny>,
    errors: Option<&str>,
    strict: bool,
    format: &str,
    encoding: Option<&str>,
    start: Option<&Bound<'_, PyAny>>,
    end: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyGameIterator> {
    let on_error = OnError::parse(errors, strict)?;
    let format = format_arg(format)?;
    let options = ReaderOptions {
        strict,
        encoding: encoding_arg(encoding)?,
        ..ReaderOptions::default()
    };
    let path = path_of(source);
    let reading = |games: Games| Reading {
        warnings: games.library_warnings(),
        single: Some((games, path.as_ref().map(|p| p.display().to_string()))),
        collection: None,
    };
    if let Some(paths) = collection_paths(source)? {
        if start.is_some() || end.is_some() {
            return Err(PyTypeError::new_err(
                "start= and end= read a range of one file, not of a directory or a list",
            ));
        }
        let files = source
            .py()
            .detach(|| collect(&paths))
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let cursor = CollectionCursor::new(CollectionOptions {
            format,
            reader: options,
            ..CollectionOptions::default()
        });
        let reading = Reading {
            single: None,
            collection: Some((files, cursor)),
            warnings: Vec::new(),
        };
        return Ok(PyGameIterator::new(reading, on_error));
    }
    if start.is_some() || end.is_some() {
        let path = path.as_ref().ok_or_else(|| {
            PyTypeError::new_err(format!(
                "start= and end= read a range of a file: give its path, not {}",
                type_name(source)
            ))
        })?;
        let start = start.map_or(Ok(0), |s| offset_arg(s, "start"))?;
        let end = end.map_or(Ok(u64::MAX), |e| offset_arg(e, "end"))?;
        if end < start {
            return Err(PyValueError::new_err(format!(
                "end {end} is before start {start}"
            )));
        }
        let games = source
            .py()
            .detach(|| Games::open_range_with(path, format, start, end, options))
            .map_err(|e| e.to_py_err())?;
        return Ok(PyGameIterator::new(reading(games), on_error));
    }
    let src = open_source(source)?;
    // Sniffing reads the first bytes; the binary formats are read whole.
    let games = source
        .py()
        .detach(|| Games::from_reader(src, format, options))
        .map_err(|e| e.to_py_err())?;
    Ok(PyGameIterator::new(reading(games), on_error))
}
