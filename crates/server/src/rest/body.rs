//! JSON request bodies read field by field: a type error names the field path
//! (`settings.port`, `tags[2]`), which axum's `Json` rejection does not.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{StatusCode, header};
use serde::de::DeserializeOwned;

use super::error::ApiError;

/// A JSON body of type `T`.
pub struct Body<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        let json =
            request.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|v| {
                v.split(';').next().is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
            });
        if !json {
            return Err(ApiError::with(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "BAD_BODY",
                "send the body as JSON with Content-Type: application/json",
                None,
            ));
        }
        let bytes = Bytes::from_request(request, state)
            .await
            .map_err(|e| ApiError::with(StatusCode::BAD_REQUEST, "BAD_BODY", &e.body_text(), None))?;
        parse(&bytes).map(Body)
    }
}

/// Parse `bytes` as `T`, naming the field of the first error.
pub fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        if inner.is_syntax() || inner.is_eof() {
            return ApiError::with(
                StatusCode::BAD_REQUEST,
                "BAD_BODY",
                &format!("the body is not JSON: {inner}"),
                None,
            );
        }
        let detail = inner.to_string();
        let field =
            (path != ".").then_some(path).or_else(|| mooring_core::error::field_in_serde_message(&detail));
        let message = match &field {
            Some(f) => format!("{f}: {detail}"),
            None => detail,
        };
        ApiError::with(StatusCode::UNPROCESSABLE_ENTITY, "BAD_BODY", &message, field)
    })?;
    // Trailing bytes after the value are not a body either.
    de.end().map_err(|e| {
        ApiError::with(StatusCode::BAD_REQUEST, "BAD_BODY", &format!("the body is not JSON: {e}"), None)
    })?;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Sample {
        name: String,
        #[serde(default)]
        tags: Vec<String>,
    }

    #[test]
    fn errors_name_the_field() {
        let field = |body: &str| parse::<Sample>(body.as_bytes()).unwrap_err().field().map(str::to_owned);
        assert_eq!(field(r#"{"name": 1}"#).as_deref(), Some("name"));
        assert_eq!(field(r#"{"name": "a", "tags": ["x", 2]}"#).as_deref(), Some("tags[1]"));
        assert_eq!(field(r#"{"name": "a", "colour": 1}"#).as_deref(), Some("colour"));
        assert_eq!(field(r#"{}"#).as_deref(), Some("name"));
        assert_eq!(field("nope"), None);
        assert!(parse::<Sample>(br#"{"name": "a"}"#).is_ok());
    }
}
