//! The bot API's HTTP side (docs/server.md, "Bots"): each endpoint a
//! method, a bearer token on every request, every answer checked, and
//! errors typed by what the loop should do about them.

use std::time::Duration;

use reqwest::header::{AUTHORIZATION, RETRY_AFTER};
use reqwest::{Method, StatusCode};
use serde::de::DeserializeOwned;
use serde::Serialize;

use xiangqi_server_protocol::bot::ErrorBody;

use crate::error::{quote, BotError};
use crate::ndjson::LineStream;

/// How long a plain request (not a stream) may take in all.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(20);
/// How long connecting may take.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// A client of one server with one token.
#[derive(Clone)]
pub struct Api {
    http: reqwest::Client,
    base: String,
    token: String,
    /// The longest silence a stream may keep.
    pub stream_idle: Duration,
}

impl Api {
    /// A client of the server at `base` (`http://` or `https://`, with or
    /// without a trailing slash) acting with `token`.
    pub fn new(base: &str, token: &str) -> Result<Api, BotError> {
        let bad = |problem: &str| BotError::BadUrl {
            url: base.to_string(),
            problem: problem.to_string(),
        };
        let url = reqwest::Url::parse(base).map_err(|e| bad(&e.to_string()))?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(bad("expected http://HOST[:PORT] or https://HOST[:PORT]"));
        }
        if url.host_str().is_none() {
            return Err(bad("no host"));
        }
        if token.trim().is_empty() {
            return Err(BotError::Config(
                "the token is empty: make one on your account page (docs/bots.md)".into(),
            ));
        }
        let http = reqwest::Client::builder()
            .connect_timeout(CONNECT_TIMEOUT)
            .user_agent(concat!("xiangqi-bot/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| BotError::Config(format!("cannot make an HTTP client: {e}")))?;
        Ok(Api {
            http,
            base: base.trim_end_matches('/').to_string(),
            token: token.trim().to_string(),
            stream_idle: Duration::from_secs(20),
        })
    }

    fn request(&self, method: Method, path: &str) -> reqwest::RequestBuilder {
        self.http
            .request(method, format!("{}{path}", self.base))
            .header(AUTHORIZATION, format!("Bearer {}", self.token))
    }

    /// Sends `request` and checks the status; `what` names it in errors.
    async fn send(
        &self,
        what: &str,
        request: reqwest::RequestBuilder,
    ) -> Result<reqwest::Response, BotError> {
        let response = request.send().await.map_err(|e| BotError::Network {
            what: what.to_string(),
            message: with_causes(&e.without_url()),
        })?;
        if response.status().is_success() {
            return Ok(response);
        }
        Err(error_of(what, response).await)
    }

    /// `POST path` with a JSON body (or none), its answer read as `T`.
    pub async fn post<B: Serialize, T: DeserializeOwned>(
        &self,
        path: &str,
        body: Option<&B>,
    ) -> Result<T, BotError> {
        let what = format!("POST {path}");
        let mut request = self.request(Method::POST, path).timeout(REQUEST_TIMEOUT);
        if let Some(body) = body {
            request = request.json(body);
        }
        let response = self.send(&what, request).await?;
        read_json(&what, response).await
    }

    /// `GET path`, its answer read as `T`.
    pub async fn get<T: DeserializeOwned>(&self, path: &str) -> Result<T, BotError> {
        let what = format!("GET {path}");
        let request = self.request(Method::GET, path).timeout(REQUEST_TIMEOUT);
        let response = self.send(&what, request).await?;
        read_json(&what, response).await
    }

    /// Opens the NDJSON stream at `path`.
    pub async fn stream(&self, path: &str) -> Result<LineStream, BotError> {
        let what = format!("GET {path}");
        // No total timeout: a stream lasts; the idle bound is the line reader's.
        let request = self.request(Method::GET, path);
        let response = tokio::time::timeout(REQUEST_TIMEOUT, self.send(&what, request))
            .await
            .map_err(|_| BotError::Stalled {
                what: what.clone(),
                after: REQUEST_TIMEOUT,
            })??;
        Ok(LineStream::new(response, what, self.stream_idle))
    }
}

impl Api {
    /// `POST /api/bot/account/upgrade`: the token's account becomes a bot,
    /// for good (refused, `bot_upgrade_refused`, once it has played a game).
    pub async fn upgrade_to_bot(&self) -> Result<(), BotError> {
        self.post::<(), xiangqi_server_protocol::bot::OkAnswer>("/api/bot/account/upgrade", None)
            .await
            .map(|_| ())
    }
}

/// The answer's body as `T`, at most 1 MiB of it.
async fn read_json<T: DeserializeOwned>(
    what: &str,
    response: reqwest::Response,
) -> Result<T, BotError> {
    let bytes = tokio::time::timeout(REQUEST_TIMEOUT, response.bytes())
        .await
        .map_err(|_| BotError::Stalled {
            what: what.to_string(),
            after: REQUEST_TIMEOUT,
        })?
        .map_err(|e| BotError::Network {
            what: what.to_string(),
            message: with_causes(&e.without_url()),
        })?;
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(1 << 20)]);
    serde_json::from_str(&text).map_err(|e| BotError::BadLine {
        what: what.to_string(),
        line_number: 1,
        expected: "answer",
        problem: e.to_string().chars().take(200).collect(),
        text: quote(&text),
    })
}

/// The server's `{"error": {"code", "message"}}`, or what can be said
/// without it.
async fn error_of(what: &str, response: reqwest::Response) -> BotError {
    let status = response.status();
    let retry_after = response
        .headers()
        .get(RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map(Duration::from_secs);
    let body = tokio::time::timeout(Duration::from_secs(5), response.bytes())
        .await
        .ok()
        .and_then(Result::ok)
        .unwrap_or_default();
    let parsed: Option<ErrorBody> = serde_json::from_slice(&body).ok();
    let cut = |s: &str| s.chars().take(MAX_SERVER_TEXT).collect::<String>();
    let code = parsed
        .as_ref()
        .map(|b| cut(&b.error.code))
        .unwrap_or_else(|| {
            status
                .canonical_reason()
                .unwrap_or("error")
                .to_ascii_lowercase()
                .replace(' ', "_")
        });
    if status == StatusCode::UNAUTHORIZED {
        return BotError::BadToken {
            what: what.to_string(),
            code,
        };
    }
    let message = parsed
        .as_ref()
        .map(|b| cut(&b.error.message))
        .unwrap_or_else(|| {
            if body.is_empty() {
                "(no body)".to_string()
            } else {
                quote(&String::from_utf8_lossy(&body[..body.len().min(1024)]))
            }
        });
    BotError::Http {
        what: what.to_string(),
        status: status.as_u16(),
        code,
        message,
        retry_after,
    }
}

/// Characters of a server's code or message kept.
const MAX_SERVER_TEXT: usize = 240;

/// An error and its causes, `: `-joined (reqwest's own message is only
/// "error sending request"; the cause says "connection refused").
pub(crate) fn with_causes(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(inner) = cause {
        let said = inner.to_string();
        if !text.contains(&said) {
            text.push_str(": ");
            text.push_str(&said);
        }
        cause = inner.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_http_and_https_and_refuses_other_schemes() {
        assert!(Api::new("http://127.0.0.1:8080", "xqb_t").is_ok());
        assert!(Api::new("https://xiangqi.example.org/", "xqb_t").is_ok());
        for url in [
            "ws://127.0.0.1:8080",
            "ftp://host",
            "127.0.0.1:8080",
            "https://",
        ] {
            assert!(
                matches!(Api::new(url, "xqb_t"), Err(BotError::BadUrl { .. })),
                "{url}"
            );
        }
        assert!(matches!(
            Api::new("https://host", " "),
            Err(BotError::Config(_))
        ));
    }

    /// A server that does not speak TLS where `https://` was asked for:
    /// the handshake fails as a network error naming the request, in time.
    #[tokio::test]
    async fn a_failed_tls_handshake_is_a_network_error() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let plain = std::thread::spawn(move || {
            use std::io::{Read, Write};
            let (mut socket, _) = listener.accept().unwrap();
            let mut hello = [0u8; 512];
            let _ = socket.read(&mut hello);
            let _ = socket.write_all(b"HTTP/1.1 400 Bad Request\r\n\r\n");
        });
        let api = Api::new(&format!("https://127.0.0.1:{port}"), "xqb_t").unwrap();
        let answer: Result<serde_json::Value, BotError> = api.get("/api/bots/online").await;
        match answer {
            Err(BotError::Network { what, .. }) => assert_eq!(what, "GET /api/bots/online"),
            other => panic!("expected a network error, got {other:?}"),
        }
        plain.join().unwrap();
    }
}
