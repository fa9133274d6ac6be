//! # xiangqi (Python bindings)
//!
//! The compiled core of the `xiangqi` Python package (`xiangqi._xiangqi`),
//! built with maturin. The package's pure-Python parts (`xiangqi/__init__.py`,
//! `svg.py`, type stubs) live in `python/xiangqi`.
//!
//! One module per area: [`types`] (squares, pieces, moves), [`board`],
//! [`encoding`] (NumPy planes and policy indices); [`errors`] is the single
//! place where Rust errors become Python exceptions. Logic stays in the
//! workspace crates; this crate only translates.

mod accuracy;
mod board;
mod ecco;
mod encoding;
mod engine;
mod errors;
mod explorer;
mod game_tree;
mod legal_moves;
mod map_games;
mod nnue;
mod notation;
mod pgn;
mod pickle;
mod rating;
mod shard;
mod types;
mod verdict;

/// Xiangqi (Chinese chess) for Python, written in Rust.
#[pyo3::pymodule]
mod _xiangqi {
    use pyo3::prelude::*;

    #[pymodule_export]
    use crate::accuracy::{expected_score, game_accuracy, move_accuracy, wdl};
    #[pymodule_export]
    use crate::board::PyBoard;
    #[pymodule_export]
    use crate::ecco::{ecco_classify, ecco_codes, PyOpening};
    #[pymodule_export]
    use crate::encoding::{decode_move, encode_move, fens_to_numpy};
    #[pymodule_export]
    use crate::engine::{
        annotate, check_limit, PyAnalysis, PyEngineClient, PyEngineInfo, PyEngineResult,
        PyMoveReview, PyPovScore, PyScore,
    };
    #[pymodule_export]
    use crate::errors::{
        AmbiguousMoveError, EngineError, EngineProtocolError, EngineTerminatedError,
        EngineTimeoutError, IllegalMoveError, InvalidFenError, InvalidMoveError, PgnError,
    };
    #[pymodule_export]
    use crate::explorer::{build_explorer_file, open_explorer, ExplorerError, PyExplorer};
    #[pymodule_export]
    use crate::game_tree::PyGameNode;
    #[pymodule_export]
    use crate::legal_moves::PyLegalMoves;
    #[pymodule_export]
    use crate::map_games::{map_games, PyGameReport};
    #[pymodule_export]
    use crate::nnue::{nnue_generate, nnue_merge, nnue_relabel};
    #[pymodule_export]
    use crate::notation::detect_notation;
    #[pymodule_export]
    use crate::pgn::{read_games, PyGame, PyGameIterator};
    #[pymodule_export]
    use crate::rating::{rate, PyPlayerRating, PyRatings};
    #[pymodule_export]
    use crate::shard::{shards, PyShard};
    #[pymodule_export]
    use crate::types::{PyColor, PyMove, PyPiece, PyPieceKind, PySquare};
    #[pymodule_export]
    use crate::verdict::PyVerdict;

    #[pymodule_export]
    const STARTING_FEN: &str = crate::board::STARTING_FEN;
    #[pymodule_export]
    const MOVE_ENCODING_SIZE: usize = crate::encoding::MOVE_ENCODING_SIZE;

    #[pymodule_init]
    fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
        m.add("__version__", env!("CARGO_PKG_VERSION"))?;
        let notations: Vec<&str> = xiangqi_notation::Notation::ALL.map(|n| n.name()).to_vec();
        m.add("NOTATIONS", notations)?;
        let presets: Vec<&str> = xiangqi_adjudication::Preset::ALL.map(|p| p.name()).to_vec();
        m.add("RULE_SETS", presets)?;
        // Class defaults: a `PgnError` raised by Python code has the attributes too.
        let pgn_error = m.py().get_type::<crate::errors::PgnError>();
        for name in ["game", "line", "column", "offset", "message"] {
            pgn_error.setattr(name, m.py().None())?;
        }
        Ok(())
    }
}
