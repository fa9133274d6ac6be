//! The embedded web client (`crates/xiangqi-server/web/`): `/static/…`
//! files, and `index.html` for every page path of the one-page app. The
//! board and the game viewer (`board.js`, `viewer.js` and their styles) are
//! `xiangqi-viewer`'s, served from there: one board in the project.
//!
//! Every file carries a strong `ETag` (a hash of its bytes) and
//! `Cache-Control: no-cache`: a browser may keep a file but asks again each
//! time, getting `304 Not Modified` while it is unchanged. After an upgrade
//! every changed file has a new tag, so a page never runs an old script
//! beside new ones.

use axum::extract::Path;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use rust_embed::RustEmbed;
use sha2::{Digest, Sha256};

#[derive(RustEmbed)]
#[folder = "web/"]
#[allow_missing = true]
struct Web;

/// Keep, but check with the server before each use.
const CACHE_CONTROL: &str = "no-cache";

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

/// The strong entity tag of `bytes`: 128 bits of their SHA-256, quoted.
fn entity_tag(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let short = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&digest[..16]);
    format!("\"{short}\"")
}

/// Whether the request's `If-None-Match` names `tag` (or `*`). Tags are
/// compared weakly, as RFC 9110 asks for `If-None-Match`.
fn still_fresh(request: &HeaderMap, tag: &str) -> bool {
    request
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|t| t.trim())
        .any(|t| t == "*" || t.strip_prefix("W/").unwrap_or(t) == tag)
}

fn file(path: &str, request: &HeaderMap) -> Response {
    let bytes: Vec<u8> = match xiangqi_viewer::assets::asset(path) {
        Some(shared) => shared.as_bytes().to_vec(),
        None => match Web::get(path) {
            Some(content) => content.data.into_owned(),
            None => return (StatusCode::NOT_FOUND, "not found").into_response(),
        },
    };
    let tag = entity_tag(&bytes);
    let validators = [
        (
            header::ETAG,
            HeaderValue::from_str(&tag).unwrap_or(HeaderValue::from_static("\"\"")),
        ),
        (
            header::CACHE_CONTROL,
            HeaderValue::from_static(CACHE_CONTROL),
        ),
    ];
    if still_fresh(request, &tag) {
        return (StatusCode::NOT_MODIFIED, validators).into_response();
    }
    (
        validators,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static(content_type(path)),
        )],
        bytes,
    )
        .into_response()
}

/// The web client's languages: the codes of its catalogues,
/// `web/locales/<code>.json` (docs/web.md).
pub fn languages() -> Vec<String> {
    let mut codes: Vec<String> = Web::iter()
        .filter_map(|path| {
            path.strip_prefix("locales/")
                .and_then(|name| name.strip_suffix(".json"))
                .map(str::to_string)
        })
        .collect();
    codes.sort();
    codes
}

/// Whether the web client has a catalogue for the language `code`.
pub fn has_language(code: &str) -> bool {
    languages().iter().any(|known| known == code)
}

/// `index.html`, the page of every client path.
pub async fn index(request: HeaderMap) -> Response {
    file("index.html", &request)
}

/// `GET /static/{*file}`.
pub async fn asset(Path(path): Path<String>, request: HeaderMap) -> Response {
    file(&path, &request)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asking(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::IF_NONE_MATCH, HeaderValue::from_str(value).unwrap());
        headers
    }

    #[test]
    fn a_file_is_fresh_only_for_its_own_tag() {
        let tag = entity_tag(b"board");
        assert_ne!(tag, entity_tag(b"board2"));
        assert!(still_fresh(&asking(&tag), &tag));
        assert!(still_fresh(&asking(&format!("\"x\", W/{tag}")), &tag));
        assert!(still_fresh(&asking("*"), &tag));
        assert!(!still_fresh(&asking("\"x\""), &tag));
        assert!(!still_fresh(&HeaderMap::new(), &tag));
    }
}
