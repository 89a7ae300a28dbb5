//! The HTTP surface: `/mcp` (rmcp Streamable HTTP) and `/health`, behind Host and Origin
//! checks that keep other machines' pages out.

use std::sync::Arc;

use axum::Router;
use axum::extract::Request;
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Json, Response};
use axum::routing::get;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::json;
use tokio_util::sync::CancellationToken;

use crate::config::ServerConfig;
use crate::mcp::MooringMcp;
use crate::session_store::SqliteSessionStore;
use crate::state::AppState;

/// Host names a local client may use.
const LOOPBACK_HOSTS: [&str; 3] = ["localhost", "127.0.0.1", "::1"];
/// Browser origins allowed to call us: pages served from this machine.
const LOOPBACK_ORIGINS: [&str; 3] = ["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"];

/// The router for a started server.
pub fn router(
    state: Arc<AppState>,
    config: &ServerConfig,
    token: String,
    cancel: CancellationToken,
) -> Router {
    let mut sessions = LocalSessionManager::default();
    sessions.session_config.keep_alive = Some(config.session_idle);
    let mut mcp_config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(LOOPBACK_HOSTS)
        .with_allowed_origins(LOOPBACK_ORIGINS)
        .enforce_origin_validation()
        .with_max_request_body_bytes(config.max_body_bytes)
        .with_cancellation_token(cancel);
    mcp_config.session_store = Some(Arc::new(SqliteSessionStore::new(state.store.clone())));
    let factory_state = state.clone();
    let mcp = StreamableHttpService::new(
        move || Ok(MooringMcp::new(factory_state.clone())),
        Arc::new(sessions),
        mcp_config,
    );
    Router::new()
        .route("/health", get(health))
        .nest_service("/mcp", mcp)
        .merge(crate::rest::router(state.clone(), token))
        .merge(crate::pages::router(state))
        .layer(tower_http::limit::RequestBodyLimitLayer::new(config.max_body_bytes))
        .layer(middleware::from_fn(guard))
}

async fn health() -> Json<serde_json::Value> {
    Json(json!({
        "name": "mooring",
        "version": env!("CARGO_PKG_VERSION"),
        "pid": std::process::id(),
        "mcp": "/mcp",
    }))
}

/// Refuse requests whose Host is not loopback (DNS rebinding) or whose Origin is a page
/// from elsewhere.
async fn guard(request: Request, next: Next) -> Response {
    if let Err(why) = check_headers(request.headers()) {
        return (StatusCode::FORBIDDEN, Json(json!({ "error": { "code": "FORBIDDEN", "message": why } })))
            .into_response();
    }
    next.run(request).await
}

fn check_headers(headers: &HeaderMap) -> Result<(), String> {
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok()).unwrap_or("");
    if !is_loopback_authority(host) {
        return Err(format!("Host '{host}' is not this machine; connect to 127.0.0.1"));
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        let rest = origin.strip_prefix("http://").unwrap_or("");
        if rest.is_empty() || !is_loopback_authority(rest) {
            return Err(format!("Origin '{origin}' is not a page on this machine"));
        }
    }
    Ok(())
}

/// `127.0.0.1:7423`, `localhost`, `[::1]:80` → true.
fn is_loopback_authority(authority: &str) -> bool {
    let host = if let Some(rest) = authority.strip_prefix('[') {
        rest.split(']').next().unwrap_or("")
    } else {
        authority.rsplit_once(':').map_or(authority, |(h, port)| {
            if port.chars().all(|c| c.is_ascii_digit()) { h } else { authority }
        })
    };
    LOOPBACK_HOSTS.iter().any(|l| host.eq_ignore_ascii_case(l))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(host: &str, origin: Option<&str>) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, HeaderValue::from_str(host).unwrap());
        if let Some(o) = origin {
            h.insert(header::ORIGIN, HeaderValue::from_str(o).unwrap());
        }
        h
    }

    #[test]
    fn loopback_hosts_and_origins_pass() {
        for (host, origin) in [
            ("127.0.0.1:7423", None),
            ("localhost", None),
            ("[::1]:7423", Some("http://[::1]:9000")),
            ("127.0.0.1:7423", Some("http://localhost:5173")),
        ] {
            assert!(check_headers(&headers(host, origin)).is_ok(), "{host} {origin:?}");
        }
    }

    #[test]
    fn foreign_hosts_and_origins_are_refused() {
        for (host, origin) in [
            ("evil.example", None),
            ("127.0.0.1.evil.example:7423", None),
            ("127.0.0.1:7423", Some("http://evil.example")),
            ("127.0.0.1:7423", Some("https://127.0.0.1.evil.example")),
            ("127.0.0.1:7423", Some("null")),
            ("", None),
        ] {
            assert!(check_headers(&headers(host, origin)).is_err(), "{host} {origin:?}");
        }
    }
}
