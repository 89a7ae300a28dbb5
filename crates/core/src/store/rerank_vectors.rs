//! Queries on `rerank_vectors` (migration 0010): which live entries lack the re-ranking
//! encoder's vector, storing one, and reading those of a search's hits.

use rusqlite::{Connection, OptionalExtension as _, params};

use super::Cached as _;
use super::vectors::Pending;
use crate::error::Result;

/// The text an entry is encoded from (as for search by meaning).
const TEXT: &str = "m.title || char(10) || m.content || char(10) || m.tags";

/// Up to `limit` live entries without a vector by `model`, newest first.
pub fn pending(conn: &Connection, model: &str, limit: u32) -> Result<Vec<Pending>> {
    let sql = format!(
        "SELECT m.id, m.project_id, {TEXT} FROM memory m
         WHERE m.forgotten_at IS NULL AND NOT EXISTS
             (SELECT 1 FROM rerank_vectors r WHERE r.memory_id = m.id AND r.model = ?2)
         ORDER BY m.id DESC LIMIT ?1"
    );
    let mut st = conn.prepare_cached(&sql)?;
    let rows = st.query_map(params![limit, model], |r| {
        Ok(Pending { id: r.get(0)?, project_id: r.get(1)?, text: r.get(2)? })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Live entries without a vector by `model`.
pub fn waiting(conn: &Connection, model: &str) -> Result<u64> {
    let n: i64 = conn.row(
        "SELECT count(*) FROM memory m WHERE m.forgotten_at IS NULL AND NOT EXISTS
             (SELECT 1 FROM rerank_vectors r WHERE r.memory_id = m.id AND r.model = ?1)",
        [model],
        |r| r.get(0),
    )?;
    Ok(n.max(0) as u64)
}

/// Store `vec` for `p` unless the entry was forgotten or its text changed since `p` was
/// read (it is then encoded again, or never); whether it was stored.
pub fn put(conn: &Connection, p: &Pending, model: &str, vec: &[u8]) -> Result<bool> {
    let sql = format!("SELECT {TEXT} = ?2 AND m.forgotten_at IS NULL FROM memory m WHERE m.id = ?1");
    let current: Option<bool> = conn.row(&sql, params![p.id, p.text], |r| r.get(0)).optional()?;
    if current != Some(true) {
        return Ok(false);
    }
    conn.exec(
        "INSERT INTO rerank_vectors (memory_id, model, vec) VALUES (?1, ?2, ?3)
         ON CONFLICT (memory_id) DO UPDATE SET model = excluded.model, vec = excluded.vec",
        params![p.id, model, vec],
    )?;
    Ok(true)
}

/// The vector by `model` of each entry in `ids` that has one.
pub fn of(conn: &Connection, model: &str, ids: &[i64]) -> Result<Vec<(i64, Vec<u8>)>> {
    // The ids as a JSON array: numbers the code holds, one parameter however many.
    let list = format!("[{}]", ids.iter().map(i64::to_string).collect::<Vec<_>>().join(","));
    let mut st = conn.prepare_cached(
        "SELECT r.memory_id, r.vec FROM json_each(?1) j CROSS JOIN rerank_vectors r
         ON r.memory_id = j.value WHERE r.model = ?2",
    )?;
    let rows = st.query_map(params![list, model], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}
