//! `xiangqi.pgn.Game`: one game record (headers, the move tree, comments,
//! result), made from text or a board, written back as PGN or WXF, shown
//! as the viewer in Jupyter. Its tree is walked through
//! [`crate::game_tree::PyGameNode`], the other half of the same object.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use xiangqi_core::Position;
use xiangqi_gamefile::pgn::{self, WriteOptions};
use xiangqi_gamefile::wxf::{self, write_wxf, WxfWriteOptions};
use xiangqi_gamefile::{Game, GameResult, Line, Node, NodePath, UnknownResult};
use xiangqi_notation::{WxfConvention, WxfStyle};

use crate::board::PyBoard;
use crate::errors::{to_py, ToPyErr};
use crate::game_tree::PyGameNode;
use crate::notation;
use crate::types::{Frozen, PyMove};
use crate::verdict::PyVerdict;

/// The height of the viewer's frame in a notebook: the board, its buttons
/// and the evaluation curve.
const VIEWER_FRAME_HEIGHT: u32 = 640;

/// One game record: headers, main line with comments, result.
#[pyclass(module = "xiangqi.pgn", name = "Game", weakref)]
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
    fn root(slf: &Bound<'_, Self>) -> PyResult<Py<PyGameNode>> {
        PyGameNode::node_of(slf.py(), &slf.clone().unbind(), NodePath::root())
    }

    /// The first moves, as nodes: the main line's first, then its alternatives.
    #[getter]
    fn variations(slf: &Bound<'_, Self>) -> PyResult<Frozen<Py<PyGameNode>>> {
        let root = Self::root(slf)?;
        Ok(Frozen(PyGameNode::child_objects(root.bind(slf.py()))?))
    }

    /// The comment before the first move (`comments[0]`); assigning replaces it.
    #[getter]
    fn comment(&self) -> String {
        self.0.mainline.comments.join("\n")
    }

    #[setter]
    fn set_comment(slf: &Bound<'_, Self>, text: &str) -> PyResult<()> {
        Self::root(slf)?
            .borrow(slf.py())
            .set_comment(slf.py(), text)
    }

    /// The nodes of the main line, first move to last.
    fn mainline(slf: &Bound<'_, Self>) -> PyResult<Vec<Py<PyGameNode>>> {
        PyGameNode::mainline(Self::root(slf)?.bind(slf.py()))
    }

    /// The moves of the main line, first to last (python-chess's
    /// `mainline_moves()`; the same as `moves`).
    fn mainline_moves(&self) -> Vec<PyMove> {
        self.0.moves().map(PyMove).collect()
    }

    /// Adds a first move (a `Move` or ICCS text): the main line's if there
    /// is none, else an alternative. Returns the new node.
    #[pyo3(signature = (r#move, *, comment = ""))]
    fn add_variation(
        slf: &Bound<'_, Self>,
        r#move: &Bound<'_, PyAny>,
        comment: &str,
    ) -> PyResult<Py<PyGameNode>> {
        Self::root(slf)?
            .borrow(slf.py())
            .add_variation(slf.py(), r#move, comment)
    }

    /// Adds a first move as the new main line (the former main line becomes
    /// its first alternative); returns the new node.
    #[pyo3(signature = (r#move, *, comment = ""))]
    fn add_main_variation(
        slf: &Bound<'_, Self>,
        r#move: &Bound<'_, PyAny>,
        comment: &str,
    ) -> PyResult<Py<PyGameNode>> {
        Self::root(slf)?
            .borrow(slf.py())
            .add_main_variation(slf.py(), r#move, comment)
    }

    /// Removes the first move that plays `move` (a `Move`, ICCS text or a
    /// node), with everything after it (see `GameNode.remove_variation`).
    fn remove_variation(slf: &Bound<'_, Self>, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let root = Self::root(slf)?;
        PyGameNode::remove_variation(root.bind(slf.py()), r#move)
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
