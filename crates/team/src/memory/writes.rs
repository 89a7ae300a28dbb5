//! The team database's writes of a project's memory: each one transaction, its checks
//! run inside it, its event written with it.

use deadpool_postgres::GenericClient;
use mooring_core::Result;
use mooring_core::store::backend::{
    Fold, Folded, MemoryWrites, NewLock, ProjectCheck, RowCheck, added_event, folded_event,
};
use mooring_core::store::rows::{LockRow, MemoryRow, NewMemoryRow};
use serde_json::json;

use crate::errors::pool_error;
use crate::projects::{record, writable};
use crate::rows::{MEMORY_COLUMNS, memory};
use crate::{PgStore, db_error, sql};

use super::analyze_after_bulk;
impl MemoryWrites for PgStore {
    fn insert_memory(
        &self,
        slug: &str,
        rows: &[NewMemoryRow<'_>],
        _session: Option<&str>,
        check: ProjectCheck,
    ) -> Result<(String, Vec<MemoryRow>)> {
        // Agent sessions are each machine's own (and their ids secret): the team sees
        // the person who wrote an entry.
        let (slug, person, me) = (slug.to_owned(), self.person.clone(), self.me()?);
        // Owned, to cross into the store's runtime.
        let rows: Vec<NewMemoryRow<'static>> = rows.iter().cloned().map(NewMemoryRow::into_owned).collect();
        self.run(|pool| async move {
            let mut client = pool.get().await.map_err(pool_error)?;
            let tx = client.transaction().await.map_err(db_error)?;
            let project = writable(&tx, &slug, me, check).await?;
            let column = |f: for<'r> fn(&'r NewMemoryRow<'static>) -> Option<&'r str>| rows.iter().map(f).collect::<Vec<_>>();
            // The project's "last used" moves in the same statement: one round trip less
            // per write (each is a loopback or network hop inside the row lock).
            let sql = format!(
                "WITH new AS (
                   INSERT INTO memory AS m (project_id, kind, title, content, tags, status, data, written_by, person_id, author, key)
                   SELECT $1, kind, title, content, tags, status, data::jsonb, $7, $8, author, key
                   FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $9::text[], $10::text[], $11::text[])
                        WITH ORDINALITY AS n(kind, title, content, tags, status, data, author, key, ord)
                   ORDER BY ord
                   RETURNING {MEMORY_COLUMNS}),
                 touched AS (UPDATE projects SET last_used_at = now() WHERE id = $1)
                 SELECT * FROM new ORDER BY 1"
            );
            let stored = sql::rows(&tx,
                    &sql,
                    &[
                        &project.id,
                        &column(|r| Some(&r.kind)),
                        &column(|r| Some(&r.title)),
                        &column(|r| Some(&r.content)),
                        &column(|r| Some(&r.tags)),
                        &column(|r| r.status.as_deref()),
                        &person,
                        &me,
                        &column(|r| r.data.as_deref()),
                        &column(|r| r.author.map(|a| a.as_str())),
                        &column(|r| r.key.as_deref()),
                    ],
                )
                .await?;
            let stored: Vec<MemoryRow> = stored.iter().map(memory).collect();
            let (event, detail) = added_event(&stored);
            record(&tx, &project, event, &detail, me).await?;
            tx.commit().await.map_err(db_error)?;
            analyze_after_bulk(&client, stored.len()).await;
            Ok((project.slug, stored))
        })
    }

    fn resolve_memory(
        &self,
        slug: &str,
        id: i64,
        data: &str,
        check: ProjectCheck,
        row_check: RowCheck,
    ) -> Result<Option<(String, MemoryRow)>> {
        let (slug, data, me) = (slug.to_owned(), data.to_owned(), self.me()?);
        self.change(slug, id, check, move |tx, project, row| {
            Box::pin(async move {
                row_check(&row)?;
                let sql = format!(
                    "UPDATE memory AS m SET status = 'resolved', data = $2::text::jsonb, updated_at = now()
                     WHERE id = $1 RETURNING {MEMORY_COLUMNS}"
                );
                let updated = sql::row(tx, &sql, &[&id, &data]).await?;
                let detail =
                    json!({ "id": id, "title": mooring_core::store::backend::event_title(&row.title) });
                record(tx, &project, "blocker_resolved", &detail, me).await?;
                Ok(memory(&updated))
            })
        })
    }

    fn forget_memory(&self, slug: &str, id: i64, check: ProjectCheck) -> Result<Option<(String, MemoryRow)>> {
        let (slug, me) = (slug.to_owned(), self.me()?);
        self.change(slug, id, check, move |tx, project, row| {
            Box::pin(async move {
                sql::exec(
                    tx,
                    "UPDATE memory SET forgotten_at = now(), updated_at = now() WHERE id = $1",
                    &[&id],
                )
                .await?;
                let detail = json!({ "id": id, "kind": row.kind, "title": row.title });
                record(tx, &project, "memory_forgotten", &detail, me).await?;
                Ok(row)
            })
        })
    }

    fn supersede_memory(
        &self,
        slug: &str,
        id: i64,
        by: Option<i64>,
        check: ProjectCheck,
    ) -> Result<Option<(String, MemoryRow)>> {
        let (slug, me) = (slug.to_owned(), self.me()?);
        self.change(slug, id, check, move |tx, project, row| {
            Box::pin(async move {
                let sql = format!(
                    "UPDATE memory AS m SET superseded_by = $2::bigint,
                         superseded_at = CASE WHEN $2::bigint IS NULL THEN NULL ELSE now() END, updated_at = now()
                     WHERE id = $1 RETURNING {MEMORY_COLUMNS}"
                );
                let updated = sql::row(tx, &sql, &[&id, &by]).await?;
                let (event, detail) = mooring_core::store::backend::supersede_event(&row, by);
                record(tx, &project, event, &detail, me).await?;
                Ok(memory(&updated))
            })
        })
    }

    fn put_session(
        &self,
        slug: &str,
        key: &str,
        row: &NewMemoryRow<'_>,
        check: ProjectCheck,
    ) -> Result<Option<(String, MemoryRow)>> {
        let (slug, key, person, me) = (slug.to_owned(), key.to_owned(), self.person.clone(), self.me()?);
        let row = row.clone().into_owned();
        self.run(move |pool| async move {
            let mut client = pool.get().await.map_err(pool_error)?;
            let tx = client.transaction().await.map_err(db_error)?;
            let project = writable(&tx, &slug, me, check).await?;
            let found = sql::row_opt(
                &tx,
                "SELECT id, forgotten_at IS NOT NULL FROM memory
                 WHERE project_id BETWEEN $1 AND $1 AND kind = 'session' AND key = $2
                 ORDER BY project_id, id DESC LIMIT 1",
                &[&project.id, &key],
            )
            .await?;
            let (title, content, tags) = (row.title.as_ref(), row.content.as_ref(), row.tags.as_ref());
            let data = row.data.as_deref();
            let stored = match found.map(|r| (r.get::<_, i64>(0), r.get::<_, bool>(1))) {
                // The person forgot it: capture does not bring it back.
                Some((_, true)) => return Ok(None),
                Some((id, false)) => {
                    let sql = format!(
                        "UPDATE memory AS m SET title = $2, content = $3, tags = $4, data = $5::text::jsonb,
                                updated_at = now(), superseded_by = NULL, superseded_at = NULL, folded_at = NULL
                         WHERE id = $1 RETURNING {MEMORY_COLUMNS}"
                    );
                    memory(&sql::row(&tx, &sql, &[&id, &title, &content, &tags, &data]).await?)
                }
                None => {
                    let sql = format!(
                        "INSERT INTO memory AS m (project_id, kind, title, content, tags, data, written_by, person_id, author, key)
                         VALUES ($1, 'session', $2, $3, $4, $5::text::jsonb, $6, $7, 'captured', $8) RETURNING {MEMORY_COLUMNS}"
                    );
                    let params: [&(dyn tokio_postgres::types::ToSql + Sync); 8] =
                        [&project.id, &title, &content, &tags, &data, &person, &me, &key];
                    let added = memory(&sql::row(&tx, &sql, &params).await?);
                    record(&tx, &project, "memory_added", &json!({ "id": added.id, "kind": "session" }), me).await?;
                    added
                }
            };
            sql::exec(&tx, "UPDATE projects SET last_used_at = now() WHERE id = $1", &[&project.id]).await?;
            tx.commit().await.map_err(db_error)?;
            Ok(Some((project.slug, stored)))
        })
    }

    fn fold_sessions(
        &self,
        slug: &str,
        fold: &Fold<'_>,
        check: ProjectCheck,
    ) -> Result<Option<(String, Folded)>> {
        let (slug, key, me, person) = (slug.to_owned(), fold.key.to_owned(), self.me()?, self.person.clone());
        let (digest, sessions) = (fold.digest.clone().into_owned(), fold.sessions.to_vec());
        self.run(move |pool| async move {
            let mut client = pool.get().await.map_err(pool_error)?;
            let tx = client.transaction().await.map_err(db_error)?;
            let project = writable(&tx, &slug, me, check).await?;
            let (kind, title, content, tags) =
                (digest.kind.as_ref(), digest.title.as_ref(), digest.content.as_ref(), digest.tags.as_ref());
            let data = digest.data.as_deref();
            let found = sql::row_opt(
                &tx,
                "SELECT id, forgotten_at IS NOT NULL FROM memory
                 WHERE project_id BETWEEN $1 AND $1 AND kind = $2 AND key = $3
                 ORDER BY project_id, id DESC LIMIT 1",
                &[&project.id, &kind, &key],
            )
            .await?;
            let (id, changed) = match found.map(|r| (r.get::<_, i64>(0), r.get::<_, bool>(1))) {
                Some((_, true)) => return Ok(None),
                Some((id, false)) => {
                    let n = sql::exec(
                        &tx,
                        "UPDATE memory SET title = $2, content = $3, tags = $4, data = $5::text::jsonb, updated_at = now(),
                                superseded_by = NULL, superseded_at = NULL, folded_at = NULL
                         WHERE id = $1 AND (title IS DISTINCT FROM $2 OR content IS DISTINCT FROM $3
                                            OR data IS DISTINCT FROM $5::text::jsonb)",
                        &[&id, &title, &content, &tags, &data],
                    )
                    .await?;
                    (id, n > 0)
                }
                None => {
                    let params: [&(dyn tokio_postgres::types::ToSql + Sync); 9] =
                        [&project.id, &kind, &title, &content, &tags, &data, &person, &me, &key];
                    let row = sql::row(
                        &tx,
                        "INSERT INTO memory (project_id, kind, title, content, tags, data, written_by, person_id, author, key)
                         VALUES ($1, $2, $3, $4, $5, $6::text::jsonb, $7, $8, 'mooring', $9) RETURNING id",
                        &params,
                    )
                    .await?;
                    (row.get::<_, i64>(0), true)
                }
            };
            let newly = sql::exec(
                &tx,
                "UPDATE memory SET superseded_by = $3, superseded_at = now(), folded_into = $3, folded_at = now()
                 WHERE id = ANY($2) AND project_id BETWEEN $1 AND $1 AND kind = 'session' AND forgotten_at IS NULL
                   AND superseded_by IS NULL AND folded_at IS NULL",
                &[&project.id, &sessions, &id],
            )
            .await? as usize;
            let sql = format!("SELECT {MEMORY_COLUMNS} FROM memory m WHERE m.id = $1");
            let stored = memory(&sql::row(&tx, &sql, &[&id]).await?);
            if newly > 0 {
                let (event, detail) = folded_event(&stored, &key, newly);
                record(&tx, &project, event, &detail, me).await?;
            }
            tx.commit().await.map_err(db_error)?;
            Ok(Some((project.slug, Folded { digest: stored, newly, changed })))
        })
    }

    fn lock_next(
        &self,
        slug: &str,
        lock: &NewLock<'_>,
        _session: Option<&str>,
        check: ProjectCheck,
    ) -> Result<(String, LockRow)> {
        self.lock_next_in_team(slug, lock, check)
    }
}
