//! Moving a person's own project into the team: the project, all its memory (forgotten
//! entries stay forgotten), its context locks and its event log, in one transaction of the team database;
//! then this machine's row becomes the team project's (its code paths stay) and the
//! local copies of the memory go. Events that describe this machine (a code path's
//! absolute path, a session, the focus) are not shared: they stay in the local log,
//! which the owner's own view of the history still reads.

use mooring_core::store::projects::find_row;
use mooring_core::store::{Cached as _, events, locks, memory, team_projects};
use mooring_core::{Error, Project, Result, Store};
use serde_json::json;

use crate::errors::pool_error;
use crate::projects::record;
use crate::rows::{PROJECT_COLUMNS, project};
use crate::{PgStore, db_error, sql};
use mooring_core::store::rows::{Links, MemoryRow};

impl PgStore {
    /// Move the local project `slug` into the team (you own it there); how many memory
    /// entries moved.
    pub fn share(&self, local: &Store, slug: &str) -> Result<(Project, usize)> {
        let Leaving { project: mine, entries, log, versions } = scrubbed(read_local(local, slug)?);
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
            let col = |f: fn(&MemoryRow) -> Option<&str>| entries.iter().map(f).collect::<Vec<_>>();
            let inserted = sql::rows(
                &tx,
                "INSERT INTO memory (project_id, kind, title, content, tags, status, data, written_by, person_id,
                                     created_at, updated_at, forgotten_at, author, key)
                 SELECT $1, kind, title, content, tags, status, data::jsonb, NULL, $2,
                        created::timestamptz, updated::timestamptz, forgotten::timestamptz, author, key
                 FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
                             $10::text[], $11::text[], $12::text[], $13::text[]) WITH ORDINALITY
                      AS n(kind, title, content, tags, status, data, created, updated, forgotten, author, key, ord)
                 ORDER BY ord RETURNING id",
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
                    &col(|m| m.key.as_deref()),
                ],
            )
            .await?;
            // Ids are drawn in the order the rows went in: the n-th smallest is the n-th
            // entry's. Links name this machine's ids, so they follow in a second step.
            let mut ids: Vec<i64> = inserted.iter().map(|r| r.get(0)).collect();
            ids.sort_unstable();
            relink(&tx, &entries, &ids).await?;
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

/// Set the links of the shared entries (`entries`, now the rows `ids` in their order),
/// each pointing at the team's id of the entry it named here; a link to an entry that
/// did not move goes.
async fn relink(tx: &deadpool_postgres::Transaction<'_>, entries: &[MemoryRow], ids: &[i64]) -> Result<()> {
    let team_id: std::collections::HashMap<i64, i64> =
        entries.iter().map(|m| m.id).zip(ids.iter().copied()).collect();
    let linked: Vec<(i64, &Links)> = ids
        .iter()
        .zip(entries)
        .filter(|(_, m)| m.links != Links::default())
        .map(|(id, m)| (*id, &m.links))
        .collect();
    if linked.is_empty() {
        return Ok(());
    }
    let mapped = |id: Option<i64>| id.and_then(|i| team_id.get(&i).copied());
    let rows: Vec<i64> = linked.iter().map(|(id, _)| *id).collect();
    let by: Vec<Option<i64>> = linked.iter().map(|(_, l)| mapped(l.superseded_by)).collect();
    let by_at: Vec<Option<&str>> = linked.iter().map(|(_, l)| l.superseded_at.as_deref()).collect();
    let into: Vec<Option<i64>> = linked.iter().map(|(_, l)| mapped(l.folded_into)).collect();
    let into_at: Vec<Option<&str>> = linked.iter().map(|(_, l)| l.folded_at.as_deref()).collect();
    sql::exec(
        tx,
        "UPDATE memory m SET superseded_by = n.sup,
                 superseded_at = CASE WHEN n.sup IS NULL THEN NULL ELSE n.sup_at::timestamptz END,
                 folded_into = n.fold, folded_at = n.fold_at::timestamptz
         FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::bigint[], $5::text[]) AS n(id, sup, sup_at, fold, fold_at)
         WHERE m.id = n.id",
        &[&rows, &by, &by_at, &into, &into_at],
    )
    .await?;
    Ok(())
}

/// A project on its way out of this machine: its row, every entry, its history and its
/// context locks' versions.
struct Leaving {
    project: Project,
    entries: Vec<MemoryRow>,
    log: Vec<mooring_core::Event>,
    versions: Vec<mooring_core::store::rows::LockRow>,
}

/// The local project `slug` as it leaves (refused when it is a team project already).
fn read_local(local: &Store, slug: &str) -> Result<Leaving> {
    local.read(|c| {
        let p = find_row(c, "project", slug)?;
        if team_projects::is_team(c, &p.slug)? {
            return Err(Error::conflict("project", format!("'{}' is a team project already", p.slug)));
        }
        let entries = memory::every_row(c, p.id)?;
        let log = events::for_project(c, p.id)?;
        let versions = locks::all_versions(c, p.id)?;
        Ok(Leaving { project: p, entries, log, versions })
    })
}

/// `leaving` through the secret scanner as it is today: rows kept before a rule existed
/// are scanned again on their way to every member.
fn scrubbed(mut leaving: Leaving) -> Leaving {
    let mut found = mooring_core::guard::redact::Redactions::default();
    for m in &mut leaving.entries {
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
    for l in &mut leaving.versions {
        l.content = found.clean(&l.content);
    }
    for e in &mut leaving.log {
        found.clean_json(&mut e.detail, &[]);
    }
    leaving.project.description = found.clean(&leaving.project.description);
    if found.count > 0 {
        tracing::info!(kinds = ?found.kinds, count = found.count, "secrets taken out of a project on its way to the team");
    }
    leaving
}
