//! Queries on the `memory` table; its FTS index follows by trigger.

use crate::store::Cached as _;
use rusqlite::{Connection, OptionalExtension, Row, params};

use crate::error::Result;
use crate::store::rows::{Links, MemoryRow, NewMemoryRow};

pub(crate) const COLUMNS: &str = "m.id, m.project_id, m.kind, m.title, m.content, m.tags, m.status, m.data, \
                       COALESCE(m.written_by, (SELECT s.client_name FROM sessions s WHERE s.id = m.session_id)), \
                       m.created_at, m.updated_at, m.forgotten_at, m.author, \
                       m.superseded_by, m.superseded_at, m.folded_into, m.folded_at, m.key";

/// How many columns [`COLUMNS`] names: a query's own columns follow from here.
pub(crate) const COLUMN_COUNT: usize = 18;

pub(crate) fn from_row(r: &Row<'_>) -> rusqlite::Result<MemoryRow> {
    Ok(MemoryRow {
        id: r.get(0)?,
        project_id: r.get(1)?,
        kind: r.get(2)?,
        title: r.get(3)?,
        content: r.get(4)?,
        tags: r.get(5)?,
        status: r.get(6)?,
        data: r.get(7)?,
        written_by: r.get(8)?,
        created_at: r.get(9)?,
        updated_at: r.get(10)?,
        forgotten_at: r.get(11)?,
        author: r.get(12)?,
        links: Links {
            superseded_by: r.get(13)?,
            superseded_at: r.get(14)?,
            folded_into: r.get(15)?,
            folded_at: r.get(16)?,
        },
        key: r.get(17)?,
    })
}

/// Insert `m` into project `project_id`, written by `session_id` at `now`; returns the id.
pub fn insert(
    conn: &Connection,
    project_id: i64,
    m: &NewMemoryRow<'_>,
    session_id: Option<&str>,
    now: &str,
) -> Result<i64> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO memory (project_id, kind, title, content, tags, status, data, session_id, created_at, updated_at,
                             author, written_by, key)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9, ?10, ?11, ?12)",
    )?;
    stmt.execute(params![
        project_id,
        &*m.kind,
        &*m.title,
        &*m.content,
        &*m.tags,
        m.status.as_deref(),
        m.data.as_deref(),
        session_id,
        now,
        m.author.map(|a| a.as_str()),
        m.written_by.as_deref(),
        m.key.as_deref(),
    ])?;
    Ok(conn.last_insert_rowid())
}

/// Insert a row copied from another store as it was there (author, times, forgotten or
/// not, its key and links); returns the new id. The links name the other store's ids:
/// [`relink`] maps them once every row of the copy is in.
pub fn insert_copy(conn: &Connection, project_id: i64, m: &MemoryRow) -> Result<i64> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO memory (project_id, kind, title, content, tags, status, data, written_by,
                             created_at, updated_at, forgotten_at, author,
                             superseded_by, superseded_at, folded_into, folded_at, key)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)",
    )?;
    stmt.execute(params![
        project_id,
        m.kind,
        m.title,
        m.content,
        m.tags,
        m.status,
        m.data,
        m.written_by,
        m.created_at,
        m.updated_at,
        m.forgotten_at,
        m.author,
        m.links.superseded_by,
        m.links.superseded_at,
        m.links.folded_into,
        m.links.folded_at,
        m.key,
    ])?;
    Ok(conn.last_insert_rowid())
}

/// Point project `project_id`'s links at the ids its rows were copied to (`ids`: the
/// other store's id, and the new one); a link to a row that was not copied goes.
pub fn relink(conn: &Connection, project_id: i64, ids: &std::collections::HashMap<i64, i64>) -> Result<()> {
    let linked: Vec<(i64, Option<i64>, Option<i64>)> = conn
        .prepare(
            "SELECT id, superseded_by, folded_into FROM memory
             WHERE project_id = ?1 AND (superseded_by IS NOT NULL OR folded_into IS NOT NULL)",
        )?
        .query_map([project_id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let mut set = conn.prepare_cached(
        "UPDATE memory SET superseded_by = ?2, superseded_at = CASE WHEN ?2 IS NULL THEN NULL ELSE superseded_at END,
                           folded_into = ?3
         WHERE id = ?1",
    )?;
    let mapped = |old: Option<i64>| old.and_then(|o| ids.get(&o).copied());
    for (id, by, into) in linked {
        set.execute(params![id, mapped(by), mapped(into)])?;
    }
    Ok(())
}

/// Set a copied row's links as they were where it came from (see [`relink`]).
pub fn set_links(conn: &Connection, id: i64, links: &Links) -> Result<()> {
    conn.exec(
        "UPDATE memory SET superseded_by = ?2, superseded_at = ?3, folded_into = ?4, folded_at = ?5 WHERE id = ?1",
        params![id, links.superseded_by, links.superseded_at, links.folded_into, links.folded_at],
    )?;
    Ok(())
}

/// Every row of a project, forgotten or not, oldest first (a project moving to another
/// store).
pub fn every_row(conn: &Connection, project_id: i64) -> Result<Vec<MemoryRow>> {
    let sql = format!("SELECT {COLUMNS} FROM memory m WHERE m.project_id = ?1 ORDER BY m.id");
    let rows =
        conn.prepare_cached(&sql)?.query_map([project_id], from_row)?.collect::<rusqlite::Result<_>>()?;
    Ok(rows)
}

/// One row of a project, forgotten or not.
pub fn get(conn: &Connection, project_id: i64, id: i64) -> Result<Option<MemoryRow>> {
    let sql = format!("SELECT {COLUMNS} FROM memory m WHERE m.project_id = ?1 AND m.id = ?2");
    Ok(conn.row(&sql, params![project_id, id], from_row).optional()?)
}

/// The rows of `ids` with their projects' slugs, by id (ids not found are left out): one
/// statement for all, where one per id cost a nearest-neighbour half of 50 hits 0.7 M
/// instructions.
pub fn get_many_with_slug(
    conn: &Connection,
    ids: &[i64],
) -> Result<std::collections::HashMap<i64, (MemoryRow, String)>> {
    let sql = format!(
        "SELECT {COLUMNS}, p.slug FROM memory m JOIN projects p ON p.id = m.project_id
         WHERE m.id IN (SELECT value FROM json_each(?1))"
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map([id_list(ids)], |r| Ok((from_row(r)?, r.get::<_, String>(COLUMN_COUNT)?)))?;
    let mut out = std::collections::HashMap::with_capacity(ids.len());
    for row in rows {
        let (row, slug) = row?;
        out.insert(row.id, (row, slug));
    }
    Ok(out)
}

/// `ids` as the JSON array `json_each(?)` reads: a list of any length in one parameter.
pub(crate) fn id_list(ids: &[i64]) -> String {
    let items: Vec<String> = ids.iter().map(i64::to_string).collect();
    format!("[{}]", items.join(","))
}

/// Which rows to list.
#[derive(Debug, Clone, Default)]
pub struct Filter<'a> {
    /// Only this kind.
    pub kind: Option<&'a str>,
    /// Only this status.
    pub status: Option<&'a str>,
    /// Only ids below this (the page before).
    pub before: Option<i64>,
    /// At most this many.
    pub limit: u32,
}

/// A project's rows, newest first, forgotten ones left out.
pub fn list(conn: &Connection, project_id: i64, f: &Filter<'_>) -> Result<Vec<MemoryRow>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM memory m
         WHERE m.project_id = ?1 AND m.forgotten_at IS NULL
           AND (?2 IS NULL OR m.kind = ?2) AND (?3 IS NULL OR m.status = ?3) AND (?4 IS NULL OR m.id < ?4)
         ORDER BY m.id DESC LIMIT ?5"
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map(params![project_id, f.kind, f.status, f.before, f.limit], from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// How many live rows of a kind (and status) are superseded, or are not.
pub fn count_live(
    conn: &Connection,
    project_id: i64,
    kind: &str,
    status: Option<&str>,
    superseded: bool,
) -> Result<u64> {
    let mut stmt = conn.prepare_cached(
        "SELECT COUNT(*) FROM memory m
         WHERE m.project_id = ?1 AND m.kind = ?2 AND m.forgotten_at IS NULL AND (?3 IS NULL OR m.status = ?3)
           AND (m.superseded_by IS NOT NULL) = ?4",
    )?;
    Ok(stmt.query_row(params![project_id, kind, status, superseded], |r| r.get::<_, i64>(0))? as u64)
}

/// The live row of a kind nothing superseded that changed last: by the last turn its
/// record names (a captured session's `last_at`), else by when it was written.
pub fn newest_changed(conn: &Connection, project_id: i64, kind: &str) -> Result<Option<MemoryRow>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM memory m
         WHERE m.project_id = ?1 AND m.kind = ?2 AND m.forgotten_at IS NULL
           AND m.superseded_by IS NULL
         ORDER BY json_extract(m.data, '$.last_at') DESC NULLS LAST, m.updated_at DESC, m.id DESC LIMIT 1"
    );
    Ok(conn.row(&sql, params![project_id, kind], from_row).optional()?)
}

/// The newest visible row of a kind for a project.
pub fn latest(conn: &Connection, project_id: i64, kind: &str) -> Result<Option<MemoryRow>> {
    Ok(list(conn, project_id, &Filter { kind: Some(kind), limit: 1, ..Filter::default() })?
        .into_iter()
        .next())
}

/// Mark a blocker resolved, keeping the resolution in `data`.
pub fn resolve(conn: &Connection, id: i64, data: &str, now: &str) -> Result<()> {
    conn.exec(
        "UPDATE memory SET status = 'resolved', data = ?2, updated_at = ?3 WHERE id = ?1",
        params![id, data, now],
    )?;
    Ok(())
}

/// Record which entry supersedes entry `id` (`None`: none any more). Its text stays, so
/// neither its index entry nor its vectors are redone.
pub fn set_superseded(conn: &Connection, id: i64, by: Option<i64>, now: &str) -> Result<()> {
    conn.exec(
        "UPDATE memory SET superseded_by = ?2, superseded_at = CASE WHEN ?2 IS NULL THEN NULL ELSE ?3 END,
         updated_at = ?3 WHERE id = ?1",
        params![id, by, now],
    )?;
    Ok(())
}

/// A project's captured-session row for `key`, forgotten or not.
pub fn session_by_key(conn: &Connection, project_id: i64, key: &str) -> Result<Option<MemoryRow>> {
    by_key(conn, project_id, "session", key)
}

/// A project's row of `kind` found by `key` (a captured session, a week's digest),
/// forgotten or not.
pub fn by_key(conn: &Connection, project_id: i64, kind: &str, key: &str) -> Result<Option<MemoryRow>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM memory m
         WHERE m.project_id = ?1 AND m.kind = ?3 AND m.key = ?2
         ORDER BY m.id DESC LIMIT 1"
    );
    Ok(conn.prepare_cached(&sql)?.query_row(params![project_id, key, kind], from_row).optional()?)
}

/// Mark captured session `id` folded into digest `by` (superseded by it, and folded
/// into it, which bringing it back leaves, so it is not folded again) when it is live,
/// not superseded and never folded; whether it was.
pub fn fold_into(conn: &Connection, project_id: i64, id: i64, by: i64, now: &str) -> Result<bool> {
    let changed = conn.exec(
        "UPDATE memory SET superseded_by = ?3, superseded_at = ?4, folded_into = ?3, folded_at = ?4
         WHERE id = ?1 AND project_id = ?2 AND kind = 'session' AND forgotten_at IS NULL
           AND superseded_by IS NULL AND folded_at IS NULL",
        params![id, project_id, by, now],
    )?;
    Ok(changed > 0)
}

/// Replace a row's text and data in place (a captured session brought up to date, a
/// week's digest rebuilt). It is current again: a folded session that resumes folds
/// again once it is old (its digest stays the one it was folded into).
pub fn replace(conn: &Connection, id: i64, m: &NewMemoryRow<'_>, now: &str) -> Result<()> {
    conn.exec(
        "UPDATE memory SET title = ?2, content = ?3, tags = ?4, data = ?5, updated_at = ?6,
             superseded_by = NULL, superseded_at = NULL, folded_at = NULL
         WHERE id = ?1",
        params![id, &*m.title, &*m.content, &*m.tags, m.data.as_deref(), now],
    )?;
    Ok(())
}

/// Hide a row from lists, search and the preamble.
pub fn forget(conn: &Connection, id: i64, now: &str) -> Result<()> {
    conn.exec("UPDATE memory SET forgotten_at = ?2, updated_at = ?2 WHERE id = ?1", params![id, now])?;
    Ok(())
}

/// The id of the entry written just before each of `ids` in its project, in their order.
pub fn previous_in_project(conn: &Connection, ids: &[i64]) -> Result<Vec<Option<i64>>> {
    // One statement for all (a search asks for up to a hundred).
    let mut before = conn.prepare_cached(
        "SELECT m.id, (SELECT p.id FROM memory p WHERE p.project_id = m.project_id AND p.id < m.id
                       ORDER BY p.id DESC LIMIT 1)
         FROM memory m WHERE m.id IN (SELECT value FROM json_each(?1))",
    )?;
    let mut found = std::collections::HashMap::with_capacity(ids.len());
    let mut rows = before.query([id_list(ids)])?;
    while let Some(r) = rows.next()? {
        found.insert(r.get::<_, i64>(0)?, r.get::<_, Option<i64>>(1)?);
    }
    Ok(ids.iter().map(|id| found.get(id).copied().flatten()).collect())
}
