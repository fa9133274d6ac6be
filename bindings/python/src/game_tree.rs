//! `xiangqi.pgn.GameNode`: a game's move tree walked like python-chess's
//! `GameNode` (`variations`, `parent`, `move`, `comment`, `nags`,
//! `mainline()`, `add_variation`). A node is a place in its `Game`
//! (`xiangqi-gamefile`'s `NodePath`); the tree itself stays in the game.

use std::collections::BTreeSet;
use std::sync::{Mutex, OnceLock};

use pyo3::exceptions::{PyIndexError, PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use xiangqi_core::{Move, Position};
use xiangqi_gamefile::NodePath;

use crate::board::PyBoard;
use crate::errors::to_py;
use crate::pgn::game::PyGame;
use crate::types::{Frozen, PyColor, PyMove};

/// One place in a game's tree: the game's root (before the first move) or
/// a move. Nodes stay valid when variations are added.
///
/// A node hands out the same objects each time: `node.parent is
/// node.parent`, and `node.variations[0].parent is node`.
#[pyclass(module = "xiangqi.pgn", name = "GameNode")]
pub struct PyGameNode {
    game: Py<PyGame>,
    path: NodePath,
    /// The parent object, once asked for (or set by the parent that made this node).
    parent: OnceLock<Py<PyGameNode>>,
    /// The children objects handed out, kept so they are handed out again.
    children: Mutex<Vec<Py<PyGameNode>>>,
}

impl PyGameNode {
    pub fn new(game: Py<PyGame>, path: NodePath) -> PyGameNode {
        PyGameNode {
            game,
            path,
            parent: OnceLock::new(),
            children: Mutex::new(Vec::new()),
        }
    }

    fn at(&self, path: NodePath) -> PyGameNode {
        PyGameNode::new(Python::attach(|py| self.game.clone_ref(py)), path)
    }

    /// The nodes of the moves that may follow, the main continuation first.
    pub fn variation_nodes(&self, py: Python<'_>) -> Vec<PyGameNode> {
        let children = self.path.children(&self.game.borrow(py).0.mainline);
        children.into_iter().map(|p| self.at(p)).collect()
    }

    /// The child objects of `slf`, the same objects as last time for the
    /// places that are still children, each knowing `slf` as its parent.
    pub fn child_objects(slf: &Bound<'_, Self>) -> PyResult<Vec<Py<PyGameNode>>> {
        let py = slf.py();
        let this = slf.borrow();
        let paths = this.path.children(&this.game.borrow(py).0.mainline);
        let mut cache = this
            .children
            .lock()
            .map_err(|_| PyValueError::new_err("the node's children are being changed"))?;
        let mut out = Vec::with_capacity(paths.len());
        for path in paths {
            let known = cache.iter().find(|c| c.borrow(py).path == path);
            let child = match known {
                Some(child) => child.clone_ref(py),
                None => {
                    let node = this.at(path);
                    let _ = node.parent.set(slf.clone().unbind());
                    Py::new(py, node)?
                }
            };
            out.push(child);
        }
        *cache = out.iter().map(|c| c.clone_ref(py)).collect();
        Ok(out)
    }

    /// The position before this node's move (the start at the root).
    fn position_before(&self, py: Python<'_>) -> PyResult<Position> {
        let mut moves = self.moves_here(py)?;
        moves.pop();
        let start = self.game.borrow(py).0.start_position().map_err(to_py)?;
        start.after_moves(moves).map_err(|e| to_py(e.error))
    }

    fn gone() -> PyErr {
        PyValueError::new_err("the node is not in its game's tree")
    }

    /// The moves from the start up to this node.
    fn moves_here(&self, py: Python<'_>) -> PyResult<Vec<Move>> {
        let game = self.game.borrow(py);
        self.path
            .moves(&game.0.mainline)
            .ok_or_else(PyGameNode::gone)
    }
}

/// A move given as a `Move` or as ICCS text.
fn move_arg(value: &Bound<'_, PyAny>) -> PyResult<Move> {
    if let Ok(mv) = value.extract::<PyMove>() {
        return Ok(mv.0);
    }
    let text: String = value.extract()?;
    text.parse().map_err(to_py)
}

#[pymethods]
impl PyGameNode {
    /// The move that leads here (`None` at the root).
    #[getter(r#move)]
    fn get_move(&self, py: Python<'_>) -> Option<PyMove> {
        let game = self.game.borrow(py);
        self.path.node(&game.0.mainline).map(|n| PyMove(n.mv))
    }

    /// The node before this one (`None` at the root), the same object each time.
    #[getter]
    fn parent(&self, py: Python<'_>) -> PyResult<Option<Py<PyGameNode>>> {
        let Some(path) = self.path.parent() else {
            return Ok(None);
        };
        if let Some(parent) = self.parent.get() {
            return Ok(Some(parent.clone_ref(py)));
        }
        let parent = Py::new(py, self.at(path))?;
        Ok(Some(self.parent.get_or_init(|| parent).clone_ref(py)))
    }

    /// The moves that may follow, as a tuple of nodes: the main
    /// continuation first, then the alternatives in file order.
    /// `add_variation` adds one.
    #[getter]
    fn variations(slf: &Bound<'_, Self>) -> PyResult<Frozen<Py<PyGameNode>>> {
        Ok(Frozen(PyGameNode::child_objects(slf)?))
    }

    /// The `index`-th variation (0: the main continuation), or the one
    /// whose move is `index` (a `Move` or ICCS text). Raises `IndexError` /
    /// `KeyError` when there is none.
    fn variation(slf: &Bound<'_, Self>, index: &Bound<'_, PyAny>) -> PyResult<Py<PyGameNode>> {
        let py = slf.py();
        let children = PyGameNode::child_objects(slf)?;
        if let Ok(i) = index.extract::<isize>() {
            let len = children.len() as isize;
            let at = if i < 0 { i + len } else { i };
            return usize::try_from(at)
                .ok()
                .and_then(|at| children.get(at))
                .map(|c| c.clone_ref(py))
                .ok_or_else(|| {
                    PyIndexError::new_err(format!(
                        "variation {i} is out of range: the node has {len} variations"
                    ))
                });
        }
        let mv = move_arg(index)?;
        children
            .into_iter()
            .find(|c| c.borrow(py).get_move(py).is_some_and(|m| m.0 == mv))
            .ok_or_else(|| PyKeyError::new_err(format!("no variation plays {mv}")))
    }

    /// Whether a variation plays `move` (a `Move` or ICCS text).
    fn has_variation(&self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        let mv = move_arg(r#move)?;
        Ok(self
            .variation_nodes(py)
            .iter()
            .any(|c| c.get_move(py).is_some_and(|m| m.0 == mv)))
    }

    /// The main continuation (`variations[0]`), `None` at the end of a line.
    fn next(slf: &Bound<'_, Self>) -> PyResult<Option<Py<PyGameNode>>> {
        Ok(PyGameNode::child_objects(slf)?.into_iter().next())
    }

    /// The last node of the main continuation from here (this node at the end of a line).
    fn end(slf: &Bound<'_, Self>) -> PyResult<Py<PyGameNode>> {
        let mut node = slf.clone();
        while let Some(next) = PyGameNode::next(&node)? {
            node = next.into_bound(slf.py());
        }
        Ok(node.unbind())
    }

    /// Whether the node is on the game's main line (the root is).
    fn is_mainline(&self) -> bool {
        self.path.is_mainline()
    }

    /// Whether the node is its parent's main continuation (the root is).
    fn is_main_variation(&self, py: Python<'_>) -> bool {
        match self.path.parent() {
            None => true,
            Some(parent) => parent
                .children(&self.game.borrow(py).0.mainline)
                .first()
                .is_some_and(|first| *first == self.path),
        }
    }

    /// The comment before the move of a node that starts a variation
    /// (`(1... {this} b9c7)`); empty for other nodes. Assigning one to a
    /// node that starts no variation raises `ValueError`.
    #[getter]
    fn starting_comment(&self, py: Python<'_>) -> String {
        let game = self.game.borrow(py);
        self.path
            .starting_comments(&game.0.mainline)
            .map(|c| c.join("\n"))
            .unwrap_or_default()
    }

    #[setter]
    fn set_starting_comment(&self, py: Python<'_>, text: &str) -> PyResult<()> {
        let mut game = self.game.borrow_mut(py);
        let comments = self
            .path
            .starting_comments_mut(&mut game.0.mainline)
            .ok_or_else(|| {
                PyValueError::new_err(
                    "only a node that starts a variation has a starting comment \
                     (a main-line move's comment before it is the previous move's comment)",
                )
            })?;
        comments.clear();
        if !text.is_empty() {
            comments.push(text.to_owned());
        }
        Ok(())
    }

    /// The side to move after this node's move (at the root: at the start).
    fn turn(&self, py: Python<'_>) -> PyResult<PyColor> {
        let start = self.game.borrow(py).0.start_position().map_err(to_py)?;
        let plies = self.moves_here(py)?.len();
        let side = start.side_to_move();
        Ok(if plies % 2 == 0 {
            side
        } else {
            side.opposite()
        }
        .into())
    }

    /// The move's text in the notation the game was read in (its
    /// `notation`), or in `notation` with the `**style` keywords of
    /// `Board.san`. Raises `ValueError` at the root, which has no move.
    #[pyo3(signature = (notation = None, **style))]
    fn san(
        &self,
        py: Python<'_>,
        notation: Option<&str>,
        style: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<String> {
        let mv = self
            .get_move(py)
            .ok_or_else(|| PyValueError::new_err("the root has no move to write"))?;
        let notation = match notation {
            Some(name) => crate::notation::fixed_notation(name)?,
            None => self.game.borrow(py).0.notation,
        };
        let style = crate::notation::style(style)?;
        let before = self.position_before(py)?;
        xiangqi_notation::format(&before, mv.0, notation, &style).map_err(to_py)
    }

    /// The comment after the move (at the root: before the first move);
    /// several comments are joined by newlines. Assigning replaces them.
    #[getter]
    fn comment(&self, py: Python<'_>) -> String {
        let game = self.game.borrow(py);
        match self.path.node(&game.0.mainline) {
            Some(node) => node.comments().join("\n"),
            None if self.path.is_root() => game.0.mainline.comments.join("\n"),
            None => String::new(),
        }
    }

    #[setter]
    pub fn set_comment(&self, py: Python<'_>, text: &str) -> PyResult<()> {
        let mut game = self.game.borrow_mut(py);
        let comments = if self.path.is_root() {
            &mut game.0.mainline.comments
        } else {
            self.path
                .node_mut(&mut game.0.mainline)
                .ok_or_else(PyGameNode::gone)?
                .comments_mut()
        };
        comments.clear();
        if !text.is_empty() {
            comments.push(text.to_owned());
        }
        Ok(())
    }

    /// The numeric annotation glyphs of the move (`$1` is 1), as a live
    /// mutable set (`xiangqi.pgn.Nags`): `node.nags.add(1)` annotates the
    /// move, as in python-chess. Assigning an iterable replaces them.
    #[getter]
    fn nags<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        slf.py()
            .import("xiangqi._views")?
            .getattr("Nags")?
            .call1((slf,))
    }

    /// The glyphs in increasing order (what `nags` reads).
    fn _nag_values(&self, py: Python<'_>) -> Vec<u8> {
        let game = self.game.borrow(py);
        self.path
            .node(&game.0.mainline)
            .map(|n| n.nags().iter().copied().collect::<BTreeSet<u8>>())
            .unwrap_or_default()
            .into_iter()
            .collect()
    }

    #[setter]
    fn set_nags(&self, py: Python<'_>, nags: &Bound<'_, PyAny>) -> PyResult<()> {
        let mut values = Vec::new();
        for item in nags.try_iter()? {
            values.push(item?.extract::<u8>()?);
        }
        values.sort_unstable();
        values.dedup();
        let mut game = self.game.borrow_mut(py);
        let node = self
            .path
            .node_mut(&mut game.0.mainline)
            .ok_or_else(|| PyValueError::new_err("the root has no move to annotate"))?;
        *node.nags_mut() = values;
        Ok(())
    }

    /// The nodes of the main continuation after this one, to the end (the
    /// same objects `next()` hands out).
    pub fn mainline(slf: &Bound<'_, Self>) -> PyResult<Vec<Py<PyGameNode>>> {
        let mut out = Vec::new();
        let mut node = slf.clone();
        while let Some(next) = PyGameNode::next(&node)? {
            out.push(next.clone_ref(slf.py()));
            node = next.into_bound(slf.py());
        }
        Ok(out)
    }

    /// The moves of `mainline()`.
    pub fn mainline_moves(&self, py: Python<'_>) -> Vec<PyMove> {
        let game = self.game.borrow(py);
        let mut out = Vec::new();
        let mut path = self.path.clone();
        while let Some(next) = path.children(&game.0.mainline).into_iter().next() {
            out.extend(next.node(&game.0.mainline).map(|n| PyMove(n.mv)));
            path = next;
        }
        out
    }

    /// Adds `move` (a `Move` or ICCS text) after this node: the main
    /// continuation if there is none, else a new variation. Raises
    /// `IllegalMoveError` if it is not legal here. Returns the new node.
    #[pyo3(signature = (r#move, *, comment = ""))]
    pub fn add_variation(
        &self,
        py: Python<'_>,
        r#move: &Bound<'_, PyAny>,
        comment: &str,
    ) -> PyResult<PyGameNode> {
        let mv = move_arg(r#move)?;
        let mut position = self.game.borrow(py).0.start_position().map_err(to_py)?;
        for played in self.moves_here(py)? {
            position.play(played).map_err(to_py)?;
        }
        position.check_legal(mv).map_err(to_py)?;
        let added = {
            let mut game = self.game.borrow_mut(py);
            self.path
                .add_variation(&mut game.0.mainline, mv)
                .ok_or_else(PyGameNode::gone)?
        };
        let node = self.at(added);
        if !comment.is_empty() {
            node.set_comment(py, comment)?;
        }
        Ok(node)
    }

    /// The board after this node's move, the moves from the start on its stack.
    fn board(&self, py: Python<'_>) -> PyResult<PyBoard> {
        let start = self.game.borrow(py).0.start_position().map_err(to_py)?;
        let mut board = PyBoard::from_position(start);
        for mv in self.moves_here(py)? {
            board.push_checked(mv)?;
        }
        Ok(board)
    }

    /// Plies from the start to this node (0 at the root).
    fn ply(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.moves_here(py)?.len())
    }

    /// Whether no move follows.
    fn is_end(&self, py: Python<'_>) -> bool {
        self.path
            .children(&self.game.borrow(py).0.mainline)
            .is_empty()
    }

    /// The game this node belongs to.
    fn game(&self, py: Python<'_>) -> Py<PyGame> {
        self.game.clone_ref(py)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyGameNode>()
            .is_ok_and(|o| o.borrow().game.is(&self.game) && o.borrow().path == self.path)
    }

    /// Pickles as its game and the way down from the root: at each step,
    /// the index among the variations (0: the main continuation).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let mut steps = Vec::new();
        {
            let game = self.game.borrow(py);
            let mut path = self.path.clone();
            while let Some(parent) = path.parent() {
                let index = parent
                    .children(&game.0.mainline)
                    .iter()
                    .position(|child| *child == path)
                    .ok_or_else(PyGameNode::gone)?;
                steps.push(index);
                path = parent;
            }
        }
        steps.reverse();
        crate::pickle::reduce::<PyGameNode>(py, (self.game.clone_ref(py), steps))
    }

    #[staticmethod]
    fn _restore(py: Python<'_>, state: (Py<PyGame>, Vec<usize>)) -> PyResult<PyGameNode> {
        let (game, steps) = state;
        let mut path = NodePath::root();
        {
            let record = game.borrow(py);
            for step in steps {
                path = path
                    .children(&record.0.mainline)
                    .into_iter()
                    .nth(step)
                    .ok_or_else(|| {
                        crate::pickle::bad_state(
                            "a GameNode",
                            "a variation that is not in its game",
                        )
                    })?;
            }
        }
        Ok(PyGameNode::new(game, path))
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        match self.get_move(py) {
            Some(mv) => format!("<GameNode {} at ply {}>", mv.0, self.ply(py).unwrap_or(0)),
            None => "<GameNode root>".to_owned(),
        }
    }
}
