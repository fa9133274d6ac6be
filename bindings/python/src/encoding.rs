//! Numbers for machine learning: board planes and policy indices.
//!
//! * Planes: a `float32` array of shape `(14, 10, 9)` indexed
//!   `[plane, rank, file]`; plane `color * 7 + kind` (Red 0-6, Black 7-13,
//!   kinds in the order general, advisor, elephant, horse, chariot, cannon,
//!   soldier) holds 1.0 where such a piece stands. Absolute orientation: rank
//!   0 is Red's back rank whoever is to move.
//! * Policy indices: every (origin, destination) pair that some piece could
//!   ever play on an empty board -- a straight line along a rank or file
//!   (chariot, cannon, general, soldier, the flying general), a horse jump,
//!   an elephant step between elephant points, an advisor step inside a
//!   palace -- numbered 0..2086 in order of origin index, then destination
//!   index. 2086 is the usual size of a xiangqi policy head; every legal move
//!   of every position has an index.

use std::sync::OnceLock;

use numpy::ndarray::{Array3, Array4};
use numpy::{IntoPyArray, PyArray1, PyArray3, PyArray4};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use xiangqi_core::{Move, MoveList, Position, Square};

use crate::errors::int_arg;
use crate::types::{MoveArg, PyMove};

/// Planes per position: 7 kinds x 2 colours.
pub const PLANES: usize = 14;
/// Number of policy indices.
pub const MOVE_ENCODING_SIZE: usize = 2086;

const NONE: u16 = u16::MAX;

struct MoveTable {
    index: [[u16; 90]; 90],
    moves: Vec<Move>,
}

fn coords(sq: usize) -> (i32, i32) {
    ((sq % 9) as i32, (sq / 9) as i32)
}

fn is_elephant_point(file: i32, rank: i32) -> bool {
    let r = if rank >= 5 { 9 - rank } else { rank };
    matches!((file, r), (2 | 6, 0) | (0 | 4 | 8, 2) | (2 | 6, 4))
}

fn is_advisor_point(file: i32, rank: i32) -> bool {
    let r = if rank >= 5 { 9 - rank } else { rank };
    matches!((file, r), (3 | 5, 0) | (4, 1) | (3 | 5, 2))
}

/// Whether any piece could ever move from `from` to `to` (see the module doc).
fn geometrically_possible(from: usize, to: usize) -> bool {
    if from == to {
        return false;
    }
    let (f0, r0) = coords(from);
    let (f1, r1) = coords(to);
    let (df, dr) = ((f1 - f0).abs(), (r1 - r0).abs());
    let same_half = (r0 >= 5) == (r1 >= 5);
    (df == 0 || dr == 0)
        || (df == 1 && dr == 2 || df == 2 && dr == 1)
        || (df == 2
            && dr == 2
            && same_half
            && is_elephant_point(f0, r0)
            && is_elephant_point(f1, r1))
        || (df == 1 && dr == 1 && same_half && is_advisor_point(f0, r0) && is_advisor_point(f1, r1))
}

fn table() -> &'static MoveTable {
    static TABLE: OnceLock<MoveTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut index = [[NONE; 90]; 90];
        let mut moves = Vec::with_capacity(MOVE_ENCODING_SIZE);
        for (from, row) in index.iter_mut().enumerate() {
            for (to, slot) in row.iter_mut().enumerate() {
                if geometrically_possible(from, to) {
                    *slot = moves.len() as u16;
                    moves.push(Move::new(square(from), square(to)));
                }
            }
        }
        debug_assert_eq!(moves.len(), MOVE_ENCODING_SIZE);
        MoveTable { index, moves }
    })
}

fn square(index: usize) -> Square {
    Square::from_index(index as u8).expect("index below 90")
}

/// The policy index of `mv`, if some piece can ever make that move.
pub fn move_index(mv: Move) -> Option<usize> {
    let i = table().index[mv.from().index()][mv.to().index()];
    (i != NONE).then_some(i as usize)
}

/// Writes the 14x10x9 planes of `pos` into `out` (zeroed by the caller).
pub fn write_planes(pos: &Position, out: &mut [f32]) {
    for (sq, piece) in pos.pieces() {
        let plane = piece.color.index() * 7 + piece.kind.index();
        out[plane * 90 + sq.index()] = 1.0;
    }
}

/// `board.to_numpy()`.
pub fn planes_array<'py>(py: Python<'py>, pos: &Position) -> Bound<'py, PyArray3<f32>> {
    let mut data = vec![0f32; PLANES * 90];
    write_planes(pos, &mut data);
    Array3::from_shape_vec((PLANES, 10, 9), data)
        .expect("shape matches length")
        .into_pyarray(py)
}

/// `board.legal_move_mask()`: a boolean array over the policy indices.
pub fn legal_mask<'py>(py: Python<'py>, pos: &Position) -> Bound<'py, PyArray1<bool>> {
    let mut mask = vec![false; MOVE_ENCODING_SIZE];
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    for &mv in list.iter() {
        if let Some(i) = move_index(mv) {
            mask[i] = true;
        }
    }
    mask.into_pyarray(py)
}

/// The policy index (0..2086) of `move` (a `Move` or ICCS text). Raises
/// `ValueError` for a move no piece can ever make, such as `a0b5`.
#[pyfunction]
pub fn encode_move(r#move: MoveArg) -> PyResult<usize> {
    move_index(r#move.0).ok_or_else(|| {
        PyValueError::new_err(format!(
            "move {} has no policy index: no piece can ever move that way",
            r#move.0
        ))
    })
}

/// The `Move` with policy index `index` (0..2086); `ValueError` otherwise.
#[pyfunction]
pub fn decode_move(index: &Bound<'_, PyAny>) -> PyResult<PyMove> {
    let i = int_arg(index, "move index")?;
    usize::try_from(i)
        .ok()
        .and_then(|i| table().moves.get(i).copied())
        .map(PyMove)
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "move index {i} is not in 0 to {}",
                MOVE_ENCODING_SIZE - 1
            ))
        })
}

/// Stacks the planes of many FENs into one `float32` array of shape
/// `(len(fens), 14, 10, 9)`. Raises `InvalidFenError` naming the first bad entry.
#[pyfunction]
pub fn fens_to_numpy<'py>(
    py: Python<'py>,
    fens: Vec<String>,
) -> PyResult<Bound<'py, PyArray4<f32>>> {
    let n = fens.len();
    let data = py.detach(|| -> Result<Vec<f32>, (usize, xiangqi_core::FenError)> {
        let mut data = vec![0f32; n * PLANES * 90];
        for (i, fen) in fens.iter().enumerate() {
            let pos = Position::from_fen(fen).map_err(|e| (i, e))?;
            write_planes(&pos, &mut data[i * PLANES * 90..(i + 1) * PLANES * 90]);
        }
        Ok(data)
    });
    let data =
        data.map_err(|(i, e)| crate::errors::InvalidFenError::new_err(format!("fens[{i}]: {e}")))?;
    Ok(Array4::from_shape_vec((n, PLANES, 10, 9), data)
        .expect("shape matches length")
        .into_pyarray(py))
}
