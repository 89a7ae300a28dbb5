//! Agent sessions: who is talking to us, and which project they chose.

use serde_json::json;

use crate::error::{Error, Result};
use crate::humanize::now;
use crate::model::{Project, ProjectStatus};
use crate::registry::find;
use crate::store::sessions::{self, Seen, SessionRecord};
use crate::store::{Store, events, projects};

/// Record that a session made a request (creates it on first sight).
pub fn touch(store: &Store, id: &str, seen: &Seen<'_>) -> Result<SessionRecord> {
    store.write(|tx| {
        sessions::upsert_seen(tx, id, seen, &now())?;
        sessions::get(tx, id)?.ok_or_else(|| Error::storage("the session row vanished; try again"))
    })
}

/// A session, if known.
pub fn get(store: &Store, id: &str) -> Result<Option<SessionRecord>> {
    store.read(|c| sessions::get(c, id))
}

/// Bind a session to a project; archived projects cannot be chosen.
pub fn bind(store: &Store, id: &str, slug: &str, decided_by: &str) -> Result<Project> {
    store.write(|tx| {
        let project = find(tx, "project", slug)?;
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
        sessions::set_project(tx, id, Some(project.id), Some(decided_by), &stamp)?;
        projects::mark_used(tx, project.id, &stamp)?;
        if before.as_deref() != Some(project.slug.as_str()) {
            events::record(
                tx,
                project.id,
                &project.slug,
                "session_bound",
                // The client by name: the audit log never keeps a session id (a secret).
                &json!({ "client": client, "decided_by": decided_by }),
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
