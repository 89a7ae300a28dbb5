//! JSON errors with the status that fits: 400 malformed, 401 no token, 404 unknown,
//! 409 conflict, 422 a rule broken, 500 storage.

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use mooring_core::{Error, ErrorCode};
use serde_json::json;

/// An API error.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    code: &'static str,
    message: String,
    field: Option<String>,
}

impl ApiError {
    /// A malformed request.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self { status: StatusCode::BAD_REQUEST, code: "BAD_REQUEST", message: message.into(), field: None }
    }

    /// Missing or wrong token.
    pub fn unauthorized() -> Self {
        Self {
            status: StatusCode::UNAUTHORIZED,
            code: "UNAUTHORIZED",
            message: "send the local token as 'Authorization: Bearer TOKEN' (mooring token prints it)".into(),
            field: None,
        }
    }

    /// Any status, code, message and field.
    pub fn with(status: StatusCode, code: &'static str, message: &str, field: Option<String>) -> Self {
        Self { status, code, message: message.to_owned(), field }
    }

    /// The field this error names, if any.
    pub fn field(&self) -> Option<&str> {
        self.field.as_deref()
    }

    /// A bound was reached; try again later.
    pub fn busy(message: impl Into<String>) -> Self {
        Self { status: StatusCode::SERVICE_UNAVAILABLE, code: "BUSY", message: message.into(), field: None }
    }

    /// The route exists, the method does not.
    pub fn wrong_method() -> Self {
        Self {
            status: StatusCode::METHOD_NOT_ALLOWED,
            code: "METHOD_NOT_ALLOWED",
            message: "this route does not take that method; see docs/openapi.json".into(),
            field: None,
        }
    }

    /// No such route.
    pub fn no_route() -> Self {
        Self {
            status: StatusCode::NOT_FOUND,
            code: "NOT_FOUND",
            message: "no such API route; see docs/openapi.json".into(),
            field: None,
        }
    }
}

impl From<Error> for ApiError {
    fn from(e: Error) -> Self {
        let status = match e.code {
            ErrorCode::InvalidInput => StatusCode::UNPROCESSABLE_ENTITY,
            ErrorCode::Conflict => StatusCode::CONFLICT,
            ErrorCode::NotFound => StatusCode::NOT_FOUND,
            ErrorCode::Storage => StatusCode::INTERNAL_SERVER_ERROR,
            ErrorCode::Forbidden => StatusCode::FORBIDDEN,
            ErrorCode::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        };
        Self { status, code: e.code.as_str(), message: e.message, field: e.field }
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> Self {
        let status = match r {
            JsonRejection::JsonDataError(_) => StatusCode::UNPROCESSABLE_ENTITY,
            _ => StatusCode::BAD_REQUEST,
        };
        Self { status, code: "BAD_BODY", message: r.body_text(), field: None }
    }
}

impl From<QueryRejection> for ApiError {
    fn from(r: QueryRejection) -> Self {
        Self::bad_request(r.body_text())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        use mooring_core::error::{MAX_FIELD, MAX_MESSAGE, excerpt};
        let message = excerpt(&self.message, MAX_MESSAGE);
        let field = self.field.as_deref().map(|f| excerpt(f, MAX_FIELD));
        let body = json!({ "error": { "code": self.code, "message": message, "field": field } });
        let mut response = (self.status, axum::Json(body)).into_response();
        if self.status == StatusCode::UNAUTHORIZED {
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, header::HeaderValue::from_static("Bearer"));
        }
        response
    }
}

/// Handler result.
pub type ApiResult<T> = Result<T, ApiError>;
