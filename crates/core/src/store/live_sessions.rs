//! Queries on `live_sessions`: each agent session working in a project now, as its
//! client's hooks last reported it.

use rusqlite::{Connection, OptionalExtension as _, Row, params};

use crate::error::Result;
use crate::store::Cached as _;

/// A session as its hooks report it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen<'a> {
    /// The client session's key (a hash).
    pub key: &'a str,
    /// Its project.
    pub project_id: i64,
    /// The client's name.
    pub client: &'a str,
    /// The worktree's top folder.
    pub checkout: &'a str,
    /// Its branch, when the checkout is on one.
    pub branch: Option<&'a str>,
    /// The client's process, where the hook can tell it.
    pub pid: Option<i64>,
    /// Its latest request, when this hook carries one.
    pub request: Option<&'a str>,
}

/// A session's row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveRow {
    /// The client session's key.
    pub key: String,
    /// Its project.
    pub project_id: i64,
    /// The client's name.
    pub client: String,
    /// The worktree's top folder.
    pub checkout: String,
    /// Its branch.
    pub branch: Option<String>,
    /// The client's process.
    pub pid: Option<i64>,
    /// First seen (RFC 3339).
    pub started_at: String,
    /// Last heard from.
    pub last_at: String,
    /// Its latest request.
    pub request: Option<String>,
    /// When it ended, if it did.
    pub ended_at: Option<String>,
    /// Writes it met another session's claim on.
    pub conflicts: i64,
}

const COLUMNS: &str =
    "key, project_id, client, checkout, branch, pid, started_at, last_at, request, ended_at, conflicts";

fn from_row(r: &Row<'_>) -> rusqlite::Result<LiveRow> {
    Ok(LiveRow {
        key: r.get(0)?,
        project_id: r.get(1)?,
        client: r.get(2)?,
        checkout: r.get(3)?,
        branch: r.get(4)?,
        pid: r.get(5)?,
        started_at: r.get(6)?,
        last_at: r.get(7)?,
        request: r.get(8)?,
        ended_at: r.get(9)?,
        conflicts: r.get(10)?,
    })
}

/// Note that session `s` was heard from at `now`: it is live again (even after an end,
/// as a resumed session is), and keeps what this hook does not say.
pub fn touch(conn: &Connection, s: &Seen<'_>, now: &str) -> Result<()> {
    conn.exec(
        "INSERT INTO live_sessions (key, project_id, client, checkout, branch, pid, started_at, last_at, request)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7, ?8)
         ON CONFLICT (key) DO UPDATE SET project_id = excluded.project_id, client = excluded.client,
             checkout = excluded.checkout, branch = coalesce(excluded.branch, branch),
             pid = coalesce(excluded.pid, pid), last_at = excluded.last_at,
             request = coalesce(excluded.request, request), ended_at = NULL",
        params![s.key, s.project_id, s.client, s.checkout, s.branch, s.pid, now, s.request],
    )?;
    Ok(())
}

/// End session `key` at `now`; its claims go, and so do the rows of sessions not heard
/// from since `forget_before` (their records keep what they did).
pub fn end(conn: &Connection, key: &str, now: &str, forget_before: &str) -> Result<()> {
    conn.exec(
        "UPDATE live_sessions SET ended_at = ?2 WHERE key = ?1 AND ended_at IS NULL",
        params![key, now],
    )?;
    conn.exec("DELETE FROM claims WHERE session_key = ?1", [key])?;
    conn.exec("DELETE FROM live_sessions WHERE last_at < ?1", [forget_before])?;
    Ok(())
}

/// One session, ended or not.
pub fn get(conn: &Connection, key: &str) -> Result<Option<LiveRow>> {
    let sql = format!("SELECT {COLUMNS} FROM live_sessions WHERE key = ?1");
    Ok(conn.prepare_cached(&sql)?.query_row([key], from_row).optional()?)
}

/// Project `project_id`'s sessions not ended and heard from since `since`, first
/// started first.
pub fn of_project(conn: &Connection, project_id: i64, since: &str) -> Result<Vec<LiveRow>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM live_sessions
         WHERE project_id = ?1 AND ended_at IS NULL AND last_at >= ?2 ORDER BY started_at, key"
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map(params![project_id, since], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Every project's sessions not ended and heard from since `since`, by project then
/// first started first.
pub fn all_live(conn: &Connection, since: &str) -> Result<Vec<LiveRow>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM live_sessions
         WHERE ended_at IS NULL AND last_at >= ?1 ORDER BY project_id, started_at, key"
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map([since], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Count a write session `key` met another's claim on.
pub fn conflicted(conn: &Connection, key: &str) -> Result<()> {
    conn.exec("UPDATE live_sessions SET conflicts = conflicts + 1 WHERE key = ?1", [key])?;
    Ok(())
}
