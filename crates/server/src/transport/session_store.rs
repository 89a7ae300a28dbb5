//! rmcp's session store on the `sessions` table: a legacy MCP session survives a server
//! restart, and with it the project the session chose.

use std::sync::Arc;

use mooring_core::Store;
use mooring_core::store::sessions;
use rmcp::transport::streamable_http_server::session::{SessionState, SessionStore, SessionStoreError};

/// Persists `initialize` parameters per `Mcp-Session-Id`.
pub struct SqliteSessionStore {
    store: Arc<Store>,
}

impl SqliteSessionStore {
    /// Over the shared store.
    pub fn new(store: Arc<Store>) -> Self {
        Self { store }
    }
}

#[async_trait::async_trait]
impl SessionStore for SqliteSessionStore {
    async fn load(&self, session_id: &str) -> Result<Option<SessionState>, SessionStoreError> {
        let json = self.store.read(|c| sessions::init_params(c, session_id))?;
        Ok(json.and_then(|j| serde_json::from_str(&j).ok()))
    }

    async fn store(&self, session_id: &str, state: &SessionState) -> Result<(), SessionStoreError> {
        let json = serde_json::to_string(state)?;
        let now = mooring_core::humanize::now();
        self.store.write(|tx| sessions::set_init_params(tx, session_id, &json, &now))?;
        Ok(())
    }

    async fn delete(&self, session_id: &str) -> Result<(), SessionStoreError> {
        // The Mooring session row (its project and history) stays; only the protocol
        // session ends.
        self.store.write(|tx| sessions::delete_protocol(tx, session_id))?;
        Ok(())
    }
}
