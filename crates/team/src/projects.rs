//! The team's projects: the shared fields only (each machine binds its own checkouts),
//! their members, and handing a project to another person.

use deadpool_postgres::GenericClient;
use mooring_core::projects::registry::SharedFields;
use mooring_core::{Error, NewProject, Project, ProjectStatus, Result};
use serde_json::json;

use crate::access::{Role, TeamView};
use crate::rows::{PROJECT_COLUMNS, project, ts};
use crate::{PgStore, db_error, errors::pool_error, sql};

impl PgStore {
    /// Create a team project (name, slug, description and repository checked as for a
    /// local one), owned by this instance's person.
    pub fn create_project(&self, new: NewProject) -> Result<Project> {
        let SharedFields { name, slug, description, repo_url } = SharedFields::check(&new)?;
        let me = self.me()?;
        self.run(move |pool| async move {
            let mut client = pool.get().await.map_err(pool_error)?;
            let tx = client.transaction().await.map_err(db_error)?;
            let sql = format!(
                "INSERT INTO projects AS p (slug, name, description, repo_url, owner_id) VALUES ($1, $2, $3, $4, $5)
                 ON CONFLICT (slug) DO NOTHING RETURNING {PROJECT_COLUMNS}"
            );
            let row = sql::row_opt(&tx, &sql, &[&slug, &name, &description, &repo_url, &me])
                .await?
                .ok_or_else(|| {
                    Error::conflict("slug", format!("slug '{slug}' is already taken in the team; choose another"))
                })?;
            let created = project(&row);
            sql::exec(&tx, "INSERT INTO members (project_id, person_id, role) VALUES ($1, $2, 'owner')", &[&created.id, &me])
                .await?;
            record(&tx, &created, "created", &json!({ "name": created.name }), me).await?;
            tx.commit().await.map_err(db_error)?;
            Ok(created)
        })
    }

    /// One team project this person is in, with their role.
    pub fn project(&self, slug: &str) -> Result<TeamView> {
        let (slug, me) = (slug.to_owned(), self.me()?);
        self.run(move |pool| async move {
            let client = pool.get().await.map_err(pool_error)?;
            seen(&client, &slug, me, false).await
        })
    }

    /// The team projects this person is in, by slug.
    pub fn projects(&self) -> Result<Vec<TeamView>> {
        let me = self.me()?;
        self.run(move |pool| async move {
            let client = pool.get().await.map_err(pool_error)?;
            let sql = format!("{SEEN} WHERE mb.role IS NOT NULL ORDER BY p.slug");
            let rows = sql::rows(&client, &sql, &[&me]).await?;
            Ok(rows.iter().filter_map(seen_row).collect())
        })
    }

    /// The people of a team project you are in, with their roles, the owner first.
    pub fn members(&self, slug: &str) -> Result<Vec<(String, Role)>> {
        let (slug, me) = (slug.to_owned(), self.me()?);
        self.run(move |pool| async move {
            let client = pool.get().await.map_err(pool_error)?;
            let found = seen(&client, &slug, me, false).await?;
            let rows = sql::rows(
                &client,
                "SELECT pe.name, m.role FROM members m JOIN people pe ON pe.id = m.person_id
                 WHERE m.project_id = $1 ORDER BY m.role = 'owner' DESC, pe.name",
                &[&found.project.id],
            )
            .await?;
            Ok(rows
                .iter()
                .filter_map(|r| Some((r.get::<_, String>(0), Role::parse("role", r.get::<_, &str>(1)).ok()?)))
                .collect())
        })
    }

    /// Change a team project's status (the owner's call; archived projects are read-only).
    pub fn set_status(&self, slug: &str, status: ProjectStatus) -> Result<Project> {
        let (slug, me) = (slug.to_owned(), self.me()?);
        self.run(move |pool| async move {
            let mut client = pool.get().await.map_err(pool_error)?;
            let tx = client.transaction().await.map_err(db_error)?;
            let found = seen(&tx, &slug, me, true).await?;
            found.must_own("change its status")?;
            let sql = format!(
                "UPDATE projects AS p SET status = $2, updated_at = now(),
                   archived_at = CASE WHEN $2 = 'archived' THEN now() END
                 WHERE id = $1 RETURNING {PROJECT_COLUMNS}"
            );
            let row = sql::row(&tx, &sql, &[&found.project.id, &status.as_str()]).await?;
            let kind = if status == ProjectStatus::Archived { "archived" } else { "status_changed" };
            record(&tx, &found.project, kind, &json!({ "status": status.as_str() }), me).await?;
            tx.commit().await.map_err(db_error)?;
            Ok(project(&row))
        })
    }

    /// Give `person` a role in a project (the owner's call); `owner` hands it off instead.
    pub fn set_member(&self, slug: &str, person: &str, role: Role) -> Result<()> {
        if role == Role::Owner {
            return Err(Error::invalid(
                "role",
                "a project has one owner; hand it off to make someone its owner",
            ));
        }
        let (slug, person, me) = (slug.to_owned(), person.trim().to_owned(), self.me()?);
        self.run(move |pool| async move {
            let mut client = pool.get().await.map_err(pool_error)?;
            let tx = client.transaction().await.map_err(db_error)?;
            let (found, them) =
                member_change(&tx, &slug, me, &person, "hand it off before changing your own role").await?;
            sql::exec(
                &tx,
                "INSERT INTO members (project_id, person_id, role) VALUES ($1, $2, $3)
                 ON CONFLICT (project_id, person_id) DO UPDATE SET role = excluded.role",
                &[&found.project.id, &them, &role.as_str()],
            )
            .await?;
            let detail = json!({ "person": person, "role": role.as_str() });
            record(&tx, &found.project, "member_set", &detail, me).await?;
            tx.commit().await.map_err(db_error)?;
            Ok(())
        })
    }

    /// Take `person` out of a project (the owner's call): it no longer exists for them,
    /// and their machine drops its row at its next look at the team's list.
    pub fn remove_member(&self, slug: &str, person: &str) -> Result<()> {
        let (slug, person, me) = (slug.to_owned(), person.trim().to_owned(), self.me()?);
        self.run(move |pool| async move {
            let mut client = pool.get().await.map_err(pool_error)?;
            let tx = client.transaction().await.map_err(db_error)?;
            let (found, them) =
                member_change(&tx, &slug, me, &person, "hand it off before leaving it").await?;
            let gone = sql::exec(
                &tx,
                "DELETE FROM members WHERE project_id = $1 AND person_id = $2",
                &[&found.project.id, &them],
            )
            .await?;
            if gone == 0 {
                return Err(Error::not_found(
                    "person",
                    format!("{person} is not in {}; nothing to remove", found.project.slug),
                ));
            }
            record(&tx, &found.project, "member_removed", &json!({ "person": person }), me).await?;
            tx.commit().await.map_err(db_error)?;
            Ok(())
        })
    }

    /// Hand a project to `person` (the owner's call): they own it, the old owner stays a
    /// member. An event records it.
    pub fn handoff(&self, slug: &str, person: &str) -> Result<Project> {
        let (slug, person, me) = (slug.to_owned(), person.trim().to_owned(), self.me()?);
        self.run(move |pool| async move {
            let mut client = pool.get().await.map_err(pool_error)?;
            let tx = client.transaction().await.map_err(db_error)?;
            let found = seen(&tx, &slug, me, true).await?;
            found.must_own("hand it off")?;
            let them = person_named(&tx, &person).await?;
            if them == me {
                return Err(Error::invalid("person", format!("you already own '{}'", found.project.slug)));
            }
            let id = found.project.id;
            sql::exec(&tx, "UPDATE members SET role = 'member' WHERE project_id = $1 AND person_id = $2", &[&id, &me])
                .await?;
            sql::exec(&tx,
                "INSERT INTO members (project_id, person_id, role) VALUES ($1, $2, 'owner')
                 ON CONFLICT (project_id, person_id) DO UPDATE SET role = 'owner'",
                &[&id, &them],
            )
            .await?;
            let sql = format!(
                "UPDATE projects AS p SET owner_id = $2, updated_at = now() WHERE id = $1 RETURNING {PROJECT_COLUMNS}"
            );
            let row = sql::row(&tx, &sql, &[&id, &them]).await?;
            let from = found.owner.clone();
            record(&tx, &found.project, "handed_off", &json!({ "from": from, "to": person }), me).await?;
            tx.commit().await.map_err(db_error)?;
            Ok(project(&row))
        })
    }

    /// Delete a project with its memory (the owner's call); the event log keeps that it was.
    pub fn delete_project(&self, slug: &str) -> Result<()> {
        let (slug, me) = (slug.to_owned(), self.me()?);
        self.run(move |pool| async move {
            let mut client = pool.get().await.map_err(pool_error)?;
            let tx = client.transaction().await.map_err(db_error)?;
            let found = seen(&tx, &slug, me, true).await?;
            found.must_own("delete it")?;
            record(&tx, &found.project, "deleted", &json!({ "name": found.project.name }), me).await?;
            sql::exec(&tx, "DELETE FROM projects WHERE id = $1", &[&found.project.id]).await?;
            tx.commit().await.map_err(db_error)?;
            Ok(())
        })
    }
}

/// A project with the acting person's role (`$1`) and its owner's name.
const SEEN: &str = concat!(
    "SELECT p.id, p.slug, p.name, p.description, p.status, p.repo_url, ",
    ts!("p.created_at"),
    ", ",
    ts!("p.updated_at"),
    ", ",
    ts!("p.last_used_at"),
    ", ",
    ts!("p.archived_at"),
    ", mb.role, o.name FROM projects p
     LEFT JOIN members mb ON mb.project_id = p.id AND mb.person_id = $1
     LEFT JOIN people o ON o.id = p.owner_id"
);

fn seen_row(r: &tokio_postgres::Row) -> Option<TeamView> {
    let role = Role::parse("role", r.get::<_, Option<&str>>(10)?).ok()?;
    Some(TeamView { project: project(r), role, owner: r.get(11) })
}

/// A project the person is in, by slug; one they are not in does not exist for them.
/// `lock` holds its row for this transaction's writes: a status change cannot slip
/// between a check and the write that relies on it, and writers of one project take
/// turns (each also updates the project's row; two holding a shared lock and both
/// wanting to update it deadlocked).
pub(crate) async fn seen(client: &impl GenericClient, slug: &str, me: i64, lock: bool) -> Result<TeamView> {
    let wanted = slug.trim().to_ascii_lowercase();
    let sql = format!("{SEEN} WHERE p.slug = $2{}", if lock { " FOR NO KEY UPDATE OF p" } else { "" });
    let row = sql::row_opt(client, &sql, &[&me, &wanted]).await?;
    row.as_ref().and_then(seen_row).ok_or_else(|| {
        Error::not_found(
            "project",
            format!(
                "no project '{}' in the team that you are in; list the projects to see their slugs",
                slug.trim()
            ),
        )
    })
}

/// A project the person may write memory in (member or owner) that passes `check`, its
/// row held for the transaction.
pub(crate) async fn writable(
    tx: &impl GenericClient,
    slug: &str,
    me: i64,
    check: mooring_core::store::backend::ProjectCheck,
) -> Result<Project> {
    let found = seen(tx, slug, me, true).await?;
    found.may_write()?;
    check(&found.project)?;
    Ok(found.project)
}

/// The owner's change to another person's membership of `slug`: the project (its row
/// held) and the person's id; never the owner themselves (`fix` says what to do instead).
async fn member_change(
    tx: &impl GenericClient,
    slug: &str,
    me: i64,
    person: &str,
    fix: &str,
) -> Result<(TeamView, i64)> {
    let found = seen(tx, slug, me, true).await?;
    found.must_own("manage its members")?;
    let them = person_named(tx, person).await?;
    if them == me {
        return Err(Error::invalid("person", format!("you own this project; {fix}")));
    }
    Ok((found, them))
}

async fn person_named(client: &impl GenericClient, name: &str) -> Result<i64> {
    let row = sql::row_opt(client, "SELECT id FROM people WHERE name = $1", &[&name]).await?;
    row.map(|r| r.get(0)).ok_or_else(|| {
        Error::not_found(
            "person",
            format!("no one named '{name}' has joined the team; they join with mooring team join first"),
        )
    })
}

/// Record an event on a project, by `person`.
pub(crate) async fn record(
    client: &impl GenericClient,
    project: &Project,
    kind: &str,
    detail: &serde_json::Value,
    person: i64,
) -> Result<()> {
    sql::exec(
        client,
        "INSERT INTO events (project_id, project, kind, detail, person_id) VALUES ($1, $2, $3, $4, $5)",
        &[&project.id, &project.slug, &kind, detail, &person],
    )
    .await?;
    Ok(())
}
