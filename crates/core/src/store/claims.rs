//! Queries on `claims`: what each live session holds in its checkout (a file, a folder,
//! a glob or a named task).

use rusqlite::{Connection, params};

use crate::error::Result;
use crate::store::Cached as _;

/// A claim as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimRow {
    /// The worktree's top folder.
    pub checkout: String,
    /// `file`, `dir`, `glob` or `task`.
    pub kind: String,
    /// The path relative to the checkout, the glob, or the task's name.
    pub what: String,
    /// The holding session's key.
    pub session_key: String,
    /// Why, when the session said.
    pub reason: Option<String>,
    /// Claimed at (RFC 3339).
    pub at: String,
}

fn from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<ClaimRow> {
    Ok(ClaimRow {
        checkout: r.get(0)?,
        kind: r.get(1)?,
        what: r.get(2)?,
        session_key: r.get(3)?,
        reason: r.get(4)?,
        at: r.get(5)?,
    })
}

/// Keep `c` (again: its reason and time move).
pub fn add(conn: &Connection, c: &ClaimRow) -> Result<()> {
    conn.exec(
        "INSERT INTO claims (checkout, kind, what, session_key, reason, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT (checkout, kind, what, session_key) DO UPDATE SET reason = coalesce(excluded.reason, reason),
             at = excluded.at",
        params![c.checkout, c.kind, c.what, c.session_key, c.reason, c.at],
    )?;
    Ok(())
}

/// Every claim in `checkout`, by any session.
pub fn in_checkout(conn: &Connection, checkout: &str) -> Result<Vec<ClaimRow>> {
    let mut stmt = conn.prepare_cached(
        "SELECT checkout, kind, what, session_key, reason, at FROM claims WHERE checkout = ?1 ORDER BY at",
    )?;
    let rows = stmt.query_map([checkout], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Session `key`'s claims, oldest first.
pub fn of_session(conn: &Connection, key: &str) -> Result<Vec<ClaimRow>> {
    let mut stmt = conn.prepare_cached(
        "SELECT checkout, kind, what, session_key, reason, at FROM claims WHERE session_key = ?1 ORDER BY at",
    )?;
    let rows = stmt.query_map([key], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Drop session `key`'s claim of `kind` on `what` (every claim of the session when
/// `None`); how many went.
pub fn remove(conn: &Connection, key: &str, which: Option<(&str, &str)>) -> Result<usize> {
    Ok(match which {
        Some((kind, what)) => conn.exec(
            "DELETE FROM claims WHERE session_key = ?1 AND kind = ?2 AND what = ?3",
            params![key, kind, what],
        )?,
        None => conn.exec("DELETE FROM claims WHERE session_key = ?1", [key])?,
    })
}
