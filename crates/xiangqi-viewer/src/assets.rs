//! The viewer's files, compiled in: the one SVG board of the project
//! (`board.js`, also the web client's), its style, and the viewer's script
//! and style. The server serves them under `/static/`; [`crate::html`]
//! inlines them into a self-contained page.

/// The board component (an ES module exporting `createBoard`).
pub const BOARD_JS: &str = include_str!("../web/board.js");
/// The board's style sheet.
pub const BOARD_CSS: &str = include_str!("../web/board.css");
/// The viewer (an ES module exporting `mountViewer`; imports `./board.js`).
pub const VIEWER_JS: &str = include_str!("../web/viewer.js");
/// The viewer's style sheet.
pub const VIEWER_CSS: &str = include_str!("../web/viewer.css");

/// The asset of file name `name` (`board.js`, `board.css`, `viewer.js`,
/// `viewer.css`), for a server that serves them as files.
pub fn asset(name: &str) -> Option<&'static str> {
    match name {
        "board.js" => Some(BOARD_JS),
        "board.css" => Some(BOARD_CSS),
        "viewer.js" => Some(VIEWER_JS),
        "viewer.css" => Some(VIEWER_CSS),
        _ => None,
    }
}
