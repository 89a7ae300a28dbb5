//! Hourly upkeep of the projects: pause the ones unused for a while, fold old captured
//! sessions into weekly digests.

use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use crate::state::AppState;

/// Pause projects unused for `auto_pause_days` and fold old captured sessions into weekly
/// digests (`fold_after_days`), at start and then hourly.
pub async fn pause_idle_projects(state: Arc<AppState>, cancel: CancellationToken) {
    let mut ticks = super::ticks::Ticks::new(std::time::Duration::from_secs(3600), cancel);
    while ticks.next().await {
        match mooring_core::projects::lifecycle::auto_pause(&state.store, chrono::Utc::now()) {
            Ok(paused) if !paused.is_empty() => {
                tracing::info!(?paused, "paused projects unused for a while");
                state.surfaces.projects_changed();
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "could not check for idle projects"),
        }
        let (store, memory) = (state.store.clone(), state.memory.clone());
        let folded = tokio::task::spawn_blocking(move || {
            mooring_core::capture::digest::roll_up_all(&store, memory.as_ref(), None, chrono::Utc::now())
        })
        .await;
        match folded {
            Ok(Ok(done)) if !done.is_empty() => {
                tracing::info!(?done, "folded old sessions into weekly digests")
            }
            Ok(Ok(_)) => {}
            Ok(Err(e)) => tracing::warn!(error = %e, "could not fold old sessions"),
            Err(e) => tracing::warn!(error = %e, "the roll-up stopped"),
        }
    }
}
