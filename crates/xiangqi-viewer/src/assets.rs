//! The viewer's files, compiled in: the one SVG board of the project
//! (`board.js`, also the web client's), its style, the explorer's table,
//! and the viewer's script and style. The server serves them under `/static/`; [`crate::html`]
//! inlines them into a self-contained page.

/// The board component (an ES module exporting `createBoard`).
pub const BOARD_JS: &str = include_str!("../web/board.js");
/// The board's style sheet.
pub const BOARD_CSS: &str = include_str!("../web/board.css");
/// DOM building helpers the explorer's table and the viewer share (an ES
/// module exporting `make` and `makeSvg`).
pub const ELEMENTS_JS: &str = include_str!("../web/elements.js");
/// The opening explorer's table (an ES module exporting
/// `createExplorerPanel`), beside the viewer's board and a live game's.
pub const EXPLORER_JS: &str = include_str!("../web/explorer.js");
/// The viewer (an ES module exporting `mountViewer`; imports `./board.js`,
/// `./elements.js` and `./explorer.js`).
pub const VIEWER_JS: &str = include_str!("../web/viewer.js");
/// The viewer's style sheet.
pub const VIEWER_CSS: &str = include_str!("../web/viewer.css");

/// The asset of file name `name` (`board.js`, `board.css`, `elements.js`,
/// `explorer.js`, `viewer.js`, `viewer.css`), for a server that serves them
/// as files.
pub fn asset(name: &str) -> Option<&'static str> {
    match name {
        "board.js" => Some(BOARD_JS),
        "board.css" => Some(BOARD_CSS),
        "elements.js" => Some(ELEMENTS_JS),
        "explorer.js" => Some(EXPLORER_JS),
        "viewer.js" => Some(VIEWER_JS),
        "viewer.css" => Some(VIEWER_CSS),
        _ => None,
    }
}
