//! The MCP server, run in-process by the desktop on Tauri's async runtime.

use std::sync::{Arc, Mutex};

use mooring_core::Store;
use mooring_server::state::AppState;
use mooring_server::{RunningServer, ServerConfig, StartError, Surfaces, start_with_store};

/// What the tray says about the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// Starting up.
    Starting,
    /// Serving at this URL.
    Serving(String),
    /// Another Mooring serves this URL; the tray works beside it.
    Elsewhere(String),
    /// Could not start, with the reason.
    Failed(String),
}

impl Status {
    /// The tray's line for it.
    pub fn label(&self) -> String {
        match self {
            Status::Starting => "MCP server starting…".to_owned(),
            Status::Serving(url) => format!("MCP server: {url}"),
            Status::Elsewhere(url) => format!("MCP server (other process): {url}"),
            Status::Failed(why) => format!("MCP server not running: {why}"),
        }
    }
}

/// The running server, kept so Quit can stop it cleanly.
#[derive(Default)]
pub struct Handle {
    running: Mutex<Option<RunningServer>>,
    status: Mutex<Option<Status>>,
}

impl Handle {
    /// Current status.
    pub fn status(&self) -> Status {
        self.status.lock().unwrap_or_else(|p| p.into_inner()).clone().unwrap_or(Status::Starting)
    }

    /// The running server's shared state (picks, questions), when this process runs it.
    pub fn state(&self) -> Option<Arc<AppState>> {
        self.running.lock().unwrap_or_else(|p| p.into_inner()).as_ref().map(|s| s.state.clone())
    }

    /// Start the server; returns the resulting status.
    pub async fn start(
        &self,
        config: ServerConfig,
        store: Arc<Store>,
        surfaces: Arc<dyn Surfaces>,
    ) -> Status {
        let status = match start_with_store(config, store, surfaces).await {
            Ok(server) => {
                let url = server.url.clone();
                *self.running.lock().unwrap_or_else(|p| p.into_inner()) = Some(server);
                Status::Serving(url)
            }
            Err(StartError::AlreadyRunning { url }) => Status::Elsewhere(url),
            Err(e) => Status::Failed(e.to_string()),
        };
        tracing::info!(status = %status.label(), "MCP server");
        *self.status.lock().unwrap_or_else(|p| p.into_inner()) = Some(status.clone());
        status
    }

    /// Stop the server if this process runs it.
    pub async fn stop(&self) {
        let server = self.running.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(server) = server {
            server.shutdown().await;
        }
    }
}
