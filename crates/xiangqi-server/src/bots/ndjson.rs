//! An NDJSON response from a stream of lines: the media type, no caching,
//! and a keep-alive (an empty line) every few seconds so that proxies and
//! clients see the connection alive.

use std::convert::Infallible;
use std::time::Duration;

use axum::body::Body;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use futures_util::Stream;
use xiangqi_server_protocol::bot::{KEEP_ALIVE_SECS, NDJSON};

/// The keep-alive period.
pub const KEEP_ALIVE: Duration = Duration::from_secs(KEEP_ALIVE_SECS);

/// The response streaming `lines` (each ends with its newline).
pub fn response(lines: impl Stream<Item = String> + Send + 'static) -> Response {
    use futures_util::StreamExt;
    let body = Body::from_stream(lines.map(Ok::<_, Infallible>));
    ([(CONTENT_TYPE, NDJSON), (CACHE_CONTROL, "no-store")], body).into_response()
}
