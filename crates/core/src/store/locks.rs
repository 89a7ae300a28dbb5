//! Queries on `context_locks`: versioned topics, never rewritten.

use crate::store::Cached as _;
use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::error::Result;
use crate::store::rows::LockRow;

fn from_row(r: &Row<'_>) -> rusqlite::Result<LockRow> {
    Ok(LockRow {
        topic: r.get(0)?,
        version: r.get(1)?,
        content: r.get(2)?,
        tags: r.get(3)?,
        written_by: r.get(4)?,
        created_at: r.get(5)?,
    })
}

const COLUMNS: &str = "topic, version, content, tags, \
                       COALESCE(written_by, (SELECT s.client_name FROM sessions s WHERE s.id = session_id)), created_at";

/// Add the next version of a topic; returns it.
pub fn insert_next(
    conn: &Connection,
    project_id: i64,
    topic: &str,
    content: &str,
    tags: &str,
    session: Option<&str>,
    now: &str,
) -> Result<i64> {
    let version: i64 = conn.row(
        "SELECT COALESCE(MAX(version), 0) + 1 FROM context_locks WHERE project_id = ?1 AND topic = ?2",
        params![project_id, topic],
        |r| r.get(0),
    )?;
    conn.exec(
        "INSERT INTO context_locks (project_id, topic, version, content, tags, session_id, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![project_id, topic, version, content, tags, session, now],
    )?;
    Ok(version)
}

/// Insert a version copied from another store as it was there (number, author, time).
pub fn insert_copy(conn: &Connection, project_id: i64, l: &LockRow) -> Result<()> {
    conn.exec(
        "INSERT INTO context_locks (project_id, topic, version, content, tags, written_by, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![project_id, l.topic, l.version, l.content, l.tags, l.written_by, l.created_at],
    )?;
    Ok(())
}

/// A topic's latest version, or a given one.
pub fn get(conn: &Connection, project_id: i64, topic: &str, version: Option<i64>) -> Result<Option<LockRow>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM context_locks WHERE project_id = ?1 AND topic = ?2 AND (?3 IS NULL OR version = ?3)
         ORDER BY version DESC LIMIT 1"
    );
    Ok(conn.row(&sql, params![project_id, topic, version], from_row).optional()?)
}

/// The latest version of every topic, most recent first.
pub fn latest_per_topic(conn: &Connection, project_id: i64) -> Result<Vec<LockRow>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM context_locks c WHERE project_id = ?1
           AND version = (SELECT MAX(version) FROM context_locks WHERE project_id = c.project_id AND topic = c.topic)
         ORDER BY created_at DESC, topic"
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map([project_id], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Every version of every topic, by topic then version.
pub fn all_versions(conn: &Connection, project_id: i64) -> Result<Vec<LockRow>> {
    let sql = format!("SELECT {COLUMNS} FROM context_locks WHERE project_id = ?1 ORDER BY topic, version");
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map([project_id], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}
