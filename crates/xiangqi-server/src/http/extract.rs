//! Extractors whose refusals are the protocol's `{"error": …}` answers
//! instead of axum's plain-text rejections, so clients read every refusal
//! the same way: the JSON body (`bad_json`, `not_json`, `too_large`) and
//! the path's parameters (`bad_path`); input their messages quote is cut
//! to a few dozen characters.

use axum::extract::rejection::{JsonRejection, PathRejection};
use axum::extract::{FromRequest, FromRequestParts, Path, Request};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::Json;
use serde::de::DeserializeOwned;

use crate::error::ApiError;
use xiangqi_server_protocol::echo::cut_echoes;

/// A request body read as JSON into `T`.
pub struct JsonBody<T>(pub T);

impl<T, S> FromRequest<S> for JsonBody<T>
where
    Json<T>: FromRequest<S, Rejection = JsonRejection>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        match Json::<T>::from_request(request, state).await {
            Ok(Json(value)) => Ok(JsonBody(value)),
            Err(rejection) => Err(refusal(&rejection)),
        }
    }
}

fn refusal(rejection: &JsonRejection) -> ApiError {
    let status = rejection.status();
    let code = match rejection {
        JsonRejection::MissingJsonContentType(_) => "not_json",
        _ if status == StatusCode::PAYLOAD_TOO_LARGE => "too_large",
        _ => "bad_json",
    };
    ApiError::BadBody(status, code, cut_echoes(&rejection.body_text()))
}

/// The path's parameters read into `T`.
pub struct PathParams<T>(pub T);

impl<T, S> FromRequestParts<S> for PathParams<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match Path::<T>::from_request_parts(parts, state).await {
            Ok(Path(value)) => Ok(PathParams(value)),
            Err(rejection) => Err(path_refusal(&rejection)),
        }
    }
}

fn path_refusal(rejection: &PathRejection) -> ApiError {
    let status = rejection.status();
    if status.is_server_error() {
        return ApiError::Internal(rejection.body_text());
    }
    ApiError::BadBody(status, "bad_path", cut_echoes(&rejection.body_text()))
}
