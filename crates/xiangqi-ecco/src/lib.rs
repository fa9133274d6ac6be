//! The ECCO opening classification (中国象棋开局分类编号, A00-E99): a
//! game's opening as its code, its Chinese name in simplified and
//! traditional characters, an English name in WXF terms, and the ply from
//! which the code no longer changes.
//!
//! The definitions are those of the published ECCO system as xqbase.com
//! gives them (docs/ecco.md: the source, how transposed move orders are
//! handled, and how our codes compare with a real database's tags). Only
//! games from the initial position have a code.
//!
//! ```
//! use xiangqi_ecco::classify_moves;
//! // 1. 炮二平五 马8进7 2. 马二进三 马2进3: the screen horses, decided by
//! // Black's second horse (ply 4).
//! let moves: Vec<_> = ["h2e2", "h9g7", "h0g2", "b9c7"].iter().map(|m| m.parse().unwrap()).collect();
//! let opening = classify_moves(&moves).unwrap().unwrap();
//! assert_eq!(opening.code, "C00");
//! assert_eq!(opening.name, "中炮对屏风马");
//! assert_eq!(opening.name_traditional, "中炮對屏風馬");
//! assert_eq!(opening.name_en, "Central Cannon vs Screen Horses");
//! assert_eq!(opening.ply, 4);
//! ```

mod codes;
mod line;
mod names;
mod rules;

use xiangqi_core::{Move, Position};
use xiangqi_gamefile::Game;

use crate::line::{Line, PLIES};

/// A game's opening in the ECCO classification.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Opening {
    /// The code, `A00` to `E99`.
    pub code: &'static str,
    /// The Chinese name in simplified characters, as published; a
    /// variation's name follows its opening's after `——`.
    pub name: &'static str,
    /// The Chinese name in traditional characters.
    pub name_traditional: String,
    /// The English name, in WXF terms.
    pub name_en: String,
    /// The number of plies after which the code no longer changes (the
    /// definitions read at most 20).
    pub ply: usize,
}

/// A code of the classification with its names.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Code {
    /// The code, `A00` to `E99`.
    pub code: &'static str,
    /// The Chinese name in simplified characters.
    pub name: &'static str,
    /// The Chinese name in traditional characters.
    pub name_traditional: String,
    /// The English name.
    pub name_en: String,
}

/// Why a move sequence cannot be classified.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EccoError {
    /// A move of the sequence cannot be played where it stands.
    #[error("move {ply} ({mv}) cannot be played there")]
    IllegalMove {
        /// Its ply, 1 for Red's first move.
        ply: usize,
        /// The move in ICCS.
        mv: String,
    },
}

/// Every code the classification defines, in order (260 of the 500 places
/// A00-E99; the others are left empty by the system).
pub fn codes() -> impl ExactSizeIterator<Item = Code> {
    codes::CODES.iter().map(|&(code, name)| Code {
        code,
        name,
        name_traditional: names::traditional(name),
        name_en: names::english(name),
    })
}

/// The names of `code` (`"C23"`), `None` for a code the system does not
/// define.
pub fn code(code: &str) -> Option<Code> {
    let code = code.trim().to_ascii_uppercase();
    codes().find(|c| c.code == code)
}

/// The opening of `moves` played from the initial position; `None` for no
/// move at all.
pub fn classify_moves(moves: &[Move]) -> Result<Option<Opening>, EccoError> {
    if moves.is_empty() {
        return Ok(None);
    }
    let line = Line::read(moves).map_err(|ply| EccoError::IllegalMove {
        ply: ply + 1,
        mv: moves[ply].to_string(),
    })?;
    let code = rules::classify(&line);
    let ply = settled_at(&line, code);
    Ok(Some(opening(code, ply)))
}

/// The opening of `moves` played from `start`: `None` when `start` is not
/// the initial position (placement and side to move) or there is no move.
pub fn classify(start: &Position, moves: &[Move]) -> Result<Option<Opening>, EccoError> {
    if !is_initial(start) {
        return Ok(None);
    }
    classify_moves(moves)
}

/// The opening of `game`'s main line; `None` for a game from another
/// position (or an unreadable `FEN` tag) and for a game without moves.
pub fn classify_game(game: &Game) -> Result<Option<Opening>, EccoError> {
    let Ok(start) = game.start_position() else {
        return Ok(None);
    };
    let moves: Vec<Move> = game.moves().take(PLIES).collect();
    classify(&start, &moves)
}

fn is_initial(position: &Position) -> bool {
    let initial = Position::startpos();
    position.side_to_move() == initial.side_to_move() && position.pieces().eq(initial.pieces())
}

/// The fewest plies from which every longer cut of `line` has `code`.
fn settled_at(line: &Line, code: &str) -> usize {
    let mut ply = line.len();
    while ply > 1 && rules::classify(&line.cut(ply - 1)) == code {
        ply -= 1;
    }
    ply
}

fn opening(code: &'static str, ply: usize) -> Opening {
    let name = codes::CODES
        .iter()
        .find(|(c, _)| *c == code)
        .map_or("", |(_, name)| name);
    Opening {
        code,
        name,
        name_traditional: names::traditional(name),
        name_en: names::english(name),
        ply,
    }
}
