//! Queries on the `sessions` table: one row per agent session, kept across restarts.

use crate::store::Cached as _;
use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::{Deserialize, Serialize};

use crate::error::Result;

/// An agent session as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentSession {
    /// `X-Mooring-Session`, `Mcp-Session-Id` or the stdio process's own id.
    pub id: String,
    /// Client name from its implementation info.
    pub client_name: Option<String>,
    /// Client version.
    pub client_version: Option<String>,
    /// `http`, `stdio` or `hub-stdio`.
    pub transport: String,
    /// Negotiated MCP protocol version.
    pub protocol_version: Option<String>,
    /// The project chosen for the session (slug), if any.
    pub project: Option<String>,
    /// How it was chosen (`session`, `elicitation`, `auto_single`, `picker`, …).
    pub decided_by: Option<String>,
    /// Workspace set with `set_workspace_id`.
    pub workspace: Option<String>,
    /// MCP roots the client declared.
    pub roots: Vec<String>,
    /// First seen (RFC 3339).
    pub created_at: String,
    /// Last request (RFC 3339).
    pub last_seen_at: String,
}

/// What a request tells about its session.
#[derive(Debug, Clone, Default)]
pub struct ClientFacts<'a> {
    /// Client name.
    pub client_name: Option<&'a str>,
    /// Client version.
    pub client_version: Option<&'a str>,
    /// Transport.
    pub transport: &'a str,
    /// Protocol version.
    pub protocol_version: Option<&'a str>,
}

const COLUMNS: &str = "s.id, s.client_name, s.client_version, s.transport, s.protocol_version, p.slug, \
                       s.decided_by, s.workspace, s.roots, s.created_at, s.last_seen_at";

fn from_row(r: &Row<'_>) -> rusqlite::Result<AgentSession> {
    let roots: String = r.get(8)?;
    Ok(AgentSession {
        id: r.get(0)?,
        client_name: r.get(1)?,
        client_version: r.get(2)?,
        transport: r.get(3)?,
        protocol_version: r.get(4)?,
        project: r.get(5)?,
        decided_by: r.get(6)?,
        workspace: r.get(7)?,
        roots: serde_json::from_str(&roots).unwrap_or_default(),
        created_at: r.get(9)?,
        last_seen_at: r.get(10)?,
    })
}

/// One session.
pub fn get(conn: &Connection, id: &str) -> Result<Option<AgentSession>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM sessions s LEFT JOIN projects p ON p.id = s.project_id WHERE s.id = ?1"
    );
    Ok(conn.row(&sql, [id], from_row).optional()?)
}

/// Create the row or refresh what the request tells; keeps the chosen project.
pub fn upsert_seen(conn: &Connection, id: &str, seen: &ClientFacts<'_>, now: &str) -> Result<()> {
    conn.exec(
        "INSERT INTO sessions (id, client_name, client_version, transport, protocol_version, created_at, last_seen_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)
         ON CONFLICT(id) DO UPDATE SET
             client_name = COALESCE(excluded.client_name, client_name),
             client_version = COALESCE(excluded.client_version, client_version),
             protocol_version = COALESCE(excluded.protocol_version, protocol_version),
             transport = excluded.transport,
             last_seen_at = excluded.last_seen_at",
        params![id, seen.client_name, seen.client_version, seen.transport, seen.protocol_version, now],
    )?;
    Ok(())
}

/// Bind (or with `None`, clear) the session's project.
pub fn set_project(
    conn: &Connection,
    id: &str,
    project_id: Option<i64>,
    decided_by: Option<&str>,
    now: &str,
) -> Result<()> {
    conn.exec(
        "UPDATE sessions SET project_id = ?2, decided_by = ?3, last_seen_at = ?4 WHERE id = ?1",
        params![id, project_id, decided_by, now],
    )?;
    Ok(())
}

/// Set the session's workspace directory.
pub fn set_workspace(conn: &Connection, id: &str, workspace: Option<&str>) -> Result<()> {
    conn.exec("UPDATE sessions SET workspace = ?2 WHERE id = ?1", params![id, workspace])?;
    Ok(())
}

/// Replace the session's declared roots.
pub fn set_roots(conn: &Connection, id: &str, roots: &[String]) -> Result<()> {
    let json = serde_json::to_string(roots).unwrap_or_else(|_| "[]".to_owned());
    conn.exec("UPDATE sessions SET roots = ?2 WHERE id = ?1", params![id, json])?;
    Ok(())
}

/// The stored MCP initialize parameters (JSON) of a protocol session.
pub fn init_params(conn: &Connection, id: &str) -> Result<Option<String>> {
    Ok(conn.row("SELECT init_params FROM protocol_sessions WHERE id = ?1", [id], |r| r.get(0)).optional()?)
}

/// Store a protocol session's initialize parameters.
pub fn set_init_params(conn: &Connection, id: &str, json: &str, now: &str) -> Result<()> {
    conn.exec(
        "INSERT INTO protocol_sessions (id, init_params, created_at) VALUES (?1, ?2, ?3)
         ON CONFLICT(id) DO UPDATE SET init_params = excluded.init_params",
        params![id, json, now],
    )?;
    Ok(())
}

/// Forget a protocol session.
pub fn delete_protocol(conn: &Connection, id: &str) -> Result<()> {
    conn.exec("DELETE FROM protocol_sessions WHERE id = ?1", [id])?;
    Ok(())
}

/// The most recently active sessions, newest first.
pub fn recent(conn: &Connection, limit: u32) -> Result<Vec<AgentSession>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM sessions s LEFT JOIN projects p ON p.id = s.project_id ORDER BY s.last_seen_at DESC LIMIT ?1"
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map([limit], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The sessions working in a project that made a request since `since` (RFC 3339),
/// newest first: the ones live now.
pub fn live_since(conn: &Connection, since: &str) -> Result<Vec<AgentSession>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM sessions s JOIN projects p ON p.id = s.project_id \
         WHERE s.last_seen_at >= ?1 ORDER BY s.last_seen_at DESC LIMIT 500"
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map([since], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// How many sessions made a request since `since` (RFC 3339).
pub fn active_since(conn: &Connection, since: &str) -> Result<u64> {
    let n: i64 = conn.row("SELECT count(*) FROM sessions WHERE last_seen_at >= ?1", [since], |r| r.get(0))?;
    Ok(u64::try_from(n).unwrap_or(0))
}
