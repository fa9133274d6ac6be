//! The embedded web client (`crates/xiangqi-server/web/`): `/static/…`
//! files, and `index.html` for every page path of the one-page app. The
//! board and the game viewer (`board.js`, `viewer.js` and their styles) are
//! `xiangqi-viewer`'s, served from there: one board in the project.

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;

#[derive(RustEmbed)]
#[folder = "web/"]
#[allow_missing = true]
struct Web;

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "json" => "application/json",
        "woff2" => "font/woff2",
        _ => "application/octet-stream",
    }
}

fn file(path: &str) -> Response {
    if let Some(shared) = xiangqi_viewer::assets::asset(path) {
        return ([(header::CONTENT_TYPE, content_type(path))], shared).into_response();
    }
    match Web::get(path) {
        Some(content) => (
            [(header::CONTENT_TYPE, content_type(path))],
            content.data.into_owned(),
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}

/// `index.html`, the page of every client path.
pub async fn index() -> Response {
    file("index.html")
}

/// `GET /static/{*file}`.
pub async fn asset(Path(path): Path<String>) -> Response {
    file(&path)
}
