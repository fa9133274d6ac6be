//! # xiangqi-viewer
//!
//! The interactive game viewer, one for the whole project: `xiangqi game
//! view` writes it as a self-contained HTML file, the Python `Game` shows it
//! in Jupyter, and the server shows every stored game with it. This crate
//! owns
//!
//! * the viewer's data ([`viewer_game`]): a game record's move tree as a
//!   flat list of nodes, each with its move in every notation, the FEN
//!   after it, comments, NAGs and the `[%eval]`/`[%clk]` values, all
//!   computed by the core, notation and game-file crates, so the script
//!   knows no rules;
//! * the web files ([`assets`]): the SVG board `board.js` (the web client's
//!   board too: there is one), `viewer.js` and their style sheets;
//! * the opening explorer's table beside the board ([`explorer_table`]),
//!   which the server answers `/api/explorer` with and a self-contained
//!   page carries for its positions ([`explorer_tables`]);
//! * the self-contained page ([`write_html`]) and its `<iframe srcdoc>`
//!   form ([`html::iframe`]).
//!
//! ```
//! use xiangqi_gamefile::pgn::read_str;
//! use xiangqi_viewer::{viewer_game, write_html, PageOptions};
//!
//! let game = read_str("1. h2e2 {[%eval 0.30]} h9g7 (1... b9c7 2. h0g2) *").next().unwrap().unwrap();
//! let view = viewer_game(&game).unwrap();
//! // The start, two main-line moves, and the two moves of the variation.
//! assert_eq!(view.nodes.len(), 5);
//! assert_eq!(view.nodes[2].fen, "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2");
//! let page = write_html(&[view], &PageOptions::default());
//! assert!(page.contains("createBoard"));
//! ```
#![warn(missing_docs)]

mod annotation;
pub mod assets;
mod explorer_table;
pub mod html;
mod tree;

pub use annotation::Eval;
pub use explorer_table::{explorer_table, explorer_tables, ExplorerRow, ExplorerTable};
pub use html::{write_html, PageOptions};
pub use tree::{
    title, viewer_game, NodeOpening, PlayerAccuracy, ViewerError, ViewerGame, ViewerNode, NOTATIONS,
};
