//! One error type for the HTTP side, mapped to a status and the protocol's
//! `{"error": {"code", "message"}}` body. Internal failures are logged and
//! reach the client only as a generic message.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

use crate::store::StoreError;

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
            ApiError::Internal(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> ApiError {
        match error {
            StoreError::NameTaken(name) => {
                ApiError::Conflict("name_taken", format!("the name {name:?} is taken"))
            }
            StoreError::NotFound { what, id } => ApiError::NotFound(format!("{what} {id:?}")),
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
            other => other.to_string(),
        };
        let body = json!({"error": {"code": code, "message": message}});
        (status, Json(body)).into_response()
    }
}
