//! Moving a person's own project into the team: the project, all its memory (forgotten
//! entries stay forgotten), its context locks and its event log, in one transaction of the team database;
//! then this machine's row becomes the team project's (its code paths stay) and the
//! local copies of the memory go. Events that describe this machine (a code path's
//! absolute path, a session, the focus) are not shared: they stay in the local log,
//! which the owner's own view of the history still reads.

use mooring_core::store::projects::find_row;
use mooring_core::store::{Cached as _, events, locks, team_projects};
use mooring_core::{Error, Project, Result, Store};
use serde_json::json;

use crate::errors::pool_error;
use crate::projects::record;
use crate::rows::{PROJECT_COLUMNS, project};
use crate::{PgStore, db_error, sql};

/// One stored entry, as it crosses over.
struct Moving {
    kind: String,
    title: String,
    content: String,
    tags: String,
    status: Option<String>,
    data: Option<String>,
    created_at: String,
    updated_at: String,
    forgotten_at: Option<String>,
    author: Option<String>,
}

impl PgStore {
    /// Move the local project `slug` into the team (you own it there); how many memory
    /// entries moved.
    pub fn share(&self, local: &Store, slug: &str) -> Result<(Project, usize)> {
        let (mine, entries, log) = local.read(|c| {
            let p = find_row(c, "project", slug)?;
            if team_projects::is_team(c, &p.slug)? {
                return Err(Error::conflict("project", format!("'{}' is a team project already", p.slug)));
            }
            let mut stmt = c.prepare_cached(
                "SELECT kind, title, content, tags, status, data, created_at, updated_at, forgotten_at, author
                 FROM memory WHERE project_id = ?1 ORDER BY id",
            )?;
            let rows = stmt.query_map([p.id], |r| {
                Ok(Moving {
                    kind: r.get(0)?,
                    title: r.get(1)?,
                    content: r.get(2)?,
                    tags: r.get(3)?,
                    status: r.get(4)?,
                    data: r.get(5)?,
                    created_at: r.get(6)?,
                    updated_at: r.get(7)?,
                    forgotten_at: r.get(8)?,
                    author: r.get(9)?,
                })
            })?;
            let entries = rows.collect::<rusqlite::Result<Vec<_>>>()?;
            let log = events::for_project(c, p.id)?;
            let versions = locks::all_versions(c, p.id)?;
            Ok((p, entries, (log, versions)))
        })?;
        let (mut log, mut versions) = log;
        let mut entries = entries;
        let mut mine = mine;
        // Everything leaves this machine through the scanner as it is today: rows kept
        // before a rule existed are scanned again on their way to every member.
        let mut found = mooring_core::guard::redact::Redactions::default();
        for m in &mut entries {
            m.title = found.clean(&m.title);
            m.content = found.clean(&m.content);
            m.data = m.data.take().map(|d| match serde_json::from_str::<serde_json::Value>(&d) {
                Ok(mut v) => {
                    found.clean_json(&mut v, &[]);
                    v.to_string()
                }
                Err(_) => found.clean(&d),
            });
        }
        for l in &mut versions {
            l.content = found.clean(&l.content);
        }
        for e in &mut log {
            found.clean_json(&mut e.detail, &[]);
        }
        mine.description = found.clean(&mine.description);
        if found.count > 0 {
            tracing::info!(kinds = ?found.kinds, count = found.count, "secrets taken out of a project on its way to the team");
        }
        let me = self.me()?;
        let moved = entries.len();
        let (slug, name, description, repo_url) =
            (mine.slug.clone(), mine.name.clone(), mine.description.clone(), mine.repo_url.clone());
        let shared = self.run(move |pool| async move {
            let mut client = pool.get().await.map_err(pool_error)?;
            let tx = client.transaction().await.map_err(db_error)?;
            let insert = format!(
                "INSERT INTO projects AS p (slug, name, description, repo_url, owner_id) VALUES ($1, $2, $3, $4, $5)
                 ON CONFLICT (slug) DO NOTHING RETURNING {PROJECT_COLUMNS}"
            );
            let row = sql::row_opt(&tx, &insert, &[&slug, &name, &description, &repo_url, &me]).await?.ok_or_else(|| {
                Error::conflict("slug", format!("the team has a project '{slug}' already; rename yours first"))
            })?;
            let team_project = project(&row);
            let id = team_project.id;
            sql::exec(&tx, "INSERT INTO members (project_id, person_id, role) VALUES ($1, $2, 'owner')", &[&id, &me])
                .await?;
            let col = |f: fn(&Moving) -> Option<&str>| entries.iter().map(f).collect::<Vec<_>>();
            sql::exec(
                &tx,
                "INSERT INTO memory (project_id, kind, title, content, tags, status, data, written_by, person_id,
                                     created_at, updated_at, forgotten_at, author)
                 SELECT $1, kind, title, content, tags, status, data::jsonb, NULL, $2,
                        created::timestamptz, updated::timestamptz, forgotten::timestamptz, author
                 FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
                             $10::text[], $11::text[], $12::text[]) WITH ORDINALITY
                      AS n(kind, title, content, tags, status, data, created, updated, forgotten, author, ord)
                 ORDER BY ord",
                &[
                    &id,
                    &me,
                    &col(|m| Some(&m.kind)),
                    &col(|m| Some(&m.title)),
                    &col(|m| Some(&m.content)),
                    &col(|m| Some(&m.tags)),
                    &col(|m| m.status.as_deref()),
                    &col(|m| m.data.as_deref()),
                    &col(|m| Some(&m.created_at)),
                    &col(|m| Some(&m.updated_at)),
                    &col(|m| m.forgotten_at.as_deref()),
                    &col(|m| m.author.as_deref()),
                ],
            )
            .await?;
            // What happened on this machine (its paths, sessions, focus) stays in its log.
            for e in log.iter().filter(|e| events::is_shared(&e.kind)) {
                sql::exec(
                    &tx,
                    "INSERT INTO events (project_id, project, kind, detail, person_id, at)
                     VALUES ($1, $2, $3, $4, $5, $6::text::timestamptz)",
                    &[&id, &e.project, &e.kind, &e.detail, &me, &e.at],
                )
                .await?;
            }
            for l in &versions {
                sql::exec(
                    &tx,
                    "INSERT INTO context_locks (project_id, topic, version, content, tags, written_by, person_id, created_at)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::text::timestamptz)",
                    &[&id, &l.topic, &l.version, &l.content, &l.tags, &l.written_by, &me, &l.created_at],
                )
                .await?;
            }
            let detail = json!({ "entries": entries.len(), "context_locks": versions.len() });
            record(&tx, &team_project, "shared", &detail, me).await?;
            tx.commit().await.map_err(db_error)?;
            crate::memory::analyze_after_bulk(&client, entries.len()).await;
            Ok(team_project)
        })?;
        // The team has it all now: this machine's row stands for the team project, and
        // its memory is read from the team from here on.
        let stamp = mooring_core::humanize::now();
        local.write(|tx| {
            team_projects::mark(tx, mine.id, shared.id, &stamp)?;
            tx.exec("DELETE FROM memory WHERE project_id = ?1", [mine.id])?;
            tx.exec("DELETE FROM context_locks WHERE project_id = ?1", [mine.id])?;
            Ok(())
        })?;
        Ok((shared, moved))
    }
}
