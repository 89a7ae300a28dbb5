//! Queries on `injections`: what the hooks handed each client session from memory.

use rusqlite::{Connection, params};

use crate::error::Result;
use crate::store::Cached as _;

/// One hand-over as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The client session's record key.
    pub key: String,
    /// `preamble`, `compaction` or `recall`.
    pub what: String,
    /// The memory entries handed over (JSON array).
    pub ids: String,
    /// Its size in o200k tokens.
    pub tokens: i64,
    /// When (RFC 3339).
    pub at: String,
}

/// Note that session `key` of project `project` was handed `ids` in `tokens` tokens.
pub fn add(
    conn: &Connection,
    project: &str,
    key: &str,
    what: &str,
    ids: &[i64],
    tokens: usize,
    now: &str,
) -> Result<()> {
    let ids = serde_json::to_string(ids).unwrap_or_else(|_| "[]".into());
    conn.exec(
        "INSERT INTO injections (project, key, what, ids, tokens, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![project, key, what, ids, tokens as i64, now],
    )?;
    Ok(())
}

/// Whether session `key` of `project` was handed anything yet (one index probe: asked at
/// every prompt of a client whose start hook may not run).
pub fn any(conn: &Connection, project: &str, key: &str) -> Result<bool> {
    let mut stmt =
        conn.prepare_cached("SELECT EXISTS (SELECT 1 FROM injections WHERE project = ?1 AND key = ?2)")?;
    Ok(stmt.query_row(params![project, key], |r| r.get(0))?)
}

/// What the sessions `keys` of `project` were handed, oldest first.
pub fn of_sessions(conn: &Connection, project: &str, keys: &[String]) -> Result<Vec<Row>> {
    let mut stmt = conn.prepare_cached(
        "SELECT key, what, ids, tokens, at FROM injections WHERE project = ?1 AND key = ?2 ORDER BY at, id",
    )?;
    let mut out = Vec::new();
    for key in keys {
        let rows = stmt.query_map(params![project, key], |r| {
            Ok(Row { key: r.get(0)?, what: r.get(1)?, ids: r.get(2)?, tokens: r.get(3)?, at: r.get(4)? })
        })?;
        out.extend(rows.collect::<rusqlite::Result<Vec<_>>>()?);
    }
    Ok(out)
}

/// Hand-overs of one kind: `what`, how many, their tokens.
pub type KindTotal = (String, u64, u64);

/// A project's totals: sessions handed anything, and each kind of hand-over.
pub fn totals(conn: &Connection, project: &str) -> Result<(u64, Vec<KindTotal>)> {
    let sessions: i64 =
        conn.row("SELECT count(DISTINCT key) FROM injections WHERE project = ?1", [project], |r| r.get(0))?;
    let mut stmt = conn.prepare_cached(
        "SELECT what, count(*), coalesce(sum(tokens), 0) FROM injections WHERE project = ?1 GROUP BY what ORDER BY what",
    )?;
    let rows = stmt.query_map([project], |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)? as u64, r.get::<_, i64>(2)? as u64))
    })?;
    Ok((sessions as u64, rows.collect::<rusqlite::Result<_>>()?))
}
