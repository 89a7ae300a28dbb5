//! The append-only `events` table.

use crate::store::Cached as _;
use rusqlite::{Connection, params};

use crate::error::Result;
use crate::model::Event;

/// Kinds of event a team shares: what happened to a project and its memory, none of
/// them naming a place on one machine. Every other kind (a code path added, removed,
/// moved, missing, bound by a marker or a remote; a session bound; the focus; an import
/// from a directory; an unused project paused here) describes the machine it happened
/// on: a teammate's checkout lives elsewhere and a path names its owner's home, so those
/// stay in this machine's log. A kind added later is local until it is listed here.
pub const SHARED_KINDS: &[&str] = &[
    "created",
    "edited",
    "archived",
    "paused",
    "resumed",
    "status_changed",
    "deleted",
    "shared",
    "member_set",
    "member_removed",
    "handed_off",
    "memory_added",
    "handover_saved",
    "blocker_resolved",
    "memory_forgotten",
    "context_locked",
];

/// Whether events of `kind` go into a team's shared history.
pub fn is_shared(kind: &str) -> bool {
    SHARED_KINDS.contains(&kind)
}

/// A page of a project's events that describe this machine only (not [`SHARED_KINDS`]),
/// newest first, and how many there are: what a team project's history adds here to the
/// team's.
pub fn machine_page(conn: &Connection, project_id: i64, limit: u32) -> Result<(Vec<Event>, u64)> {
    static NOT_SHARED: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        let list = SHARED_KINDS.iter().map(|k| format!("'{k}'")).collect::<Vec<_>>().join(", ");
        format!("project_id = ?1 AND kind NOT IN ({list})")
    });
    let total: i64 =
        conn.row(&format!("SELECT count(*) FROM events WHERE {}", *NOT_SHARED), [project_id], |r| r.get(0))?;
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT project_slug, kind, detail, at FROM events WHERE {} ORDER BY id DESC LIMIT ?2",
        *NOT_SHARED
    ))?;
    let rows = stmt.query_map(params![project_id, limit], from_row)?;
    Ok((rows.collect::<rusqlite::Result<_>>()?, u64::try_from(total).unwrap_or(0)))
}

/// Append an event.
pub fn record(
    conn: &Connection,
    project_id: i64,
    slug: &str,
    kind: &str,
    detail: &serde_json::Value,
    now: &str,
) -> Result<()> {
    conn.exec(
        "INSERT INTO events (project_id, project_slug, kind, detail, at) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![project_id, slug, kind, detail.to_string(), now],
    )?;
    Ok(())
}

/// The events of a project id, oldest first.
pub fn for_project(conn: &Connection, project_id: i64) -> Result<Vec<Event>> {
    let mut stmt = conn.prepare_cached(
        "SELECT project_slug, kind, detail, at FROM events WHERE project_id = ?1 ORDER BY id",
    )?;
    let rows = stmt.query_map([project_id], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// A page of a project's events, newest first, and how many there are in all.
pub fn page(conn: &Connection, project_id: i64, limit: u32, offset: u32) -> Result<(Vec<Event>, u64)> {
    let total: i64 =
        conn.row("SELECT count(*) FROM events WHERE project_id = ?1", [project_id], |r| r.get(0))?;
    let mut stmt = conn.prepare_cached(
        "SELECT project_slug, kind, detail, at FROM events WHERE project_id = ?1 ORDER BY id DESC LIMIT ?2 OFFSET ?3",
    )?;
    let rows = stmt.query_map(rusqlite::params![project_id, limit, offset], from_row)?;
    Ok((rows.collect::<rusqlite::Result<_>>()?, u64::try_from(total).unwrap_or(0)))
}

fn from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Event> {
    let detail: String = r.get(2)?;
    Ok(Event {
        project: r.get(0)?,
        kind: r.get(1)?,
        detail: serde_json::from_str(&detail).unwrap_or(serde_json::Value::Null),
        at: r.get(3)?,
    })
}
