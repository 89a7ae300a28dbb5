//! MCP roots: asked for right after initialize and again when the client says they
//! changed, stored on the session, and matched against code paths at resolution.

use std::sync::Arc;
use std::time::Duration;

use http::request::Parts;
use rmcp::service::{NotificationContext, RequestContext, RoleServer};

use super::gate;
use crate::caller::{Caller, H_MCP_SESSION};
use crate::state::{AppState, LocalContext};

/// How long to wait for a client's roots list.
const ROOTS_TIMEOUT: Duration = Duration::from_secs(3);

/// Fetch the client's roots once per session (legacy clients that declared them).
pub async fn refresh(state: &AppState, caller: &Caller, ctx: &RequestContext<RoleServer>) {
    let Some(id) = caller.session_id.as_deref() else { return };
    if !(caller.legacy && caller.roots) {
        return;
    }
    // The row must exist before the roots are stored on it.
    if let Err(e) = gate::session_of(state, caller) {
        tracing::warn!(error = %e, "could not record the session");
        return;
    }
    // Started after initialize already, usually: wait for that fetch instead.
    let once = state.roots_fetch(id);
    once.get_or_init(|| fetch_roots(state, &ctx.peer, id)).await;
}

/// After initialize: ask for the roots of a client that declared them.
pub fn after_initialize(
    state: &Arc<AppState>,
    local: Option<&LocalContext>,
    ctx: &NotificationContext<RoleServer>,
) {
    // Roots arrive before the first tool call needs them: ask right away, on a task of
    // its own, since the client answers on the same connection.
    let Some(id) = notified_session(local, ctx) else { return };
    let Some(info) = ctx.peer.peer_info() else { return };
    if info.capabilities.roots.is_none() {
        return;
    }
    let protocol = info.protocol_version.to_string();
    let seen = mooring_core::store::sessions::ClientFacts {
        client_name: Some(&info.client_info.name),
        client_version: Some(&info.client_info.version),
        transport: if ctx.extensions.get::<Parts>().is_some() { "http" } else { "stdio" },
        protocol_version: Some(&protocol),
    };
    if let Err(e) = mooring_core::projects::session::touch(&state.store, &id, &seen) {
        tracing::warn!(error = %e, "could not record the session");
        return;
    }
    let (state, peer) = (state.clone(), ctx.peer.clone());
    tokio::spawn(async move {
        let once = state.roots_fetch(&id);
        once.get_or_init(|| fetch_roots(&state, &peer, &id)).await;
    });
}

/// `notifications/roots/list_changed`: ask again.
pub fn changed(state: &Arc<AppState>, local: Option<&LocalContext>, ctx: &NotificationContext<RoleServer>) {
    let Some(id) = notified_session(local, ctx) else { return };
    let (state, peer) = (state.clone(), ctx.peer.clone());
    tokio::spawn(async move { fetch_roots(&state, &peer, &id).await });
}

/// Ask the client for its roots (MCP roots are deprecated from 2026-07-28 on, but
/// 2025-era clients still declare them) and store them on the session.
#[allow(deprecated)]
async fn fetch_roots(state: &AppState, peer: &rmcp::Peer<RoleServer>, session_id: &str) {
    let listed = tokio::time::timeout(ROOTS_TIMEOUT, peer.list_roots()).await;
    if let Ok(Ok(list)) = listed {
        let roots: Vec<String> = list.roots.into_iter().map(|r| r.uri).collect();
        if let Err(e) = mooring_core::projects::session::set_roots(&state.store, session_id, &roots) {
            tracing::warn!(error = %e, "could not store roots");
        }
    }
}

/// The session a notification belongs to: the shim's id, the MCP session, or stdio's own.
fn notified_session(local: Option<&LocalContext>, ctx: &NotificationContext<RoleServer>) -> Option<String> {
    let header = |name: &str| {
        ctx.extensions
            .get::<Parts>()
            .and_then(|p| p.headers.get(name))
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    crate::caller::shim_session(header(crate::caller::H_SESSION))
        .or_else(|| header(H_MCP_SESSION))
        .or_else(|| local.map(|l| l.session_id.clone()))
}
