//! `xiangqi.pgn.GameNode`: a game's move tree walked like python-chess's
//! `GameNode` (`variations`, `parent`, `move`, `comment`, `nags`,
//! `mainline()`, `add_variation`). A node is a place in its `Game`
//! (`xiangqi-gamefile`'s `NodePath`); the tree itself stays in the game.

use std::collections::BTreeSet;
use std::sync::RwLock;

use pyo3::exceptions::{PyIndexError, PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple};
use xiangqi_core::{Move, Position};
use xiangqi_gamefile::NodePath;

use crate::board::PyBoard;
use crate::errors::to_py;
use crate::pgn::game::PyGame;
use crate::types::{Frozen, PyColor, PyMove};

/// One place in a game's tree: the game's root (before the first move) or
/// a move. Nodes stay valid when variations are added, promoted, demoted
/// or removed (a removed node's handle raises).
///
/// A place has one object while it is in use: `node.parent is
/// node.parent`, `node.variations[0].parent is node`, `game.root() is
/// game.root()` (a registry of weak references per game).
#[pyclass(module = "xiangqi.pgn", name = "GameNode", weakref, frozen)]
pub struct PyGameNode {
    game: Py<PyGame>,
    /// The place; moved when the tree is reordered (a lock, since a node
    /// object is shared while its place changes).
    path: RwLock<NodePath>,
}

/// Per game (weakly), its node objects by place (weakly).
static REGISTRY: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// The game's registry of node objects, a `WeakValueDictionary` keyed by place.
fn nodes_of<'py>(py: Python<'py>, game: &Py<PyGame>) -> PyResult<Bound<'py, PyAny>> {
    let weakref = py.import("weakref")?;
    let games = REGISTRY.get_or_try_init(py, || -> PyResult<Py<PyAny>> {
        Ok(weakref.getattr("WeakKeyDictionary")?.call0()?.unbind())
    })?;
    let games = games.bind(py);
    let game = game.bind(py);
    match games.get_item(game) {
        Ok(nodes) => Ok(nodes),
        Err(_) => {
            let nodes = weakref.getattr("WeakValueDictionary")?.call0()?;
            games.set_item(game, &nodes)?;
            Ok(nodes)
        }
    }
}

/// A place as a dictionary key.
fn place_key<'py>(py: Python<'py>, path: &NodePath) -> PyResult<Bound<'py, PyTuple>> {
    let (steps, index) = path.key();
    let flat: Vec<usize> = steps.iter().flat_map(|&(a, b)| [a, b]).collect();
    (PyTuple::new(py, flat)?, index).into_pyobject(py)
}

impl PyGameNode {
    /// The one object of `path` in `game`.
    pub fn node_of(py: Python<'_>, game: &Py<PyGame>, path: NodePath) -> PyResult<Py<PyGameNode>> {
        let nodes = nodes_of(py, game)?;
        let key = place_key(py, &path)?;
        if let Ok(Some(node)) = nodes
            .call_method1("get", (&key,))
            .map(|n| (!n.is_none()).then_some(n))
        {
            return Ok(node.cast_into::<PyGameNode>()?.unbind());
        }
        let node = Py::new(
            py,
            PyGameNode {
                game: game.clone_ref(py),
                path: RwLock::new(path),
            },
        )?;
        nodes.set_item(key, &node)?;
        Ok(node)
    }

    /// The place (a copy: it may move).
    fn path(&self) -> NodePath {
        self.path
            .read()
            .map(|p| p.clone())
            .unwrap_or_else(|_| NodePath::detached())
    }

    fn set_path(&self, path: NodePath) {
        if let Ok(mut place) = self.path.write() {
            *place = path;
        }
    }

    fn at(&self, py: Python<'_>, path: NodePath) -> PyResult<Py<PyGameNode>> {
        PyGameNode::node_of(py, &self.game, path)
    }

    /// The objects of the moves that may follow, the main continuation first.
    pub fn child_objects(slf: &Bound<'_, Self>) -> PyResult<Vec<Py<PyGameNode>>> {
        let py = slf.py();
        let this = slf.borrow();
        let paths = this.path().children(&this.game.borrow(py).0.mainline);
        paths.into_iter().map(|p| this.at(py, p)).collect()
    }

    fn gone() -> PyErr {
        PyValueError::new_err("the node is not in its game's tree (it was removed)")
    }

    /// The moves from the start up to this node.
    fn moves_here(&self, py: Python<'_>) -> PyResult<Vec<Move>> {
        let game = self.game.borrow(py);
        self.path()
            .moves(&game.0.mainline)
            .ok_or_else(PyGameNode::gone)
    }

    /// This node's place among its parent's children, and the parent's place.
    fn place_among_siblings(&self, py: Python<'_>) -> PyResult<(NodePath, usize, usize)> {
        let parent = self
            .path()
            .parent()
            .ok_or_else(|| PyValueError::new_err("the root has no siblings to reorder"))?;
        let siblings = parent.children(&self.game.borrow(py).0.mainline);
        let at = siblings
            .iter()
            .position(|p| *p == self.path())
            .ok_or_else(PyGameNode::gone)?;
        Ok((parent, at, siblings.len()))
    }

    /// Puts the children of `parent` in `order` (see
    /// `NodePath::reorder_children`) and moves every node object of the
    /// game to its new place; removed ones point nowhere.
    fn reorder(
        py: Python<'_>,
        game: &Py<PyGame>,
        parent: &NodePath,
        order: &[usize],
    ) -> PyResult<()> {
        let remap = {
            let mut record = game.borrow_mut(py);
            parent
                .reorder_children(&mut record.0.mainline, order)
                .ok_or_else(PyGameNode::gone)?
        };
        let nodes = nodes_of(py, game)?;
        let live: Vec<Bound<'_, PyAny>> = nodes
            .call_method0("values")?
            .try_iter()?
            .collect::<PyResult<_>>()?;
        nodes.call_method0("clear")?;
        for node in live {
            let node = node.cast_into::<PyGameNode>()?;
            let now = remap.apply(&node.get().path());
            match now {
                Some(path) => {
                    nodes.set_item(place_key(py, &path)?, &node)?;
                    node.get().set_path(path);
                }
                None => node.get().set_path(NodePath::detached()),
            }
        }
        Ok(())
    }

    /// The position before this node's move (the start at the root).
    fn position_before(&self, py: Python<'_>) -> PyResult<Position> {
        let mut moves = self.moves_here(py)?;
        moves.pop();
        let start = self.game.borrow(py).0.start_position().map_err(to_py)?;
        start.after_moves(moves).map_err(|e| to_py(e.error))
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
        self.path().node(&game.0.mainline).map(|n| PyMove(n.mv))
    }

    /// The node before this one (`None` at the root), the same object each time.
    #[getter]
    fn parent(&self, py: Python<'_>) -> PyResult<Option<Py<PyGameNode>>> {
        self.path()
            .parent()
            .map(|path| self.at(py, path))
            .transpose()
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
        let game = self.game.borrow(py);
        Ok(self
            .path()
            .children(&game.0.mainline)
            .iter()
            .any(|c| c.node(&game.0.mainline).is_some_and(|n| n.mv == mv)))
    }

    /// Makes this node its parent's main continuation (the others keep
    /// their order after it). Every node object stays with its move.
    fn promote_to_main(&self, py: Python<'_>) -> PyResult<()> {
        let (parent, at, count) = self.place_among_siblings(py)?;
        let order: Vec<usize> = std::iter::once(at)
            .chain((0..count).filter(|&i| i != at))
            .collect();
        PyGameNode::reorder(py, &self.game, &parent, &order)
    }

    /// Moves this node one place up among its parent's variations (nothing
    /// when it is the main continuation).
    fn promote(&self, py: Python<'_>) -> PyResult<()> {
        let (parent, at, count) = self.place_among_siblings(py)?;
        if at == 0 {
            return Ok(());
        }
        let mut order: Vec<usize> = (0..count).collect();
        order.swap(at - 1, at);
        PyGameNode::reorder(py, &self.game, &parent, &order)
    }

    /// Moves this node one place down among its parent's variations
    /// (nothing when it is the last).
    fn demote(&self, py: Python<'_>) -> PyResult<()> {
        let (parent, at, count) = self.place_among_siblings(py)?;
        if at + 1 >= count {
            return Ok(());
        }
        let mut order: Vec<usize> = (0..count).collect();
        order.swap(at, at + 1);
        PyGameNode::reorder(py, &self.game, &parent, &order)
    }

    /// Removes the variation that plays `move` (a `Move`, ICCS text or one
    /// of the child nodes) with everything after it; the next variation
    /// becomes the main continuation if it was that. Raises `KeyError` when
    /// no variation plays it. Node objects of the removed moves raise from
    /// then on.
    pub fn remove_variation(slf: &Bound<'_, Self>, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let py = slf.py();
        let child = match r#move.cast::<PyGameNode>() {
            Ok(node) => node.clone().unbind(),
            Err(_) => PyGameNode::variation(slf, r#move)?,
        };
        let this = slf.borrow();
        let game = this.game.borrow(py);
        let children = this.path().children(&game.0.mainline);
        let child_path = child.get().path();
        let at = children
            .iter()
            .position(|p| *p == child_path)
            .ok_or_else(|| PyKeyError::new_err("the node is not a variation of this one"))?;
        drop(game);
        let order: Vec<usize> = (0..children.len()).filter(|&i| i != at).collect();
        PyGameNode::reorder(py, &this.game, &this.path(), &order)
    }

    /// Adds `move` as the new main continuation (the former one becomes
    /// the first alternative) and returns its node.
    #[pyo3(signature = (r#move, *, comment = ""))]
    pub fn add_main_variation(
        &self,
        py: Python<'_>,
        r#move: &Bound<'_, PyAny>,
        comment: &str,
    ) -> PyResult<Py<PyGameNode>> {
        let node = self.add_variation(py, r#move, comment)?;
        node.borrow(py).promote_to_main(py)?;
        Ok(node)
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
        self.path().is_mainline()
    }

    /// Whether the node is its parent's main continuation (the root is).
    fn is_main_variation(&self, py: Python<'_>) -> bool {
        match self.path().parent() {
            None => true,
            Some(parent) => parent
                .children(&self.game.borrow(py).0.mainline)
                .first()
                .is_some_and(|first| *first == self.path()),
        }
    }

    /// The comment before the move of a node that starts a variation
    /// (`(1... {this} b9c7)`); empty for other nodes. Assigning one to a
    /// node that starts no variation raises `ValueError`.
    #[getter]
    fn starting_comment(&self, py: Python<'_>) -> String {
        let game = self.game.borrow(py);
        self.path()
            .starting_comments(&game.0.mainline)
            .map(|c| c.join("\n"))
            .unwrap_or_default()
    }

    #[setter]
    fn set_starting_comment(&self, py: Python<'_>, text: &str) -> PyResult<()> {
        let mut game = self.game.borrow_mut(py);
        let comments = self
            .path()
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
        match self.path().node(&game.0.mainline) {
            Some(node) => node.comments().join("\n"),
            None if self.path().is_root() => game.0.mainline.comments.join("\n"),
            None => String::new(),
        }
    }

    #[setter]
    pub fn set_comment(&self, py: Python<'_>, text: &str) -> PyResult<()> {
        let mut game = self.game.borrow_mut(py);
        let comments = if self.path().is_root() {
            &mut game.0.mainline.comments
        } else {
            self.path()
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
        self.path()
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
            .path()
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
        let mut path = self.path().clone();
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
    ) -> PyResult<Py<PyGameNode>> {
        let mv = move_arg(r#move)?;
        let mut position = self.game.borrow(py).0.start_position().map_err(to_py)?;
        for played in self.moves_here(py)? {
            position.play(played).map_err(to_py)?;
        }
        position.check_legal(mv).map_err(to_py)?;
        let added = {
            let mut game = self.game.borrow_mut(py);
            self.path()
                .add_variation(&mut game.0.mainline, mv)
                .ok_or_else(PyGameNode::gone)?
        };
        let node = self.at(py, added)?;
        if !comment.is_empty() {
            node.borrow(py).set_comment(py, comment)?;
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
        self.path()
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
            .is_ok_and(|o| o.get().game.is(&self.game) && o.get().path() == self.path())
    }

    /// Pickles as its game and the way down from the root: at each step,
    /// the index among the variations (0: the main continuation).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let mut steps = Vec::new();
        {
            let game = self.game.borrow(py);
            let mut path = self.path().clone();
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
    fn _restore(py: Python<'_>, state: (Py<PyGame>, Vec<usize>)) -> PyResult<Py<PyGameNode>> {
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
        PyGameNode::node_of(py, &game, path)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        match self.get_move(py) {
            Some(mv) => format!("<GameNode {} at ply {}>", mv.0, self.ply(py).unwrap_or(0)),
            None => "<GameNode root>".to_owned(),
        }
    }
}
