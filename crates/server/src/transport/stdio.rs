//! `mooring stdio`: what an MCP client launches. With a hub running it bridges stdio to
//! the hub's HTTP endpoint, adding the hints a standalone server would use; without one
//! it serves MCP itself on the same database.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use http::{HeaderName, HeaderValue};
use mooring_core::Store;
use rmcp::ServiceExt;
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{StreamableHttpClientTransport, Transport};

use crate::caller::{H_CLIENT_PID, H_CWD, H_PROJECT, H_SESSION, H_WORKSPACE};
use crate::endpoint;
use crate::mcp::MooringMcp;
use crate::state::{AppState, LocalContext};
use crate::surfaces::Headless;

/// The hints of the process the client started.
#[derive(Debug, Clone, Default)]
pub struct ShimHints {
    /// `--workspace-id`.
    pub workspace: Option<String>,
    /// Working directory.
    pub cwd: Option<String>,
    /// `MOORING_PROJECT`.
    pub env_project: Option<String>,
    /// The client's process (this shim's parent): ties the connection to the session the
    /// client's hooks report, for the tools that act as that session (`claim`).
    pub client_pid: Option<i64>,
}

/// A fresh session id for this process.
pub fn new_session_id() -> String {
    mooring_core::guard::secret::random_id(mooring_core::guard::secret::SHIM_SESSION)
}

/// The hub's MCP URL if one is running for this data directory.
pub async fn find_hub(data_dir: &Path) -> Option<String> {
    endpoint::running_in(data_dir).await.map(|ep| ep.url)
}

/// Headers that carry the hints to the hub, each at its own level of the order.
pub fn hub_headers(
    session_id: &str,
    hints: &ShimHints,
    token: Option<&str>,
) -> HashMap<HeaderName, HeaderValue> {
    let mut h = HashMap::new();
    let mut put = |name: &'static str, value: &str| {
        if let Ok(v) = HeaderValue::from_str(value) {
            h.insert(HeaderName::from_static(name), v);
        }
    };
    put(H_SESSION, session_id);
    if let Some(t) = token {
        put("authorization", &format!("Bearer {t}"));
    }
    if let Some(ws) = &hints.workspace {
        put(H_WORKSPACE, &as_uri(ws));
    }
    if let Some(cwd) = &hints.cwd {
        put(H_CWD, &as_uri(cwd));
    }
    if let Some(p) = &hints.env_project {
        put(H_PROJECT, p);
    }
    if let Some(pid) = hints.client_pid {
        put(H_CLIENT_PID, &pid.to_string());
    }
    h
}

/// Paths travel as `file://` URIs so any byte of a directory name survives a header.
fn as_uri(path: &str) -> String {
    if path.starts_with("file:") {
        return path.to_owned();
    }
    url::Url::from_file_path(path).map(|u| u.to_string()).unwrap_or_else(|_| path.to_owned())
}

/// Reader half of this process's stdio.
pub type StdinStream = Box<dyn tokio::io::AsyncRead + Send + Unpin>;
/// Writer half of this process's stdio.
pub type StdoutStream = Box<dyn tokio::io::AsyncWrite + Send + Unpin>;

/// This process's stdin and stdout as async streams. Clients start us on pipes, which the
/// reactor polls directly; tokio's own stdio hands every read and write to a blocking
/// thread and back, which was a quarter of the CPU of a `list_memory` call. A terminal or
/// a file keeps tokio's stdio.
#[cfg(unix)]
pub fn stdio_streams() -> (StdinStream, StdoutStream) {
    use std::os::fd::AsFd;
    use tokio::net::unix::pipe;
    let reader: StdinStream =
        match std::io::stdin().as_fd().try_clone_to_owned().map(pipe::Receiver::from_owned_fd) {
            Ok(Ok(r)) => Box::new(r),
            _ => Box::new(tokio::io::stdin()),
        };
    let writer: StdoutStream =
        match std::io::stdout().as_fd().try_clone_to_owned().map(pipe::Sender::from_owned_fd) {
            Ok(Ok(w)) => Box::new(w),
            _ => Box::new(tokio::io::stdout()),
        };
    (reader, writer)
}

/// This process's stdin and stdout as async streams (tokio's own off Unix).
#[cfg(not(unix))]
pub fn stdio_streams() -> (StdinStream, StdoutStream) {
    (Box::new(tokio::io::stdin()), Box::new(tokio::io::stdout()))
}

/// Pump messages between this process's stdio and the hub until either side closes.
pub async fn bridge(url: &str, headers: HashMap<HeaderName, HeaderValue>) -> Result<(), String> {
    let config = StreamableHttpClientTransportConfig::with_uri(url).custom_headers(headers);
    let mut upstream = StreamableHttpClientTransport::from_config(config);
    let (stdin, stdout) = stdio_streams();
    let mut local = AsyncRwTransport::new_server(stdin, stdout);
    loop {
        tokio::select! {
            from_client = local.receive() => match from_client {
                Some(message) => upstream.send(message).await.map_err(|e| format!("hub request failed: {e}"))?,
                None => break,
            },
            from_hub = upstream.receive() => match from_hub {
                Some(message) => local.send(message).await.map_err(|e| format!("stdout closed: {e}"))?,
                None => return Err("the Mooring hub closed the connection".to_owned()),
            },
        }
    }
    let _ = upstream.close().await;
    Ok(())
}

/// Serve MCP over this process's stdio on the store, as the only client.
pub async fn serve_standalone(store: Arc<Store>, session_id: String, hints: ShimHints) -> Result<(), String> {
    let local = LocalContext {
        transport: "stdio",
        session_id,
        workspace: hints.workspace,
        cwd: hints.cwd,
        env_project: hints.env_project,
        client_pid: hints.client_pid,
    };
    store.checkpoint_in_background().map_err(|e| e.message)?;
    let data_dir = store.path().and_then(|p| p.parent()).map(|p| p.to_path_buf());
    let mut state = AppState::new(store, Arc::new(Headless), Duration::from_secs(120), Some(Arc::new(local)));
    if let Some(dir) = &data_dir {
        state.sealer = crate::access::sealed::Sealer::load_or_create(dir)
            .map_err(|e| format!("cannot create the install secret in {}: {e}", dir.display()))?;
    }
    if let Some(dir) = &data_dir {
        let (memory, _team) = mooring_team::memory_for(dir, state.store.clone()).map_err(|e| e.message)?;
        state.memory = Arc::new(memory);
    }
    state.data_dir = data_dir;
    let state = Arc::new(state);
    // With no hub, this server keeps memory in shape as the hub would: it holds the
    // projects' vectors (read afresh at each write's check they cost a `remember` 1.5
    // ms), gives new entries theirs, and merges the keyword index a bounded step after
    // writes (unmerged, each search's setup over many segments cost 0.2 ms a query).
    let cancel = tokio_util::sync::CancellationToken::new();
    tokio::spawn(crate::jobs::indexer::run(state.memory.clone(), state.store.clone(), cancel.clone()));
    // A session's server lives as long as the session: after a busy stretch it gives
    // back what the stretch alone needed, as the hub does.
    tokio::spawn(super::idle_trim::run(state.store.clone(), cancel.clone()));
    let service = MooringMcp::new(state)
        .serve(stdio_streams())
        .await
        .map_err(|e| format!("MCP start-up over stdio failed: {e}"))?;
    // Start-up is over: what of the binary it alone ran need not stay resident.
    super::code_pages::on_demand();
    let stopped = service.waiting().await.map_err(|e| format!("MCP over stdio stopped: {e}"));
    cancel.cancel();
    stopped.map(|_| ())
}
