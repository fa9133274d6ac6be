//! `xiangqi.pgn.GameNode`: a game's move tree walked like python-chess's
//! `GameNode` (`variations`, `parent`, `move`, `comment`, `nags`,
//! `mainline()`, `add_variation`). A node is a place in its `Game`
//! (`xiangqi-gamefile`'s `NodePath`); the tree itself stays in the game.

use std::collections::BTreeSet;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use xiangqi_core::Move;
use xiangqi_gamefile::NodePath;

use crate::board::PyBoard;
use crate::errors::to_py;
use crate::pgn::game::PyGame;
use crate::types::{Frozen, PyMove};

/// One place in a game's tree: the game's root (before the first move) or
/// a move. Nodes stay valid when variations are added.
#[pyclass(module = "xiangqi.pgn", name = "GameNode")]
pub struct PyGameNode {
    game: Py<PyGame>,
    path: NodePath,
}

impl PyGameNode {
    pub fn new(game: Py<PyGame>, path: NodePath) -> PyGameNode {
        PyGameNode { game, path }
    }

    fn at(&self, path: NodePath) -> PyGameNode {
        PyGameNode {
            game: Python::attach(|py| self.game.clone_ref(py)),
            path,
        }
    }

    /// The nodes of the moves that may follow, the main continuation first.
    pub fn variation_nodes(&self, py: Python<'_>) -> Vec<PyGameNode> {
        let children = self.path.children(&self.game.borrow(py).0.mainline);
        children.into_iter().map(|p| self.at(p)).collect()
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

    /// The node before this one (`None` at the root).
    #[getter]
    fn parent(&self) -> Option<PyGameNode> {
        self.path.parent().map(|p| self.at(p))
    }

    /// The moves that may follow, as a tuple of nodes: the main
    /// continuation first, then the alternatives in file order.
    /// `add_variation` adds one.
    #[getter]
    fn variations(&self, py: Python<'_>) -> Frozen<PyGameNode> {
        Frozen(self.variation_nodes(py))
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

    /// The nodes of the main continuation after this one, to the end.
    pub fn mainline(&self, py: Python<'_>) -> Vec<PyGameNode> {
        let game = self.game.borrow(py);
        let mut out = Vec::new();
        let mut path = self.path.clone();
        while let Some(next) = path.children(&game.0.mainline).into_iter().next() {
            out.push(self.at(next.clone()));
            path = next;
        }
        out
    }

    /// The moves of `mainline()`.
    fn mainline_moves(&self, py: Python<'_>) -> PyResult<Vec<PyMove>> {
        let nodes = self.mainline(py);
        Ok(nodes.iter().filter_map(|n| n.get_move(py)).collect())
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
