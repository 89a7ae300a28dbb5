//! Queries on the `projects` table (with code paths and stats joined in).

use crate::store::Cached as _;
use rusqlite::{Connection, OptionalExtension, Row, params};

use super::code_paths;
use crate::error::{Error, Result};
use crate::humanize;
use crate::model::{Project, ProjectStats, ProjectStatus};

const COLUMNS: &str = "id, slug, name, description, status, repo_url, notes_path, \
                       created_at, updated_at, last_used_at, archived_at";

/// Fields of a new row.
pub struct NewProjectRow<'a> {
    /// Slug, already validated and free.
    pub slug: &'a str,
    /// Display name.
    pub name: &'a str,
    /// Description.
    pub description: &'a str,
    /// Repository URL.
    pub repo_url: Option<&'a str>,
    /// Notes directory.
    pub notes_path: Option<&'a str>,
    /// Creation time.
    pub now: &'a str,
}

/// Insert a project row; returns its id.
pub fn insert(conn: &Connection, row: &NewProjectRow<'_>) -> Result<i64> {
    conn.exec(
        "INSERT INTO projects (slug, name, description, status, repo_url, notes_path, created_at, updated_at)
         VALUES (?1, ?2, ?3, 'active', ?4, ?5, ?6, ?6)",
        params![row.slug, row.name, row.description, row.repo_url, row.notes_path, row.now],
    )?;
    Ok(conn.last_insert_rowid())
}

/// One project by slug, with code paths and stats.
pub fn by_slug(conn: &Connection, slug: &str) -> Result<Option<Project>> {
    row_by_slug(conn, slug)?.map(|p| complete(conn, p)).transpose()
}

/// Whether the project was marked used at or after `since` and needs no auto-resume.
pub fn used_since(conn: &Connection, slug: &str, since: &str) -> Result<bool> {
    Ok(conn.row(
        "SELECT EXISTS(SELECT 1 FROM projects WHERE slug = ?1 AND last_used_at >= ?2
                         AND NOT (status = 'paused' AND auto_paused = 1))",
        params![slug, since],
        |r| r.get(0),
    )?)
}

/// One project's own row by slug: code paths and stats left empty.
pub fn row_by_slug(conn: &Connection, slug: &str) -> Result<Option<Project>> {
    let sql = format!("SELECT {COLUMNS} FROM projects WHERE slug = ?1");
    Ok(conn.row(&sql, [slug], from_row).optional()?)
}

/// One project by id, with code paths and stats.
pub fn by_id(conn: &Connection, id: i64) -> Result<Option<Project>> {
    let sql = format!("SELECT {COLUMNS} FROM projects WHERE id = ?1");
    let project = conn.row(&sql, [id], from_row).optional()?;
    project.map(|p| complete(conn, p)).transpose()
}

/// Projects with the given status (all when `None`), most recently used first. Three
/// queries whatever the number of projects.
pub fn list(conn: &Connection, status: Option<ProjectStatus>) -> Result<Vec<Project>> {
    let sql = format!(
        "SELECT {COLUMNS} FROM projects WHERE (?1 IS NULL OR status = ?1)
         ORDER BY COALESCE(last_used_at, created_at) DESC, slug"
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map([status.map(ProjectStatus::as_str)], from_row)?;
    let mut out: Vec<Project> = rows.collect::<rusqlite::Result<_>>()?;
    let mut stats = all_stats(conn)?;
    let mut paths = code_paths::by_project(conn)?;
    let now = chrono::Utc::now();
    for p in &mut out {
        p.stats = stats.remove(&p.id).unwrap_or_default();
        p.code_paths = paths.remove(&p.id).unwrap_or_default();
        p.last_used = humanize::ago(p.last_used_at.as_deref(), now);
    }
    Ok(out)
}

fn all_stats(conn: &Connection) -> Result<std::collections::HashMap<i64, ProjectStats>> {
    let mut stmt = conn.prepare_cached(
        "SELECT project_id, decisions, open_blockers, context_locks, memory_total FROM project_stats",
    )?;
    let n = |v: i64| u64::try_from(v).unwrap_or(0);
    let rows = stmt.query_map([], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            ProjectStats {
                decisions: n(r.get(1)?),
                open_blockers: n(r.get(2)?),
                context_locks: n(r.get(3)?),
                memory_total: n(r.get(4)?),
            },
        ))
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Every project's slug, status and repository URL, for the resolution index.
pub fn statuses_and_repos(conn: &Connection) -> Result<Vec<(String, ProjectStatus, Option<String>)>> {
    let mut stmt = conn.prepare_cached("SELECT slug, status, repo_url FROM projects")?;
    let rows = stmt.query_map([], |r| {
        let status: String = r.get(1)?;
        Ok((r.get(0)?, status.parse().unwrap_or(ProjectStatus::Archived), r.get(2)?))
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Whether a slug is taken.
pub fn slug_exists(conn: &Connection, slug: &str) -> Result<bool> {
    Ok(conn.row("SELECT 1 FROM projects WHERE slug = ?1", [slug], |_| Ok(())).optional()?.is_some())
}

/// Set one text column (name, description, repo_url, notes_path) and bump `updated_at`.
pub fn set_text(
    conn: &Connection,
    id: i64,
    column: TextColumn,
    value: Option<&str>,
    now: &str,
) -> Result<()> {
    let sql = format!("UPDATE projects SET {} = ?1, updated_at = ?2 WHERE id = ?3", column.name());
    conn.exec(&sql, params![value, now, id])?;
    Ok(())
}

/// Change status, keeping `archived_at` in step.
pub fn set_status(conn: &Connection, id: i64, status: ProjectStatus, now: &str) -> Result<()> {
    conn.exec(
        "UPDATE projects SET status = ?1, updated_at = ?2, auto_paused = 0,
             archived_at = CASE WHEN ?1 = 'archived' THEN COALESCE(archived_at, ?2) ELSE NULL END
         WHERE id = ?3",
        params![status.as_str(), now, id],
    )?;
    Ok(())
}

/// Bump `updated_at` (after a code-path change).
pub fn touch(conn: &Connection, id: i64, now: &str) -> Result<()> {
    conn.exec("UPDATE projects SET updated_at = ?1 WHERE id = ?2", params![now, id])?;
    Ok(())
}

/// Record that a session worked in the project; a project paused for inactivity resumes.
pub fn mark_used(conn: &Connection, id: i64, now: &str) -> Result<()> {
    conn.exec("UPDATE projects SET last_used_at = ?1 WHERE id = ?2", params![now, id])?;
    let resumed = conn.exec(
        "UPDATE projects SET status = 'active', auto_paused = 0, updated_at = ?1
         WHERE id = ?2 AND status = 'paused' AND auto_paused = 1",
        params![now, id],
    )?;
    if resumed > 0 {
        let slug: String = conn.row("SELECT slug FROM projects WHERE id = ?1", [id], |r| r.get(0))?;
        super::events::record(conn, id, &slug, "auto_resumed", &serde_json::json!({}), now)?;
    }
    Ok(())
}

/// Delete the row; code paths, memory and locks go with it (foreign keys cascade), and
/// what its sessions were handed (kept by slug).
pub fn delete(conn: &Connection, id: i64) -> Result<()> {
    conn.exec("DELETE FROM injections WHERE project = (SELECT slug FROM projects WHERE id = ?1)", [id])?;
    conn.exec("DELETE FROM projects WHERE id = ?1", [id])?;
    Ok(())
}

/// The editable text columns.
#[derive(Debug, Clone, Copy)]
pub enum TextColumn {
    /// Display name.
    Name,
    /// Description.
    Description,
    /// Repository URL.
    RepoUrl,
    /// Notes directory.
    NotesPath,
}

impl TextColumn {
    /// Column (and JSON field) name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Name => "name",
            Self::Description => "description",
            Self::RepoUrl => "repo_url",
            Self::NotesPath => "notes_path",
        }
    }
}

fn from_row(row: &Row<'_>) -> rusqlite::Result<Project> {
    let status: String = row.get(4)?;
    Ok(Project {
        id: row.get(0)?,
        slug: row.get(1)?,
        name: row.get(2)?,
        description: row.get(3)?,
        status: status.parse().unwrap_or(ProjectStatus::Archived),
        repo_url: row.get(5)?,
        notes_path: row.get(6)?,
        code_paths: Vec::new(),
        stats: ProjectStats::default(),
        created_at: row.get(7)?,
        updated_at: row.get(8)?,
        last_used_at: row.get(9)?,
        last_used: String::new(),
        archived_at: row.get(10)?,
    })
}

/// Fill in a project row's code paths, counts and "last used" text.
pub fn complete(conn: &Connection, mut p: Project) -> Result<Project> {
    p.code_paths = code_paths::for_project(conn, p.id)?;
    p.stats = stats(conn, p.id)?;
    p.last_used = humanize::ago(p.last_used_at.as_deref(), chrono::Utc::now());
    Ok(p)
}

/// Memory and lock counts for one project (kept current by triggers).
pub fn stats(conn: &Connection, id: i64) -> Result<ProjectStats> {
    let row = conn
        .row(
            "SELECT decisions, open_blockers, context_locks, memory_total FROM project_stats WHERE project_id = ?1",
            [id],
            |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?, r.get::<_, i64>(2)?, r.get::<_, i64>(3)?)),
        )
        .optional()?;
    let n = |v: i64| u64::try_from(v).unwrap_or(0);
    Ok(row
        .map(|(d, b, l, t)| ProjectStats {
            decisions: n(d),
            open_blockers: n(b),
            context_locks: n(l),
            memory_total: n(t),
        })
        .unwrap_or_default())
}

/// Look a project's own row up by slug (no code paths, no counts): what memory, locks
/// and sessions need, at one indexed read instead of three queries.
pub fn find_row(conn: &Connection, field: &str, slug: &str) -> Result<Project> {
    let wanted = slug.trim().to_ascii_lowercase();
    if let Some(p) = row_by_slug(conn, &wanted)? {
        return Ok(p);
    }
    let all = list(conn, None)?;
    let hint = all
        .iter()
        .map(|p| (strsim::jaro_winkler(&wanted, &p.slug), &p.slug))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, s)| format!("; did you mean '{s}'?"))
        .unwrap_or_else(|| {
            if all.is_empty() {
                "; no projects exist yet, create one first".to_owned()
            } else {
                "; list the projects to see their slugs".to_owned()
            }
        });
    Err(Error::not_found(field, format!("no project '{}'{hint}", slug.trim())))
}

/// Whether capture is on for project `id` (the project's own switch).
pub fn capture_on(conn: &Connection, id: i64) -> Result<bool> {
    Ok(conn.row("SELECT capture FROM projects WHERE id = ?1", [id], |r| r.get::<_, i64>(0))? == 1)
}

/// Switch capture for project `id` on or off.
pub fn set_capture(conn: &Connection, id: i64, on: bool) -> Result<()> {
    conn.exec("UPDATE projects SET capture = ?2 WHERE id = ?1", params![id, i64::from(on)])?;
    Ok(())
}

/// Active projects last used (or, never used, created) before `cutoff`: id and slug.
pub fn idle_since(conn: &Connection, cutoff: &str) -> Result<Vec<(i64, String)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, slug FROM projects WHERE status = 'active' AND COALESCE(last_used_at, created_at) < ?1",
    )?;
    let rows = stmt.query_map([cutoff], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Pause project `id` for want of use (resuming it clears `auto_paused`).
pub fn auto_pause(conn: &Connection, id: i64, at: &str) -> Result<()> {
    conn.exec(
        "UPDATE projects SET status = 'paused', auto_paused = 1, updated_at = ?2 WHERE id = ?1",
        params![id, at],
    )?;
    Ok(())
}

/// Project `project_id`'s setting for a write into a file another session holds
/// (`ask`, `deny`, `warn` or `off`).
pub fn claims_mode(conn: &Connection, project_id: i64) -> Result<String> {
    Ok(conn.row("SELECT claims FROM projects WHERE id = ?1", [project_id], |r| r.get(0))?)
}

/// Set project `project_id`'s setting (see [`claims_mode`]).
pub fn set_claims_mode(conn: &Connection, project_id: i64, mode: &str) -> Result<()> {
    conn.exec("UPDATE projects SET claims = ?2 WHERE id = ?1", params![project_id, mode])?;
    Ok(())
}
