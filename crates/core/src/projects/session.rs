//! Agent sessions: who is talking to us, and which project they chose.

use chrono::{DateTime, Utc};
use serde_json::json;

use crate::error::{Error, Result};
use crate::humanize::{format_ts, now};
use crate::model::{Project, ProjectStatus};
use crate::projects::decided_by::DecidedBy;
use crate::store::projects::find_row;
use crate::store::sessions::{self, AgentSession, ClientFacts};
use crate::store::{Store, events, projects};

/// How old `last_seen_at` may get before a request writes it again. Below it, a request
/// from a session whose client details are unchanged costs a read, not a write
/// transaction; the dashboard shows minutes and expiry works in hours.
pub(crate) const TOUCH_EVERY_SECS: i64 = 15;

/// Record that a session made a request (creates it on first sight).
pub fn touch(store: &Store, id: &str, seen: &ClientFacts<'_>) -> Result<AgentSession> {
    let now_t = Utc::now();
    if let Some(row) = store.read(|c| sessions::get(c, id))?
        && unchanged(&row, seen, now_t)
    {
        return Ok(row);
    }
    let stamp = format_ts(now_t);
    store.write(|tx| {
        sessions::upsert_seen(tx, id, seen, &stamp)?;
        sessions::get(tx, id)?.ok_or_else(|| Error::storage("the session row vanished; try again"))
    })
}

/// Whether writing `seen` would change nothing but a recent `last_seen_at`.
fn unchanged(row: &AgentSession, seen: &ClientFacts<'_>, now: DateTime<Utc>) -> bool {
    let same = |new: Option<&str>, old: &Option<String>| new.is_none_or(|n| old.as_deref() == Some(n));
    row.transport == seen.transport
        && same(seen.client_name, &row.client_name)
        && same(seen.client_version, &row.client_version)
        && same(seen.protocol_version, &row.protocol_version)
        && DateTime::parse_from_rfc3339(&row.last_seen_at)
            .is_ok_and(|t| (now - t.with_timezone(&Utc)).num_seconds() < TOUCH_EVERY_SECS)
}

/// A session, if known.
pub fn get(store: &Store, id: &str) -> Result<Option<AgentSession>> {
    store.read(|c| sessions::get(c, id))
}

/// Bind a session to a project; archived projects cannot be chosen.
pub fn bind(store: &Store, id: &str, slug: &str, decided_by: DecidedBy) -> Result<Project> {
    store.write(|tx| {
        let project = find_row(tx, "project", slug)?;
        if project.status == ProjectStatus::Archived {
            return Err(Error::invalid(
                "project",
                format!("project '{}' is archived; resume it before working in it", project.slug),
            ));
        }
        let stamp = now();
        let row = sessions::get(tx, id)?;
        let client = row.as_ref().and_then(|s| s.client_name.clone());
        let before = row.and_then(|s| s.project);
        sessions::set_project(tx, id, Some(project.id), Some(decided_by.as_str()), &stamp)?;
        projects::mark_used(tx, project.id, &stamp)?;
        if before.as_deref() != Some(project.slug.as_str()) {
            events::record(
                tx,
                project.id,
                &project.slug,
                "session_bound",
                // The client by name: the audit log never keeps a session id (a secret).
                &json!({ "client": client, "decided_by": decided_by.as_str() }),
                &stamp,
            )?;
        }
        Ok(project)
    })
}

/// Forget a session's choice.
pub fn clear(store: &Store, id: &str) -> Result<()> {
    store.write(|tx| sessions::set_project(tx, id, None, None, &now()))
}

/// Set or clear the session's workspace directory.
pub fn set_workspace(store: &Store, id: &str, workspace: Option<&str>) -> Result<()> {
    store.write(|tx| sessions::set_workspace(tx, id, workspace))
}

/// Replace the roots a session declared.
pub fn set_roots(store: &Store, id: &str, roots: &[String]) -> Result<()> {
    store.write(|tx| sessions::set_roots(tx, id, roots))
}

/// Refuse a workspace outside the roots a client declared (no roots: anything goes).
/// `field` names where the workspace came from (`workspace_uri`, `X-Workspace-Id`).
pub fn check_within_roots(field: &str, workspace: &std::path::Path, roots: &[String]) -> Result<()> {
    if roots.is_empty() {
        return Ok(());
    }
    let inside = roots
        .iter()
        .filter_map(|r| crate::paths::normalize("roots", r, None).ok())
        .any(|r| workspace.starts_with(&r.path));
    if inside {
        return Ok(());
    }
    Err(Error::invalid(
        field,
        format!(
            "{field} {} is outside the roots this client declared ({}); choose a directory inside one",
            workspace.display(),
            roots.join(", ")
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn changes(store: &Store) -> u64 {
        store.read(|c| Ok(c.total_changes())).unwrap()
    }

    #[test]
    fn a_repeated_request_reads_and_a_changed_client_writes() {
        let store = Store::open_in_memory().unwrap();
        let seen = ClientFacts {
            client_name: Some("claude-code"),
            client_version: Some("2.1"),
            transport: "stdio",
            protocol_version: None,
        };
        let first = touch(&store, "s1", &seen).unwrap();
        let before = changes(&store);
        let again = touch(&store, "s1", &ClientFacts { client_name: None, ..seen.clone() }).unwrap();
        assert_eq!(changes(&store), before, "nothing new: no write");
        assert_eq!(again.last_seen_at, first.last_seen_at);
        let upgraded = touch(&store, "s1", &ClientFacts { client_version: Some("2.2"), ..seen }).unwrap();
        assert!(changes(&store) > before);
        assert_eq!(upgraded.client_version.as_deref(), Some("2.2"));
    }

    #[test]
    fn last_seen_is_written_again_once_it_is_stale() {
        let store = Store::open_in_memory().unwrap();
        let seen = ClientFacts { transport: "http", ..ClientFacts::default() };
        touch(&store, "s1", &seen).unwrap();
        let old = format_ts(Utc::now() - chrono::TimeDelta::seconds(TOUCH_EVERY_SECS + 1));
        store.write(|tx| Ok(tx.execute("UPDATE sessions SET last_seen_at = ?1", [&old])?)).unwrap();
        let row = touch(&store, "s1", &seen).unwrap();
        assert!(row.last_seen_at > old, "{} should be newer than {old}", row.last_seen_at);
    }
}
