//! What every request passes: the `Origin` check against cross-site
//! requests and the security headers on every answer.
//!
//! A page of another site (another port of the same host, a sibling
//! subdomain) can make the browser send the session cookie (`SameSite=Lax`
//! allows the WebSocket upgrade and same-site requests), but the browser
//! also names the page's origin in `Origin`, which the page cannot change.
//! So the upgrade at `/ws` and every request that changes something (any
//! method but `GET`, `HEAD`, `OPTIONS`) is refused with 403 when it comes
//! with an `Origin` other than the server's own (`http://` or, behind TLS,
//! `https://` and the `Host` the browser asked for) or one allowed with
//! `--allowed-origin`. A request without `Origin` is not from a page in a
//! browser (browsers send it on every upgrade and every `POST`), so it
//! cannot carry a victim's cookie for another site: bots and tests may
//! omit it.

use axum::extract::{ConnectInfo, Request, State};
use axum::http::header::{HOST, ORIGIN};
use axum::http::{HeaderName, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;
use crate::security::{Client, Security};
use crate::state::AppState;
use xiangqi_server_protocol::echo::quoted;

/// Scripts, styles, images, fonts and connections only from the server
/// itself (the board's pieces are SVG drawn by script; the icon is a
/// `data:` image), no plug-ins, no `<base>`, forms only to us, and no
/// framing: the Resign button cannot be put under another site's clicks.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; \
     object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Refuses a cross-site upgrade or state-changing request.
pub async fn check_origin(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let changes_state = !matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    if changes_state || request.uri().path() == "/ws" {
        if let Some(origin) = request.headers().get(ORIGIN) {
            let security = &state.guards.security;
            let peer = request
                .extensions()
                .get::<ConnectInfo<std::net::SocketAddr>>()
                .map(|info| info.0);
            let client = Client::of(peer, request.headers(), security);
            let host = request.headers().get(HOST).and_then(|h| h.to_str().ok());
            let origin = origin.to_str().unwrap_or("");
            if !origin_allowed(origin, host, client.https, security) {
                return ApiError::ForeignOrigin(quoted(origin)).into_response();
            }
        }
    }
    next.run(request).await
}

/// Whether a page of `origin` may act on the server reached at `host`.
fn origin_allowed(origin: &str, host: Option<&str>, https: bool, security: &Security) -> bool {
    let Some(origin) = normal_origin(origin) else {
        return false; // "null" (a sandboxed frame, a file), or not an origin
    };
    let scheme = if https { "https" } else { "http" };
    let own = host.and_then(|host| normal_origin(&format!("{scheme}://{host}")));
    own.as_deref() == Some(origin.as_str())
        || security
            .allowed_origins
            .iter()
            .filter_map(|allowed| normal_origin(allowed))
            .any(|allowed| allowed == origin)
}

/// `scheme://host[:port]` in lower case without the scheme's default port,
/// or `None` for anything else.
pub fn normal_origin(text: &str) -> Option<String> {
    let text = text.trim().trim_end_matches('/').to_ascii_lowercase();
    let (scheme, authority) = text.split_once("://")?;
    let default_port = match scheme {
        "http" => ":80",
        "https" => ":443",
        _ => return None,
    };
    let valid = !authority.is_empty()
        && authority
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b".-:[]".contains(&b));
    if !valid {
        return None;
    }
    let authority = authority.strip_suffix(default_port).unwrap_or(authority);
    Some(format!("{scheme}://{authority}"))
}

/// Adds the security headers to every answer.
pub async fn security_headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    let fixed: [(&str, &'static str); 4] = [
        ("content-security-policy", CONTENT_SECURITY_POLICY),
        ("x-content-type-options", "nosniff"),
        // For browsers older than `frame-ancestors`.
        ("x-frame-options", "DENY"),
        ("referrer-policy", "same-origin"),
    ];
    for (name, value) in fixed {
        headers.insert(
            HeaderName::from_static(name),
            HeaderValue::from_static(value),
        );
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_compared_whole_without_default_ports() {
        let security = Security {
            allowed_origins: vec!["https://Xiangqi.Example/".into()],
            ..Security::default()
        };
        let allowed = |origin: &str, host: &str, https: bool| {
            origin_allowed(origin, Some(host), https, &security)
        };
        assert!(allowed("http://127.0.0.1:8080", "127.0.0.1:8080", false));
        assert!(allowed("http://example.org", "example.org:80", false));
        assert!(allowed("https://example.org:443", "example.org", true));
        assert!(allowed("https://xiangqi.example", "127.0.0.1:8080", false));
        assert!(!allowed("http://127.0.0.1:18999", "127.0.0.1:8080", false));
        assert!(!allowed(
            "http://example.org.evil.test",
            "example.org",
            false
        ));
        assert!(!allowed("https://example.org", "example.org", false));
        assert!(!allowed("null", "example.org", false));
        assert!(!allowed(
            "http://user@example.org",
            "user@example.org",
            false
        ));
        assert_eq!(normal_origin("ftp://x"), None);
    }
}
