//! The self-contained viewer page: the games' data, the style sheets and
//! the scripts all inlined, so the file works offline and opened from disk
//! (`xiangqi game view`), or inside an `<iframe srcdoc>` (Jupyter).

use std::collections::BTreeMap;

use crate::assets::{BOARD_CSS, BOARD_JS, ELEMENTS_JS, EXPLORER_JS, VIEWER_CSS, VIEWER_JS};
use crate::explorer_table::ExplorerTable;
use crate::tree::{ViewerGame, NOTATIONS};

/// How the page starts.
#[derive(Clone, Debug)]
pub struct PageOptions {
    /// The page's title.
    pub title: String,
    /// The notation the moves are shown in first (one of
    /// [`NOTATIONS`]; anything else shows coordinates).
    pub notation: String,
    /// The opening explorer's tables by FEN ([`crate::explorer_tables`]),
    /// shown beside the board; `None`: no explorer panel.
    pub explorer: Option<BTreeMap<String, ExplorerTable>>,
}

impl Default for PageOptions {
    fn default() -> PageOptions {
        PageOptions {
            title: "Xiangqi game".to_owned(),
            notation: NOTATIONS[0].to_owned(),
            explorer: None,
        }
    }
}

/// The whole page for `games` (a game list when there are several).
///
/// ```
/// use xiangqi_viewer::{viewer_game, write_html, PageOptions};
/// let game = xiangqi_gamefile::pgn::read_str("1. h2e2 h9g7 *").next().unwrap().unwrap();
/// let page = write_html(&[viewer_game(&game).unwrap()], &PageOptions::default());
/// assert!(page.starts_with("<!doctype html>") && page.contains("mountViewer("));
/// assert!(!page.contains("src=\"http") && !page.contains("import {"));
/// ```
pub fn write_html(games: &[ViewerGame], options: &PageOptions) -> String {
    let data = script_json(&serde_json::json!({
        "games": games,
        "notation": options.notation,
        "explorer": options.explorer,
    }));
    let mut page = String::with_capacity(data.len() + 64 * 1024);
    page.push_str("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    page.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    page.push_str(&format!("<title>{}</title>\n", escape_text(&options.title)));
    page.push_str(
        "<style>\nhtml, body { margin: 0; background: #f5f1e8; }\nbody { padding: 1rem; }\n",
    );
    page.push_str(BOARD_CSS);
    page.push_str(VIEWER_CSS);
    page.push_str("</style>\n</head>\n<body>\n<div id=\"xq-viewer\"></div>\n");
    page.push_str("<noscript>The game viewer needs JavaScript.</noscript>\n");
    page.push_str("<script type=\"application/json\" id=\"xq-viewer-data\">");
    page.push_str(&data);
    page.push_str("</script>\n<script type=\"module\">\n");
    page.push_str(&bundle());
    page.push_str(
        "const xqData = JSON.parse(document.getElementById(\"xq-viewer-data\").textContent);\n\
         const xqEmpty = (fen) => ({ fen, side_to_move: \"red\", games: 0, score: null, moves: [] });\n\
         const xqExplorer = xqData.explorer ? async (fen) => xqData.explorer[fen] || xqEmpty(fen) : null;\n\
         window.xqViewer = mountViewer(document.getElementById(\"xq-viewer\"), xqData.games, \
         { notation: xqData.notation, explorer: xqExplorer });\n</script>\n</body>\n</html>\n",
    );
    page
}

/// The board, the DOM helpers, the explorer's table and the viewer as one script: the modules' `import` lines
/// dropped and their `export` words taken off, so it runs inline (a page
/// opened from disk may not load modules from files). The modules share
/// no top-level names.
pub fn bundle() -> String {
    let modules = [BOARD_JS, ELEMENTS_JS, EXPLORER_JS, VIEWER_JS];
    let mut script = String::with_capacity(modules.iter().map(|m| m.len()).sum());
    for module in modules {
        for line in module.lines() {
            if line.starts_with("import ") {
                continue;
            }
            script.push_str(line.strip_prefix("export ").unwrap_or(line));
            script.push('\n');
        }
    }
    script
}

/// JSON that may stand inside `<script>`: no `<` (so no `</script>`), no
/// line separators a script parser would choke on.
fn script_json(value: &serde_json::Value) -> String {
    value
        .to_string()
        .replace('<', "\\u003c")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

fn escape_text(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// `page` as the `srcdoc` attribute of an `<iframe>` (the notebook's form:
/// the viewer's script and style stay inside the frame).
pub fn iframe(page: &str, height_px: u32) -> String {
    let escaped = page
        .replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    format!(
        "<iframe class=\"xq-viewer-frame\" srcdoc=\"{escaped}\" style=\"width: 100%; height: {height_px}px; border: 0;\" sandbox=\"allow-scripts\" allow=\"clipboard-write\" title=\"Xiangqi game viewer\"></iframe>"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::viewer_game;

    #[test]
    fn the_bundle_has_no_module_syntax_left() {
        let script = bundle();
        assert!(script.contains("function createBoard("));
        assert!(script.contains("function mountViewer("));
        assert!(script.contains("function createExplorerPanel("));
        for line in script.lines() {
            assert!(
                !line.starts_with("import ") && !line.starts_with("export "),
                "{line}"
            );
        }
    }

    #[test]
    fn comments_cannot_close_the_data_script() {
        let text = "1. h2e2 {</script><script>alert(1)</script>} *";
        let game = xiangqi_gamefile::pgn::read_str(text)
            .next()
            .unwrap()
            .unwrap();
        let page = write_html(&[viewer_game(&game).unwrap()], &PageOptions::default());
        assert_eq!(page.matches("</script>").count(), 2);
        assert!(page.contains("\\u003c/script>\\u003cscript>alert(1)"));
    }

    #[test]
    fn the_frame_holds_the_page_escaped() {
        let frame = iframe("<p class=\"a\">&</p>", 500);
        assert!(frame.contains("srcdoc=\"&lt;p class=&quot;a&quot;&gt;&amp;&lt;/p&gt;\""));
    }
}
