//! A position the analysis board sends, checked by the rules core: the
//! FEN read as a diagram (`xiangqi_core::Diagram`), what makes it no
//! position (`Diagram::problems`, each with a code and the words' args),
//! and the moves played from it. The one place the board's positions are
//! judged, for `POST /api/position` and the socket's `analyse` alike.

use serde_json::{json, Value};
use xiangqi_core::{Color, Diagram, FenError, Move, MoveList, Position, Validation};
use xiangqi_server_protocol::echo::quoted;

use crate::notation_setting::NotationSetting;

/// Moves a request may play from its start, at most (a long game's worth).
pub const MAX_MOVES: usize = 600;

/// A refused request: the protocol's code, English words, and what a
/// client's own words need.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    /// `bad_fen`, `illegal_position`, `bad_move`, `illegal_move`, `too_many_moves`.
    pub code: &'static str,
    /// For people.
    pub message: String,
    /// The args of the client's sentence.
    pub args: Option<Value>,
}

/// A start position and the moves played from it, all legal.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The start.
    pub start: Position,
    /// The moves.
    pub moves: Vec<Move>,
    /// The position after them.
    pub end: Position,
    /// The positions before each move, oldest first (the search's history).
    pub history: Vec<Position>,
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::Red => "red",
        Color::Black => "black",
    }
}

/// What a client's sentence for `problem` needs: its code and the sides,
/// pieces (lower-case FEN letters) and points (ICCS) it names.
pub fn problem_json(problem: &FenError) -> Value {
    let mut args = json!({ "problem": problem.kind_name() });
    let extra = match problem {
        FenError::TooLong { len } => json!({ "len": len }),
        FenError::WrongRankCount { found } => json!({ "found": found }),
        FenError::WrongRankWidth { rank, width } => json!({ "rank": rank, "width": width }),
        FenError::UnknownPiece { ch, rank } => json!({ "char": ch.to_string(), "rank": rank }),
        FenError::TooManyPieces {
            color,
            kind,
            count,
            max,
        } => json!({
            "color": color_name(*color),
            "piece": xiangqi_core::Piece::new(Color::Black, *kind).fen_char().to_string(),
            "count": count,
            "max": max,
        }),
        FenError::MissingGeneral(color) | FenError::OpponentInCheck(color) => {
            json!({ "color": color_name(*color) })
        }
        FenError::GeneralOutsidePalace { color, square } => {
            json!({ "color": color_name(*color), "square": square.to_string() })
        }
        FenError::UnreachableSquare { piece, square }
        | FenError::OutsideItsArea { piece, square } => {
            json!({
                "color": color_name(piece.color),
                "piece": piece.fen_char().to_ascii_lowercase().to_string(),
                "square": square.to_string(),
            })
        }
        _ => json!({}),
    };
    if let (Some(args), Value::Object(extra)) = (args.as_object_mut(), extra) {
        args.extend(extra);
    }
    args
}

/// Reads `fen` as a diagram: a refusal when it is no FEN at all.
pub fn read_diagram(fen: &str) -> Result<Diagram, Refusal> {
    Diagram::from_fen(fen).map_err(|e| Refusal {
        code: "bad_fen",
        message: e.to_string(),
        args: Some(problem_json(&e)),
    })
}

/// What makes `diagram` no position to play from (strict reading: every
/// piece on a point it can reach in play), empty when it is one.
pub fn problems(diagram: &Diagram) -> Vec<FenError> {
    diagram.problems(Validation::Strict)
}

/// Checks `fen` and `moves` (ICCS): the start, the moves and the end, or
/// the first thing wrong.
pub fn check(fen: &str, moves: &[String]) -> Result<Checked, Refusal> {
    if moves.len() > MAX_MOVES {
        return Err(Refusal {
            code: "too_many_moves",
            message: format!("{} moves, more than the {MAX_MOVES} allowed", moves.len()),
            args: Some(json!({ "max": MAX_MOVES })),
        });
    }
    let diagram = read_diagram(fen)?;
    let start = diagram.to_position(Validation::Strict).map_err(|_| {
        let first = problems(&diagram).into_iter().next();
        let message = first.as_ref().map_or_else(
            || "the position is not legal".to_string(),
            ToString::to_string,
        );
        Refusal {
            code: "illegal_position",
            message,
            args: first.as_ref().map(problem_json),
        }
    })?;
    let mut parsed = Vec::with_capacity(moves.len());
    for (index, text) in moves.iter().enumerate() {
        let mv: Move = text.parse().map_err(|_| Refusal {
            code: "bad_move",
            message: format!("move {} {} is not ICCS", index + 1, quoted(text)),
            args: None,
        })?;
        parsed.push(mv);
    }
    let (end, history) = start.replay(&parsed).map_err(|e| Refusal {
        code: "illegal_move",
        message: e.to_string(),
        args: Some(json!({ "ply": e.ply })),
    })?;
    Ok(Checked {
        start,
        moves: parsed,
        end,
        history,
    })
}

/// The legal moves of `position`, ICCS, in the generator's order.
pub fn legal_moves(position: &Position) -> Vec<String> {
    let mut list = MoveList::new();
    position.legal_moves(&mut list);
    list.iter().map(|m| m.to_string()).collect()
}

/// `moves` played from `start` in `notation`, one text per move.
pub fn line_text(start: &Position, moves: &[Move], notation: NotationSetting) -> Vec<String> {
    let mut position = start.clone();
    let mut texts = Vec::with_capacity(moves.len());
    for &mv in moves {
        texts.push(notation.move_text(&position, mv));
        if position.play(mv).is_err() {
            break;
        }
    }
    texts
}
