//! A thin layer in front of rmcp's Streamable HTTP service, for the malformed requests
//! rmcp answers unhelpfully (HTTP 415 with a bare sentence for a body that is not JSON or
//! for `initialize` with bad params, "method not found" for a `tools/call` without a
//! name, 202 for deleting a session that does not exist): JSON-RPC errors that say which
//! field is wrong (-32700 parse error, -32602 invalid params) and 404 for an unknown
//! session. Everything well-formed passes through untouched.

use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use mooring_core::Store;
use rmcp::transport::streamable_http_server::SessionManager;
use serde_json::{Value, json};

use crate::transport::session_cap::BoundedSessions;

/// What the layer needs: the live sessions and the database that remembers evicted ones.
#[derive(Clone)]
pub struct Front {
    /// Sessions in memory.
    pub sessions: Arc<BoundedSessions>,
    /// Sessions remembered across restarts and evictions.
    pub store: Arc<Store>,
    /// Largest body read.
    pub max_body: usize,
}

/// Check the request's shape; answer a malformed one here.
pub async fn check(State(front): State<Front>, request: Request, next: Next) -> Response {
    match *request.method() {
        Method::POST => {
            let (parts, body) = request.into_parts();
            let bytes = match axum::body::to_bytes(body, front.max_body).await {
                Ok(b) => b,
                Err(_) => {
                    return rpc_error(
                        StatusCode::PAYLOAD_TOO_LARGE,
                        Value::Null,
                        -32600,
                        "the request body is too large",
                    );
                }
            };
            if let Some(refusal) = malformed(&bytes) {
                return refusal;
            }
            next.run(Request::from_parts(parts, Body::from(bytes))).await
        }
        Method::DELETE => {
            let id = request.headers().get("mcp-session-id").and_then(|v| v.to_str().ok()).map(str::to_owned);
            if let Some(id) = id
                && !known(&front, &id).await
            {
                return rpc_error(
                    StatusCode::NOT_FOUND,
                    Value::Null,
                    -32001,
                    "no such MCP session; it has ended or never existed",
                );
            }
            next.run(request).await
        }
        _ => next.run(request).await,
    }
}

async fn known(front: &Front, id: &str) -> bool {
    if front.sessions.has_session(&Arc::from(id)).await.unwrap_or(false) {
        return true;
    }
    front.store.read(|c| mooring_core::store::sessions::init_params(c, id)).ok().flatten().is_some()
}

/// The refusal for a body that is not a well-formed message, if it is not.
fn malformed(bytes: &Bytes) -> Option<Response> {
    let value: Value = match serde_json::from_slice(bytes) {
        Ok(v) => v,
        Err(e) => {
            let why = format!("parse error: the body is not JSON ({e}); send one JSON-RPC message");
            return Some(rpc_error(StatusCode::BAD_REQUEST, Value::Null, -32700, &why));
        }
    };
    let id = match &value {
        Value::Object(message) => message.get("id").cloned().unwrap_or(Value::Null),
        _ => Value::Null,
    };
    if let Some(key) = crate::transport::repeated_keys::first_repeated(bytes) {
        return Some(repeated(&value, id, &key));
    }
    let Value::Object(message) = &value else { return None };
    let method = message.get("method").and_then(Value::as_str)?;
    let params = message.get("params");
    let problem = match method {
        "initialize" => initialize_problem(params),
        "tools/call" => tools_call_problem(params),
        _ => None,
    }?;
    Some(rpc_error(StatusCode::OK, id, -32602, &format!("invalid params for {method}: {problem}")))
}

/// The refusal for a message that gives `key` twice: its params' fault when the key is
/// inside them (the method is known), the message's otherwise.
fn repeated(value: &Value, id: Value, key: &str) -> Response {
    let fix = "send each key once";
    // With `id` or `method` itself repeated, the value serde_json kept is a guess.
    let trusted = |k: &str| key != k;
    let id = if trusted("id") { id } else { Value::Null };
    let method = value.get("method").and_then(Value::as_str).filter(|_| trusted("method"));
    match method {
        Some(method) if key.starts_with("params.") => rpc_error(
            StatusCode::OK,
            id,
            -32602,
            &format!("invalid params for {method}: the key {key} appears more than once; {fix}"),
        ),
        _ => rpc_error(
            StatusCode::OK,
            id,
            -32600,
            &format!("invalid request: the key {key} appears more than once in the message; {fix}"),
        ),
    }
}

fn initialize_problem(params: Option<&Value>) -> Option<String> {
    let Some(Value::Object(p)) = params else {
        return Some("params must be an object with protocolVersion, capabilities and clientInfo".into());
    };
    if !p.get("protocolVersion").is_some_and(Value::is_string) {
        return Some("params.protocolVersion must be a string such as \"2025-11-25\"".into());
    }
    if !p.get("capabilities").is_some_and(Value::is_object) {
        return Some("params.capabilities must be an object (it may be empty)".into());
    }
    match p.get("clientInfo") {
        Some(Value::Object(info)) => {
            for field in ["name", "version"] {
                if !info.get(field).is_some_and(Value::is_string) {
                    return Some(format!("params.clientInfo.{field} must be a string"));
                }
            }
            None
        }
        _ => Some("params.clientInfo must be an object with name and version".into()),
    }
}

fn tools_call_problem(params: Option<&Value>) -> Option<String> {
    let Some(Value::Object(p)) = params else {
        return Some("params must be an object with name and arguments".into());
    };
    if !p.get("name").is_some_and(Value::is_string) {
        return Some("params.name must be a string naming a tool (tools/list shows them)".into());
    }
    match p.get("arguments") {
        None | Some(Value::Null) | Some(Value::Object(_)) => None,
        Some(_) => Some("params.arguments must be an object of the tool's arguments".into()),
    }
}

fn rpc_error(status: StatusCode, id: Value, code: i64, message: &str) -> Response {
    let message = mooring_core::error::excerpt(message, mooring_core::error::MAX_MESSAGE);
    let body = json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } });
    (status, axum::Json(body)).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code_of(body: &str) -> Option<(StatusCode, i64)> {
        let r = malformed(&Bytes::from(body.to_owned()))?;
        let status = r.status();
        let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let bytes = rt.block_on(axum::body::to_bytes(r.into_body(), 1 << 16)).unwrap();
        let v: Value = serde_json::from_slice(&bytes).unwrap();
        Some((status, v["error"]["code"].as_i64().unwrap()))
    }

    #[test]
    fn malformed_messages_get_json_rpc_errors_and_good_ones_pass() {
        let bad_params = -32602;
        for (body, want) in [
            ("not json", Some((StatusCode::BAD_REQUEST, -32700))),
            ("{\"jsonrpc\":\"2.0\",", Some((StatusCode::BAD_REQUEST, -32700))),
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":"x"}"#,
                Some((StatusCode::OK, bad_params)),
            ),
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":1,"version":"1"}}}"#,
                Some((StatusCode::OK, bad_params)),
            ),
            (r#"{"jsonrpc":"2.0","id":2,"method":"tools/call"}"#, Some((StatusCode::OK, bad_params))),
            (
                r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"arguments":{}}}"#,
                Some((StatusCode::OK, bad_params)),
            ),
            (
                r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":7}}"#,
                Some((StatusCode::OK, bad_params)),
            ),
            (
                r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x","arguments":"y"}}"#,
                Some((StatusCode::OK, bad_params)),
            ),
            (
                r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x","arguments":[1]}}"#,
                Some((StatusCode::OK, bad_params)),
            ),
            (r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x","arguments":{}}}"#, None),
            (
                r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#,
                None,
            ),
            (r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, None),
            (
                r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"a","name":"b"}}"#,
                Some((StatusCode::OK, bad_params)),
            ),
            (
                r#"{"jsonrpc":"2.0","id":2,"id":3,"method":"tools/call","params":{}}"#,
                Some((StatusCode::OK, -32600)),
            ),
        ] {
            assert_eq!(code_of(body), want, "{body}");
        }
    }
}
