//! One error type for the HTTP side, mapped to a status and the protocol's
//! `{"error": {"code", "message"}}` body. Internal failures are logged and
//! reach the client only as a generic message; input a message quotes is
//! cut to a few dozen characters (`xiangqi_server_protocol::echo`).

use std::time::Duration;

use axum::http::header::RETRY_AFTER;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

use crate::store::StoreError;
use xiangqi_server_protocol::echo::{cut_message, quoted, MAX_ECHO_CHARS};

/// What an HTTP handler can fail with.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The request is malformed or breaks a rule (code, message).
    #[error("{1}")]
    BadInput(&'static str, String),
    /// The request's body or path is not what the endpoint reads (status,
    /// code, message).
    #[error("{2}")]
    BadBody(StatusCode, &'static str, String),
    /// No valid session.
    #[error("not signed in")]
    NotSignedIn,
    /// Wrong name or password.
    #[error("wrong name or password")]
    BadCredentials,
    /// The thing exists but is not this player's.
    #[error("{0}")]
    Forbidden(String),
    /// Nothing by that name.
    #[error("no {0}")]
    NotFound(String),
    /// The path exists but not for this method.
    #[error("this endpoint does not take that method")]
    MethodNotAllowed,
    /// Conflicts with what exists (code, message).
    #[error("{1}")]
    Conflict(&'static str, String),
    /// A name that is taken (`existing: None`, `name_taken`) or too like a
    /// player's name (`name_confusable`); both names go to the client as
    /// `args`, for its words.
    #[error("{}", name_in_use_message(name, existing.as_deref()))]
    NameInUse {
        /// The name asked for.
        name: String,
        /// The existing name it is too like, if it is not taken itself.
        existing: Option<String>,
    },
    /// Too many requests of this kind from this address or for this
    /// account (code, message, how long to wait).
    #[error("{1}")]
    TooMany(&'static str, String, Duration),
    /// The server cannot take this now (message, how long to wait).
    #[error("{0}")]
    Overloaded(String, Duration),
    /// A request from a page of another site (the origin, quoted).
    #[error("requests from pages of {0} are not accepted here")]
    ForeignOrigin(String),
    /// The storage or a task failed; details go to the log only.
    #[error("internal: {0}")]
    Internal(String),
}

impl ApiError {
    fn status_and_code(&self) -> (StatusCode, &'static str) {
        match self {
            ApiError::BadInput(code, _) => (StatusCode::BAD_REQUEST, code),
            ApiError::BadBody(status, code, _) => (*status, code),
            ApiError::NotSignedIn => (StatusCode::UNAUTHORIZED, "not_signed_in"),
            ApiError::BadCredentials => (StatusCode::UNAUTHORIZED, "bad_credentials"),
            ApiError::Forbidden(_) => (StatusCode::FORBIDDEN, "forbidden"),
            ApiError::NotFound(_) => (StatusCode::NOT_FOUND, "not_found"),
            ApiError::MethodNotAllowed => (StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed"),
            ApiError::Conflict(code, _) => (StatusCode::CONFLICT, code),
            ApiError::NameInUse { existing: None, .. } => (StatusCode::CONFLICT, "name_taken"),
            ApiError::NameInUse { .. } => (StatusCode::CONFLICT, "name_confusable"),
            ApiError::TooMany(code, _, _) => (StatusCode::TOO_MANY_REQUESTS, code),
            ApiError::Overloaded(_, _) => (StatusCode::SERVICE_UNAVAILABLE, "overloaded"),
            ApiError::ForeignOrigin(_) => (StatusCode::FORBIDDEN, "foreign_origin"),
            ApiError::Internal(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
        }
    }

    /// What a client's sentence for the code needs beyond the code, if
    /// anything: the names of a name conflict (cut as the message cuts
    /// them), the seconds to wait.
    fn args(&self) -> Option<serde_json::Value> {
        match self {
            ApiError::NameInUse { name, existing } => {
                let mut args = json!({ "name": cut_name(name) });
                if let Some(existing) = existing {
                    args["existing"] = json!(cut_name(existing));
                }
                Some(args)
            }
            _ => self
                .retry_after()
                .map(|wait| json!({ "seconds": whole_seconds(wait) })),
        }
    }

    /// How long the client should wait before trying again, if it should.
    fn retry_after(&self) -> Option<Duration> {
        match self {
            ApiError::TooMany(_, _, wait) | ApiError::Overloaded(_, wait) => Some(*wait),
            _ => None,
        }
    }
}

/// Whole seconds, rounded up: never 0, which would mean "now".
fn whole_seconds(wait: Duration) -> u64 {
    (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1)
}

/// A name as an error may echo it: cut to the echo limit.
fn cut_name(name: &str) -> String {
    name.chars().take(MAX_ECHO_CHARS).collect()
}

fn name_in_use_message(name: &str, existing: Option<&str>) -> String {
    match existing {
        None => format!("the name {} is taken", quoted(name)),
        Some(existing) => format!(
            "the name {} is too like {}, a player's name already",
            quoted(name),
            quoted(existing)
        ),
    }
}

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> ApiError {
        match error {
            StoreError::NameTaken(name) => ApiError::NameInUse {
                name,
                existing: None,
            },
            StoreError::NameConfusable { name, existing } => ApiError::NameInUse {
                name,
                existing: Some(existing),
            },
            StoreError::NotFound { what, id } => {
                ApiError::NotFound(format!("{what} {}", quoted(&id)))
            }
            StoreError::Database(detail) | StoreError::Invalid(detail) => {
                ApiError::Internal(detail)
            }
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, code) = self.status_and_code();
        let message = match &self {
            ApiError::Internal(detail) => {
                tracing::error!("internal error: {detail}");
                "something went wrong on the server".to_string()
            }
            other => cut_message(&other.to_string()),
        };
        let mut error = json!({"code": code, "message": message});
        if let Some(args) = self.args() {
            error["args"] = args;
        }
        let body = json!({ "error": error });
        let mut response = (status, Json(body)).into_response();
        if let Some(wait) = self.retry_after() {
            response
                .headers_mut()
                .insert(RETRY_AFTER, HeaderValue::from(whole_seconds(wait)));
        }
        response
    }
}
