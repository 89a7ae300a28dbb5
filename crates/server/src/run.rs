//! Starting and stopping a server: bind loopback, serve, advertise the endpoint.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use mooring_core::Store;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::config::ServerConfig;
use crate::endpoint::{self, Endpoint};
use crate::mcp::MooringMcp;
use crate::state::AppState;
use crate::surfaces::Surfaces;
use crate::transport::http;

/// Why a server did not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// Another Mooring already serves this port.
    #[error("Mooring is already running at {url}")]
    AlreadyRunning {
        /// Its MCP URL.
        url: String,
    },
    /// Something else holds the port.
    #[error(
        "port {port} is in use by another program; start Mooring on another port with --port N \
         (or --port 0 for any free one)"
    )]
    PortTaken {
        /// The port.
        port: u16,
    },
    /// The address could not be bound or the store opened.
    #[error("{0}")]
    Other(String),
}

/// A server that is running; stop it with [`RunningServer::shutdown`].
pub struct RunningServer {
    /// The MCP URL (`http://127.0.0.1:PORT/mcp`).
    pub url: String,
    /// The bound address.
    pub addr: SocketAddr,
    /// Shared state (the desktop uses the same store and surfaces).
    pub state: Arc<AppState>,
    cancel: CancellationToken,
    served: mpsc::Receiver<()>,
    endpoint_dir: Option<PathBuf>,
    /// Said once at start: the port asked for was taken, so another one was chosen.
    pub note: Option<String>,
    /// Stops with the server.
    _watcher: Option<mooring_core::projects::watch::PathWatcher>,
}

impl RunningServer {
    /// Stop accepting requests, end sessions, remove the endpoint file.
    pub async fn shutdown(mut self) {
        self.cancel.cancel();
        let _ = self.served.recv().await;
        if let Some(dir) = &self.endpoint_dir {
            endpoint::remove_if_ours(dir);
            let _ = std::fs::remove_file(crate::transport::hub_socket::path_in(dir));
        }
    }

    /// MCP sessions held in memory now.
    pub fn live_sessions(&self) -> usize {
        self.state.live_sessions.load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// Open the store in `config.data_dir` and start.
pub async fn start(config: ServerConfig, surfaces: Arc<dyn Surfaces>) -> Result<RunningServer, StartError> {
    let store = Store::open_in(&config.data_dir).map_err(|e| StartError::Other(e.message))?;
    start_with_store(config, Arc::new(store), surfaces).await
}

/// Start on an already open store (the desktop shares its own).
pub async fn start_with_store(
    config: ServerConfig,
    store: Arc<Store>,
    surfaces: Arc<dyn Surfaces>,
) -> Result<RunningServer, StartError> {
    start_serving(config, store, surfaces, |product| product).await
}

/// Start with each MCP connection over HTTP served by the handler `wrap` makes of the
/// product's own: the seam a test build uses to add to it (the conformance example).
pub async fn start_serving<H: rmcp::ServerHandler + Send + 'static>(
    config: ServerConfig,
    store: Arc<Store>,
    surfaces: Arc<dyn Surfaces>,
    wrap: impl Fn(MooringMcp) -> H + Send + Sync + 'static,
) -> Result<RunningServer, StartError> {
    // The install secret first: it names this data directory's server (in /health) and
    // tells whether a server already on the port is ours.
    let sealer = crate::access::sealed::Sealer::load_or_create(&config.data_dir).map_err(|e| {
        StartError::Other(format!("cannot create the install secret in {}: {e}", config.data_dir.display()))
    })?;
    let addr = SocketAddr::new(config.host, config.port);
    let mut moved = None;
    let listener = match tokio::net::TcpListener::bind(addr).await {
        Ok(l) => l,
        Err(e) if e.kind() == std::io::ErrorKind::AddrInUse => {
            let base = format!("http://{addr}");
            // Adopt only a server of this data directory; anything else on the port (another
            // data directory's Mooring, another user's, another program) is not ours to use.
            if endpoint::serves_install(&base, &sealer.install_id()).await {
                return Err(StartError::AlreadyRunning { url: format!("{base}/mcp") });
            }
            if !config.any_port_if_taken {
                return Err(StartError::PortTaken { port: config.port });
            }
            let free = SocketAddr::new(config.host, 0);
            let l = tokio::net::TcpListener::bind(free)
                .await
                .map_err(|e| StartError::Other(format!("cannot listen on {free}: {e}")))?;
            moved = Some(config.port);
            l
        }
        Err(e) => return Err(StartError::Other(format!("cannot listen on {addr}: {e}"))),
    };
    let addr = listener.local_addr().map_err(|e| StartError::Other(e.to_string()))?;
    let url = format!("http://{addr}/mcp");
    // A server lives long: the log is folded back off the request path.
    store.checkpoint_in_background().map_err(|e| StartError::Other(e.message))?;
    let mut state = AppState::new(store, surfaces, config.pick_timeout, None);
    state.data_dir = Some(config.data_dir.clone());
    // A joined team: its projects' memory goes to the team database (an unreachable one
    // is reported on each call to a team project; local projects are unaffected).
    let (memory, team) = mooring_team::memory_for(&config.data_dir, state.store.clone())
        .map_err(|e| StartError::Other(e.message))?;
    state.memory = Arc::new(memory);
    state.team = team.clone();
    state.sealer = sealer;
    state.base_url = Some(format!("http://{addr}"));
    let cancel = CancellationToken::new();
    state.stopping = cancel.clone();
    let state = Arc::new(state);
    let token = crate::access::token::load_or_create(&config.data_dir).map_err(|e| {
        StartError::Other(format!("cannot create the API token in {}: {e}", config.data_dir.display()))
    })?;
    let app = http::router_serving(state.clone(), &config, addr.port(), token, cancel.clone(), wrap);
    let stop = cancel.clone();
    let listener =
        listener.into_std().map_err(|e| StartError::Other(format!("cannot hand the listener over: {e}")))?;
    // The shim's socket, for the hub of a data directory (what writes the endpoint file).
    let socket = if config.write_endpoint_file { bind_socket(&config.data_dir) } else { None };
    let served = serve_on_threads(listener, socket, state.clone(), app, stop, config.limits)
        .map_err(|e| StartError::Other(format!("cannot start the HTTP thread: {e}")))?;
    tokio::spawn(crate::jobs::idle::pause_idle_projects(state.clone(), cancel.clone()));
    tokio::spawn(crate::jobs::import::import_clients_memory(state.clone(), cancel.clone()));
    let db = config.data_dir.join(mooring_core::store::DB_FILE);
    tokio::spawn(crate::jobs::other_writers::watch(db, state.clone(), cancel.clone()));
    tokio::spawn(crate::transport::idle_trim::run(state.store.clone(), cancel.clone()));
    tokio::spawn(crate::jobs::indexer::run(state.memory.clone(), state.store.clone(), cancel.clone()));
    if let Some(team) = team {
        crate::jobs::team_changes::follow(state.clone(), team, cancel.clone());
    }
    let watcher = crate::jobs::watcher::start_watcher(&state).await;
    // The phone's platforms belong to the hub of a data directory, not to each stdio server.
    if config.write_endpoint_file {
        crate::remote::start(state.clone(), config.data_dir.clone(), cancel.clone());
    }
    let endpoint_dir = if config.write_endpoint_file {
        let ep = Endpoint {
            url: url.clone(),
            port: addr.port(),
            pid: std::process::id(),
            started_at: mooring_core::humanize::now(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
            owner: config.owner.clone(),
        };
        match endpoint::write(&config.data_dir, &ep) {
            Ok(_) => Some(config.data_dir.clone()),
            Err(e) => {
                tracing::warn!(error = %e, "could not write endpoint.json; mooring stdio will not find this server");
                None
            }
        }
    } else {
        None
    };
    let note = moved.map(|port| {
        format!(
            "port {port} is taken by something that does not serve this data directory (another \
             program, another data directory's or another user's Mooring); listening on {} instead \
             (`mooring stdio` finds it through {})",
            addr.port(),
            endpoint::FILE
        )
    });
    if let Some(n) = &note {
        tracing::warn!("{n}");
    }
    tracing::info!(%url, "Mooring MCP server listening");
    Ok(RunningServer { url, addr, state, cancel, served, endpoint_dir, note, _watcher: watcher })
}

/// Serve HTTP on threads of its own, each with a single-threaded runtime, whatever
/// runtime the host (the desktop, `mooring serve`) runs. A connection stays on the thread
/// that accepted it, which spares every request the cross-thread wake-ups of a
/// work-stealing pool (`mcp-load`: `list_memory` over HTTP 0.44 ms of CPU on two workers,
/// 0.29 on one), while many sessions still spread over the cores (reads run on their own
/// SQLite connections when the writer's is busy). The hub socket is served on the first.
fn serve_on_threads(
    listener: std::net::TcpListener,
    mut socket: Option<Socket>,
    state: Arc<AppState>,
    app: axum::Router,
    stop: CancellationToken,
    limits: crate::config::Limits,
) -> std::io::Result<mpsc::Receiver<()>> {
    let threads = http_threads();
    // Each thread holds a sender; the receiver ends once every thread has stopped.
    let (done, served) = mpsc::channel(1);
    let share = crate::config::Limits {
        max_connections: limits.max_connections.div_ceil(threads).max(1),
        max_per_owner: limits.max_per_owner.div_ceil(threads).max(1),
        ..limits
    };
    for n in 0..threads {
        let listener = listener.try_clone()?;
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
        let (app, stop, state, done) = (app.clone(), stop.clone(), state.clone(), done.clone());
        let socket = socket.take();
        std::thread::Builder::new().name(format!("mooring-http-{n}")).spawn(move || {
            runtime.block_on(async move {
                let http = async {
                    match tokio::net::TcpListener::from_std(listener) {
                        Ok(l) => crate::transport::listen::serve(l, app, stop.clone(), share).await,
                        Err(e) => tracing::error!(error = %e, "cannot serve HTTP"),
                    }
                };
                tokio::join!(http, serve_socket(socket, state, stop.clone(), limits.max_connections));
            });
            drop(done);
        })?;
    }
    Ok(served)
}

/// One HTTP thread per core, up to four: beyond that SQLite's single writer and the
/// shared database decide the throughput, not the threads.
fn http_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(4))
}

#[cfg(unix)]
type Socket = std::os::unix::net::UnixListener;
#[cfg(not(unix))]
type Socket = ();

#[cfg(unix)]
fn bind_socket(data_dir: &std::path::Path) -> Option<Socket> {
    crate::transport::hub_socket::bind(data_dir)
        .inspect_err(|e| tracing::info!(error = %e, "no hub socket; shims bridge over HTTP"))
        .ok()
}

#[cfg(not(unix))]
fn bind_socket(_data_dir: &std::path::Path) -> Option<Socket> {
    None
}

#[cfg(unix)]
async fn serve_socket(socket: Option<Socket>, state: Arc<AppState>, stop: CancellationToken, max: usize) {
    let Some(socket) = socket else { return };
    match tokio::net::UnixListener::from_std(socket) {
        Ok(l) => crate::transport::hub_socket::serve(l, state, stop, max).await,
        Err(e) => tracing::error!(error = %e, "cannot serve the hub socket"),
    }
}

#[cfg(not(unix))]
async fn serve_socket(_socket: Option<Socket>, _state: Arc<AppState>, _stop: CancellationToken, _max: usize) {
}
