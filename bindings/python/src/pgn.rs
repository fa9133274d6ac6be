//! `xiangqi.pgn`: reading games lazily from a path or a file object in any
//! format `xiangqi-gamefile` reads (PGN, WXF game files, XQF, CBF, CBR,
//! CBL), and `Game` objects over its games, written back as PGN or WXF.
//!
//! Reading streams: one game is in memory at a time, whatever the size of
//! the file, and the GIL is released while a path is read.

use std::io::Read;
use std::path::PathBuf;
use std::sync::Mutex;

use pyo3::exceptions::{PyStopIteration, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};
use xiangqi_core::Position;
use xiangqi_gamefile::collection::{collect, CollectedFile, CollectionError};
use xiangqi_gamefile::pgn::{self, WriteOptions};
use xiangqi_gamefile::wxf::{self, write_wxf, WxfWriteOptions};
use xiangqi_gamefile::TextEncoding;
use xiangqi_gamefile::{ErrorKind, Format, GameFileError, Games, NodePath, ReaderOptions};
use xiangqi_gamefile::{Game, GameResult, Line, Node, UnknownResult};
use xiangqi_notation::{WxfConvention, WxfStyle};

use crate::board::PyBoard;
use crate::errors::{to_py, type_name, ToPyErr};
use crate::game_tree::PyGameNode;
use crate::notation;
use crate::shard::offset_arg;
use crate::types::{Frozen, PyMove};
use crate::verdict::PyVerdict;

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

/// `source` as a path, if it is a `str` or an `os.PathLike`.
pub(crate) fn path_of(source: &Bound<'_, PyAny>) -> Option<std::path::PathBuf> {
    if source.is_instance_of::<PyString>() || source.hasattr("__fspath__").unwrap_or(false) {
        source.extract().ok()
    } else {
        None
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
/// collection (a directory, a pattern, a list of paths) one after another.
struct Reading {
    /// The file being read, and its path for `Game.source`.
    current: Option<(Games, Option<String>)>,
    /// The collection's files not opened yet.
    files: std::collections::VecDeque<Result<CollectedFile, CollectionError>>,
    format: Option<Format>,
    options: ReaderOptions,
    /// Reading a collection: a file that cannot be read is a broken game.
    collection: bool,
    /// What the files opened so far hold besides their games.
    warnings: Vec<GameFileError>,
}

impl Reading {
    fn next(&mut self, on_error: OnError) -> Option<(Result<Game, GameFileError>, Option<String>)> {
        let collection = self.collection;
        loop {
            if let Some((games, source)) = &mut self.current {
                if let Some(item) = next_game(games, on_error, collection) {
                    return Some((item, source.clone()));
                }
            }
            self.current = None;
            let (item, source) = match self.files.pop_front()? {
                Ok(file) => {
                    let source = Some(file.path.display().to_string());
                    match Games::open_with(&file.path, self.format, self.options) {
                        Ok(games) => {
                            self.warnings.extend(games.library_warnings());
                            self.current = Some((games, source));
                            continue;
                        }
                        Err(e) => (Err(e), source),
                    }
                }
                Err(e) => {
                    let error = unlisted(e);
                    let source = error.file.as_ref().map(|p| p.display().to_string());
                    (Err(error), source)
                }
            };
            if let Some(item) = handled(item, on_error, true) {
                return Some((item, source));
            }
        }
    }
}

/// A folder of a collection that could not be walked, as a file error.
pub(crate) fn unlisted(e: CollectionError) -> GameFileError {
    let file = match &e {
        CollectionError::Unreadable { path, .. } => Some(path.clone()),
        _ => None,
    };
    GameFileError {
        file,
        game: 0,
        location: xiangqi_gamefile::Location::File,
        kind: ErrorKind::Io(e.to_string()),
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

/// The paths of `source` when it names a collection: a list or tuple of
/// paths, a directory, or a pattern (a path that does not exist and holds
/// `*`, `?`, `[` or `{`).
pub(crate) fn collection_paths(source: &Bound<'_, PyAny>) -> PyResult<Option<Vec<PathBuf>>> {
    if source.is_instance_of::<PyList>() || source.is_instance_of::<PyTuple>() {
        let mut paths = Vec::new();
        for item in source.try_iter()? {
            let item = item?;
            paths.push(path_of(&item).ok_or_else(|| {
                PyTypeError::new_err(format!(
                    "a list of game files holds paths (str or os.PathLike), not {}",
                    type_name(&item)
                ))
            })?);
        }
        return Ok(Some(paths));
    }
    Ok(path_of(source)
        .filter(|path| {
            let pattern = path.to_string_lossy().contains(['*', '?', '[', '{']);
            path.is_dir() || (pattern && !path.exists())
        })
        .map(|path| vec![path]))
}

/// `format=` of `read_games` and `shards`: `None` for `"auto"`.
pub fn format_arg(format: &str) -> PyResult<Option<Format>> {
    match format {
        "auto" => Ok(None),
        // Exact lower-case names, as for `errors`.
        name => Format::ALL
            .into_iter()
            .find(|f| f.name() == name)
            .map(Some)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "format={name:?}: expected 'auto', 'pgn', 'wxf', 'xqf', 'cbf', 'cbr' or 'cbl'"
                ))
            }),
    }
}

/// `encoding=` of `read_games`: `None` detects it once per file.
pub fn encoding_arg(encoding: Option<&str>) -> PyResult<Option<TextEncoding>> {
    encoding
        .map(|name| {
            name.parse::<TextEncoding>()
                .map_err(|e| PyValueError::new_err(format!("encoding={name:?}: {e}")))
        })
        .transpose()
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
        current: Some((games, path.as_ref().map(|p| p.display().to_string()))),
        files: Default::default(),
        format,
        options,
        collection: false,
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
        let reading = Reading {
            current: None,
            files: files.into(),
            format,
            options,
            collection: true,
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

/// The height of the viewer's frame in a notebook: the board, its buttons
/// and the evaluation curve.
const VIEWER_FRAME_HEIGHT: u32 = 640;

/// One game record: headers, main line with comments, result.
#[pyclass(module = "xiangqi.pgn", name = "Game")]
#[derive(Clone)]
pub struct PyGame(pub Game, pub Option<String>);

impl PyGame {
    fn start(&self) -> PyResult<Position> {
        self.0.start_position().map_err(to_py)
    }
}

#[pymethods]
impl PyGame {
    /// The first game in PGN `text`. Raises `PgnError` if there is none or it is broken.
    #[staticmethod]
    fn from_pgn(text: &str) -> PyResult<PyGame> {
        match pgn::read_str(text).next() {
            Some(Ok(game)) => Ok(PyGame(game, None)),
            Some(Err(e)) => Err(to_py(e)),
            None => Err(crate::errors::pgn_error("no game in the PGN text")),
        }
    }

    /// The first game of WXF game file `text` (`FORMAT WXF … START{ … }END`).
    /// Raises `PgnError` if there is none or it is broken.
    #[staticmethod]
    fn from_wxf(text: &str) -> PyResult<PyGame> {
        match wxf::read_str(text).next() {
            Some(Ok(game)) => Ok(PyGame(game, None)),
            Some(Err(e)) => Err(to_py(e)),
            None => Err(crate::errors::pgn_error("no game in the WXF text")),
        }
    }

    /// A game from a board's start position and move stack, with optional
    /// `headers` (a dict) and `result` (`"1-0"`, `"0-1"`, `"1/2-1/2"` or
    /// `"*"`). Without `result` (nor a `Result` header) the result is the
    /// board's `outcome(rules)`, as python-chess writes `board.result()`:
    /// `"1-0"` after Red mates, `"*"` while the game goes on.
    #[staticmethod]
    #[pyo3(signature = (board, headers = None, result = None, *, rules = "online"))]
    fn from_board(
        py: Python<'_>,
        board: PyRef<'_, PyBoard>,
        headers: Option<&Bound<'_, PyDict>>,
        result: Option<&str>,
        rules: &str,
    ) -> PyResult<PyGame> {
        let verdict = board.outcome(py, rules, false)?;
        let mut game = Game::default();
        let start = board.root_position();
        if *start != Position::startpos() {
            game.set_tag("SetUp", "1");
            game.set_tag("FEN", &start.to_fen());
        }
        if let Some(headers) = headers {
            for (k, v) in headers.iter() {
                let (k, v): (String, String) = (k.extract()?, v.extract()?);
                game.set_tag(&k, &v);
            }
        }
        game.mainline = Line {
            comments: Vec::new(),
            moves: board.moves().map(Node::new).collect(),
        };
        // PGN needs a termination marker: the given result, else the
        // headers' Result, else the rules' verdict, else "*" (unknown).
        let text = result
            .map(str::to_owned)
            .or_else(|| game.tag("Result").map(str::to_owned))
            .or_else(|| verdict.map(|v| v.0.result().to_owned()))
            .unwrap_or_else(|| "*".to_owned());
        let parsed: GameResult = text
            .parse()
            .map_err(|e: UnknownResult| PyValueError::new_err(e.to_string()))?;
        game.result = Some(parsed);
        game.set_tag("Result", parsed.as_str());
        Ok(PyGame(game, None))
    }

    /// The tag pairs, in file order, as a live mutable mapping
    /// (`xiangqi.pgn.Headers`): `game.headers["Event"] = "y"` changes the
    /// game, as in python-chess.
    #[getter]
    fn headers<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        py.import("xiangqi._views")?
            .getattr("Headers")?
            .call1((slf,))
    }

    /// The tag pairs, in file order (what `headers` reads).
    fn _header_items(&self) -> Vec<(String, String)> {
        self.0.tags.clone()
    }

    /// Sets (or adds) the header `name`. `Result` is also the game's
    /// result, so it must be one (`ValueError` otherwise).
    fn set_header(&mut self, name: &str, value: &str) -> PyResult<()> {
        if name == "Result" {
            let parsed: GameResult = value.parse().map_err(|e: UnknownResult| {
                PyValueError::new_err(format!("the Result header: {e}"))
            })?;
            self.0.result = Some(parsed);
        }
        self.0.set_tag(name, value);
        Ok(())
    }

    /// Removes the header `name`; whether it was there.
    fn _remove_header(&mut self, name: &str) -> bool {
        let before = self.0.tags.len();
        self.0.tags.retain(|(k, _)| k != name);
        if name == "Result" {
            self.0.result = None;
        }
        self.0.tags.len() != before
    }

    /// The main-line moves.
    #[getter]
    fn moves(&self) -> Frozen<PyMove> {
        self.0.moves().map(PyMove).collect()
    }

    /// Comments by ply: `comments[0]` stands before the first move,
    /// `comments[i]` after move `i`; `""` where there is none.
    /// A tuple: a copy, edited through `comment` of the game or a node.
    #[getter]
    fn comments<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let mut out = Vec::with_capacity(self.0.plies() + 1);
        out.push(self.0.mainline.comments.join("\n"));
        out.extend(
            self.0
                .mainline
                .moves
                .iter()
                .map(|n| n.comments().join("\n")),
        );
        PyTuple::new(py, out)
    }

    /// The result: `"1-0"`, `"0-1"`, `"1/2-1/2"` or `"*"` (from the move text or the Result tag).
    #[getter]
    fn result(&self) -> &'static str {
        self.0.outcome().as_str()
    }

    /// The notation the moves were written in.
    #[getter]
    fn notation(&self) -> &'static str {
        self.0.notation.name()
    }

    /// The board at the start (the FEN tag, or the start position).
    fn start_board(&self) -> PyResult<PyBoard> {
        Ok(PyBoard::from_position(self.start()?))
    }

    /// The start as a FEN: the FEN tag as a board shows it, or the start
    /// position. Also for a diagram no game can reach (a finished mate with
    /// both generals in check), which has no `start_board()`.
    fn start_fen(&self) -> PyResult<String> {
        self.0.start_diagram().map(|d| d.to_fen()).map_err(to_py)
    }

    /// What makes the start no position to play from, as python-chess's
    /// `Board.status()` says what is wrong with a board: empty for a
    /// playable start, else each problem, e.g. `["both generals are in
    /// check (R-LEGAL-POSITION)"]` for a manual's diagram of a finished
    /// mate. Such a game is shown (`viewer_html`) but never played:
    /// `start_board()`, `board()` and `adjudicate()` raise `InvalidFenError`.
    fn start_status(&self) -> PyResult<Vec<String>> {
        let diagram = self.0.start_diagram().map_err(to_py)?;
        Ok(diagram
            .problems(xiangqi_core::Validation::Strict)
            .iter()
            .map(|p| {
                let text = p.to_string();
                text.strip_prefix("invalid FEN: ")
                    .unwrap_or(&text)
                    .to_owned()
            })
            .collect())
    }

    /// The board after the last main-line move, with the moves on its stack.
    fn board(&self) -> PyResult<PyBoard> {
        let mut board = PyBoard::from_position(self.start()?);
        for mv in self.0.moves() {
            board.push_checked(mv)?;
        }
        Ok(board)
    }

    /// The verdict of the main line under `rules` (see `Board.outcome`).
    #[pyo3(signature = (rules = "online"))]
    fn adjudicate(&self, py: Python<'_>, rules: &str) -> PyResult<PyVerdict> {
        crate::verdict::adjudicate(py, self.start()?, self.0.moves().collect(), rules)
    }

    /// The game as PGN text with moves in `notation` (default ICCS), lines
    /// wrapped at `line_width` characters (default 80; 0: one line), styled by `**style`.
    #[pyo3(signature = (notation = "iccs", line_width = None, **style))]
    fn to_pgn(
        &self,
        notation: &str,
        line_width: Option<&Bound<'_, PyAny>>,
        style: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<String> {
        let mut options = WriteOptions::new(notation::fixed_notation(notation)?);
        options.style = notation::style(style)?;
        if let Some(width) = line_width {
            let width = crate::errors::int_arg(width, "line_width")?;
            options.line_width = usize::try_from(width).map_err(|_| {
                PyValueError::new_err(format!("line_width {width} must not be negative"))
            })?;
        }
        pgn::write_game(&self.0, &options).map_err(to_py)
    }

    /// The game as a WXF game file (`FORMAT WXF … START{ … }END`, WXF
    /// moves, Black in lower case, `.` for sideways moves): moves in the
    /// `style` convention (`"official"` or `"fsf"`, recorded in the file),
    /// `moves_per_line` full moves a line (default 3; 0: one line).
    /// Variations, and NAGs other than one of `$1`-`$6` a move, are an
    /// error (`ValueError`) unless `drop_variations` leaves them out.
    #[pyo3(signature = (*, style = "official", drop_variations = false, moves_per_line = None))]
    fn to_wxf(
        &self,
        style: &str,
        drop_variations: bool,
        moves_per_line: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        let defaults = WxfWriteOptions::default();
        let convention: WxfConvention = style.parse().map_err(|_| {
            PyValueError::new_err(format!("style={style:?}: expected 'official' or 'fsf'"))
        })?;
        let mut options = WxfWriteOptions {
            style: WxfStyle {
                convention,
                ..defaults.style
            },
            drop_variations,
            ..defaults
        };
        if let Some(count) = moves_per_line {
            let count = crate::errors::int_arg(count, "moves_per_line")?;
            options.moves_per_line = usize::try_from(count).map_err(|_| {
                PyValueError::new_err(format!("moves_per_line {count} must not be negative"))
            })?;
        }
        write_wxf(&self.0, &options).map_err(to_py)
    }

    /// The root of the move tree (before the first move), a `GameNode`.
    fn root(slf: &Bound<'_, Self>) -> PyGameNode {
        PyGameNode::new(slf.clone().unbind(), NodePath::root())
    }

    /// The first moves, as nodes: the main line's first, then its alternatives.
    #[getter]
    fn variations(slf: &Bound<'_, Self>) -> Frozen<PyGameNode> {
        Frozen(Self::root(slf).variation_nodes(slf.py()))
    }

    /// The comment before the first move (`comments[0]`); assigning replaces it.
    #[getter]
    fn comment(&self) -> String {
        self.0.mainline.comments.join("\n")
    }

    #[setter]
    fn set_comment(slf: &Bound<'_, Self>, text: &str) -> PyResult<()> {
        Self::root(slf).set_comment(slf.py(), text)
    }

    /// The nodes of the main line, first move to last.
    fn mainline(slf: &Bound<'_, Self>) -> Vec<PyGameNode> {
        Self::root(slf).mainline(slf.py())
    }

    /// Adds a first move (a `Move` or ICCS text): the main line's if there
    /// is none, else an alternative. Returns the new node.
    #[pyo3(signature = (r#move, *, comment = ""))]
    fn add_variation(
        slf: &Bound<'_, Self>,
        r#move: &Bound<'_, PyAny>,
        comment: &str,
    ) -> PyResult<PyGameNode> {
        Self::root(slf).add_variation(slf.py(), r#move, comment)
    }

    /// Every line as a list of moves from the start: the main line first,
    /// then one list per variation (each to its own end).
    fn lines(&self) -> Vec<Vec<PyMove>> {
        xiangqi_gamefile::lines(&self.0.mainline)
            .into_iter()
            .map(|line| line.into_iter().map(PyMove).collect())
            .collect()
    }

    fn __len__(&self) -> usize {
        self.0.plies()
    }

    /// What was wrong with the record, as `PgnError`s (`game`, `ply`,
    /// `line`, `column`, `offset`, `message`): a move that cannot be played
    /// (its line ends before it), a diagram's side to move corrected, a
    /// start that is a diagram no game can reach (see `start_status`), or,
    /// for a game that could not be read at all, why. Empty for a clean game.
    #[getter]
    fn errors(&self) -> Frozen<PyErr> {
        self.0.errors.iter().map(ToPyErr::to_py_err).collect()
    }

    /// The path of the file the game was read from (`read_games` of a
    /// path), else `None`.
    #[getter]
    fn source(&self) -> Option<String> {
        self.1.clone()
    }

    /// The game as the interactive viewer (`xiangqi-viewer`), for Jupyter:
    /// [`Self::viewer_html`] with its defaults.
    fn _repr_html_(&self, py: Python<'_>) -> PyResult<String> {
        self.viewer_html(py, None, "coordinate", true)
    }

    /// The game as the interactive viewer: with `frame` (the default) an
    /// `<iframe srcdoc>` for a notebook's `IPython.display.HTML`, so the
    /// viewer's script and style stay apart from the notebook's; else the
    /// self-contained page, to write to a file. `explorer` (from
    /// `xiangqi.explorer.open`) adds its table beside the board; `notation`
    /// is the one the page starts in (`coordinate`, `wxf`, `chinese`,
    /// `chinese-traditional`, `vietnamese`).
    #[pyo3(signature = (explorer = None, notation = "coordinate", frame = true))]
    fn viewer_html(
        &self,
        py: Python<'_>,
        explorer: Option<PyRef<'_, crate::explorer::PyExplorer>>,
        notation: &str,
        frame: bool,
    ) -> PyResult<String> {
        if !xiangqi_viewer::NOTATIONS.contains(&notation) {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "unknown viewer notation {notation:?}: expected one of {}",
                xiangqi_viewer::NOTATIONS.join(", ")
            )));
        }
        let explorer = explorer.as_ref().map(|e| &e.0);
        py.detach(|| {
            let view = xiangqi_viewer::viewer_game(&self.0)
                .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
            let tables = explorer
                .map(|e| xiangqi_viewer::explorer_tables(std::slice::from_ref(&view), e))
                .transpose()
                .map_err(|e| e.to_py_err())?;
            let options = xiangqi_viewer::PageOptions {
                title: view.title.clone(),
                notation: notation.to_owned(),
                explorer: tables,
            };
            let page = xiangqi_viewer::write_html(&[view], &options);
            Ok(if frame {
                xiangqi_viewer::html::iframe(&page, VIEWER_FRAME_HEIGHT)
            } else {
                page
            })
        })
    }

    fn __repr__(&self) -> String {
        let red = self.0.tag("Red").unwrap_or("?");
        let black = self.0.tag("Black").unwrap_or("?");
        format!(
            "<Game {red:?} vs {black:?}, {} plies, {}>",
            self.0.plies(),
            self.result()
        )
    }

    /// Pickles as the record's JSON: tags, notation, the whole tree with
    /// comments and NAGs, result; exactly what was there.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let json = py
            .detach(|| serde_json::to_string(&self.0))
            .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
        crate::pickle::reduce::<PyGame>(py, json)
    }

    /// Reads a pickled record back, replaying every line: a state that does
    /// not hold legal moves raises `ValueError` like any other bad state.
    #[staticmethod]
    fn _restore(py: Python<'_>, state: &str) -> PyResult<PyGame> {
        const WHAT: &str = "a Game";
        let game: Game = py
            .detach(|| serde_json::from_str(state))
            .map_err(|e| crate::pickle::bad_state(WHAT, e))?;
        py.detach(|| -> Result<(), String> {
            if game.mainline.moves.is_empty() {
                // A game without moves may start from a diagram no game can reach.
                return game.start_diagram().map(drop).map_err(|e| e.to_string());
            }
            let start = game.start_position().map_err(|e| e.to_string())?;
            for line in xiangqi_gamefile::lines(&game.mainline) {
                let mut position = start.clone();
                for mv in line {
                    position.play(mv).map_err(|e| format!("{mv}: {e}"))?;
                }
            }
            Ok(())
        })
        .map_err(|e| crate::pickle::bad_state(WHAT, e))?;
        Ok(PyGame(game, None))
    }
}
