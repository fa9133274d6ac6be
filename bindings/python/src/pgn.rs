//! `xiangqi.pgn`: reading games lazily from a path or a file object, PGN or
//! WXF game files (`FORMAT WXF … START{ … }END`), and `Game` objects over
//! `xiangqi-notation`'s games, written back as either format.
//!
//! Reading streams: one game is in memory at a time, whatever the size of
//! the file, and the GIL is released while a path is read.

use std::io::{BufRead, BufReader, Read};
use std::sync::Mutex;

use pyo3::exceptions::{PyStopIteration, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString, PyTuple};
use xiangqi_core::Position;
use xiangqi_notation::pgn::wxf_file::looks_like_wxf;
use xiangqi_notation::pgn::{
    self, read_wxf_str, write_wxf, GameResult, Line, Node, PgnError, Reader, WriteOptions,
    WxfError, WxfReader, WxfWriteOptions,
};
use xiangqi_notation::{WxfConvention, WxfStyle};

use crate::board::PyBoard;
use crate::errors::{to_py, type_name, ToPyErr};
use crate::notation;
use crate::types::PyMove;
use crate::verdict::PyVerdict;

type Source = BufReader<Box<dyn Read + Send>>;

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
    let py = source.py();
    if let Ok(bytes) = source.cast::<PyBytes>() {
        let data = bytes.as_bytes().to_vec();
        return Ok(BufReader::new(Box::new(std::io::Cursor::new(data))));
    }
    let fspath = py.import("os")?.getattr("PathLike")?;
    if source.is_instance_of::<PyString>() || source.is_instance(&fspath)? {
        let path: std::path::PathBuf = source.extract()?;
        let file = std::fs::File::open(&path).map_err(|e| {
            pyo3::exceptions::PyOSError::new_err(format!("cannot open {}: {e}", path.display()))
        })?;
        return Ok(BufReader::with_capacity(64 * 1024, Box::new(file)));
    }
    if source.hasattr("read")? {
        let reader = PyFileReader {
            file: source.clone().unbind(),
            pending: Vec::new(),
        };
        return Ok(BufReader::with_capacity(64 * 1024, Box::new(reader)));
    }
    Err(PyTypeError::new_err(format!(
        "expected a path, a file object or bytes of PGN or a WXF game file, not {}",
        type_name(source)
    )))
}

/// The reader for a source's format (boxed: the two differ in size).
enum Games {
    Pgn(Box<Reader<Source>>),
    Wxf(Box<WxfReader<Source>>),
}

/// A broken game, from either reader.
enum GameError {
    Pgn(PgnError),
    Wxf(WxfError),
}

impl GameError {
    /// Reading the input failed: the reader stops, and skipping does not hide it.
    fn is_io(&self) -> bool {
        match self {
            GameError::Pgn(e) => matches!(e.kind, pgn::PgnErrorKind::Io(_)),
            GameError::Wxf(e) => matches!(e.kind, pgn::WxfErrorKind::Io(_)),
        }
    }
}

impl ToPyErr for GameError {
    fn to_py_err(&self) -> PyErr {
        match self {
            GameError::Pgn(e) => e.to_py_err(),
            GameError::Wxf(e) => e.to_py_err(),
        }
    }
}

impl Games {
    /// The next game, or the next broken game unless `skip_errors`.
    fn next_game(&mut self, skip_errors: bool) -> Option<Result<pgn::Game, GameError>> {
        loop {
            let next = match self {
                Games::Pgn(r) => r.next()?.map_err(GameError::Pgn),
                Games::Wxf(r) => r.next()?.map_err(GameError::Wxf),
            };
            match next {
                Err(e) if skip_errors && !e.is_io() => continue,
                other => return Some(other),
            }
        }
    }
}

/// A lazy iterator over the games of a PGN or WXF game file (see `read_games`).
#[pyclass(module = "xiangqi.pgn", name = "GameIterator")]
pub struct PyGameIterator {
    games: Mutex<Games>,
    skip_errors: bool,
}

#[pymethods]
impl PyGameIterator {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<PyGame> {
        let next = py.detach(|| {
            let mut games = self
                .games
                .lock()
                .map_err(|_| "the game reader was poisoned by an earlier panic")?;
            Ok::<_, &str>(games.next_game(self.skip_errors))
        });
        match next.map_err(pyo3::exceptions::PyRuntimeError::new_err)? {
            None => Err(PyStopIteration::new_err(())),
            Some(Ok(game)) => Ok(PyGame(game)),
            Some(Err(e)) => Err(e.to_py_err()),
        }
    }
}

/// The `format` argument of `read_games`.
#[derive(Copy, Clone)]
enum Format {
    Auto,
    Pgn,
    Wxf,
}

impl Format {
    fn parse(text: &str) -> PyResult<Format> {
        match text {
            "auto" => Ok(Format::Auto),
            "pgn" => Ok(Format::Pgn),
            "wxf" => Ok(Format::Wxf),
            other => Err(PyValueError::new_err(format!(
                "format={other:?}: expected 'auto', 'pgn' or 'wxf'"
            ))),
        }
    }
}

/// The games of `source`, read one at a time: `source` is a path (`str` or
/// `os.PathLike`), a file object opened in text or binary mode, or `bytes`,
/// holding PGN or a WXF game file (`FORMAT WXF … START{ … }END`). UTF-8 and
/// GBK files are both read. `format="auto"` (the default) reads a WXF game
/// file when the first non-blank line is a `FORMAT` line, else PGN;
/// `"pgn"` and `"wxf"` say which. A broken game raises `PgnError` (with
/// `game`, `line`, `column` and `message`); with `errors="skip"` broken
/// games are skipped instead.
#[pyfunction]
#[pyo3(signature = (source, *, errors = "raise", format = "auto"))]
pub fn read_games(
    source: &Bound<'_, PyAny>,
    errors: &str,
    format: &str,
) -> PyResult<PyGameIterator> {
    let skip_errors = match errors {
        "raise" => false,
        "skip" => true,
        other => {
            return Err(PyValueError::new_err(format!(
                "errors={other:?}: expected 'raise' or 'skip'"
            )))
        }
    };
    let format = Format::parse(format)?;
    let mut src = open_source(source)?;
    let is_wxf = match format {
        Format::Pgn => false,
        Format::Wxf => true,
        // The first buffered chunk (up to 64 KiB) holds the first line of
        // any real file; `fill_buf` keeps it for the reader.
        Format::Auto => source
            .py()
            .detach(|| src.fill_buf().map(looks_like_wxf))
            .map_err(|e| pyo3::exceptions::PyOSError::new_err(format!("read error: {e}")))?,
    };
    let games = if is_wxf {
        Games::Wxf(Box::new(WxfReader::new(src)))
    } else {
        Games::Pgn(Box::new(Reader::new(src)))
    };
    Ok(PyGameIterator {
        games: Mutex::new(games),
        skip_errors,
    })
}

/// One game record: headers, main line with comments, result.
#[pyclass(module = "xiangqi.pgn", name = "Game")]
#[derive(Clone)]
pub struct PyGame(pub pgn::Game);

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
            Some(Ok(game)) => Ok(PyGame(game)),
            Some(Err(e)) => Err(to_py(e)),
            None => Err(crate::errors::pgn_error("no game in the PGN text")),
        }
    }

    /// The first game of WXF game file `text` (`FORMAT WXF … START{ … }END`).
    /// Raises `PgnError` if there is none or it is broken.
    #[staticmethod]
    fn from_wxf(text: &str) -> PyResult<PyGame> {
        match read_wxf_str(text).next() {
            Some(Ok(game)) => Ok(PyGame(game)),
            Some(Err(e)) => Err(to_py(e)),
            None => Err(crate::errors::pgn_error("no game in the WXF text")),
        }
    }

    /// A game from a board's start position and move stack, with optional
    /// `headers` (a dict) and `result` (`"1-0"`, `"0-1"`, `"1/2-1/2"`, or `"*"`, the default).
    #[staticmethod]
    #[pyo3(signature = (board, headers = None, result = None))]
    fn from_board(
        board: PyRef<'_, PyBoard>,
        headers: Option<&Bound<'_, PyDict>>,
        result: Option<&str>,
    ) -> PyResult<PyGame> {
        let mut game = pgn::Game::default();
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
        // headers' Result, else "*" (unknown).
        let text = result
            .map(str::to_owned)
            .or_else(|| game.tag("Result").map(str::to_owned))
            .unwrap_or_else(|| "*".to_owned());
        let parsed: GameResult = text
            .parse()
            .map_err(|e: pgn::UnknownResult| PyValueError::new_err(e.to_string()))?;
        game.result = Some(parsed);
        game.set_tag("Result", parsed.as_str());
        Ok(PyGame(game))
    }

    /// The tag pairs, in file order, as a new dict.
    #[getter]
    fn headers<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (k, v) in &self.0.tags {
            dict.set_item(k, v)?;
        }
        Ok(dict)
    }

    /// Sets (or adds) the header `name`.
    fn set_header(&mut self, name: &str, value: &str) {
        self.0.set_tag(name, value);
    }

    /// The main-line moves.
    #[getter]
    fn moves(&self) -> Vec<PyMove> {
        self.0.moves().map(PyMove).collect()
    }

    /// Comments by ply: `comments[0]` stands before the first move,
    /// `comments[i]` after move `i`; `""` where there is none.
    #[getter]
    fn comments(&self) -> Vec<String> {
        let mut out = Vec::with_capacity(self.0.plies() + 1);
        out.push(self.0.mainline.comments.join("\n"));
        out.extend(
            self.0
                .mainline
                .moves
                .iter()
                .map(|n| n.comments().join("\n")),
        );
        out
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

    fn __len__(&self) -> usize {
        self.0.plies()
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

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let py_zero = 0i32.into_pyobject(py)?;
        let text = slf.borrow().to_pgn("iccs", Some(py_zero.as_any()), None)?;
        let from_pgn = py.get_type::<PyGame>().getattr("from_pgn")?;
        (from_pgn, (text,)).into_pyobject(py)
    }
}
