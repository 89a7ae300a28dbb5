#![allow(dead_code)]
#![allow(deprecated)] // MCP roots: deprecated from 2026-07-28, still declared by 2025-era clients

//! A real server on 127.0.0.1:0 over a temporary data directory, and rmcp clients of
//! both protocol generations that talk to it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use http::{HeaderName, HeaderValue};
use mooring_core::{NewProject, Registry, Store};
use mooring_server::{Headless, RunningServer, ServerConfig, start_with_store};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, ElicitRequestParams,
    ElicitResult, ElicitationAction, Implementation, ListRootsResult, ProtocolVersion, Root,
};
use rmcp::service::{RequestContext, RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{ClientHandler, ClientLifecycleMode, ClientServiceExt, ErrorData, ServiceExt};
use serde_json::{Value, json};

pub struct TestServer {
    pub dir: tempfile::TempDir,
    pub store: Arc<Store>,
    pub server: Option<RunningServer>,
    pub url: String,
    pub surfaces: Arc<dyn mooring_server::Surfaces>,
}

impl TestServer {
    pub async fn start() -> Self {
        Self::start_with(Arc::new(Headless)).await
    }

    /// A server whose desktop surfaces are `surfaces`.
    pub async fn start_with(surfaces: Arc<dyn mooring_server::Surfaces>) -> Self {
        Self::start_in(tempfile::tempdir().unwrap(), surfaces).await
    }

    /// A server over the data directory `dir` (prepared by the test: a team joined, say).
    pub async fn start_in(dir: tempfile::TempDir, surfaces: Arc<dyn mooring_server::Surfaces>) -> Self {
        let store = Arc::new(Store::open_in(dir.path()).unwrap());
        let mut s = Self { dir, store, server: None, url: String::new(), surfaces };
        s.boot(0).await;
        s
    }

    async fn boot(&mut self, port: u16) {
        let config = test_config(self.dir.path(), port);
        let server = start_with_store(config, self.store.clone(), self.surfaces.clone()).await.unwrap();
        self.url = server.url.clone();
        self.server = Some(server);
    }

    /// Stop and start again on the same port and database.
    pub async fn restart(&mut self) {
        let port = self.server.as_ref().unwrap().addr.port();
        self.server.take().unwrap().shutdown().await;
        self.store = Arc::new(Store::open_in(self.dir.path()).unwrap());
        self.boot(port).await;
    }

    pub fn project(&self, name: &str, code_paths: &[&std::path::Path]) -> String {
        Registry::new(&self.store)
            .create(NewProject {
                name: name.into(),
                code_paths: code_paths.iter().map(|p| p.display().to_string()).collect(),
                ..Default::default()
            })
            .unwrap()
            .project
            .slug
    }

    pub fn base(&self) -> String {
        self.url.trim_end_matches("/mcp").to_owned()
    }
}

/// Which protocol generation the client speaks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Gen {
    /// 2025-11-25: initialize, sessions, server→client requests.
    Legacy,
    /// 2026-07-28: stateless, MRTR.
    Modern,
}

/// A client handler that can answer elicitations and declare roots.
#[derive(Clone, Default)]
pub struct TestClient {
    pub elicit_answer: Option<String>,
    pub elicitations: Arc<AtomicUsize>,
    pub last_schema: Arc<Mutex<Option<Value>>>,
    pub roots: Option<Vec<String>>,
    pub updates: Arc<Mutex<Vec<String>>>,
    /// Content to accept elicitations with (instead of `{"project": elicit_answer}`).
    pub elicit_content: Option<Value>,
    /// Progress notifications received.
    pub progress: Arc<AtomicUsize>,
    /// Roots that a test changes mid-session (wins over `roots`).
    pub live_roots: Option<Arc<Mutex<Vec<String>>>>,
    /// Advertise MCP Apps (`io.modelcontextprotocol/ui` with the HTML profile).
    pub apps: bool,
}

impl TestClient {
    pub fn answering(slug: &str) -> Self {
        Self { elicit_answer: Some(slug.into()), ..Default::default() }
    }
    pub fn elicitation_count(&self) -> usize {
        self.elicitations.load(Ordering::SeqCst)
    }
}

impl ClientHandler for TestClient {
    fn get_info(&self) -> ClientConfig {
        let asks = self.elicit_answer.is_some() || self.elicit_content.is_some();
        let declares = self.roots.is_some() || self.live_roots.is_some();
        let mut caps = match (asks.then_some(()), declares.then_some(())) {
            (Some(_), Some(_)) => ClientCapabilities::builder().enable_elicitation().enable_roots().build(),
            (Some(_), None) => ClientCapabilities::builder().enable_elicitation().build(),
            (None, Some(_)) => ClientCapabilities::builder().enable_roots().build(),
            (None, None) => ClientCapabilities::default(),
        };
        if self.apps {
            let mut ext = rmcp::model::ExtensionCapabilities::new();
            let settings = json!({ "mimeTypes": ["text/html;profile=mcp-app"] });
            ext.insert("io.modelcontextprotocol/ui".into(), settings.as_object().cloned().unwrap());
            caps.extensions = Some(ext);
        }
        ClientConfig::new(caps, Implementation::new("mooring-test", "1.0"))
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _ctx: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        self.elicitations.fetch_add(1, Ordering::SeqCst);
        if let ElicitRequestParams::FormElicitationParams { requested_schema, .. } = &request {
            *self.last_schema.lock().unwrap() = serde_json::to_value(requested_schema).ok();
        }
        if let Some(content) = &self.elicit_content {
            return Ok(ElicitResult::new(ElicitationAction::Accept).with_content(content.clone()));
        }
        Ok(match &self.elicit_answer {
            Some(slug) if slug == "decline" => ElicitResult::new(ElicitationAction::Decline),
            Some(slug) => {
                ElicitResult::new(ElicitationAction::Accept).with_content(json!({ "project": slug }))
            }
            None => ElicitResult::new(ElicitationAction::Decline),
        })
    }

    async fn on_progress(
        &self,
        _params: rmcp::model::ProgressNotificationParam,
        _ctx: rmcp::service::NotificationContext<RoleClient>,
    ) {
        self.progress.fetch_add(1, Ordering::SeqCst);
    }

    async fn on_resource_updated(
        &self,
        params: rmcp::model::ResourceUpdatedNotificationParam,
        _ctx: rmcp::service::NotificationContext<RoleClient>,
    ) {
        self.updates.lock().unwrap().push(params.uri);
    }

    #[allow(deprecated)]
    async fn list_roots(&self, _ctx: RequestContext<RoleClient>) -> Result<ListRootsResult, ErrorData> {
        let roots = match &self.live_roots {
            Some(live) => live.lock().unwrap().clone(),
            None => self.roots.clone().unwrap_or_default(),
        };
        let roots = roots.into_iter().map(Root::new).collect();
        Ok(ListRootsResult::new(roots))
    }
}

pub type Client = RunningService<RoleClient, TestClient>;

pub async fn connect(
    url: &str,
    generation: Gen,
    handler: TestClient,
    headers: &[(&'static str, &str)],
) -> Client {
    let mut map = HashMap::new();
    for (k, v) in headers {
        map.insert(HeaderName::from_static(k), HeaderValue::from_str(v).unwrap());
    }
    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(url).custom_headers(map),
    );
    match generation {
        Gen::Legacy => handler.serve(transport).await.unwrap(),
        Gen::Modern => handler
            .serve_with_lifecycle(
                transport,
                ClientLifecycleMode::Discover { preferred_versions: vec![ProtocolVersion::V_2026_07_28] },
            )
            .await
            .unwrap(),
    }
}

pub async fn call(client: &Client, tool: &str, args: Value) -> CallToolResult {
    let params = CallToolRequestParams::new(tool.to_owned())
        .with_arguments(args.as_object().cloned().unwrap_or_default());
    client.call_tool(params).await.unwrap_or_else(|e| panic!("{tool} failed at the protocol level: {e}"))
}

/// Structured content of a successful call.
pub fn ok(result: &CallToolResult) -> Value {
    assert_ne!(result.is_error, Some(true), "expected success, got {:?}", result);
    result.structured_content.clone().expect("structured content")
}

/// Structured content of an isError call.
pub fn err(result: &CallToolResult) -> Value {
    assert_eq!(result.is_error, Some(true), "expected an error result, got {:?}", result);
    result.structured_content.clone().expect("structured content on errors")
}

/// A 2025-11-25 `initialize` request body from client `name`.
pub fn initialize_body(name: &str) -> String {
    json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{
        "protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":name,"version":"1"}}})
    .to_string()
}

/// A JSON-RPC POST to `url` as a client without an SDK sends it (the headers Streamable
/// HTTP asks for); add headers, then `.send()`.
pub fn raw_post(
    http: &reqwest::Client,
    url: &str,
    body: impl Into<reqwest::Body>,
) -> reqwest::RequestBuilder {
    http.post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(body)
}

/// A server configuration for a test: `port` (0 for any), no endpoint file.
pub fn test_config(dir: &std::path::Path, port: u16) -> ServerConfig {
    let mut config = ServerConfig::new(dir);
    config.port = port;
    config.write_endpoint_file = false;
    config
}
