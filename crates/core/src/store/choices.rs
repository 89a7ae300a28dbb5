//! Queries on the `choices` table: one row per question put to the person, its request
//! and answer as JSON the broker (`choice::broker`) reads and writes.

use crate::store::Cached as _;
use rusqlite::{Connection, OptionalExtension, params};

use crate::error::Result;
use crate::model::{ChoiceStatus, Surface};

// The one place a question's status meets SQL: stored by its name, an unknown name an
// error naming the value (never read as some other status).
impl rusqlite::ToSql for ChoiceStatus {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        Ok(self.as_str().into())
    }
}

impl rusqlite::types::FromSql for ChoiceStatus {
    fn column_result(value: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        let name = value.as_str()?;
        name.parse()
            .map_err(|e: crate::error::Error| rusqlite::types::FromSqlError::Other(e.to_string().into()))
    }
}

// A surface likewise, by its name.
impl rusqlite::ToSql for Surface {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        Ok(self.as_str().into())
    }
}

impl rusqlite::types::FromSql for Surface {
    fn column_result(value: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        let name = value.as_str()?;
        name.parse()
            .map_err(|e: crate::error::Error| rusqlite::types::FromSqlError::Other(e.to_string().into()))
    }
}

/// A question's row as stored.
#[derive(Debug, Clone)]
pub struct ChoiceRow {
    /// Its id.
    pub id: String,
    /// The secret the page and the terminal hold.
    pub token: String,
    /// The asking agent session.
    pub session_id: Option<String>,
    /// The checked request and timeout action (JSON).
    pub request: String,
    /// Where it stands.
    pub status: ChoiceStatus,
    /// Which surface answered.
    pub surface: Option<Surface>,
    /// Asked at (RFC 3339).
    pub created_at: String,
    /// The deadline (RFC 3339).
    pub deadline_at: String,
    /// The final answer (JSON), once there is one.
    pub response: Option<String>,
    /// The project it was asked in, when one was known as it opened.
    pub project: Option<String>,
}

/// A new question's row.
pub struct NewChoice<'a> {
    /// Its id.
    pub id: &'a str,
    /// Its secret.
    pub token: &'a str,
    /// The asking session, when known.
    pub session_id: Option<&'a str>,
    /// The request (JSON).
    pub request: &'a str,
    /// Asked at.
    pub created_at: &'a str,
    /// The deadline.
    pub deadline_at: &'a str,
    /// The project the asker works in, as resolved when it asked (else its session's).
    pub project: Option<&'a str>,
}

const COLUMNS: &str = "id, token, session_id, request, status, surface, created_at, deadline_at, response, \
                       (SELECT p.slug FROM projects p WHERE p.id = choices.project_id)";

fn from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<ChoiceRow> {
    Ok(ChoiceRow {
        id: r.get(0)?,
        token: r.get(1)?,
        session_id: r.get(2)?,
        request: r.get(3)?,
        status: r.get(4)?,
        surface: r.get(5)?,
        created_at: r.get(6)?,
        deadline_at: r.get(7)?,
        response: r.get(8)?,
        project: r.get(9)?,
    })
}

fn many(conn: &Connection, sql: &str, params: impl rusqlite::Params) -> Result<Vec<ChoiceRow>> {
    let mut stmt = conn.prepare_cached(sql)?;
    let rows = stmt.query_map(params, from_row)?;
    Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
}

/// Store a pending question, in the asking session's project when it has one (its
/// project's view lists it).
pub fn insert(conn: &Connection, new: &NewChoice<'_>) -> Result<()> {
    conn.exec(
        "INSERT INTO choices (id, token, session_id, request, status, created_at, deadline_at, project_id)
         VALUES (?1, ?2, ?3, ?4, ?8, ?5, ?6,
                 COALESCE((SELECT id FROM projects WHERE slug = ?7), (SELECT project_id FROM sessions WHERE id = ?3)))",
        params![
            new.id,
            new.token,
            new.session_id,
            new.request,
            new.created_at,
            new.deadline_at,
            new.project,
            ChoiceStatus::Pending
        ],
    )?;
    Ok(())
}

/// A question by id.
pub fn get(conn: &Connection, id: &str) -> Result<Option<ChoiceRow>> {
    Ok(conn.row(&format!("SELECT {COLUMNS} FROM choices WHERE id = ?1"), [id], from_row).optional()?)
}

/// Questions still pending, oldest first.
pub fn pending(conn: &Connection) -> Result<Vec<ChoiceRow>> {
    many(
        conn,
        &format!("SELECT {COLUMNS} FROM choices WHERE status = ?1 ORDER BY created_at"),
        [ChoiceStatus::Pending],
    )
}

/// Pending questions whose deadline is at or before `now` (RFC 3339).
pub fn due(conn: &Connection, now: &str) -> Result<Vec<ChoiceRow>> {
    many(
        conn,
        &format!("SELECT {COLUMNS} FROM choices WHERE status = ?2 AND deadline_at <= ?1"),
        params![now, ChoiceStatus::Pending],
    )
}

/// The newest `limit` questions asked in project `slug`.
pub fn in_project(conn: &Connection, slug: &str, limit: u32) -> Result<Vec<ChoiceRow>> {
    many(
        conn,
        &format!(
            "SELECT {COLUMNS} FROM choices WHERE project_id = (SELECT id FROM projects WHERE slug = ?1)
             ORDER BY created_at DESC LIMIT ?2"
        ),
        params![slug, limit],
    )
}

/// Move a pending question's deadline.
pub fn set_deadline(conn: &Connection, id: &str, deadline_at: &str) -> Result<()> {
    conn.exec(
        "UPDATE choices SET deadline_at = ?2 WHERE id = ?1 AND status = ?3",
        params![id, deadline_at, ChoiceStatus::Pending],
    )?;
    Ok(())
}

/// Close a pending question with its final status, surface and answer (JSON); a question
/// already closed stays as it was (the first answer wins).
pub fn close(
    conn: &Connection,
    id: &str,
    status: ChoiceStatus,
    surface: Surface,
    response: &str,
    at: &str,
) -> Result<()> {
    conn.exec(
        "UPDATE choices SET status = ?2, surface = ?3, response = ?4, answered_at = ?5 WHERE id = ?1 AND status = ?6",
        params![id, status, surface, response, at, ChoiceStatus::Pending],
    )?;
    Ok(())
}
