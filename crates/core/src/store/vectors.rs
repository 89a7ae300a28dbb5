//! Queries on `memory_vectors`, `vector_queue` and `vector_epochs` (migrations 0008
//! and 0009): what waits for a vector, storing vectors, and reading a project's back.

use rusqlite::{Connection, OptionalExtension as _, params};

use super::Cached as _;
use crate::error::Result;
use crate::store::index::vector_index::{Source, Stored};

/// An entry waiting for its vector.
#[derive(Debug, Clone)]
pub struct Pending {
    /// The entry.
    pub id: i64,
    /// Its project.
    pub project_id: i64,
    /// What is embedded: title, content and tags, a line each.
    pub text: String,
}

/// The text an entry is embedded from, in SQL (`put` compares it, so a vector for an
/// older text is never stored).
const TEXT: &str = "m.title || char(10) || m.content || char(10) || m.tags";

/// Up to `limit` entries waiting for a vector, newest first (a backfill gives the memory
/// a session is most likely to look for its vectors first).
pub fn pending(conn: &Connection, limit: u32) -> Result<Vec<Pending>> {
    let sql = format!(
        "SELECT m.id, m.project_id, {TEXT} FROM vector_queue q JOIN memory m ON m.id = q.memory_id
         ORDER BY q.memory_id DESC LIMIT ?1"
    );
    let mut st = conn.prepare_cached(&sql)?;
    let rows =
        st.query_map([limit], |r| Ok(Pending { id: r.get(0)?, project_id: r.get(1)?, text: r.get(2)? }))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Store `vec` (made by `model`) for an entry and take it off the queue, unless the entry
/// was forgotten or its text changed since `p` was read; whether it was stored. An entry
/// forgotten or gone leaves the queue either way; a changed one stays for its new text.
pub fn put(conn: &Connection, p: &Pending, model: &str, vec: &[u8]) -> Result<bool> {
    let sql = format!("SELECT {TEXT} = ?2, m.forgotten_at IS NULL FROM memory m WHERE m.id = ?1");
    let state: Option<(bool, bool)> =
        conn.row(&sql, params![p.id, p.text], |r| Ok((r.get(0)?, r.get(1)?))).optional()?;
    match state {
        Some((true, true)) => {}
        Some((false, true)) => return Ok(false),
        _ => {
            conn.exec("DELETE FROM vector_queue WHERE memory_id = ?1", [p.id])?;
            return Ok(false);
        }
    }
    // An update, not a replace, for a changed entry: its place in the stored order moves
    // (migration 0009's trigger) and readers replace the old vector in place.
    conn.exec(
        "INSERT INTO memory_vectors (memory_id, project_id, model, vec) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (memory_id) DO UPDATE SET model = excluded.model, vec = excluded.vec",
        params![p.id, p.project_id, model, vec],
    )?;
    conn.exec("DELETE FROM vector_queue WHERE memory_id = ?1", [p.id])?;
    Ok(true)
}

/// Entries waiting for a vector, in one project or all.
pub fn waiting(conn: &Connection, project_id: Option<i64>) -> Result<u64> {
    let waiting: i64 = conn.row(
        // The queue outermost (CROSS JOIN fixes the order): it is short, the project's
        // entries are not (left to itself SQLite probed the queue for each of 100,000).
        "SELECT count(*) FROM vector_queue q CROSS JOIN memory m ON m.id = q.memory_id
         WHERE ?1 IS NULL OR m.project_id = ?1",
        [project_id],
        |r| r.get(0),
    )?;
    Ok(waiting.max(0) as u64)
}

/// Entries waiting and entries with a vector, in one project or all.
pub fn progress(conn: &Connection, project_id: Option<i64>) -> Result<(u64, u64)> {
    let waiting = waiting(conn, project_id)? as i64;
    let stored: i64 = match project_id {
        Some(p) => {
            conn.row("SELECT count(*) FROM memory_vectors WHERE project_id = ?1", [p], |r| r.get(0))?
        }
        None => conn.row("SELECT count(*) FROM memory_vectors", [], |r| r.get(0))?,
    };
    Ok((waiting.max(0) as u64, stored.max(0) as u64))
}

/// Whether any vector is stored, in one project or all (an index probe, not a count).
pub fn any_stored(conn: &Connection, project_id: Option<i64>) -> Result<bool> {
    let found: bool = match project_id {
        Some(p) => {
            conn.row("SELECT EXISTS (SELECT 1 FROM memory_vectors WHERE project_id = ?1)", [p], |r| r.get(0))?
        }
        None => conn.row("SELECT EXISTS (SELECT 1 FROM memory_vectors)", [], |r| r.get(0))?,
    };
    Ok(found)
}

/// The projects that have had vectors stored.
pub fn projects(conn: &Connection) -> Result<Vec<i64>> {
    let mut st =
        conn.prepare_cached("SELECT project_id FROM vector_epochs WHERE added > 0 ORDER BY project_id")?;
    let rows = st.query_map([], |r| r.get(0))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// How often a project's vectors were added to and removed from.
pub fn epoch(conn: &Connection, project_id: i64) -> Result<(i64, i64)> {
    let mut st = conn.prepare_cached("SELECT added, removed FROM vector_epochs WHERE project_id = ?1")?;
    let mut rows = st.query([project_id])?;
    Ok(match rows.next()? {
        Some(r) => (r.get(0)?, r.get(1)?),
        None => (0, 0),
    })
}

/// Which stored vectors to read.
#[derive(Debug, Clone, Copy)]
pub enum Which {
    /// Those stored after this point of their project's order (all of them after 0),
    /// in that order.
    Since(i64),
    /// The newest this many, newest first.
    Newest(u32),
}

/// The statement [`each`] runs and its third parameter. A project gets SQL of its own,
/// not `?1 IS NULL OR v.project_id = ?1`: with that, SQLite cannot seek the index by
/// project and read every vector of every project to find the few stored since (8 ms a
/// write at 100,000 entries, after each of the indexer's slices).
fn each_sql(one_project: bool, which: Which) -> (String, i64) {
    let scope = if one_project { "v.project_id = ?1" } else { "?1 IS NULL" };
    let from = format!(
        "SELECT v.memory_id, m.kind, v.seq, v.vec FROM memory_vectors v JOIN memory m ON m.id = v.memory_id
         WHERE {scope} AND v.model = ?2"
    );
    match which {
        Which::Since(seq) => (format!("{from} AND v.seq > ?3 ORDER BY v.project_id, v.seq"), seq),
        Which::Newest(n) => {
            (format!("{from} ORDER BY v.project_id DESC, v.memory_id DESC LIMIT ?3"), i64::from(n))
        }
    }
}

/// Call `f` with each vector by `model` of `project_id` (every project when `None`) that
/// `which` names.
pub fn each(
    conn: &Connection,
    project_id: Option<i64>,
    model: &str,
    which: Which,
    mut f: impl FnMut(Stored),
) -> Result<()> {
    let (sql, bound) = each_sql(project_id.is_some(), which);
    let mut st = conn.prepare_cached(&sql)?;
    let mut rows = st.query(params![project_id, model, bound])?;
    while let Some(r) = rows.next()? {
        f(Stored { id: r.get(0)?, kind: r.get(1)?, seq: r.get(2)?, vec: r.get(3)? });
    }
    Ok(())
}

/// One SQLite connection as the in-memory copy's source.
pub struct Sqlite<'c>(pub &'c Connection);

impl Source for Sqlite<'_> {
    fn epoch(&self, project_id: i64) -> Result<(i64, i64)> {
        epoch(self.0, project_id)
    }

    fn since(&self, project_id: i64, model: &str, seq: i64, f: &mut dyn FnMut(Stored)) -> Result<()> {
        each(self.0, Some(project_id), model, Which::Since(seq), f)
    }

    fn vectors_of(&self, model: &str, ids: &[i64], f: &mut dyn FnMut(Stored)) -> Result<()> {
        of(self.0, model, ids, f)
    }
}

/// Call `f` with the vector by `model` of each entry in `ids` that has one (its kind left
/// empty): one lookup by key each.
pub fn of(conn: &Connection, model: &str, ids: &[i64], f: &mut dyn FnMut(Stored)) -> Result<()> {
    // The ids as a JSON array: numbers the code holds, one parameter however many.
    let list = format!("[{}]", ids.iter().map(i64::to_string).collect::<Vec<_>>().join(","));
    let mut st = conn.prepare_cached(
        "SELECT v.memory_id, v.seq, v.vec FROM json_each(?1) j CROSS JOIN memory_vectors v
         ON v.memory_id = j.value WHERE v.model = ?2",
    )?;
    let mut rows = st.query(params![list, model])?;
    while let Some(r) = rows.next()? {
        f(Stored { id: r.get(0)?, kind: String::new(), seq: r.get(1)?, vec: r.get(2)? });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    #[test]
    fn a_projects_vectors_are_sought_by_its_index_never_scanned() {
        let store = Store::open_in_memory().unwrap();
        for which in [Which::Since(7), Which::Newest(2_000)] {
            let (sql, _) = each_sql(true, which);
            let plan: Vec<String> = store
                .read(|c| {
                    let mut st = c.prepare(&format!("EXPLAIN QUERY PLAN {sql}"))?;
                    let rows = st.query_map(params![1, "m", 0], |r| r.get::<_, String>(3))?;
                    Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
                })
                .unwrap();
            assert!(
                plan.iter().any(|p| p.starts_with("SEARCH v USING INDEX") && p.contains("project_id=?")),
                "{plan:?}"
            );
        }
    }
}
