//! The HTTP surface: `/mcp` (rmcp Streamable HTTP) and `/health`, behind Host and Origin
//! checks that keep other machines' pages out.

use std::sync::Arc;

use axum::Router;
use axum::extract::Request;
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Json, Response};
use axum::routing::get;
use rmcp::ServerHandler;
use rmcp::transport::streamable_http_server::session::local::SessionConfig;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::json;
use tokio_util::sync::CancellationToken;

use crate::config::ServerConfig;
use crate::mcp::MooringMcp;
use crate::state::AppState;
use crate::transport::session_cap::BoundedSessions;
use crate::transport::session_store::SqliteSessionStore;

/// Host names a local client may use.
const LOOPBACK_HOSTS: [&str; 3] = ["localhost", "127.0.0.1", "::1"];

/// The router for a started server.
pub fn router(
    state: Arc<AppState>,
    config: &ServerConfig,
    port: u16,
    token: String,
    cancel: CancellationToken,
) -> Router {
    router_serving(state, config, port, token, cancel, |product| product)
}

/// The router, each MCP connection served by the handler `wrap` makes of the product's
/// own (only a test build wraps it: the conformance example adds the suite's fixtures).
pub fn router_serving<H: ServerHandler + Send + 'static>(
    state: Arc<AppState>,
    config: &ServerConfig,
    port: u16,
    token: String,
    cancel: CancellationToken,
    wrap: impl Fn(MooringMcp) -> H + Send + Sync + 'static,
) -> Router {
    let mut session_config = SessionConfig::default();
    session_config.keep_alive = Some(config.session_idle);
    let ending = state.clone();
    let sessions = Arc::new(BoundedSessions::new(
        session_config,
        config.max_sessions,
        Box::new(move |id| ending.forget_session(id)),
        state.live_sessions.clone(),
    ));
    let front = crate::transport::mcp_front::Front {
        sessions: sessions.clone(),
        store: state.store.clone(),
        max_body: config.max_body_bytes,
    };
    let mut mcp_config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(LOOPBACK_HOSTS)
        .with_allowed_origins([
            format!("http://localhost:{port}"),
            format!("http://127.0.0.1:{port}"),
            format!("http://[::1]:{port}"),
        ])
        .enforce_origin_validation()
        .with_json_response(true)
        .with_max_request_body_bytes(config.max_body_bytes)
        .with_cancellation_token(cancel);
    mcp_config.session_store = Some(Arc::new(SqliteSessionStore::new(state.store.clone())));
    let gate =
        crate::access::LocalAccess { own_uid: crate::access::peer::own_uid(), token: token.clone().into() };
    let factory_state = state.clone();
    let mcp = StreamableHttpService::new(
        move || Ok(wrap(MooringMcp::new(factory_state.clone()))),
        sessions,
        mcp_config,
    );
    Router::new()
        .route("/health", get(health).with_state(state.sealer.install_id()))
        .nest_service(
            "/mcp",
            tower::ServiceBuilder::new()
                .layer(middleware::from_fn_with_state(front, crate::transport::mcp_front::check))
                .service(mcp),
        )
        .merge(crate::rest::router(state.clone(), token))
        .merge(crate::pages::router(state))
        .fallback(|| async { crate::rest::ApiError::no_route() })
        .method_not_allowed_fallback(|| async { crate::rest::ApiError::wrong_method() })
        .layer(tower_http::limit::RequestBodyLimitLayer::new(config.max_body_bytes))
        .layer(middleware::from_fn_with_state(port, guard))
        .layer(middleware::from_fn_with_state(gate, crate::access::guard))
}

/// Who answers here: `install` tells a shim or a second start whether this server serves
/// their data directory (a MAC, so it reveals nothing about the path).
async fn health(axum::extract::State(install): axum::extract::State<String>) -> Json<serde_json::Value> {
    Json(json!({
        "name": "mooring",
        "install": install,
        "version": env!("CARGO_PKG_VERSION"),
        "pid": std::process::id(),
        "mcp": "/mcp",
    }))
}

/// Refuse requests whose Host is not this server (DNS rebinding) or whose Origin is a
/// page from anywhere but this server (another local dev server's page included).
async fn guard(
    axum::extract::State(port): axum::extract::State<u16>,
    request: Request,
    next: Next,
) -> Response {
    if let Err(why) = check_headers(request.headers(), port) {
        return (StatusCode::FORBIDDEN, Json(json!({ "error": { "code": "FORBIDDEN", "message": why } })))
            .into_response();
    }
    next.run(request).await
}

fn check_headers(headers: &HeaderMap, port: u16) -> Result<(), String> {
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok()).unwrap_or("");
    if !is_this_server(host, port) {
        return Err(format!("Host '{host}' is not this server; connect to 127.0.0.1:{port}"));
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        let ours = origin.strip_prefix("http://").is_some_and(|rest| is_this_server(rest, port));
        if !ours {
            return Err(format!("Origin '{origin}' is not a page of this server"));
        }
    }
    Ok(())
}

/// `127.0.0.1:7423`, `localhost:7423`, `[::1]:7423` (and no port when serving on 80):
/// exactly a loopback name and our port, nothing before or after.
fn is_this_server(authority: &str, port: u16) -> bool {
    let (host, given_port) = if let Some(rest) = authority.strip_prefix('[') {
        let Some((inside, after)) = rest.split_once(']') else { return false };
        let p = match after {
            "" => None,
            p => match p.strip_prefix(':') {
                Some(digits) => Some(digits),
                None => return false,
            },
        };
        (inside, p)
    } else {
        match authority.split_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (authority, None),
        }
    };
    let port_ok = match given_port {
        Some(p) => {
            !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()) && p.parse::<u16>().ok() == Some(port)
        }
        None => port == 80,
    };
    port_ok && LOOPBACK_HOSTS.iter().any(|l| host.eq_ignore_ascii_case(l))
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
            ("localhost:7423", None),
            ("[::1]:7423", Some("http://[::1]:7423")),
            ("127.0.0.1:7423", Some("http://localhost:7423")),
        ] {
            assert!(check_headers(&headers(host, origin), 7423).is_ok(), "{host} {origin:?}");
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
            ("[::1]evil.example", None),
            ("[::1]evil.example:7423", None),
            ("[::1]:7423evil", None),
            ("localhost", None),
            ("127.0.0.1:7424", None),
            ("127.0.0.1:07423x", None),
            ("127.0.0.1:", None),
            ("127.0.0.1:7423", Some("http://localhost:5173")),
            ("127.0.0.1:7423", Some("http://[::1]evil.example:7423")),
        ] {
            assert!(check_headers(&headers(host, origin), 7423).is_err(), "{host} {origin:?}");
        }
    }
}
