//! Queries on the `memory` table (its FTS index follows by trigger).

use rusqlite::{Connection, OptionalExtension, params};

use crate::error::Result;

/// A memory row as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoryRow {
    /// Row id.
    pub id: i64,
    /// Kind (`handover`, `decision`, …).
    pub kind: String,
    /// Title.
    pub title: String,
    /// Text for people and search.
    pub content: String,
    /// Structured form, as JSON, when the kind has one.
    pub data: Option<String>,
    /// Producing session.
    pub session_id: Option<String>,
    /// Created (RFC 3339).
    pub created_at: String,
}

/// Fields of a new row.
pub struct NewMemory<'a> {
    /// Owner.
    pub project_id: i64,
    /// Kind.
    pub kind: &'a str,
    /// Title.
    pub title: &'a str,
    /// Content.
    pub content: &'a str,
    /// Tags, space separated.
    pub tags: &'a str,
    /// Structured JSON.
    pub data: Option<&'a str>,
    /// Producing session.
    pub session_id: Option<&'a str>,
    /// Time.
    pub now: &'a str,
}

/// Insert; returns the id.
pub fn insert(conn: &Connection, m: &NewMemory<'_>) -> Result<i64> {
    conn.execute(
        "INSERT INTO memory (project_id, kind, title, content, tags, data, session_id, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8)",
        params![m.project_id, m.kind, m.title, m.content, m.tags, m.data, m.session_id, m.now],
    )?;
    Ok(conn.last_insert_rowid())
}

/// The newest row of a kind for a project.
pub fn latest(conn: &Connection, project_id: i64, kind: &str) -> Result<Option<MemoryRow>> {
    Ok(conn
        .query_row(
            "SELECT id, kind, title, content, data, session_id, created_at FROM memory
             WHERE project_id = ?1 AND kind = ?2 ORDER BY created_at DESC, id DESC LIMIT 1",
            params![project_id, kind],
            |r| {
                Ok(MemoryRow {
                    id: r.get(0)?,
                    kind: r.get(1)?,
                    title: r.get(2)?,
                    content: r.get(3)?,
                    data: r.get(4)?,
                    session_id: r.get(5)?,
                    created_at: r.get(6)?,
                })
            },
        )
        .optional()?)
}
