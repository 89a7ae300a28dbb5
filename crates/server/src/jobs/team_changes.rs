//! Changes made on other machines of the team, applied here as they are announced: the
//! project list refreshed when it changed, and the project's surfaces (tray, dashboard,
//! resource subscribers) told, as for a change made on this machine.

use std::sync::Arc;

use mooring_team::PgStore;
use mooring_team::listen::Announcement;
use tokio_util::sync::CancellationToken;

use crate::state::AppState;

/// Listen for the team's changes until `cancel`.
pub fn follow(state: Arc<AppState>, team: Arc<PgStore>, cancel: CancellationToken) {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Announcement>();
    team.listen(Arc::new(move |change| {
        let _ = tx.send(change);
    }));
    tokio::spawn(async move {
        loop {
            let change = tokio::select! {
                _ = cancel.cancelled() => return,
                change = rx.recv() => match change { Some(c) => c, None => return },
            };
            if change.changes_projects() {
                let (store, team) = (state.store.clone(), team.clone());
                match tokio::task::spawn_blocking(move || mooring_team::sync::refresh(&store, &team)).await {
                    Ok(Err(e)) => tracing::warn!(error = %e, "team project list not refreshed"),
                    Err(e) => tracing::warn!(error = %e, "team project list refresh failed"),
                    Ok(Ok(_)) => {}
                }
            }
            if let Some(from) = change.handed_to(team.person()) {
                let body = format!("{from} handed you {}: you own it now.", change.project);
                state.surfaces.notify("A project is yours now", &body);
            }
            if change.is_resync() {
                state.everything_changed();
            } else {
                state.project_changed(&change.project);
            }
        }
    });
}
