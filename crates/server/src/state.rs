//! Shared state of one server process. Nothing here is per agent: per-agent facts live
//! in the `sessions` table, keyed by an explicit identity.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mooring_core::Store;
use rmcp::Peer;
use rmcp::model::ResourceUpdatedNotificationParam;
use rmcp::service::RoleServer;

use crate::surfaces::Surfaces;

/// Open question-page WebSockets at once.
pub const MAX_WEBSOCKETS: usize = 64;

/// Hints a standalone stdio server knows about its one client (its own process).
#[derive(Debug, Clone, Default)]
pub struct LocalContext {
    /// `stdio` (this process serves its own stdio) or `hub-stdio` (a shim's socket).
    pub transport: &'static str,
    /// Session id for this process.
    pub session_id: String,
    /// `--workspace-id`.
    pub workspace: Option<String>,
    /// The process's working directory.
    pub cwd: Option<String>,
    /// `MOORING_PROJECT`.
    pub env_project: Option<String>,
    /// The client's process, as the shim found it.
    pub client_pid: Option<i64>,
}

/// Everything the MCP handler and HTTP routes share.
pub struct AppState {
    /// The database.
    pub store: Arc<Store>,
    /// Where each project's memory lives: `store`, or the team database for team projects.
    pub memory: Arc<dyn mooring_core::store::backend::MemoryBackend>,
    /// The joined team's database, if any.
    pub team: Option<Arc<mooring_team::PgStore>>,
    /// Desktop windows, or none.
    pub surfaces: Arc<dyn Surfaces>,
    /// How long to wait for a pick in a window.
    pub pick_timeout: Duration,
    /// Set when serving one client over stdio.
    pub local: Option<Arc<LocalContext>>,
    /// Data directory (settings files, the data dir the terminal command names).
    pub data_dir: Option<std::path::PathBuf>,
    /// `http://127.0.0.1:PORT` when serving HTTP (for page URLs).
    pub base_url: Option<String>,
    /// Wakes calls waiting for an interaction's answer.
    pub answered: tokio::sync::Notify,
    /// Sessions waiting for the person to pick their project.
    pub picks: crate::picks::Picks,
    /// Open question-page WebSockets, at most [`MAX_WEBSOCKETS`].
    pub websockets: Arc<tokio::sync::Semaphore>,
    /// The desktop's folder picker: one dialog open at a time, however many pages ask.
    pub folder_dialog: Arc<tokio::sync::Semaphore>,
    /// MCP sessions in memory now (kept by the session manager).
    pub live_sessions: Arc<std::sync::atomic::AtomicUsize>,
    /// Seals request states and question handles with this install's secret.
    pub sealer: crate::access::sealed::Sealer,
    /// The resolution index, rebuilt when the registry changes.
    pub index: mooring_core::projects::live_index::LiveIndex,
    /// Per session: the first fetch of its roots (after initialize, or the first call
    /// that needs them); later callers wait for the same fetch.
    roots_fetched: Mutex<HashMap<String, Arc<tokio::sync::OnceCell<()>>>>,
    /// Resource subscriptions: (session, URI) → the client to notify.
    subscriptions: Mutex<HashMap<(String, String), Peer<RoleServer>>>,
    /// How many changes this server has heard of (the dashboard waits on it).
    pub changes: tokio::sync::watch::Sender<u64>,
    /// Cancelled when the server stops (long waits end then).
    pub stopping: tokio_util::sync::CancellationToken,
}

impl AppState {
    /// Shared state over a store.
    pub fn new(
        store: Arc<Store>,
        surfaces: Arc<dyn Surfaces>,
        pick_timeout: Duration,
        local: Option<Arc<LocalContext>>,
    ) -> Self {
        let (changes, _) = tokio::sync::watch::channel(0);
        Self {
            memory: Arc::new(mooring_core::store::routing::Routed::local(store.clone())),
            team: None,
            store,
            surfaces: Arc::new(crate::changes::Counting::new(surfaces, changes.clone())),
            changes,
            stopping: tokio_util::sync::CancellationToken::new(),
            pick_timeout,
            local,
            data_dir: None,
            base_url: None,
            answered: tokio::sync::Notify::new(),
            picks: crate::picks::Picks::default(),
            sealer: crate::access::sealed::Sealer::ephemeral(),
            live_sessions: Arc::default(),
            websockets: Arc::new(tokio::sync::Semaphore::new(MAX_WEBSOCKETS)),
            folder_dialog: Arc::new(tokio::sync::Semaphore::new(1)),
            index: mooring_core::projects::live_index::LiveIndex::new(),
            roots_fetched: Mutex::new(HashMap::new()),
            subscriptions: Mutex::new(HashMap::new()),
        }
    }

    /// The once-per-session roots fetch of `session_id`.
    pub fn roots_fetch(&self, session_id: &str) -> Arc<tokio::sync::OnceCell<()>> {
        let mut map = self.roots_fetched.lock().unwrap_or_else(|p| p.into_inner());
        map.entry(session_id.to_owned()).or_default().clone()
    }

    /// A session left memory: drop what was kept for it here.
    pub fn forget_session(&self, session_id: &str) {
        self.roots_fetched.lock().unwrap_or_else(|p| p.into_inner()).remove(session_id);
        self.subs().retain(|(s, _), _| s != session_id);
    }

    /// Notify `session` through `peer` when `uri` changes.
    pub fn subscribe(&self, session: String, uri: String, peer: Peer<RoleServer>) {
        self.subs().insert((session, uri), peer);
    }

    /// Stop notifying `session` about `uri`.
    pub fn unsubscribe(&self, session: &str, uri: &str) {
        self.subs().remove(&(session.to_owned(), uri.to_owned()));
    }

    /// Whether the person can pick a session's project now: in a desktop window, or on
    /// a paired phone while away.
    pub fn person_can_pick(&self) -> bool {
        self.surfaces.can_show()
            || self.data_dir.as_deref().is_some_and(|d| {
                mooring_core::remote::RemoteConfig::load(d).is_ok_and(|c| c.away_with_phone())
            })
    }

    /// A project's memory or settings changed: refresh the desktop, notify subscribers.
    pub fn project_changed(&self, slug: &str) {
        let uris = crate::resource_uris::affected(slug);
        self.notify_changed(|uri| uris.iter().any(|u| u == uri));
    }

    /// Anything may have changed (the team was out of earshot): refresh the desktop and
    /// notify every subscriber, which costs one re-read each and misses nothing.
    pub fn everything_changed(&self) {
        self.notify_changed(|_| true);
    }

    fn notify_changed(&self, affects: impl Fn(&str) -> bool) {
        self.surfaces.projects_changed();
        let mut subs = self.subs();
        subs.retain(|_, peer| !peer.is_transport_closed());
        for ((_, uri), peer) in subs.iter() {
            if affects(uri) {
                let (peer, uri) = (peer.clone(), uri.clone());
                tokio::spawn(async move {
                    let _ = peer.notify_resource_updated(ResourceUpdatedNotificationParam::new(uri)).await;
                });
            }
        }
    }

    fn subs(&self) -> std::sync::MutexGuard<'_, HashMap<(String, String), Peer<RoleServer>>> {
        self.subscriptions.lock().unwrap_or_else(|p| p.into_inner())
    }
}
