//! Queries on the `code_paths` table.

use crate::store::Cached as _;
use rusqlite::{Connection, OptionalExtension, params};

use crate::error::Result;
use crate::model::{CodePath, PathState};

/// A code path with the project that owns it, for building the resolution index.
#[derive(Debug, Clone)]
pub struct OwnedPath {
    /// Canonical path.
    pub path: String,
    /// Present or missing.
    pub state: PathState,
    /// Owner's slug.
    pub slug: String,
    /// Owner's status (archived owners never decide).
    pub status: String,
}

/// The code paths of one project, sorted.
pub fn for_project(conn: &Connection, project_id: i64) -> Result<Vec<CodePath>> {
    let mut stmt = conn.prepare_cached(
        "SELECT path, state, last_seen_at FROM code_paths WHERE project_id = ?1 ORDER BY path",
    )?;
    let rows = stmt.query_map([project_id], |r| {
        let state: String = r.get(1)?;
        Ok(CodePath { path: r.get(0)?, state: PathState::parse(&state), last_seen_at: r.get(2)? })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Every project's code paths, sorted, keyed by project id.
pub fn by_project(conn: &Connection) -> Result<std::collections::HashMap<i64, Vec<CodePath>>> {
    let mut stmt =
        conn.prepare_cached("SELECT project_id, path, state, last_seen_at FROM code_paths ORDER BY path")?;
    let mut map: std::collections::HashMap<i64, Vec<CodePath>> = std::collections::HashMap::new();
    let rows = stmt.query_map([], |r| {
        let state: String = r.get(2)?;
        Ok((
            r.get::<_, i64>(0)?,
            CodePath { path: r.get(1)?, state: PathState::parse(&state), last_seen_at: r.get(3)? },
        ))
    })?;
    for row in rows {
        let (id, cp) = row?;
        map.entry(id).or_default().push(cp);
    }
    Ok(map)
}

/// Every code path with its owner.
pub fn all(conn: &Connection) -> Result<Vec<OwnedPath>> {
    let mut stmt = conn.prepare_cached(
        "SELECT c.path, c.state, p.slug, p.status FROM code_paths c JOIN projects p ON p.id = c.project_id",
    )?;
    let rows = stmt.query_map([], |r| {
        let state: String = r.get(1)?;
        Ok(OwnedPath { path: r.get(0)?, state: PathState::parse(&state), slug: r.get(2)?, status: r.get(3)? })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// The slug of the project that owns `path`, if any.
pub fn owner(conn: &Connection, path: &str) -> Result<Option<(i64, String)>> {
    Ok(conn
        .row(
            "SELECT p.id, p.slug FROM code_paths c JOIN projects p ON p.id = c.project_id WHERE c.path = ?1",
            [path],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?)
}

/// Add a path to a project, with its device and inode when it exists so the watcher
/// can follow it even if it is renamed before the watcher first looks.
pub fn insert(conn: &Connection, project_id: i64, path: &str, state: PathState, now: &str) -> Result<()> {
    let seen = (state == PathState::Present).then_some(now);
    let id = crate::paths::file_id(std::path::Path::new(path)).ok().flatten();
    let (dev, ino) = id.map(|(d, i)| (d as i64, i as i64)).unzip();
    conn.exec(
        "INSERT INTO code_paths (project_id, path, state, last_seen_at, added_at, dev, ino)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![project_id, path, state.as_str(), seen, now, dev, ino],
    )?;
    Ok(())
}

/// Remove a path from a project; returns whether it was there.
pub fn remove(conn: &Connection, project_id: i64, path: &str) -> Result<bool> {
    let n =
        conn.exec("DELETE FROM code_paths WHERE project_id = ?1 AND path = ?2", params![project_id, path])?;
    Ok(n > 0)
}

/// A code path as the watcher sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Watched {
    /// Row id.
    pub id: i64,
    /// Owning project id.
    pub project_id: i64,
    /// Owner's slug (for events).
    pub slug: String,
    /// Canonical path.
    pub path: String,
    /// Present or missing.
    pub state: PathState,
    /// Device and inode when last seen.
    pub file_id: Option<(u64, u64)>,
}

/// Every code path with what the watcher needs.
pub fn watched(conn: &Connection) -> Result<Vec<Watched>> {
    let mut stmt = conn.prepare_cached(
        "SELECT c.id, c.project_id, p.slug, c.path, c.state, c.dev, c.ino
         FROM code_paths c JOIN projects p ON p.id = c.project_id ORDER BY c.path",
    )?;
    let rows = stmt.query_map([], |r| {
        let state: String = r.get(4)?;
        let dev: Option<i64> = r.get(5)?;
        let ino: Option<i64> = r.get(6)?;
        Ok(Watched {
            id: r.get(0)?,
            project_id: r.get(1)?,
            slug: r.get(2)?,
            path: r.get(3)?,
            state: PathState::parse(&state),
            // SQLite integers are signed; the bits round-trip.
            file_id: dev.zip(ino).map(|(d, i)| (d as u64, i as u64)),
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Record where a code path is now, its state and its file identity.
pub fn update_seen(
    conn: &Connection,
    id: i64,
    path: &str,
    state: PathState,
    file_id: Option<(u64, u64)>,
    now: &str,
) -> Result<()> {
    let (dev, ino) = file_id.map(|(d, i)| (d as i64, i as i64)).unzip();
    let seen = (state == PathState::Present).then_some(now);
    conn.exec(
        "UPDATE code_paths SET path = ?2, state = ?3, dev = ?4, ino = ?5,
             last_seen_at = COALESCE(?6, last_seen_at) WHERE id = ?1",
        params![id, path, state.as_str(), dev, ino, seen],
    )?;
    Ok(())
}
