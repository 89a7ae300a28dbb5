//! Changes made on other machines, as they happen: a connection of its own LISTENs on
//! `mooring_changes` (announced by a trigger on every event) and hands each change to a
//! callback. A lost connection is made again after a pause, so announcements resume by
//! themselves after an outage; what changed meanwhile is read on the next call anyway.

use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;
use tokio_postgres::AsyncMessage;

use crate::PgStore;

/// One change to a team project.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Announcement {
    /// The project's slug.
    pub project: String,
    /// What happened (the event's kind: `memory_added`, `handed_off`, …).
    pub kind: String,
    /// The event's details (for a handoff: `from` and `to`).
    #[serde(default)]
    pub detail: serde_json::Value,
}

impl Announcement {
    /// For a handoff to `person`: who handed it over.
    pub fn handed_to(&self, person: &str) -> Option<&str> {
        (self.kind == "handed_off" && self.detail["to"].as_str() == Some(person))
            .then(|| self.detail["from"].as_str().unwrap_or("its owner"))
    }

    /// Whether the project list itself changed (not only a project's memory).
    pub fn changes_projects(&self) -> bool {
        matches!(
            self.kind.as_str(),
            "created"
                | "edited"
                | "deleted"
                | "member_set"
                | "member_removed"
                | "handed_off"
                | "archived"
                | "status_changed"
                | RESYNC
        )
    }

    /// Whether this stands for "anything may have changed": announcements were not heard
    /// before now (the listening connection was just made, at start or after an outage).
    pub fn is_resync(&self) -> bool {
        self.kind == RESYNC
    }

    fn resync() -> Self {
        Self { project: String::new(), kind: RESYNC.to_owned(), detail: serde_json::Value::Null }
    }
}

/// The kind of the change given once each time listening begins.
const RESYNC: &str = "resync";

/// Pause before connecting again.
const RETRY: Duration = Duration::from_secs(1);

impl PgStore {
    /// Call `on_change` for every change to a team project, from whichever machine,
    /// until the store is dropped; and with a resync change (`Change::is_resync`) each
    /// time listening begins, so nothing announced before it is missed.
    pub fn listen(&self, on_change: Arc<dyn Fn(Announcement) + Send + Sync>) {
        let Some(runtime) = self.runtime.as_ref() else { return };
        let (config, tls) = (self.config.clone(), self.connector.clone());
        runtime.spawn(async move {
            loop {
                if let Err(e) = listen_once(&config, tls.clone(), &on_change).await {
                    tracing::debug!(error = %e, "team change announcements interrupted");
                }
                tokio::time::sleep(RETRY).await;
            }
        });
    }
}

async fn listen_once(
    config: &tokio_postgres::Config,
    tls: tokio_postgres_rustls::MakeRustlsConnect,
    on_change: &Arc<dyn Fn(Announcement) + Send + Sync>,
) -> Result<(), tokio_postgres::Error> {
    let (client, mut connection) = config.connect(tls).await?;
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    // The connection only makes progress while polled: drive it, passing announcements on.
    let driver = tokio::spawn(async move {
        loop {
            match std::future::poll_fn(|cx| connection.poll_message(cx)).await {
                Some(Ok(AsyncMessage::Notification(n))) => {
                    if tx.send(n.payload().to_owned()).is_err() {
                        return;
                    }
                }
                Some(Ok(_)) => {}
                Some(Err(_)) | None => return,
            }
        }
    });
    client.batch_execute("LISTEN mooring_changes").await?;
    // What changed before this point was announced to nobody here (a process starting,
    // or an outage): listening from now on, the caller reads everything once.
    on_change(Announcement::resync());
    while let Some(payload) = rx.recv().await {
        match serde_json::from_str::<Announcement>(&payload) {
            Ok(change) => on_change(change),
            Err(e) => tracing::debug!(error = %e, "unreadable team change announcement"),
        }
    }
    driver.abort();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_handoff_names_who_gave_it_only_to_the_new_owner() {
        let change: Announcement = serde_json::from_str(
            r#"{"project":"billing","kind":"handed_off","detail":{"from":"Ada","to":"Bob"}}"#,
        )
        .unwrap();
        assert_eq!(change.handed_to("Bob"), Some("Ada"));
        assert_eq!(change.handed_to("Ada"), None);
        assert!(change.changes_projects());
        let plain: Announcement =
            serde_json::from_str(r#"{"project":"billing","kind":"memory_added"}"#).unwrap();
        assert_eq!((plain.handed_to("Bob"), plain.changes_projects()), (None, false));
        assert!(!plain.is_resync());
        // Listening (again) means the project list is read once more.
        assert!(Announcement::resync().is_resync() && Announcement::resync().changes_projects());
    }
}
