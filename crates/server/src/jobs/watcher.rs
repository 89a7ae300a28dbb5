//! The code-path watcher the hub runs, started off the async threads.

use std::sync::Arc;

use crate::state::AppState;

/// The code-path watcher; without it (no inotify left, say) resolution still works, it
/// just stops following moves.
pub async fn start_watcher(state: &Arc<AppState>) -> Option<mooring_core::projects::watch::PathWatcher> {
    let (store, surfaces) = (state.store.clone(), state.surfaces.clone());
    let started = tokio::task::spawn_blocking(move || {
        mooring_core::projects::watch::PathWatcher::start(
            store,
            Box::new(move || surfaces.projects_changed()),
        )
    })
    .await;
    match started {
        Ok(Ok(w)) => {
            tracing::info!(watches = w.watch_count(), "watching code directories");
            Some(w)
        }
        Ok(Err(e)) => {
            tracing::warn!(error = %e, "not watching code directories; moved ones will need `mooring projects SLUG --add-code-path`");
            None
        }
        Err(e) => {
            tracing::warn!(error = %e, "the watcher failed to start");
            None
        }
    }
}
