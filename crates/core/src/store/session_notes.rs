//! Queries on `session_notes`: notes left for one live agent session of a project, by
//! another session or by the person, waiting for that session's next prompt.

use rusqlite::{Connection, params};

use crate::error::Result;
use crate::store::Cached as _;

/// A note as it is left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewNote<'a> {
    /// The project.
    pub project_id: i64,
    /// The session it is for.
    pub to_key: &'a str,
    /// The session that wrote it; `None`: the person.
    pub from_key: Option<&'a str>,
    /// How the note names its writer when delivered.
    pub from_label: &'a str,
    /// What it says (secrets already taken out).
    pub text: &'a str,
}

/// A note delivered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Delivered {
    /// Whether the person wrote it (else another session).
    pub from_person: bool,
    /// How it names its writer.
    pub from_label: String,
    /// What it says.
    pub text: String,
}

/// Keep `note`; its id.
pub fn add(conn: &Connection, note: &NewNote<'_>, now: &str) -> Result<i64> {
    conn.exec(
        "INSERT INTO session_notes (project_id, to_key, from_key, from_label, text, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![note.project_id, note.to_key, note.from_key, note.from_label, note.text, now],
    )?;
    Ok(conn.last_insert_rowid())
}

/// The notes waiting for session `key` in project `project_id`, oldest first, marked
/// delivered in the same transaction (delivered once).
pub fn take(conn: &Connection, project_id: i64, key: &str, now: &str) -> Result<Vec<Delivered>> {
    let mut stmt = conn.prepare_cached(
        "UPDATE session_notes SET delivered_at = ?3
         WHERE to_key = ?2 AND project_id = ?1 AND delivered_at IS NULL
         RETURNING id, from_key IS NULL, from_label, text",
    )?;
    let mut rows: Vec<(i64, Delivered)> = stmt
        .query_map(params![project_id, key, now], |r| {
            Ok((r.get(0)?, Delivered { from_person: r.get(1)?, from_label: r.get(2)?, text: r.get(3)? }))
        })?
        .collect::<rusqlite::Result<_>>()?;
    rows.sort_by_key(|(id, _)| *id);
    Ok(rows.into_iter().map(|(_, d)| d).collect())
}

/// Whether any note waits for session `key`: one probe of the waiting index.
pub fn any_waiting(conn: &Connection, key: &str) -> Result<bool> {
    Ok(conn.row(
        "SELECT EXISTS (SELECT 1 FROM session_notes WHERE to_key = ?1 AND delivered_at IS NULL)",
        [key],
        |r| r.get(0),
    )?)
}
