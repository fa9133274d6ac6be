//! The small value types: `Color`, `PieceKind`, `Piece`, `Square`, `Move`.
//!
//! All are immutable, hashable and picklable. Wherever a square is expected,
//! Python code may pass a `Square`, its name (`"e0"`) or its index (0-89);
//! [`SquareArg`] does that conversion once for every function.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple, PyType};
use xiangqi_core as core;

use crate::errors::{int_arg, to_py, type_name};

/// The two sides. Red moves first.
#[pyclass(
    module = "xiangqi",
    name = "Color",
    eq,
    eq_int,
    hash,
    frozen,
    from_py_object
)]
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub enum PyColor {
    /// Red, whose pieces start on ranks 0-3.
    #[pyo3(name = "RED")]
    Red = 0,
    /// Black, whose pieces start on ranks 6-9.
    #[pyo3(name = "BLACK")]
    Black = 1,
}

impl From<core::Color> for PyColor {
    fn from(c: core::Color) -> Self {
        match c {
            core::Color::Red => PyColor::Red,
            core::Color::Black => PyColor::Black,
        }
    }
}

impl From<PyColor> for core::Color {
    fn from(c: PyColor) -> Self {
        match c {
            PyColor::Red => core::Color::Red,
            PyColor::Black => core::Color::Black,
        }
    }
}

#[pymethods]
impl PyColor {
    /// The other side (also `~color`).
    fn opposite(&self) -> PyColor {
        core::Color::from(*self).opposite().into()
    }

    fn __invert__(&self) -> PyColor {
        self.opposite()
    }

    /// `"red"` or `"black"`.
    fn __str__(&self) -> &'static str {
        core::Color::from(*self).name()
    }

    /// Reads `"red"`/`"black"` (any case) or the FEN letters `w`/`r`/`b`.
    #[staticmethod]
    fn parse(text: &str) -> PyResult<PyColor> {
        match text.to_ascii_lowercase().as_str() {
            "red" | "w" | "r" => Ok(PyColor::Red),
            "black" | "b" => Ok(PyColor::Black),
            _ => Err(PyValueError::new_err(format!(
                "invalid color {text:?}: expected 'red', 'black', 'w', 'r' or 'b'"
            ))),
        }
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        reduce_by_name(py, py.get_type::<PyColor>(), variant_name(self.__str__()))
    }
}

/// The seven kinds of piece.
#[pyclass(
    module = "xiangqi",
    name = "PieceKind",
    eq,
    eq_int,
    hash,
    frozen,
    from_py_object
)]
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub enum PyPieceKind {
    /// 帥/將 (king).
    #[pyo3(name = "GENERAL")]
    General = 0,
    /// 仕/士 (guard).
    #[pyo3(name = "ADVISOR")]
    Advisor = 1,
    /// 相/象 (minister, bishop).
    #[pyo3(name = "ELEPHANT")]
    Elephant = 2,
    /// 傌/馬 (knight).
    #[pyo3(name = "HORSE")]
    Horse = 3,
    /// 俥/車 (rook).
    #[pyo3(name = "CHARIOT")]
    Chariot = 4,
    /// 炮/砲.
    #[pyo3(name = "CANNON")]
    Cannon = 5,
    /// 兵/卒 (pawn).
    #[pyo3(name = "SOLDIER")]
    Soldier = 6,
}

impl From<core::PieceKind> for PyPieceKind {
    fn from(k: core::PieceKind) -> Self {
        match k {
            core::PieceKind::General => PyPieceKind::General,
            core::PieceKind::Advisor => PyPieceKind::Advisor,
            core::PieceKind::Elephant => PyPieceKind::Elephant,
            core::PieceKind::Horse => PyPieceKind::Horse,
            core::PieceKind::Chariot => PyPieceKind::Chariot,
            core::PieceKind::Cannon => PyPieceKind::Cannon,
            core::PieceKind::Soldier => PyPieceKind::Soldier,
        }
    }
}

impl From<PyPieceKind> for core::PieceKind {
    fn from(k: PyPieceKind) -> Self {
        core::PieceKind::ALL[k as usize]
    }
}

#[pymethods]
impl PyPieceKind {
    /// The upper-case FEN letter: `K A B N R C P`.
    fn symbol(&self) -> String {
        core::PieceKind::from(*self).fen_char().to_string()
    }

    /// The WXF letter: `K A E H R C P` (differs from FEN for elephant and horse).
    fn wxf_symbol(&self) -> String {
        core::PieceKind::from(*self).wxf_char().to_string()
    }

    /// The English name in lower case, e.g. `"chariot"`.
    fn __str__(&self) -> &'static str {
        core::PieceKind::from(*self).name()
    }

    /// Reads a FEN or WXF letter (`B`/`E` elephant, `N`/`H` horse, any case)
    /// or an English name (`"chariot"`, also `"king"`, `"rook"`, ...).
    #[staticmethod]
    fn parse(text: &str) -> PyResult<PyPieceKind> {
        let lower = text.to_ascii_lowercase();
        let by_name = match lower.as_str() {
            "general" | "king" => Some(core::PieceKind::General),
            "advisor" | "guard" => Some(core::PieceKind::Advisor),
            "elephant" | "bishop" | "minister" => Some(core::PieceKind::Elephant),
            "horse" | "knight" => Some(core::PieceKind::Horse),
            "chariot" | "rook" => Some(core::PieceKind::Chariot),
            "cannon" => Some(core::PieceKind::Cannon),
            "soldier" | "pawn" => Some(core::PieceKind::Soldier),
            _ => None,
        };
        let mut chars = text.chars();
        let by_letter = match (chars.next(), chars.next()) {
            (Some(c), None) => core::PieceKind::from_letter(c),
            _ => None,
        };
        by_name.or(by_letter).map(Into::into).ok_or_else(|| {
            PyValueError::new_err(format!(
                "invalid piece kind {text:?}: expected a letter K A B/E N/H R C P or a name like 'chariot'"
            ))
        })
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        reduce_by_name(
            py,
            py.get_type::<PyPieceKind>(),
            variant_name(self.__str__()),
        )
    }
}

/// Python enum members are pickled as `getattr(cls, "NAME")`.
fn reduce_by_name<'py>(
    py: Python<'py>,
    cls: Bound<'py, PyType>,
    name: String,
) -> PyResult<Bound<'py, PyTuple>> {
    let getattr = py.import("builtins")?.getattr("getattr")?;
    (getattr, (cls, name)).into_pyobject(py)
}

fn variant_name(lower: &str) -> String {
    lower.to_ascii_uppercase()
}

/// A piece: a colour and a kind.
#[pyclass(module = "xiangqi", name = "Piece", eq, hash, frozen, from_py_object)]
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct PyPiece(pub core::Piece);

/// The characters printed on the discs, traditional forms (N-CN-PIECES).
fn chinese_char(piece: core::Piece, simplified: bool) -> char {
    use core::Color::{Black, Red};
    use core::PieceKind::*;
    match (piece.color, piece.kind, simplified) {
        (Red, General, false) => '帥',
        (Red, General, true) => '帅',
        (Black, General, false) => '將',
        (Black, General, true) => '将',
        (Red, Advisor, _) => '仕',
        (Black, Advisor, _) => '士',
        (Red, Elephant, _) => '相',
        (Black, Elephant, _) => '象',
        (Red, Horse, false) => '傌',
        (Black, Horse, false) => '馬',
        (_, Horse, true) => '马',
        (Red, Chariot, false) => '俥',
        (Black, Chariot, false) => '車',
        (_, Chariot, true) => '车',
        (Red, Cannon, _) => '炮',
        (Black, Cannon, false) => '砲',
        (Black, Cannon, true) => '炮',
        (Red, Soldier, _) => '兵',
        (Black, Soldier, _) => '卒',
    }
}

#[pymethods]
impl PyPiece {
    #[new]
    fn new(color: PyColor, kind: PyPieceKind) -> Self {
        PyPiece(core::Piece::new(color.into(), kind.into()))
    }

    /// Reads a FEN letter: upper case Red, lower case Black (`E`/`H` also accepted).
    #[staticmethod]
    fn from_symbol(symbol: &str) -> PyResult<PyPiece> {
        let mut chars = symbol.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => core::Piece::from_fen_char(c).map(PyPiece),
            _ => None,
        }
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "invalid piece symbol {symbol:?}: expected one of KABNRCP (Red) or kabnrcp (Black)"
            ))
        })
    }

    /// The side the piece belongs to.
    #[getter]
    fn color(&self) -> PyColor {
        self.0.color.into()
    }

    /// What kind of piece it is.
    #[getter]
    fn kind(&self) -> PyPieceKind {
        self.0.kind.into()
    }

    /// The FEN letter: upper case for Red, lower case for Black.
    fn symbol(&self) -> String {
        self.0.fen_char().to_string()
    }

    /// The Chinese character on the piece: 俥 for a Red chariot, 車 for a Black
    /// one; with `simplified=True` the simplified forms (车 for both).
    #[pyo3(signature = (*, simplified = false))]
    fn chinese(&self, simplified: bool) -> String {
        chinese_char(self.0, simplified).to_string()
    }

    /// `"red chariot"`.
    #[getter]
    fn name(&self) -> String {
        self.0.to_string()
    }

    fn __str__(&self) -> String {
        self.symbol()
    }

    fn __repr__(&self) -> String {
        format!("Piece.from_symbol('{}')", self.0.fen_char())
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let this = slf.get();
        (
            py.get_type::<PyPiece>(),
            (PyColor::from(this.0.color), PyPieceKind::from(this.0.kind)),
        )
            .into_pyobject(py)
    }
}

/// One of the 90 points of the board, named `a0` (Red's left corner) to
/// `i9`; the index is `rank * 9 + file`.
#[pyclass(
    module = "xiangqi",
    name = "Square",
    eq,
    ord,
    hash,
    frozen,
    from_py_object
)]
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PySquare(pub core::Square);

/// Anything Python code may pass where a square is expected: a `Square`,
/// its name or its index.
pub struct SquareArg(pub core::Square);

impl<'a, 'py> FromPyObject<'a, 'py> for SquareArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(sq) = obj.cast::<PySquare>() {
            return Ok(SquareArg(sq.get().0));
        }
        if let Ok(text) = obj.cast::<PyString>() {
            let text = text.to_cow()?;
            return text.parse().map(SquareArg).map_err(to_py);
        }
        if obj.is_instance_of::<pyo3::types::PyInt>() {
            let index = int_arg(&obj, "square index")?;
            return u8::try_from(index)
                .ok()
                .and_then(core::Square::from_index)
                .map(SquareArg)
                .ok_or_else(|| {
                    PyValueError::new_err(format!("square index {index} is not in 0 to 89"))
                });
        }
        Err(PyTypeError::new_err(format!(
            "expected a Square, a square name like 'e0' or an index 0-89, not {}",
            type_name(&obj)
        )))
    }
}

#[pymethods]
impl PySquare {
    /// `Square("e0")`, `Square(4)` or `Square(other_square)`.
    #[new]
    fn new(square: SquareArg) -> Self {
        PySquare(square.0)
    }

    /// The square on file index `file` (0 = a .. 8 = i) and rank `rank` (0-9).
    #[staticmethod]
    fn from_coords(file: &Bound<'_, PyAny>, rank: &Bound<'_, PyAny>) -> PyResult<PySquare> {
        let (f, r) = (int_arg(file, "file")?, int_arg(rank, "rank")?);
        u8::try_from(f)
            .ok()
            .zip(u8::try_from(r).ok())
            .and_then(|(f, r)| core::Square::from_coords(f, r))
            .map(PySquare)
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "no square at file {f}, rank {r}: files are 0-8, ranks 0-9"
                ))
            })
    }

    /// Index `rank * 9 + file`, 0-89 (also `int(square)`).
    #[getter]
    fn index(&self) -> usize {
        self.0.index()
    }

    /// File index, 0 (`a`) to 8 (`i`).
    #[getter]
    fn file(&self) -> u8 {
        self.0.file().index()
    }

    /// Rank, 0 (Red's back rank) to 9 (Black's).
    #[getter]
    fn rank(&self) -> u8 {
        self.0.rank().index()
    }

    /// The name, e.g. `"e0"`.
    #[getter]
    fn name(&self) -> String {
        self.0.to_string()
    }

    /// The square seen from the other side of the board (rank 9 - r).
    fn flip_ranks(&self) -> PySquare {
        PySquare(self.0.flip_ranks())
    }

    /// The mirror image across the centre file (file 8 - f).
    fn flip_files(&self) -> PySquare {
        PySquare(self.0.flip_files())
    }

    fn __int__(&self) -> usize {
        self.0.index()
    }

    fn __index__(&self) -> usize {
        self.0.index()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Square('{}')", self.0)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        (py.get_type::<PySquare>(), (slf.get().0.index(),)).into_pyobject(py)
    }
}

/// A move from one square to another. `str(move)` is its ICCS text, `h2e2`.
/// A `Move` says nothing about legality: ask a `Board`.
#[pyclass(module = "xiangqi", name = "Move", eq, hash, frozen, from_py_object)]
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct PyMove(pub core::Move);

#[pymethods]
impl PyMove {
    /// `Move(from_square, to_square)`; squares as `Square`, name or index.
    #[new]
    fn new(from_square: SquareArg, to_square: SquareArg) -> PyResult<Self> {
        if from_square.0 == to_square.0 {
            return Err(crate::errors::InvalidMoveError::new_err(format!(
                "invalid move: origin and destination are the same square {}",
                from_square.0
            )));
        }
        Ok(PyMove(core::Move::new(from_square.0, to_square.0)))
    }

    /// Reads ICCS text: `h2e2`, also `h2-e2` and `H2-E2`. Raises `InvalidMoveError`.
    #[staticmethod]
    fn from_iccs(text: &str) -> PyResult<PyMove> {
        text.parse().map(PyMove).map_err(to_py)
    }

    /// Reads coordinates with ranks numbered 1-10, as Fairy-Stockfish,
    /// pyffish and pychess write them (`h3e3` is ICCS `h2e2`; N-ICCS-RANKS10).
    /// A rank 0 is refused: that text is ICCS. Raises `InvalidMoveError`.
    #[staticmethod]
    fn from_ranks10(text: &str) -> PyResult<PyMove> {
        xiangqi_notation::parse_ranks10(text)
            .map(PyMove)
            .map_err(to_py)
    }

    /// The coordinates with ranks numbered 1-10, e.g. `"h3e3"` for `h2e2`.
    fn ranks10(&self) -> String {
        xiangqi_notation::format_ranks10(self.0)
    }

    /// The origin square.
    #[getter(from_square)]
    fn origin(&self) -> PySquare {
        PySquare(self.0.from())
    }

    /// The destination square.
    #[getter(to_square)]
    fn destination(&self) -> PySquare {
        PySquare(self.0.to())
    }

    /// The ICCS text, e.g. `"h2e2"` (same as `str(move)`).
    fn iccs(&self) -> String {
        self.0.to_string()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Move.from_iccs('{}')", self.0)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let mv = slf.get().0;
        (
            py.get_type::<PyMove>(),
            (mv.from().index(), mv.to().index()),
        )
            .into_pyobject(py)
    }
}

/// Anything Python code may pass where a move is expected: a `Move` or its ICCS text.
pub struct MoveArg(pub core::Move);

impl<'a, 'py> FromPyObject<'a, 'py> for MoveArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(mv) = obj.cast::<PyMove>() {
            return Ok(MoveArg(mv.get().0));
        }
        if let Ok(text) = obj.cast::<PyString>() {
            return text.to_cow()?.parse().map(MoveArg).map_err(to_py);
        }
        Err(PyTypeError::new_err(format!(
            "expected a Move or ICCS text like 'h2e2', not {}",
            type_name(&obj)
        )))
    }
}

/// A property's copy, handed to Python as a tuple: read-only, so an edit
/// raises instead of vanishing into a copy nobody keeps (issue 41).
pub struct Frozen<T>(pub Vec<T>);

impl<T> FromIterator<T> for Frozen<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        Frozen(iter.into_iter().collect())
    }
}

impl<'py, T: IntoPyObject<'py>> IntoPyObject<'py> for Frozen<T> {
    type Target = PyTuple;
    type Output = Bound<'py, PyTuple>;
    type Error = PyErr;

    fn into_pyobject(self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.0)
    }
}
