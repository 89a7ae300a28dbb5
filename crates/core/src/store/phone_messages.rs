//! Queries on `phone_messages`: what the person sent from the phone for a project's
//! session, waiting for a session's next prompt.

use rusqlite::{Connection, params};

use crate::error::Result;
use crate::store::Cached as _;

/// Keep a message for project `project_id`; its id.
pub fn add(conn: &Connection, project_id: i64, text: &str, now: &str) -> Result<i64> {
    conn.exec(
        "INSERT INTO phone_messages (project_id, text, created_at) VALUES (?1, ?2, ?3)",
        params![project_id, text, now],
    )?;
    Ok(conn.last_insert_rowid())
}

/// The messages still waiting for a session of `project_id`, oldest first, marked
/// delivered to session `key` (in the same transaction, so two sessions never both get one).
pub fn take(conn: &Connection, project_id: i64, key: &str, now: &str) -> Result<Vec<(String, String)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, text, created_at FROM phone_messages WHERE project_id = ?1 AND delivered_at IS NULL ORDER BY id",
    )?;
    let rows: Vec<(i64, String, String)> = stmt
        .query_map([project_id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<rusqlite::Result<_>>()?;
    for (id, _, _) in &rows {
        conn.exec(
            "UPDATE phone_messages SET delivered_at = ?2, delivered_to = ?3 WHERE id = ?1",
            params![id, now, key],
        )?;
    }
    Ok(rows.into_iter().map(|(_, text, at)| (text, at)).collect())
}
