//! The JSON request body: a body that is not the JSON a handler asks for
//! gets the protocol's `{"error": …}` answer (`bad_json`, `not_json`,
//! `too_large`) instead of axum's plain-text rejection, so clients read
//! every refusal the same way.

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::Json;

use crate::error::ApiError;

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
    ApiError::BadBody(status, code, rejection.body_text())
}
