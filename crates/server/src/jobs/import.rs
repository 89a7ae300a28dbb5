//! The clients' own memory of each project's checkouts, brought in every five minutes
//! when the person turned `import_clients_memory` on.

use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use crate::state::AppState;

/// With `import_clients_memory` on, bring the clients' own memory of every project's
/// checkouts in every 5 minutes (what `mooring import` does when asked).
pub async fn import_clients_memory(state: Arc<AppState>, cancel: CancellationToken) {
    let mut ticks = super::ticks::Ticks::new(std::time::Duration::from_secs(300), cancel);
    while ticks.next().await {
        let (store, memory) = (state.store.clone(), state.memory.clone());
        let done = tokio::task::spawn_blocking(move || {
            let home = std::env::var_os("HOME").map(std::path::PathBuf::from).unwrap_or_default();
            let homes = mooring_core::memory::adopt::Homes::from_env(&home);
            mooring_core::memory::adopt::import_all(&store, memory.as_ref(), &homes, &home)
        })
        .await;
        match done {
            Ok(Ok(done)) => {
                for (slug, d) in &done {
                    tracing::info!(project = %slug, added = d.added, "brought in the clients' memory");
                    state.project_changed(slug);
                }
            }
            Ok(Err(e)) => tracing::warn!(error = %e, "could not bring the clients' memory in"),
            Err(e) => tracing::warn!(error = %e, "the import stopped"),
        }
    }
}
