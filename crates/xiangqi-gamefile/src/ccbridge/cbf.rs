//! CBF: CCBridge's XML. `<ChineseChessRecord>` holds `<Head>` (text
//! fields, `FEN`, `RecordResult`) and `<MoveList>`: a root `<Move
//! value="00-00">` whose text is the opening comment, then one `<Move
//! value="XY-XY">` per move (file, then row from Black's side), its text
//! the comment after it.

use crate::{Game, Limits, Node};
use xiangqi_core::{Diagram, Move, Position, Square, Validation};

use crate::error::{ErrorKind, GameFileError};
use crate::xqf::finish_game;

/// Head fields and the PGN tags they become.
const FIELDS: [(&str, &str); 13] = [
    ("Name", "Title"),
    ("Contest", "Event"),
    ("Round", "Round"),
    ("Date", "Date"),
    ("Site", "Site"),
    ("Red", "Red"),
    ("RedTeam", "RedTeam"),
    ("RedRating", "RedElo"),
    ("Black", "Black"),
    ("BlackTeam", "BlackTeam"),
    ("BlackRating", "BlackElo"),
    ("Commentator", "Annotator"),
    ("ECCO", "ECCO"),
];

/// Reads a CBF document. Errors carry the 1-based line and column.
pub(crate) fn read_cbf(text: &str, limits: &Limits) -> Result<Game, (usize, usize, ErrorKind)> {
    let doc = roxmltree::Document::parse(text).map_err(|e| {
        let pos = e.pos();
        (
            pos.row as usize,
            pos.col as usize,
            ErrorKind::Xml(e.to_string()),
        )
    })?;
    let at = |node: roxmltree::Node<'_, '_>| {
        let pos = doc.text_pos_at(node.range().start);
        (pos.row as usize, pos.col as usize)
    };
    let root = doc.root_element();
    if root.tag_name().name() != "ChineseChessRecord" {
        let (line, column) = at(root);
        return Err((
            line,
            column,
            ErrorKind::Xml(format!(
                "root element <{}> is not <ChineseChessRecord>",
                root.tag_name().name()
            )),
        ));
    }
    let missing = |name: &str| (1, 1, ErrorKind::Xml(format!("no <{name}> element")));
    let head = child(root, "Head").ok_or_else(|| missing("Head"))?;
    let field = |name: &str| {
        child(head, name)
            .and_then(|n| n.text())
            .map(str::trim)
            .filter(|t| !t.is_empty())
    };
    let mut game = Game::default();
    for (name, tag) in FIELDS {
        if let Some(value) = field(name) {
            game.set_tag(tag, value);
        }
    }
    // A start that is a diagram no game can reach (both generals in
    // check): shown, its moves not read; the error where the FEN is.
    let mut diagram = None;
    let start = match child(head, "FEN") {
        Some(node) => match node.text().map(str::trim).filter(|t| !t.is_empty()) {
            Some(fen) => match Position::from_fen(fen) {
                Ok(start) => start,
                Err(e) => {
                    let (line, column) = at(node);
                    let Ok(shown) = Diagram::from_fen(fen) else {
                        return Err((line, column, ErrorKind::BadPosition(Box::new(e))));
                    };
                    let problem = shown.problems(Validation::Strict).into_iter().next();
                    diagram = Some((shown, line, column, problem.unwrap_or(e)));
                    // Never played: the moves are not read from a diagram.
                    Position::startpos()
                }
            },
            None => Position::startpos(),
        },
        None => Position::startpos(),
    };
    let mut moves_skipped = false;
    let result = super::result(
        field("RecordResult")
            .and_then(|r| r.parse().ok())
            .unwrap_or(0),
    );

    let moves = child(root, "MoveList").ok_or_else(|| missing("MoveList"))?;
    let mut position = start.clone();
    let comment =
        |node: roxmltree::Node<'_, '_>| -> Result<Option<String>, (usize, usize, ErrorKind)> {
            let text: String = node.children().filter_map(|c| c.text()).collect();
            let text = text.trim();
            if text.len() > limits.max_comment_len {
                let (line, column) = at(node);
                return Err((
                    line,
                    column,
                    ErrorKind::CommentTooLong(limits.max_comment_len),
                ));
            }
            Ok((!text.is_empty()).then(|| text.to_owned()))
        };
    for (i, node) in moves
        .children()
        .filter(|n| n.is_element() && n.tag_name().name() == "Move")
        .enumerate()
    {
        let value = node.attribute("value").unwrap_or("");
        if i == 0 && value == "00-00" {
            game.mainline.comments.extend(comment(node)?);
            continue;
        }
        if diagram.is_some() {
            moves_skipped = true;
            break;
        }
        let (line, column) = at(node);
        if game.mainline.moves.len() >= limits.max_moves_per_game {
            return Err((
                line,
                column,
                ErrorKind::TooManyMoves(limits.max_moves_per_game),
            ));
        }
        // A move that cannot be read or played ends the line (the format
        // has no variations): the game keeps the moves before it.
        let ply = game.mainline.moves.len() + 1;
        let played = match parse_move(value) {
            None => Err(ErrorKind::BadMoveValue(value.to_owned())),
            Some(mv) => position
                .play(mv)
                .map(|_| mv)
                .map_err(|error| ErrorKind::IllegalMove { ply, error }),
        };
        let mv = match played {
            Ok(mv) => mv,
            Err(kind) => {
                game.errors
                    .push(GameFileError::at_text(1, line, column, kind));
                break;
            }
        };
        let mut move_node = Node::new(mv);
        if let Some(text) = comment(node)? {
            move_node.comments_mut().push(text);
        }
        game.mainline.moves.push(move_node);
    }
    let start_fen = match diagram {
        Some((shown, line, column, error)) => {
            let kind = ErrorKind::InvalidDiagram {
                error: Box::new(error),
                moves_skipped,
            };
            game.errors
                .insert(0, GameFileError::at_text(1, line, column, kind));
            shown.to_fen()
        }
        None => start.to_fen(),
    };
    finish_game(&mut game, &start_fen, result);
    Ok(game)
}

/// The first child element of `parent` named `name`.
fn child<'a, 'input>(
    parent: roxmltree::Node<'a, 'input>,
    name: &str,
) -> Option<roxmltree::Node<'a, 'input>> {
    parent
        .children()
        .find(|n| n.is_element() && n.tag_name().name() == name)
}

/// `XY-XY`: file digit, row digit from Black's side.
fn parse_move(value: &str) -> Option<Move> {
    let b = value.as_bytes();
    if b.len() != 5 || b[2] != b'-' {
        return None;
    }
    let square = |file: u8, row: u8| {
        let (file, row) = (file.checked_sub(b'0')?, row.checked_sub(b'0')?);
        (row <= 9)
            .then(|| Square::from_coords(file, 9 - row))
            .flatten()
    };
    Some(Move::new(square(b[0], b[1])?, square(b[3], b[4])?))
}
