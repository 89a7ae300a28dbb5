//! The floor of the MCP SDK itself: an rmcp server whose one tool returns a small
//! structured result without touching anything. rmcp 3.9 is the SDK we build on (no
//! hand-rolled JSON-RPC), so its own dispatch, parse and encode cost per call is part of
//! every Mooring call; these rows show how much, on the same transports and in the same
//! run, next to the raw floors.

use std::sync::Arc;

use rmcp::handler::server::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ListToolsResult, PaginatedRequestParams,
    ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServiceExt};
use serde_json::json;

/// A server with one tool, answered with `{"projects": []}` for any name.
#[derive(Clone)]
struct Trivial;

impl ServerHandler for Trivial {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let schema = json!({ "type": "object" }).as_object().cloned().unwrap_or_default();
        Ok(ListToolsResult::with_all_items(vec![Tool::new("list_projects", "Projects.", Arc::new(schema))]))
    }

    async fn call_tool(
        &self,
        _request: CallToolRequestParams,
        _ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        Ok(CallToolResult::structured(json!({ "projects": [] })).into())
    }
}

/// `mcp-load --rmcp-stdio`: serve the trivial tool over this process's stdio, on the
/// same pipe streams and single-thread runtime as `mooring stdio`.
pub(crate) fn serve_stdio() {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let service = Trivial.serve(mooring_server::transport::stdio::stdio_streams()).await.unwrap();
        let _ = service.waiting().await;
    });
}

/// Serve the trivial tool over streamable HTTP with rmcp's default configuration (a
/// 2026-07-28 request is stateless whatever the session manager) on its own thread;
/// returns the URL and the thread's id.
pub(crate) fn serve_http() -> (String, u32) {
    use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

    super::floor::serve_on_own_thread(|| {
        let service = StreamableHttpService::new(
            || Ok(Trivial),
            Arc::new(LocalSessionManager::default()),
            StreamableHttpServerConfig::default(),
        );
        axum::Router::new().nest_service("/mcp", service)
    })
}
