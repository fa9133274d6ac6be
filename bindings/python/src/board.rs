//! `xiangqi.Board`: a position plus the stack of moves that led to it.

use std::hash::{DefaultHasher, Hash, Hasher};

use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use xiangqi_core::{Diagram, FenError, Move, MoveList, Position, Undo, Validation, START_FEN};

use crate::encoding;
use crate::errors::{int_arg, to_py, IllegalMoveError, InvalidFenError};
use crate::legal_moves::PyLegalMoves;
use crate::notation;
use crate::types::{Frozen, MoveArg, PyColor, PyMove, PyPiece, PyPieceKind, PySquare, SquareArg};
use crate::verdict::PyVerdict;

/// A xiangqi board: the position, and the moves played since it was set up.
///
/// `Board()` is the start position; `Board(fen)` any legal position
/// (`InvalidFenError` otherwise); `Board(fen, lenient=True)` also a composed
/// diagram's (soldiers behind their start, advisors or elephants off their
/// points). Moves are checked when pushed
/// (`IllegalMoveError`); `pop()` takes them back.
///
/// `Board.empty()`, `clear()`, `set_piece_at`, `remove_piece_at`,
/// `set_piece_map` and the `turn` setter edit the board by hand. While an
/// edit leaves something the rules cannot play from (no general, generals
/// facing, the side not to move in check), the board shows it (`fen()`,
/// `piece_at`, `pieces()`, `status()`) but every rule (legal moves, check,
/// `push`, `outcome`) raises `InvalidFenError` naming the problem.
///
/// Orderings that raise: `pop()` and `peek()` on an empty move stack
/// (`IndexError`); any rule on an edited board that is no position yet
/// (`InvalidFenError`); `push` of a move not legal here (`IllegalMoveError`).
#[pyclass(module = "xiangqi", name = "Board")]
#[derive(Clone)]
pub struct PyBoard {
    /// The position the board was set up with.
    root: Position,
    /// The current position (stale while `edited` holds a diagram).
    pos: Position,
    /// The moves played from `root`, with what undoes them.
    stack: Vec<(Move, Undo)>,
    /// A hand-edited board that is no position the rules can play from.
    edited: Option<Diagram>,
}

impl PyBoard {
    pub fn from_position(pos: Position) -> Self {
        PyBoard {
            root: pos.clone(),
            pos,
            stack: Vec::new(),
            edited: None,
        }
    }

    /// The current position; an error while the board is edited into
    /// something the rules cannot play from.
    pub fn position(&self) -> PyResult<&Position> {
        match &self.edited {
            None => Ok(&self.pos),
            Some(diagram) => Err(not_playable(diagram)),
        }
    }

    /// The board as pieces on points, whether or not the rules can play it.
    fn diagram(&self) -> Diagram {
        match &self.edited {
            None => Diagram::from(&self.pos),
            Some(diagram) => diagram.clone(),
        }
    }

    /// Applies a hand edit. The edited board is the new root (the move
    /// stack goes: replaying it from an edited board means nothing); it is
    /// playable when the core's lenient checks accept it.
    fn edit<R>(&mut self, change: impl FnOnce(&mut Diagram) -> R) -> R {
        let mut diagram = self.diagram();
        let out = change(&mut diagram);
        *self = board_of(diagram);
        out
    }

    /// The moves played since the root position.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.stack.iter().map(|(mv, _)| *mv)
    }

    /// The position the board was set up with. Meaningless while the board
    /// is edited into something the rules cannot play from: callers ask
    /// `position()` (or a rule that does) first.
    pub fn root_position(&self) -> &Position {
        &self.root
    }

    /// Plays a move already known to be legal.
    pub fn push_legal(&mut self, mv: Move) {
        let undo = self.pos.make_move(mv);
        self.stack.push((mv, undo));
    }

    /// Plays `mv` after checking it.
    pub fn push_checked(&mut self, mv: Move) -> PyResult<()> {
        self.position()?;
        let undo = self.pos.play(mv).map_err(to_py)?;
        self.stack.push((mv, undo));
        Ok(())
    }

    /// The legal moves here (an error on a board that is no position).
    pub fn legal_list(&self) -> PyResult<MoveList> {
        let mut list = MoveList::new();
        self.position()?.legal_moves(&mut list);
        Ok(list)
    }

    fn stack_text(&self) -> String {
        let mut text = String::with_capacity(self.stack.len() * 5);
        for (i, (mv, _)) in self.stack.iter().enumerate() {
            if i > 0 {
                text.push(' ');
            }
            text.push_str(&mv.to_string());
        }
        text
    }
}

/// A FEN read strictly, or leniently (`Validation::Lenient`).
fn read_fen(text: &str, lenient: bool) -> PyResult<Position> {
    Position::from_fen_with(text, validation(lenient)).map_err(to_py)
}

/// The board a diagram makes: a position when the core's lenient checks
/// accept it, else an edited board that shows but does not play.
fn board_of(diagram: Diagram) -> PyBoard {
    match diagram.to_position(Validation::Lenient) {
        Ok(position) => PyBoard::from_position(position),
        Err(_) => {
            let mut board = PyBoard::from_position(Position::startpos());
            board.edited = Some(diagram);
            board
        }
    }
}

/// A problem's text without the FEN reader's "invalid FEN: " lead.
fn problem_text(problem: &FenError) -> String {
    let text = problem.to_string();
    match text.strip_prefix("invalid FEN: ") {
        Some(rest) => rest.to_owned(),
        None => text,
    }
}

/// The error of a rule asked of a board that is no position.
fn not_playable(diagram: &Diagram) -> PyErr {
    let problems: Vec<String> = diagram
        .problems(Validation::Lenient)
        .iter()
        .map(problem_text)
        .collect();
    InvalidFenError::new_err(format!(
        "the board is no position the rules can play from ({}); edit it further, see Board.status()",
        problems.join("; ")
    ))
}

fn validation(lenient: bool) -> Validation {
    if lenient {
        Validation::Lenient
    } else {
        Validation::Strict
    }
}

fn moves_to_py(list: &[Move]) -> Vec<PyMove> {
    list.iter().copied().map(PyMove).collect()
}

#[pymethods]
impl PyBoard {
    #[new]
    #[pyo3(signature = (fen = None, lenient = false))]
    fn new(fen: Option<&str>, lenient: bool) -> PyResult<Self> {
        let pos = match fen {
            None => Position::startpos(),
            Some(text) => read_fen(text, lenient)?,
        };
        Ok(PyBoard::from_position(pos))
    }

    /// The legal moves, as a live view (python-chess's `LegalMoveGenerator`):
    /// `len()` / `count()`, `in` with a `Move` or ICCS text, iteration,
    /// `bool`, and indexing; it follows the board as moves are pushed.
    #[getter]
    fn legal_moves(slf: Py<Self>) -> PyLegalMoves {
        PyLegalMoves::new(slf)
    }

    /// The legal captures in this position.
    fn legal_captures(&self) -> PyResult<Vec<PyMove>> {
        let mut list = MoveList::new();
        self.position()?.legal_captures(&mut list);
        Ok(moves_to_py(list.as_slice()))
    }

    /// The legal moves of the piece on `square` (empty if there is none of the side to move).
    fn legal_moves_from(&self, square: SquareArg) -> PyResult<Vec<PyMove>> {
        let mut list = MoveList::new();
        self.position()?.legal_moves_from(square.0, &mut list);
        Ok(moves_to_py(list.as_slice()))
    }

    /// True when `move` (a `Move` or ICCS text) is legal here.
    fn is_legal(&self, r#move: MoveArg) -> PyResult<bool> {
        Ok(self.position()?.is_legal(r#move.0))
    }

    /// True when the legal `move` would capture a piece. Raises `IllegalMoveError` if it is not legal.
    fn is_capture(&self, r#move: MoveArg) -> PyResult<bool> {
        let pos = self.position()?;
        pos.check_legal(r#move.0).map_err(to_py)?;
        Ok(pos.piece_at(r#move.0.to()).is_some())
    }

    /// True when the legal `move` would give check. Raises `IllegalMoveError` if it is not legal.
    fn gives_check(&self, r#move: MoveArg) -> PyResult<bool> {
        let pos = self.position()?;
        pos.check_legal(r#move.0).map_err(to_py)?;
        Ok(pos.gives_check(r#move.0))
    }

    /// Plays `move` (a `Move` or ICCS text). Raises `IllegalMoveError` if it is not legal here.
    fn push(&mut self, r#move: MoveArg) -> PyResult<()> {
        self.push_checked(r#move.0)
    }

    /// Plays a move given as ICCS text (`h2e2`, `H2-E2`) and returns it.
    /// Raises `InvalidMoveError` for bad text, `IllegalMoveError` for an illegal move.
    fn push_iccs(&mut self, text: &str) -> PyResult<PyMove> {
        let mv: Move = text.parse().map_err(to_py)?;
        self.push_checked(mv)?;
        Ok(PyMove(mv))
    }

    /// Takes back the last move and returns it. Raises `IndexError` when no move was played.
    fn pop(&mut self) -> PyResult<PyMove> {
        let (mv, undo) = self
            .stack
            .pop()
            .ok_or_else(|| PyIndexError::new_err("pop from an empty move stack"))?;
        self.pos.unmake_move(mv, undo);
        Ok(PyMove(mv))
    }

    /// The last move played. Raises `IndexError` when no move was played.
    fn peek(&self) -> PyResult<PyMove> {
        self.stack
            .last()
            .map(|(mv, _)| PyMove(*mv))
            .ok_or_else(|| PyIndexError::new_err("peek at an empty move stack"))
    }

    /// The moves played since the board was set up, oldest first, as a
    /// tuple (a copy, so read-only: `push` and `pop` change the stack).
    #[getter]
    fn move_stack(&self) -> Frozen<PyMove> {
        self.stack.iter().map(|(mv, _)| PyMove(*mv)).collect()
    }

    /// The text of the legal `move` in `notation` (`"wxf"` by default,
    /// `"chinese"`, `"vietnamese"` or `"iccs"`), styled by the `**style`
    /// keywords of the guide's Notation section (`xiangqi.GUIDE`; e.g. `simplified=False`, `wxf_convention="fsf"`).
    /// Raises `IllegalMoveError` for a move that is not legal here.
    #[pyo3(signature = (r#move, notation = "wxf", **style))]
    fn san(
        &self,
        r#move: MoveArg,
        notation: &str,
        style: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<String> {
        let notation = notation::fixed_notation(notation)?;
        let style = notation::style(style)?;
        xiangqi_notation::format(self.position()?, r#move.0, notation, &style).map_err(to_py)
    }

    /// The texts of `moves` played one after another from this position.
    #[pyo3(signature = (moves, notation = "wxf", **style))]
    fn variation_san(
        &self,
        moves: Vec<MoveArg>,
        notation: &str,
        style: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Vec<String>> {
        let notation = notation::fixed_notation(notation)?;
        let style = notation::style(style)?;
        let mut pos = self.position()?.clone();
        let mut out = Vec::with_capacity(moves.len());
        for mv in moves {
            out.push(xiangqi_notation::format(&pos, mv.0, notation, &style).map_err(to_py)?);
            pos.play(mv.0).map_err(to_py)?;
        }
        Ok(out)
    }

    /// The legal move that `text` names, in any notation (`notation="auto"`
    /// detects it) or the one given. Raises `InvalidMoveError` (unreadable),
    /// `IllegalMoveError` (no such legal move) or `AmbiguousMoveError`.
    #[pyo3(signature = (text, notation = "auto", **style))]
    fn parse_move(
        &self,
        text: &str,
        notation: &str,
        style: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyMove> {
        let notation = notation::notation(notation, true)?;
        let style = notation::style(style)?;
        xiangqi_notation::parse_with(self.position()?, text, notation, &style)
            .map(PyMove)
            .map_err(to_py)
    }

    /// Reads `text` like `parse_move`, plays it and returns the move.
    #[pyo3(signature = (text, notation = "auto", **style))]
    fn push_text(
        &mut self,
        text: &str,
        notation: &str,
        style: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyMove> {
        let mv = self.parse_move(text, notation, style)?;
        self.push_legal(mv.0);
        Ok(mv)
    }

    /// The verdict of the game played on this board (from its root position,
    /// through the move stack) under the rule set `rules` (`"online"`,
    /// `"asian"`, `"pikafish"`, `"fairy"` or `"plain"`): checkmate,
    /// stalemate, repetition with perpetual check/chase, the no-capture rule,
    /// insufficient material. `None` while the game goes on, as in
    /// python-chess. If the game ended before the last move, the verdict at
    /// that point is returned (its `ply` says when). `claim_draw` is
    /// python-chess's flag: under every rule set a draw ends the game at
    /// once, no claim needed (rules.md R-REP-COUNT, R-DRAW-NOCAPTURE,
    /// R-DRAW-MATERIAL), so there is nothing more to claim and the answer is
    /// the same either way.
    #[pyo3(signature = (rules = "online", *, claim_draw = false))]
    pub fn outcome(
        &self,
        py: Python<'_>,
        rules: &str,
        claim_draw: bool,
    ) -> PyResult<Option<PyVerdict>> {
        // Every draw of our rules is automatic: claiming adds none (see above).
        let _ = claim_draw;
        self.position()?;
        let root = self.root.clone();
        let verdict = crate::verdict::adjudicate(py, root, self.moves().collect(), rules)?;
        Ok(verdict.0.is_over().then_some(verdict))
    }

    /// The FEN of the current position (of the board as edited, when it
    /// is no position yet).
    fn fen(&self) -> String {
        match &self.edited {
            None => self.pos.to_fen(),
            Some(diagram) => diagram.to_fen(),
        }
    }

    /// Sets up the position `fen` (read leniently with `lenient=True`) and
    /// clears the move stack.
    #[pyo3(signature = (fen, lenient = false))]
    fn set_fen(&mut self, fen: &str, lenient: bool) -> PyResult<()> {
        *self = PyBoard::from_position(read_fen(fen, lenient)?);
        Ok(())
    }

    /// A board at the position the board was set up with, without the moves.
    fn root(&self) -> PyBoard {
        match &self.edited {
            None => PyBoard::from_position(self.root.clone()),
            Some(_) => self.clone(),
        }
    }

    /// The side to move. Setting it is an edit (see `set_piece_at`).
    #[getter]
    fn turn(&self) -> PyColor {
        match &self.edited {
            None => self.pos.side_to_move().into(),
            Some(diagram) => diagram.side_to_move().into(),
        }
    }

    #[setter]
    fn set_turn(&mut self, color: PyColor) {
        self.edit(|diagram| diagram.set_side_to_move(color.into()));
    }

    /// An empty board, Red to move: no position until both generals stand
    /// (see `set_piece_at`).
    #[staticmethod]
    fn empty() -> PyBoard {
        board_of(Diagram::empty())
    }

    /// Takes every piece off, gives Red the move and resets the counters and
    /// the move stack.
    fn clear(&mut self) {
        *self = board_of(Diagram::empty());
    }

    /// Puts `piece` on `square` (`None` empties it). An edit starts the
    /// board anew from the edited position: the move stack is cleared. The
    /// board plays again once the core's checks accept it; until then
    /// `status()` says what is missing.
    fn set_piece_at(&mut self, square: SquareArg, piece: Option<PyPiece>) {
        self.edit(|diagram| diagram.set_piece_at(square.0, piece.map(|p| p.0)));
    }

    /// Takes the piece off `square` and returns it (`None` if it was empty).
    /// An edit, as `set_piece_at`.
    fn remove_piece_at(&mut self, square: SquareArg) -> Option<PyPiece> {
        self.edit(|diagram| diagram.set_piece_at(square.0, None))
            .map(PyPiece)
    }

    /// The pieces as a dict `{Square: Piece}` in square order (python-chess's
    /// name for `pieces()`).
    fn piece_map<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.pieces(py, None, None)
    }

    /// Replaces every piece with those of `pieces` (`{Square or name: Piece}`);
    /// the side to move stays. An edit, as `set_piece_at`.
    fn set_piece_map(&mut self, pieces: &Bound<'_, PyAny>) -> PyResult<()> {
        // Read every pair first: a bad one leaves the board as it was.
        let pieces = pieces
            .call_method0("items")?
            .try_iter()?
            .map(|item| item?.extract::<(SquareArg, PyPiece)>())
            .collect::<PyResult<Vec<_>>>()?;
        self.edit(|diagram| {
            let side = diagram.side_to_move();
            *diagram = Diagram::empty();
            diagram.set_side_to_move(side);
            for (square, piece) in pieces {
                diagram.set_piece_at(square.0, Some(piece.0));
            }
        });
        Ok(())
    }

    /// What keeps the board from being a position, as `Status` flags:
    /// `Status.VALID` (0) when there is nothing. Strict by default (every
    /// advisor, elephant and soldier on a point it can reach);
    /// `lenient=True` as `Board(fen, lenient=True)` reads.
    #[pyo3(signature = (*, lenient = false))]
    fn status<'py>(&self, py: Python<'py>, lenient: bool) -> PyResult<Bound<'py, PyAny>> {
        let status = py.import("xiangqi._status")?.getattr("Status")?;
        let mut flags = status.call1((0,))?;
        for problem in self.diagram().problems(validation(lenient)) {
            let flag = status.getattr(problem.kind_name().to_ascii_uppercase())?;
            flags = flags.call_method1("__or__", (flag,))?;
        }
        Ok(flags)
    }

    /// The problems `status()` flags, each said in words.
    #[pyo3(signature = (*, lenient = false))]
    fn problems(&self, lenient: bool) -> Vec<String> {
        self.diagram()
            .problems(validation(lenient))
            .iter()
            .map(problem_text)
            .collect()
    }

    /// True when `status()` finds nothing: a position the rules can play
    /// from (strictly by default, as `Board(fen)` reads).
    #[pyo3(signature = (*, lenient = false))]
    fn is_valid(&self, lenient: bool) -> bool {
        self.diagram().is_valid(validation(lenient))
    }

    /// Plies since the last capture (FEN field 5).
    #[getter]
    fn halfmove_clock(&self) -> u32 {
        match &self.edited {
            None => self.pos.halfmove_clock(),
            Some(diagram) => diagram.halfmove_clock(),
        }
    }

    /// The move number, starting at 1 and growing after each Black move (FEN field 6).
    #[getter]
    fn fullmove_number(&self) -> u32 {
        match &self.edited {
            None => self.pos.fullmove_number(),
            Some(diagram) => diagram.fullmove_number(),
        }
    }

    /// The piece on `square`, or `None`.
    fn piece_at(&self, square: SquareArg) -> Option<PyPiece> {
        match &self.edited {
            None => self.pos.piece_at(square.0),
            Some(diagram) => diagram.piece_at(square.0),
        }
        .map(PyPiece)
    }

    /// The pieces on the board as a dict `{Square: Piece}` in square order,
    /// optionally only those of one `color` and/or `kind`.
    #[pyo3(signature = (color = None, kind = None))]
    fn pieces<'py>(
        &self,
        py: Python<'py>,
        color: Option<PyColor>,
        kind: Option<PyPieceKind>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (sq, piece) in self.diagram().pieces() {
            if color.is_some_and(|c| piece.color != c.into())
                || kind.is_some_and(|k| piece.kind != k.into())
            {
                continue;
            }
            dict.set_item(PySquare(sq), PyPiece(piece))?;
        }
        Ok(dict)
    }

    /// The square of `color`'s general.
    fn general(&self, color: PyColor) -> PyResult<PySquare> {
        Ok(PySquare(self.position()?.general(color.into())))
    }

    /// True when the side to move is in check.
    fn is_check(&self) -> PyResult<bool> {
        Ok(self.position()?.is_check())
    }

    /// The squares of the pieces giving check to the side to move.
    fn checkers(&self) -> PyResult<Vec<PySquare>> {
        Ok(self.position()?.checkers().iter().map(PySquare).collect())
    }

    /// The squares of `color`'s pieces that attack `square` (ignoring pins).
    fn attackers(&self, color: PyColor, square: SquareArg) -> PyResult<Vec<PySquare>> {
        Ok(self
            .position()?
            .attackers(square.0, color.into())
            .iter()
            .map(PySquare)
            .collect())
    }

    /// True when `color` attacks `square` (ignoring pins).
    fn is_attacked_by(&self, color: PyColor, square: SquareArg) -> PyResult<bool> {
        Ok(self.position()?.is_attacked(square.0, color.into()))
    }

    /// True when the side to move is in check and has no legal move (it has lost).
    fn is_checkmate(&self) -> PyResult<bool> {
        Ok(self.position()?.is_checkmate())
    }

    /// True when the side to move is not in check but has no legal move (it has lost too).
    fn is_stalemate(&self) -> PyResult<bool> {
        Ok(self.position()?.is_stalemate())
    }

    /// True when the game has ended under `rules`: exactly when `outcome()`
    /// is not `None` (mate, stalemate, repetition with perpetual check or
    /// chase, the no-capture rule, dead material). `claim_draw` as for
    /// `outcome()`. `not board.legal_moves` asks "no legal move" alone.
    #[pyo3(signature = (rules = "online", *, claim_draw = false))]
    fn is_game_over(&self, py: Python<'_>, rules: &str, claim_draw: bool) -> PyResult<bool> {
        Ok(self.outcome(py, rules, claim_draw)?.is_some())
    }

    /// Counts the leaf nodes of the legal move tree `depth` plies deep
    /// (0-10). The GIL is released while counting, and Ctrl-C stops it
    /// between two root moves (`KeyboardInterrupt`).
    fn perft(&self, py: Python<'_>, depth: &Bound<'_, PyAny>) -> PyResult<u64> {
        let depth = int_arg(depth, "depth")?;
        let depth = u32::try_from(depth)
            .ok()
            .filter(|d| *d <= 10)
            .ok_or_else(|| PyValueError::new_err(format!("depth {depth} is not in 0 to 10")))?;
        let pos = self.position()?;
        if depth <= 1 {
            return Ok(xiangqi_core::perft(pos, depth));
        }
        let mut total = 0;
        for mv in self.legal_list()?.iter() {
            let mut child = pos.clone();
            child.make_move(*mv);
            total += py.detach(move || xiangqi_core::perft(&child, depth - 1));
            py.check_signals()?;
        }
        Ok(total)
    }

    /// A copy; with `stack=False` the copy starts at the current position with no moves.
    #[pyo3(signature = (*, stack = true))]
    fn copy(&self, stack: bool) -> PyBoard {
        if stack || self.edited.is_some() {
            self.clone()
        } else {
            PyBoard::from_position(self.pos.clone())
        }
    }

    fn __copy__(&self) -> PyBoard {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyBoard {
        self.clone()
    }

    /// The 64-bit Zobrist hash of the placement and the side to move.
    fn zobrist_hash(&self) -> PyResult<u64> {
        Ok(self.position()?.hash())
    }

    /// Boards are equal when their positions are (placement, side to move and
    /// both FEN counters); the move stacks are not compared.
    fn __eq__(&self, other: PyRef<'_, PyBoard>) -> bool {
        match (&self.edited, &other.edited) {
            (None, None) => self.pos == other.pos,
            _ => self.diagram() == other.diagram(),
        }
    }

    fn __hash__(&self) -> u64 {
        match &self.edited {
            None => self.pos.hash(),
            Some(diagram) => {
                let mut hasher = DefaultHasher::new();
                diagram.hash(&mut hasher);
                hasher.finish()
            }
        }
    }

    /// The float32 planes of shape (14, 10, 9): see the module docs.
    fn to_numpy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, numpy::PyArray3<f32>>> {
        Ok(encoding::planes_array(py, self.position()?))
    }

    /// A boolean array of length 2086, true at the policy index of each legal move.
    fn legal_move_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, numpy::PyArray1<bool>>> {
        Ok(encoding::legal_mask(py, self.position()?))
    }

    fn __str__(&self) -> String {
        match &self.edited {
            None => self.pos.to_string(),
            Some(diagram) => diagram.to_string(),
        }
    }

    fn __repr__(&self) -> String {
        format!("Board('{}')", self.fen())
    }

    /// The board as SVG, so Jupyter shows it as a picture.
    fn _repr_svg_(slf: &Bound<'_, Self>) -> PyResult<String> {
        let py = slf.py();
        let svg = py.import("xiangqi.svg")?;
        let kwargs = PyDict::new(py);
        if let Some((mv, _)) = slf.borrow().stack.last() {
            kwargs.set_item("lastmove", PyMove(*mv))?;
        }
        kwargs.set_item("size", 400)?;
        svg.getattr("board")?
            .call((slf,), Some(&kwargs))?
            .str()
            .map(|s| s.to_string())
    }

    /// Pickles as the root FEN plus the moves, so the move stack survives.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let this = slf.borrow();
        if this.edited.is_some() {
            let rebuild = py.get_type::<PyBoard>().getattr("_from_diagram")?;
            return (rebuild, (this.fen(),)).into_pyobject(py);
        }
        (
            py.get_type::<PyBoard>(),
            // Lenient: it reads back every position a board can hold.
            (this.root.to_fen(), true),
            this.stack_text(),
        )
            .into_pyobject(py)
    }

    /// The board a FEN shows, played or not: what `__reduce__` of an edited
    /// board unpickles with.
    #[staticmethod]
    fn _from_diagram(fen: &str) -> PyResult<PyBoard> {
        Ok(board_of(Diagram::from_fen(fen).map_err(to_py)?))
    }

    /// Replays the moves stored by `__reduce__` (ICCS, space separated).
    fn __setstate__(&mut self, state: &str) -> PyResult<()> {
        let mut board = PyBoard::from_position(self.root.clone());
        for text in state.split_ascii_whitespace() {
            let mv: Move = text.parse().map_err(to_py)?;
            board
                .push_checked(mv)
                .map_err(|e| IllegalMoveError::new_err(format!("cannot restore the board: {e}")))?;
        }
        *self = board;
        Ok(())
    }
}

/// The FEN of the start position.
pub const STARTING_FEN: &str = START_FEN;
