//! rmcp's in-memory session manager with two bounds it lacks: session ids Mooring makes
//! (256 random bits, prefixed so logs can scrub them), and a cap on live sessions with
//! least-recently-used eviction. An evicted session loses only its in-memory worker:
//! its row (and project choice) stays in the database, and its client's next request
//! restores it from there.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use futures::Stream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::WorkerTransport;
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError, LocalSessionWorker, SessionConfig, create_local_session,
};
use rmcp::transport::streamable_http_server::session::{ServerSseMessage, SessionId};
use rmcp::transport::streamable_http_server::{RestoreOutcome, SessionManager};

/// Called with a session's id when it leaves memory (evicted or closed).
pub type OnEnd = Box<dyn Fn(&str) + Send + Sync>;

/// Live MCP sessions, at most `cap` of them.
pub struct BoundedSessions {
    inner: LocalSessionManager,
    config: SessionConfig,
    cap: usize,
    /// Last use of each live session, by a monotonic tick.
    used: Mutex<HashMap<SessionId, u64>>,
    tick: AtomicU64,
    on_end: OnEnd,
    /// Mirrors [`BoundedSessions::live`] for whoever watches (the running server).
    live_count: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl BoundedSessions {
    /// A manager keeping at most `cap` sessions (at least 1).
    pub fn new(
        config: SessionConfig,
        cap: usize,
        on_end: OnEnd,
        live_count: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    ) -> Self {
        let mut inner = LocalSessionManager::default();
        inner.session_config = config.clone();
        Self {
            inner,
            config,
            cap: cap.max(1),
            used: Mutex::new(HashMap::new()),
            tick: AtomicU64::new(0),
            on_end,
            live_count,
        }
    }

    /// How many sessions are live.
    pub fn live(&self) -> usize {
        self.used().len()
    }

    fn count(&self) {
        self.live_count.store(self.live(), Ordering::Relaxed);
    }

    fn used(&self) -> std::sync::MutexGuard<'_, HashMap<SessionId, u64>> {
        self.used.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn touch(&self, id: &SessionId) {
        let t = self.tick.fetch_add(1, Ordering::Relaxed);
        self.used().insert(id.clone(), t);
    }

    /// Make room for one more session, closing the least recently used ones.
    async fn make_room(&self) {
        loop {
            let victim = {
                let used = self.used();
                if used.len() < self.cap {
                    return;
                }
                used.iter().min_by_key(|(_, t)| **t).map(|(id, _)| id.clone())
            };
            let Some(victim) = victim else { return };
            self.forget(&victim);
            tracing::debug!("evicted the least recently used MCP session (cap {})", self.cap);
            let _ = self.inner.close_session(&victim).await;
        }
    }

    fn forget(&self, id: &SessionId) {
        self.used().remove(id);
        self.count();
        (self.on_end)(id);
    }

    /// A session id Mooring made, and its worker.
    async fn spawn(&self, id: SessionId) -> WorkerTransport<LocalSessionWorker> {
        self.make_room().await;
        let (handle, worker) = create_local_session(id.clone(), self.config.clone());
        self.inner.sessions.write().await.insert(id.clone(), handle);
        self.touch(&id);
        self.count();
        WorkerTransport::spawn(worker)
    }
}

impl SessionManager for BoundedSessions {
    type Error = LocalSessionManagerError;
    type Transport = WorkerTransport<LocalSessionWorker>;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        let id: SessionId =
            mooring_core::guard::secret::random_id(mooring_core::guard::secret::MCP_SESSION).into();
        let transport = self.spawn(id.clone()).await;
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        self.touch(id);
        self.inner.initialize_session(id, message).await
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        self.inner.has_session(id).await
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        self.forget(id);
        self.inner.close_session(id).await
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        self.inner.create_stream(id, message).await
    }

    async fn accept_message(&self, id: &SessionId, message: ClientJsonRpcMessage) -> Result<(), Self::Error> {
        self.touch(id);
        self.inner.accept_message(id, message).await
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        self.inner.create_standalone_stream(id).await
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        self.inner.resume(id, last_event_id).await
    }

    async fn restore_session(&self, id: SessionId) -> Result<RestoreOutcome<Self::Transport>, Self::Error> {
        if self.inner.has_session(&id).await? {
            self.touch(&id);
            return Ok(RestoreOutcome::AlreadyPresent);
        }
        Ok(RestoreOutcome::Restored(self.spawn(id).await))
    }
}
