//! Queries on `recall_given`: which memory entries a client session has been handed.

use rusqlite::{Connection, params};

use crate::error::Result;
use crate::store::Cached as _;

/// How long a session's list is kept (RFC 3339 strings compare by time).
const KEEP_DAYS: i64 = 30;

/// The entries session `key` has been handed.
pub fn given(conn: &Connection, key: &str) -> Result<Vec<i64>> {
    let mut stmt = conn.prepare_cached("SELECT memory_id FROM recall_given WHERE key = ?1")?;
    let rows = stmt.query_map([key], |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Note that session `key` was handed `ids` at `now`; forget lists older than a month.
pub fn add(conn: &Connection, key: &str, ids: &[i64], now: &str) -> Result<()> {
    let mut stmt =
        conn.prepare_cached("INSERT OR IGNORE INTO recall_given (key, memory_id, at) VALUES (?1, ?2, ?3)")?;
    for id in ids {
        stmt.execute(params![key, id, now])?;
    }
    let cutoff = crate::humanize::format_ts(chrono::Utc::now() - chrono::Duration::days(KEEP_DAYS));
    conn.exec("DELETE FROM recall_given WHERE at < ?1", [cutoff])?;
    Ok(())
}
