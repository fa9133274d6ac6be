//! A game record as the viewer's data: every position of the move tree as
//! one node in a flat list (the root is the start), each with its move in
//! every notation, the FEN after it, comments, NAGs and evaluation. The
//! viewer's script only walks this list: it knows no rules.

use serde::Serialize;
use xiangqi_core::{Color, Diagram, FenError, Move, Position, Validation};
use xiangqi_gamefile::pgn::{write_game, WriteOptions};
use xiangqi_gamefile::{Game, Line};
use xiangqi_notation::{format, ChineseStyle, MoveTextError, Notation, Style};

use crate::annotation::{read_commands, Eval};

/// The notations the viewer offers, by the names the server's notation
/// setting uses, in the order of the viewer's menu.
pub const NOTATIONS: [&str; 5] = [
    "coordinate",
    "wxf",
    "chinese",
    "chinese-traditional",
    "vietnamese",
];

/// Why a game cannot be shown.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ViewerError {
    /// The `FEN` tag is invalid.
    #[error("FEN tag: {0}")]
    Start(FenError),
    /// A move of the tree cannot be played (only a hand-built record has one).
    #[error("move {mv} after {fen} cannot be played: {reason}")]
    Move {
        /// The move.
        mv: Move,
        /// The position it was tried in.
        fen: String,
        /// What the core said.
        reason: String,
    },
}

/// One game as the viewer shows it.
#[derive(Clone, Debug, Serialize)]
pub struct ViewerGame {
    /// A short name: `Red vs Black`, with the event and date when known.
    pub title: String,
    /// Tag pairs in file order.
    pub tags: Vec<(String, String)>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// The game as PGN in ICCS, for "copy PGN".
    pub pgn: String,
    /// Whether any main-line node has an evaluation (the curve is drawn then).
    pub has_eval: bool,
    /// Each player's accuracy, 0 to 100, as an engine review recorded it
    /// in the game's tags.
    pub accuracy: PlayerAccuracy,
    /// Node 0 is the start position; the others are moves.
    pub nodes: Vec<ViewerNode>,
    /// What makes the start no position the rules can play from, when the
    /// game is a diagram no game can reach (a finished mate with both
    /// generals in check): the board is shown, with no move.
    pub invalid_start: Option<String>,
}

/// Red's and Black's accuracy; `None` for a side the record gives none.
#[derive(Copy, Clone, Debug, Default, PartialEq, Serialize)]
pub struct PlayerAccuracy {
    /// Red's.
    pub red: Option<f64>,
    /// Black's.
    pub black: Option<f64>,
}

/// A position of the tree: the start, or the one after a move.
#[derive(Clone, Debug, Serialize)]
pub struct ViewerNode {
    /// Its index in [`ViewerGame::nodes`].
    pub id: usize,
    /// `None` for the start.
    pub parent: Option<usize>,
    /// The moves played from here: the continuation of this node's line
    /// first, then the variations in their file order.
    pub children: Vec<usize>,
    /// On the game's main line (the start is).
    pub mainline: bool,
    /// Plies from the start position.
    pub ply: usize,
    /// The move number shown before the move (the FEN's full-move count).
    pub number: u32,
    /// Who made the move (`red`, `black`); for the start, who moves next.
    pub color: &'static str,
    /// The move in ICCS (`h2e2`); `None` for the start.
    #[serde(rename = "move")]
    pub iccs: Option<String>,
    /// The move in each of [`NOTATIONS`], in that order; empty for the start.
    pub text: Vec<String>,
    /// The position after the move.
    pub fen: String,
    /// Comments written before the move (a line's opening comments).
    pub before: Vec<String>,
    /// Comments after the move, without their `[%…]` commands.
    pub comments: Vec<String>,
    /// Numeric annotation glyphs (`1` for `!`, `2` for `?`, …).
    pub nags: Vec<u8>,
    /// The `[%eval]` of the position after the move, Red's view.
    pub eval: Option<Eval>,
    /// The `[%clk]` left after the move.
    pub clock: Option<String>,
    /// The first move of a line the engine proposed: a variation whose first
    /// move carries an `[%eval]` (how the annotator writes its better line).
    pub engine_line: bool,
    /// The ECCO opening of the moves from the start to here (`None` at the
    /// start and for a game from another position).
    pub opening: Option<NodeOpening>,
}

/// A node's opening in the ECCO classification (`xiangqi-ecco`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NodeOpening {
    /// The code (`C23`).
    pub code: &'static str,
    /// Its name for a reader of each of [`NOTATIONS`], in that order:
    /// English beside coordinate, WXF and Vietnamese moves, simplified or
    /// traditional Chinese beside Chinese moves.
    pub name: Vec<String>,
}

/// The opening of `moves` played from `start`, when it has one.
fn node_opening(start: &Position, moves: &[Move]) -> Option<NodeOpening> {
    let opening = xiangqi_ecco::classify(start, moves).ok()??;
    let english = opening.name_en.clone();
    Some(NodeOpening {
        code: opening.code,
        name: vec![
            english.clone(),
            english.clone(),
            opening.name.to_owned(),
            opening.name_traditional,
            english,
        ],
    })
}

/// The node of a game's start: no move, the board `fen`, the game's
/// opening comments.
fn start_node(game: &Game, number: u32, side: Color, fen: String) -> ViewerNode {
    ViewerNode {
        id: 0,
        parent: None,
        children: Vec::new(),
        mainline: true,
        ply: 0,
        number,
        color: color_name(side),
        iccs: None,
        text: Vec::new(),
        fen,
        before: Vec::new(),
        comments: read_commands(&game.mainline.comments).comments,
        nags: Vec::new(),
        eval: None,
        clock: None,
        engine_line: false,
        opening: None,
    }
}

/// The viewer's data of `game` whose tree is `nodes`.
fn game_of(game: &Game, nodes: Vec<ViewerNode>, invalid_start: Option<String>) -> ViewerGame {
    let has_eval = nodes
        .iter()
        .any(|node| node.mainline && node.eval.is_some());
    ViewerGame {
        title: title(game),
        tags: game.tags.clone(),
        result: game.outcome().as_str().to_owned(),
        // ICCS writes any legal move; a failure would be a tree the core rejected.
        pgn: write_game(game, &WriteOptions::new(Notation::Iccs)).unwrap_or_default(),
        has_eval,
        accuracy: PlayerAccuracy {
            red: game.recorded_accuracy(Color::Red),
            black: game.recorded_accuracy(Color::Black),
        },
        nodes,
        invalid_start,
    }
}

/// A game without moves whose start is a diagram and no position: one node,
/// the board as drawn, and what is wrong with it.
fn diagram_game(game: &Game, diagram: Diagram) -> ViewerGame {
    let problems = diagram.problems(Validation::Strict);
    let node = start_node(game, 1, diagram.side_to_move(), diagram.to_fen());
    let invalid_start = problems.first().map(|p| {
        let text = p.to_string();
        text.strip_prefix("invalid FEN: ")
            .unwrap_or(&text)
            .to_owned()
    });
    game_of(game, vec![node], invalid_start)
}

/// `game` as the viewer's data: every line of its tree replayed by the core.
///
/// ```
/// use xiangqi_gamefile::pgn::read_str;
/// let game = read_str("1. h2e2 {[%eval 0.30]} h9g7 (1... b9c7) *").next().unwrap().unwrap();
/// let view = xiangqi_viewer::viewer_game(&game).unwrap();
/// assert_eq!(view.nodes.len(), 4);
/// assert_eq!(view.nodes[1].children, [2, 3]); // h9g7, and b9c7 instead
/// assert_eq!(view.nodes[1].text[2], "炮二平五");
/// assert!(view.has_eval);
/// ```
pub fn viewer_game(game: &Game) -> Result<ViewerGame, ViewerError> {
    let start = match game.start_position() {
        Ok(start) => start,
        // A game without moves may be a diagram no game can reach: shown.
        Err(error) if game.mainline.moves.is_empty() => {
            return Ok(diagram_game(
                game,
                game.start_diagram()
                    .map_err(|_| ViewerError::Start(error))?,
            ));
        }
        Err(error) => return Err(ViewerError::Start(error)),
    };
    let root = start_node(
        game,
        start.fullmove_number(),
        start.side_to_move(),
        start.to_fen(),
    );
    let mut builder = Builder {
        nodes: vec![root],
        styles: notation_styles(),
        start: start.clone(),
        path: Vec::new(),
    };
    builder.add_line(&game.mainline, 0, &start, true, false)?;
    Ok(game_of(game, builder.nodes, None))
}

/// `Red vs Black (Event, Date)`, `?` for a missing name.
pub fn title(game: &Game) -> String {
    let name = |tag: &str| game.tag(tag).filter(|v| !v.is_empty()).unwrap_or("?");
    let mut title = format!("{} vs {}", name("Red"), name("Black"));
    let extra: Vec<&str> = ["Event", "Date"]
        .iter()
        .filter_map(|tag| game.tag(tag))
        .filter(|v| !v.is_empty() && !v.contains('?'))
        .collect();
    if !extra.is_empty() {
        title.push_str(&format!(" ({})", extra.join(", ")));
    }
    title
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::Red => "red",
        Color::Black => "black",
    }
}

/// The notation and style of each of [`NOTATIONS`].
fn notation_styles() -> Vec<(Notation, Style)> {
    let traditional = Style {
        chinese: ChineseStyle::traditional(),
        ..Style::default()
    };
    vec![
        (Notation::Iccs, Style::default()),
        (Notation::Wxf, Style::default()),
        (Notation::Chinese, Style::default()),
        (Notation::Chinese, traditional),
        (Notation::Vietnamese, Style::default()),
    ]
}

/// `mv`, legal in `before`, written in each of [`NOTATIONS`], in that order.
pub(crate) fn move_texts(before: &Position, mv: Move) -> Result<Vec<String>, MoveTextError> {
    texts_in(&notation_styles(), before, mv)
}

fn texts_in(
    styles: &[(Notation, Style)],
    before: &Position,
    mv: Move,
) -> Result<Vec<String>, MoveTextError> {
    styles
        .iter()
        .map(|(notation, style)| format(before, mv, *notation, style))
        .collect()
}

struct Builder {
    nodes: Vec<ViewerNode>,
    styles: Vec<(Notation, Style)>,
    /// The game's start, and the moves from it to the node being added.
    start: Position,
    path: Vec<Move>,
}

impl Builder {
    /// Adds `line`, played from node `from` whose position is `position`.
    fn add_line(
        &mut self,
        line: &Line,
        from: usize,
        position: &Position,
        mainline: bool,
        variation: bool,
    ) -> Result<(), ViewerError> {
        let mut parent = from;
        let mut before = position.clone();
        let depth = self.path.len();
        for (index, node) in line.moves.iter().enumerate() {
            let mv = node.mv;
            let mut after = before.clone();
            let text = texts_in(&self.styles, &before, mv)
                .map_err(|e| move_error(mv, &before, e.to_string()))?;
            after
                .play(mv)
                .map_err(|e| move_error(mv, &before, e.to_string()))?;
            let commands = read_commands(node.comments());
            let first = index == 0;
            self.path.push(mv);
            let opening = node_opening(&self.start, &self.path);
            let id = self.nodes.len();
            self.nodes.push(ViewerNode {
                id,
                parent: Some(parent),
                children: Vec::new(),
                mainline,
                ply: self.nodes[parent].ply + 1,
                number: before.fullmove_number(),
                color: color_name(before.side_to_move()),
                iccs: Some(mv.to_string()),
                text,
                fen: after.to_fen(),
                // The main line's opening comments are the start's (node 0).
                before: if first && variation {
                    read_commands(&line.comments).comments
                } else {
                    Vec::new()
                },
                engine_line: variation
                    && first
                    && node
                        .comments()
                        .first()
                        .is_some_and(|c| c.starts_with("[%eval ")),
                comments: commands.comments,
                nags: node.nags().to_vec(),
                eval: commands.eval,
                clock: commands.clock,
                opening,
            });
            self.nodes[parent].children.push(id);
            // The alternatives to this move hang from the same parent, after it.
            self.path.pop();
            for alternative in node.variations() {
                self.add_line(alternative, parent, &before, false, true)?;
            }
            self.path.push(mv);
            parent = id;
            before = after;
        }
        self.path.truncate(depth);
        Ok(())
    }
}

fn move_error(mv: Move, before: &Position, reason: String) -> ViewerError {
    ViewerError::Move {
        mv,
        fen: before.to_fen(),
        reason,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each node names the opening of the moves that lead to it, a
    /// variation's its own, in each notation's language; a game from a
    /// diagram names none.
    #[test]
    fn every_node_names_the_opening_of_its_moves() {
        let game = xiangqi_gamefile::pgn::read_str("1. h2e2 h9g7 2. h0g2 b9c7 (2... b7e7) *")
            .next()
            .unwrap()
            .unwrap();
        let view = viewer_game(&game).unwrap();
        let code = |id: usize| view.nodes[id].opening.as_ref().map(|o| o.code);
        assert_eq!(code(0), None);
        assert_eq!(code(1), Some("B00"));
        assert_eq!(code(2), Some("B05"));
        let after = view
            .nodes
            .iter()
            .find(|n| n.iccs.as_deref() == Some("b9c7"))
            .unwrap();
        let opening = after.opening.as_ref().unwrap();
        assert_eq!(opening.code, "C00");
        assert_eq!(
            opening.name,
            [
                "Central Cannon vs Screen Horses",
                "Central Cannon vs Screen Horses",
                "中炮对屏风马",
                "中炮對屏風馬",
                "Central Cannon vs Screen Horses"
            ]
        );
        let variation = view
            .nodes
            .iter()
            .find(|n| n.iccs.as_deref() == Some("b7e7"))
            .unwrap();
        assert_eq!(variation.opening.as_ref().unwrap().code, "D51");
        let page = crate::write_html(&[view], &crate::PageOptions::default());
        assert!(page.contains("xq-opening") && page.contains("中炮對屏風馬"));
        let diagram = xiangqi_gamefile::pgn::read_str(
            "[FEN \"4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1\"]\n\n1. d0d1 *",
        )
        .next()
        .unwrap()
        .unwrap();
        assert!(viewer_game(&diagram).unwrap().nodes[1].opening.is_none());
    }

    /// A manual's diagram of a finished mate, both generals in check: the
    /// viewer shows the board as drawn and says what is wrong; no move.
    #[test]
    fn a_diagram_no_game_can_reach_is_shown_with_its_problem() {
        let fen = "5ab2/4a4/1R1kb4/2N6/9/6B2/6n2/5K2B/4Ar3/3A5 w - - 0 1";
        let text = format!("[Title \"mate\"]\n[FEN \"{fen}\"]\n\n{{the end}} *\n");
        let game = xiangqi_gamefile::pgn::read_str(&text)
            .next()
            .unwrap()
            .unwrap();
        assert!(game.start_position().is_err());
        let view = viewer_game(&game).unwrap();
        assert_eq!(view.nodes.len(), 1);
        assert_eq!(view.nodes[0].fen, fen);
        assert_eq!(view.nodes[0].comments, ["the end"]);
        assert_eq!(
            view.invalid_start.as_deref(),
            Some("both generals are in check (R-LEGAL-POSITION)")
        );
        let page = crate::write_html(&[view], &crate::PageOptions::default());
        assert!(page.contains("both generals are in check"));
        assert!(page.contains("5ab2/4a4/1R1kb4"));
        // A valid game has no such note.
        let game = xiangqi_gamefile::pgn::read_str("1. h2e2 *")
            .next()
            .unwrap()
            .unwrap();
        assert_eq!(viewer_game(&game).unwrap().invalid_start, None);
        // Moves from such a start cannot be shown: a hand-built record.
        let mut game = game;
        game.set_tag("FEN", fen);
        assert!(matches!(viewer_game(&game), Err(ViewerError::Start(_))));
    }
    use xiangqi_gamefile::pgn::read_str;

    const ANNOTATED: &str = r#"[Event "Test"]
[Red "A"]
[Black "B"]

{Opening comment} 1. h2e2 {[%eval 0.30,10] the central cannon} h9g7 2. h0g2 i9h9
({A side line} 2... b9c7 3. i0h0 $1) 3. i0h0 {[%eval 0.25]} a9a8 $2
(3... h7h3 {[%eval 0.10]} 4. b0c2) 1-0
"#;

    fn game() -> Game {
        read_str(ANNOTATED).next().unwrap().unwrap()
    }

    /// Follows first children from the root: the main line's node ids.
    fn mainline_ids(view: &ViewerGame) -> Vec<usize> {
        let mut ids = vec![0];
        while let Some(&next) = view.nodes[*ids.last().unwrap()].children.first() {
            ids.push(next);
        }
        ids
    }

    #[test]
    fn the_main_line_fens_are_the_librarys() {
        let game = game();
        let view = viewer_game(&game).unwrap();
        let ids = mainline_ids(&view);
        let mut position = game.start_position().unwrap();
        assert_eq!(view.nodes[0].fen, position.to_fen());
        let moves: Vec<Move> = game.moves().collect();
        assert_eq!(ids.len(), moves.len() + 1);
        for (&id, &mv) in ids[1..].iter().zip(&moves) {
            position.play(mv).unwrap();
            let node = &view.nodes[id];
            assert!(node.mainline);
            assert_eq!(node.iccs.as_deref(), Some(mv.to_string().as_str()));
            assert_eq!(node.fen, position.to_fen(), "after {mv}");
        }
        assert_eq!(
            view.nodes[*ids.last().unwrap()].fen,
            game.final_position().unwrap().to_fen()
        );
    }

    #[test]
    fn a_variation_branches_from_the_position_before_its_move() {
        let game = game();
        let view = viewer_game(&game).unwrap();
        // 2... i9h9 and its alternative 2... b9c7 hang from 2. h0g2.
        let after_h0g2 = &view.nodes[mainline_ids(&view)[3]];
        assert_eq!(after_h0g2.children.len(), 2);
        let side = &view.nodes[after_h0g2.children[1]];
        assert_eq!(side.iccs.as_deref(), Some("b9c7"));
        assert!(!side.mainline && !side.engine_line);
        assert_eq!(side.before, ["A side line"]);
        let next = &view.nodes[side.children[0]];
        let position = Position::startpos()
            .after_moves(["h2e2", "h9g7", "h0g2", "b9c7", "i0h0"].map(|m| m.parse().unwrap()))
            .unwrap();
        assert_eq!(next.fen, position.to_fen());
        assert_eq!((next.ply, next.number, next.color), (5, 3, "red"));
        assert_eq!(next.nags, [1]);
    }

    #[test]
    fn texts_comments_and_evaluations() {
        let view = viewer_game(&game()).unwrap();
        assert_eq!(view.nodes[0].comments, ["Opening comment"]);
        let first = &view.nodes[1];
        assert_eq!(
            first.text,
            ["h2e2", "C2=5", "炮二平五", "炮二平五", "Pháo 2 bình 5"]
        );
        assert_eq!(first.comments, ["the central cannon"]);
        assert_eq!(first.eval.as_ref().unwrap().depth, Some(10));
        assert!(view.has_eval);
        let engine = view.nodes.iter().find(|n| n.engine_line).unwrap();
        assert_eq!(engine.iccs.as_deref(), Some("h7h3"));
        assert_eq!(view.title, "A vs B (Test)");
        assert_eq!(view.result, "1-0");
        assert!(view.pgn.contains("1. h2e2"));
        assert_eq!(view.accuracy, PlayerAccuracy::default());
    }

    #[test]
    fn accuracy_comes_from_the_review_tags() {
        let text = "[RedAccuracy \"91.2\"]\n[BlackAccuracy \"63.0\"]\n\n1. h2e2 h9g7 *";
        let game = read_str(text).next().unwrap().unwrap();
        let view = viewer_game(&game).unwrap();
        assert_eq!(view.accuracy.red, Some(91.2));
        assert_eq!(view.accuracy.black, Some(63.0));
    }

    #[test]
    fn traditional_chinese_differs_where_the_characters_do() {
        let game = read_str("1. b0c2 *").next().unwrap().unwrap();
        let view = viewer_game(&game).unwrap();
        assert_eq!(view.nodes[1].text[2], "马八进七");
        assert_eq!(view.nodes[1].text[3], "傌八進七");
    }

    #[test]
    fn a_hand_built_illegal_move_is_an_error() {
        let game = Game::from_moves(["h2h9".parse().unwrap(), "a0a5".parse().unwrap()]);
        let err = viewer_game(&game).unwrap_err();
        assert!(matches!(err, ViewerError::Move { .. }), "{err}");
    }

    #[test]
    fn a_game_from_black_to_move_numbers_its_moves() {
        let text = "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1\"]\n\n1... h9g7 2. h2e2 *";
        let game = read_str(text).next().unwrap().unwrap();
        let view = viewer_game(&game).unwrap();
        assert_eq!(view.nodes[0].color, "black");
        assert_eq!((view.nodes[1].number, view.nodes[1].color), (1, "black"));
        assert_eq!((view.nodes[2].number, view.nodes[2].color), (2, "red"));
    }
}
