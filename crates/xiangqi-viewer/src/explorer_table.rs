//! The opening explorer's table as the viewer shows it beside the board:
//! the moves played from a position with their counts, Red win / draw /
//! Black win, the mover's score and a first example game, each move in
//! every notation of the viewer's menu (so the table follows the reader's
//! choice). The server answers `/api/explorer` with it; a self-contained
//! page carries the tables of its games' positions.

use std::collections::BTreeMap;

use serde::Serialize;
use xiangqi_core::Position;
use xiangqi_explorer::{ExampleGame, Explorer, ExplorerError, PositionStats};

use crate::tree::{move_texts, ViewerGame};

/// The explorer's answer for one position.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExplorerTable {
    /// The position asked about.
    pub fen: String,
    /// `red` or `black`: whose score the `score` fields are.
    pub side_to_move: &'static str,
    /// Games of the corpus that reached the position (and moved on from it).
    pub games: u64,
    /// The side to move's score in percent over the decided games.
    pub score: Option<f64>,
    /// Most played first.
    pub moves: Vec<ExplorerRow>,
}

/// One move of the table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExplorerRow {
    /// ICCS.
    #[serde(rename = "move")]
    pub iccs: String,
    /// The move in each of [`crate::NOTATIONS`], in that order.
    pub text: Vec<String>,
    /// Games that played it.
    pub games: u64,
    /// Of those, won by Red.
    pub red_wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Won by Black.
    pub black_wins: u64,
    /// The side to move's score in percent, `None` without decided games.
    pub score: Option<f64>,
    /// Both players' mean rating, where the records have ratings.
    pub mean_rating: Option<f64>,
    /// The first game that played it (its result as `1-0`, `1/2-1/2`, `0-1`).
    pub example: Option<ExampleGame>,
}

/// The table of `stats`, the explorer's answer for `position`.
///
/// ```
/// use xiangqi_core::Position;
/// use xiangqi_explorer::{PositionStats, Results};
/// let empty = PositionStats { total: Results::default(), moves: Vec::new() };
/// let table = xiangqi_viewer::explorer_table(&Position::startpos(), &empty);
/// assert_eq!((table.side_to_move, table.games, table.score), ("red", 0, None));
/// ```
pub fn explorer_table(position: &Position, stats: &PositionStats) -> ExplorerTable {
    let side = position.side_to_move();
    let moves = stats
        .moves
        .iter()
        .map(|m| ExplorerRow {
            iccs: m.mv.to_string(),
            // The explorer only answers moves legal here, which every notation writes.
            text: move_texts(position, m.mv).unwrap_or_else(|_| vec![m.mv.to_string()]),
            games: m.results.games,
            red_wins: m.results.red_wins,
            draws: m.results.draws,
            black_wins: m.results.black_wins,
            score: m.results.score(side),
            mean_rating: m.mean_rating,
            example: m.examples.first().cloned(),
        })
        .collect();
    ExplorerTable {
        fen: position.to_fen(),
        side_to_move: side.name(),
        games: stats.total.games,
        score: stats.total.score(side),
        moves,
    }
}

/// The tables of every position of `games` that the explorer indexes (the
/// nodes before its `max_plies`), keyed by the node's FEN: what a
/// self-contained page carries, since it cannot ask a database. Positions
/// no corpus game reached are left out (the page says so).
pub fn explorer_tables(
    games: &[ViewerGame],
    explorer: &Explorer,
) -> Result<BTreeMap<String, ExplorerTable>, ExplorerError> {
    let max_plies = explorer.info().max_plies as usize;
    let mut tables = BTreeMap::new();
    let mut asked = std::collections::HashSet::new();
    for node in games.iter().flat_map(|g| &g.nodes) {
        if node.ply >= max_plies || !asked.insert(node.fen.as_str()) {
            continue;
        }
        // The node's FEN was written by the core from a position it played.
        let Ok(position) = Position::from_fen(&node.fen) else {
            continue;
        };
        let stats = explorer.query(&position)?;
        if !stats.moves.is_empty() {
            tables.insert(node.fen.clone(), explorer_table(&position, &stats));
        }
    }
    Ok(tables)
}

#[cfg(test)]
mod tests {
    use super::*;
    use xiangqi_explorer::{build, BuildOptions};

    #[test]
    fn a_games_positions_get_the_corpus_tables() {
        let dir = tempfile::tempdir().unwrap();
        let corpus = dir.path().join("corpus.pgn");
        std::fs::write(
            &corpus,
            "[Red \"A\"]\n[Black \"B\"]\n1. h2e2 h9g7 2. h0g2 1-0\n\n\
             [Red \"C\"]\n[Black \"D\"]\n1. h2e2 b9c7 0-1\n\n\
             [Red \"E\"]\n[Black \"F\"]\n1. c3c4 1/2-1/2\n",
        )
        .unwrap();
        let db = dir.path().join("openings.db");
        let options = BuildOptions {
            max_plies: 2,
            ..BuildOptions::default()
        };
        build(&[corpus], &db, &options, |_| {}).unwrap();
        let explorer = Explorer::open(&db).unwrap();

        let game = xiangqi_gamefile::pgn::read_str("1. h2e2 h9g7 2. h0g2 *")
            .next()
            .unwrap()
            .unwrap();
        let view = crate::viewer_game(&game).unwrap();
        let tables = explorer_tables(std::slice::from_ref(&view), &explorer).unwrap();
        // Plies 0 and 1 are indexed; ply 2 is beyond the build's depth.
        assert_eq!(tables.len(), 2);
        let start = &tables[&view.nodes[0].fen];
        assert_eq!((start.games, start.side_to_move), (3, "red"));
        let central = &start.moves[0];
        assert_eq!(central.iccs, "h2e2");
        assert_eq!(central.text[2], "炮二平五");
        assert_eq!(
            (central.games, central.red_wins, central.black_wins),
            (2, 1, 1)
        );
        assert_eq!(central.score, Some(50.0));
        assert_eq!(central.example.as_ref().unwrap().red.as_deref(), Some("A"));
        let reply = &tables[&view.nodes[1].fen];
        assert_eq!(reply.side_to_move, "black");
        let iccs: Vec<&str> = reply.moves.iter().map(|m| m.iccs.as_str()).collect();
        assert_eq!(iccs, ["b9c7", "h9g7"]);
        assert_eq!(reply.moves[0].score, Some(100.0));
    }
}
