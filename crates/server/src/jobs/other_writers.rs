//! Writes other processes make to the store — `mooring` commands, the clients' hooks
//! capturing a session, another `mooring stdio` — reach the dashboard and the MCP
//! resource subscribers too, within a second.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use mooring_core::store::commits_seen::CommitsSeen;
use tokio_util::sync::CancellationToken;

use crate::state::AppState;

/// How often the store is asked; a person notices a second, the disk does not.
const EVERY: Duration = Duration::from_millis(700);

/// Watch the database `db` until `cancel`; a commit from elsewhere refreshes what is shown.
pub async fn watch(db: PathBuf, state: Arc<AppState>, cancel: CancellationToken) {
    let mut seen = match CommitsSeen::open(&db) {
        Ok(s) => s,
        Err(e) => {
            tracing::warn!(error = %e.message, "cannot watch the store for other processes' writes");
            return;
        }
    };
    let mut ticks = crate::jobs::ticks::Ticks::new(EVERY, cancel);
    while ticks.next().await {
        if seen.changed().unwrap_or(false) {
            state.everything_changed();
        }
    }
}
