//! Who is calling: identity and hints read from one request.

use http::request::Parts;
use rmcp::model::ProtocolVersion;
use rmcp::service::{RequestContext, RoleServer};

use crate::state::LocalContext;

/// Header the stdio shim sends: one id per shim process.
pub const H_SESSION: &str = "x-mooring-session";
/// Header naming the workspace directory (resolution level 3).
pub const H_WORKSPACE: &str = "x-workspace-id";
/// Header with the shim's working directory (as a `file://` URI).
pub const H_CWD: &str = "x-mooring-cwd";
/// Header with the shim's `MOORING_PROJECT`.
pub const H_PROJECT: &str = "x-mooring-project";
/// Header with the client's process id (the shim's parent).
pub const H_CLIENT_PID: &str = "x-mooring-client-pid";
/// The MCP protocol session header.
pub const H_MCP_SESSION: &str = "mcp-session-id";

/// One request's caller.
#[derive(Debug, Clone, Default)]
pub struct Caller {
    /// Mooring session id: `X-Mooring-Session`, else `Mcp-Session-Id`, else none.
    pub session_id: Option<String>,
    /// `http`, `hub-stdio` or `stdio`.
    pub transport: &'static str,
    /// Workspace from the header or `--workspace-id`.
    pub workspace: Option<String>,
    /// Working directory of the agent's process.
    pub cwd: Option<String>,
    /// `MOORING_PROJECT` of the agent's process.
    pub env_project: Option<String>,
    /// The client's process, when the connection came through `mooring stdio`.
    pub client_pid: Option<i64>,
    /// Whether the client speaks a protocol with `initialize` (server→client requests allowed).
    pub legacy: bool,
    /// Whether the client declared form elicitation.
    pub elicitation: bool,
    /// Whether the client declared roots.
    pub roots: bool,
    /// Whether the client renders MCP Apps (the `io.modelcontextprotocol/ui` extension
    /// with its HTML profile).
    pub apps: bool,
    /// Client name and version.
    pub client_name: Option<String>,
    /// Client version.
    pub client_version: Option<String>,
    /// Negotiated protocol version.
    pub protocol: Option<String>,
}

/// The MCP Apps extension's id (capability negotiation, SEP-1724).
pub const UI_EXTENSION: &str = "io.modelcontextprotocol/ui";
/// The MIME type of an MCP App's HTML.
pub const APP_MIME: &str = "text/html;profile=mcp-app";

/// Whether a client's capabilities say it renders MCP Apps: the extension, listing the
/// HTML profile among its MIME types.
pub fn renders_apps(c: &rmcp::model::ClientCapabilities) -> bool {
    let settings = c.extensions.as_ref().and_then(|e| e.get(UI_EXTENSION));
    settings
        .and_then(|s| s.get("mimeTypes"))
        .and_then(|m| m.as_array())
        .is_some_and(|m| m.iter().any(|v| v.as_str() == Some(APP_MIME)))
}

/// The shim's identity from its header, if it is one Mooring could have made (a weak
/// or made-up value is no identity at all).
pub fn shim_session(header: Option<String>) -> Option<String> {
    header.filter(|id| mooring_core::guard::secret::is_strong_id(id))
}

impl Caller {
    /// Read the caller from a request context (HTTP headers when present, else the
    /// standalone stdio process's own context).
    pub fn from_ctx(ctx: &RequestContext<RoleServer>, local: Option<&LocalContext>) -> Self {
        let parts = ctx.extensions.get::<Parts>();
        let header = |name: &str| {
            parts
                .and_then(|p| p.headers.get(name))
                .and_then(|v| v.to_str().ok())
                .map(str::trim)
                .filter(|v| !v.is_empty() && v.len() <= 4096)
                .map(str::to_owned)
        };
        let protocol = ctx.protocol_version();
        let capabilities = ctx.client_capabilities();
        let info = ctx.client_info();
        let mut caller = Caller {
            legacy: protocol.as_ref().is_none_or(ProtocolVersion::has_initialize),
            elicitation: capabilities.as_ref().is_some_and(|c| c.elicitation.is_some()),
            roots: capabilities.as_ref().is_some_and(|c| c.roots.is_some()),
            apps: capabilities.as_ref().is_some_and(renders_apps),
            client_name: info.as_ref().map(|i| i.name.clone()),
            client_version: info.as_ref().map(|i| i.version.clone()),
            protocol: protocol.map(|p| p.to_string()),
            ..Caller::default()
        };
        if parts.is_some() {
            let shim = shim_session(header(H_SESSION));
            caller.transport = if shim.is_some() { "hub-stdio" } else { "http" };
            caller.session_id = shim.or_else(|| header(H_MCP_SESSION));
            caller.workspace = header(H_WORKSPACE);
            caller.cwd = header(H_CWD);
            caller.env_project = header(H_PROJECT);
            // Only a shim says which process it serves.
            if caller.transport == "hub-stdio" {
                caller.client_pid =
                    header(H_CLIENT_PID).and_then(|p| p.parse::<i64>().ok()).filter(|p| *p > 1);
            }
        } else if let Some(local) = local {
            caller.transport = local.transport;
            caller.session_id = Some(local.session_id.clone());
            caller.workspace = local.workspace.clone();
            caller.cwd = local.cwd.clone();
            caller.env_project = local.env_project.clone();
            caller.client_pid = local.client_pid;
        } else {
            caller.transport = "stdio";
        }
        caller
    }

    /// The tracking row facts for this caller.
    pub fn seen(&self) -> mooring_core::store::sessions::ClientFacts<'_> {
        mooring_core::store::sessions::ClientFacts {
            client_name: self.client_name.as_deref(),
            client_version: self.client_version.as_deref(),
            transport: self.transport,
            protocol_version: self.protocol.as_deref(),
        }
    }
}
