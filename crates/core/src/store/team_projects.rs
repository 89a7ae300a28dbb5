//! Queries on `team_projects`: which local project rows stand for team projects.

use rusqlite::{Connection, OptionalExtension, params};

use super::Cached as _;
use crate::error::Result;

/// Whether the project `slug` (as stored) is a team project.
pub fn is_team(conn: &Connection, slug: &str) -> Result<bool> {
    let found = conn
        .row(
            "SELECT 1 FROM team_projects t JOIN projects p ON p.id = t.project_id WHERE p.slug = ?1",
            [slug.trim().to_ascii_lowercase()],
            |_| Ok(()),
        )
        .optional()?;
    Ok(found.is_some())
}

/// Every team project here: (local id, team id, slug).
pub fn all(conn: &Connection) -> Result<Vec<(i64, i64, String)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT t.project_id, t.team_id, p.slug FROM team_projects t JOIN projects p ON p.id = t.project_id
         ORDER BY p.slug",
    )?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Mark a local project row as the team's project `team_id`.
pub fn mark(conn: &Connection, project_id: i64, team_id: i64, now: &str) -> Result<()> {
    conn.exec(
        "INSERT INTO team_projects (project_id, team_id, synced_at) VALUES (?1, ?2, ?3)
         ON CONFLICT (project_id) DO UPDATE SET team_id = excluded.team_id, synced_at = excluded.synced_at",
        params![project_id, team_id, now],
    )?;
    Ok(())
}

/// This machine's row no longer stands for a team project: it is one's own from now on.
pub fn unmark(conn: &Connection, project_id: i64) -> Result<()> {
    conn.exec("DELETE FROM team_projects WHERE project_id = ?1", [project_id])?;
    Ok(())
}
