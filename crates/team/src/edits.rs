//! Changing a team project's shared fields, and reading what happened to it.

use mooring_core::{Error, Event, Project, Result, guard::validate};
use serde_json::json;

use crate::projects::{record, seen};
use crate::rows::{PROJECT_COLUMNS, project, ts};
use crate::{PgStore, db_error, errors::pool_error, sql};

/// New values for a team project's shared fields; `None` leaves one as it is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SharedEdit {
    /// Display name.
    pub name: Option<String>,
    /// Description.
    pub description: Option<String>,
    /// Repository URL (empty clears it).
    pub repo_url: Option<String>,
}

impl SharedEdit {
    /// True when it asks for nothing.
    pub fn is_empty(&self) -> bool {
        self.name.is_none() && self.description.is_none() && self.repo_url.is_none()
    }
}

impl PgStore {
    /// Change a team project's name, description or repository (a member's call, as
    /// writing its memory is). Returns the project and the fields that changed; an event
    /// records who changed what.
    pub fn edit_project(&self, slug: &str, edit: &SharedEdit) -> Result<(Project, Vec<String>)> {
        let name = edit.name.as_deref().map(validate::name).transpose()?;
        let description = edit.description.as_deref().map(validate::description).transpose()?;
        let repo_url = edit.repo_url.as_deref().map(validate::repo_url).transpose()?;
        let (slug, me) = (slug.to_owned(), self.me()?);
        self.run(move |pool| async move {
            let mut client = pool.get().await.map_err(pool_error)?;
            let tx = client.transaction().await.map_err(db_error)?;
            let found = seen(&tx, &slug, me, true).await?;
            found.may_write()?;
            let before = &found.project;
            let mut fields = Vec::new();
            if name.as_ref().is_some_and(|n| *n != before.name) {
                fields.push("name");
            }
            if description.as_ref().is_some_and(|d| *d != before.description) {
                fields.push("description");
            }
            if repo_url.as_ref().is_some_and(|u| *u != before.repo_url) {
                fields.push("repo_url");
            }
            if fields.is_empty() {
                return Ok((found.project, Vec::new()));
            }
            let sql = format!(
                "UPDATE projects AS p SET name = coalesce($2, name), description = coalesce($3, description),
                   repo_url = CASE WHEN $4 THEN $5 ELSE repo_url END, updated_at = now()
                 WHERE id = $1 RETURNING {PROJECT_COLUMNS}"
            );
            let new_repo = repo_url.clone().flatten();
            let row = sql::row(&tx, &sql, &[&before.id, &name, &description, &repo_url.is_some(), &new_repo])
                .await?;
            record(&tx, before, "edited", &json!({ "fields": fields }), me).await?;
            tx.commit().await.map_err(db_error)?;
            Ok((project(&row), fields.into_iter().map(str::to_owned).collect()))
        })
    }

    /// A page of a team project's events, newest first, each with who made the change
    /// (`by`), and how many there are.
    pub fn events_page(&self, slug: &str, limit: u32, offset: u32) -> Result<(Vec<Event>, u64)> {
        if limit == 0 || limit > 500 {
            return Err(Error::invalid("limit", format!("limit {limit} is out of range; use 1 to 500")));
        }
        let (slug, me) = (slug.to_owned(), self.me()?);
        self.run(move |pool| async move {
            let client = pool.get().await.map_err(pool_error)?;
            let found = seen(&client, &slug, me, false).await?;
            let id = found.project.id;
            let total: i64 =
                sql::row(&client, "SELECT count(*) FROM events WHERE project_id = $1", &[&id]).await?.get(0);
            // A range, not `=`, for the reason memory pages use one (memory.rs).
            let sql = concat!(
                "SELECT e.project, e.kind, e.detail, ",
                ts!("e.at"),
                ", p.name FROM events e LEFT JOIN people p ON p.id = e.person_id
                 WHERE e.project_id BETWEEN $1 AND $1 ORDER BY e.project_id, e.id DESC LIMIT $2 OFFSET $3"
            );
            let rows = sql::rows(&client, sql, &[&id, &i64::from(limit), &i64::from(offset)]).await?;
            let events = rows
                .iter()
                .map(|r| {
                    let mut detail: serde_json::Value = r.get(2);
                    if let (Some(person), Some(map)) = (r.get::<_, Option<String>>(4), detail.as_object_mut())
                    {
                        map.insert("by".into(), person.into());
                    }
                    Event { project: r.get(0), kind: r.get(1), detail, at: r.get(3) }
                })
                .collect();
            Ok((events, u64::try_from(total).unwrap_or(0)))
        })
    }

    /// All of a team project's events, oldest first.
    pub fn events(&self, slug: &str) -> Result<Vec<Event>> {
        let (mut all, total) = self.events_page(slug, 500, 0)?;
        let mut offset = 500;
        while (all.len() as u64) < total {
            let (more, _) = self.events_page(slug, 500, offset)?;
            if more.is_empty() {
                break;
            }
            all.extend(more);
            offset += 500;
        }
        all.reverse();
        Ok(all)
    }
}

/// An event row (project, kind, detail, at, the person's name) with who made it in the
/// detail as `by`.
pub(crate) fn event_row(r: &tokio_postgres::Row) -> Event {
    let mut detail: serde_json::Value = r.get(2);
    if let (Some(person), Some(map)) = (r.get::<_, Option<String>>(4), detail.as_object_mut()) {
        map.insert("by".into(), person.into());
    }
    Event { project: r.get(0), kind: r.get(1), detail, at: r.get(3) }
}
