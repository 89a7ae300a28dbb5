//! Queries on `phone_messages`: what the person sent from the phone for a project's
//! session, waiting for a session's next prompt (or held until the person says which
//! session it is for).

use rusqlite::{Connection, OptionalExtension as _, params};

use crate::error::Result;
use crate::store::Cached as _;

/// Keep a message for project `project_id`; its id. A `held` one goes to no session
/// until [`route`] names one.
pub fn add(conn: &Connection, project_id: i64, text: &str, held: bool, now: &str) -> Result<i64> {
    conn.exec(
        "INSERT INTO phone_messages (project_id, text, created_at, held) VALUES (?1, ?2, ?3, ?4)",
        params![project_id, text, now, held],
    )?;
    Ok(conn.last_insert_rowid())
}

/// Release held message `id` of `project_id` to session `to` (`None`: the first session
/// of the project to prompt); false when it is not held (already routed or dropped).
pub fn route(conn: &Connection, project_id: i64, id: i64, to: Option<&str>) -> Result<bool> {
    let n = conn.exec(
        "UPDATE phone_messages SET held = 0, for_session = ?3 WHERE id = ?1 AND project_id = ?2 AND held = 1",
        params![id, project_id, to],
    )?;
    Ok(n == 1)
}

/// Drop held message `id` of `project_id` (the person took it back); false when it was
/// no longer held.
pub fn drop_held(conn: &Connection, project_id: i64, id: i64) -> Result<bool> {
    let n = conn.exec(
        "DELETE FROM phone_messages WHERE id = ?1 AND project_id = ?2 AND held = 1",
        params![id, project_id],
    )?;
    Ok(n == 1)
}

/// The text of message `id`, while it is held.
pub fn held_text(conn: &Connection, id: i64) -> Result<Option<String>> {
    Ok(conn
        .row("SELECT text FROM phone_messages WHERE id = ?1 AND held = 1", [id], |r| r.get(0))
        .optional()?)
}

/// The messages still waiting for session `key` of `project_id` (those for it and those
/// for any session), oldest first, marked delivered to it (in the same transaction, so
/// two sessions never both get one).
pub fn take(conn: &Connection, project_id: i64, key: &str, now: &str) -> Result<Vec<(String, String)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, text, created_at FROM phone_messages WHERE project_id = ?1 AND delivered_at IS NULL \
         AND held = 0 AND (for_session IS NULL OR for_session = ?2) ORDER BY id",
    )?;
    let rows: Vec<(i64, String, String)> = stmt
        .query_map(params![project_id, key], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<rusqlite::Result<_>>()?;
    for (id, _, _) in &rows {
        conn.exec(
            "UPDATE phone_messages SET delivered_at = ?2, delivered_to = ?3 WHERE id = ?1",
            params![id, now, key],
        )?;
    }
    Ok(rows.into_iter().map(|(_, text, at)| (text, at)).collect())
}
