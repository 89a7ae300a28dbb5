//! The PostgreSQL side of the storage seam: a team project's memory, each call one
//! transaction; search with `tsvector` and a GIN index, ranked, with snippets.

use deadpool_postgres::GenericClient;
use mooring_core::model::{BlockerStatus, Kind};
use mooring_core::store::backend::{
    COMMON_FROM, COMMON_SHARE, Embedder, Fold, Folded, MemoryReads, MemorySearch, MemoryUpkeep, MemoryWrites,
    NearestQuery, NewLock, PageFilter, ProjectCheck, RowCheck, RowHit, SearchQuery, VectorProgress, Word,
    added_event, folded_event,
};
use mooring_core::store::rows::{LockRow, MemoryRow, NewMemoryRow};
use mooring_core::{Project, Result};
use serde_json::json;

use crate::errors::pool_error;
use crate::projects::{record, seen, writable};
use crate::rows::{MEMORY_COLUMNS, memory};
use crate::{PgStore, db_error, sql};

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
                   INSERT INTO memory AS m (project_id, kind, title, content, tags, status, data, written_by, person_id, author)
                   SELECT $1, kind, title, content, tags, status, data::jsonb, $7, $8, author
                   FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $9::text[], $10::text[])
                        WITH ORDINALITY AS n(kind, title, content, tags, status, data, author, ord)
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
                    "UPDATE memory AS m SET data = CASE WHEN $2::bigint IS NULL
                         THEN coalesce(data, '{{}}'::jsonb) - 'superseded_by' - 'superseded_at'
                         ELSE coalesce(data, '{{}}'::jsonb)
                              || jsonb_build_object('superseded_by', $2::bigint, 'superseded_at', now()) END,
                     updated_at = now()
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
                 WHERE project_id BETWEEN $1 AND $1 AND kind = 'session' AND data->>'key' = $2
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
                                updated_at = now()
                         WHERE id = $1 RETURNING {MEMORY_COLUMNS}"
                    );
                    memory(&sql::row(&tx, &sql, &[&id, &title, &content, &tags, &data]).await?)
                }
                None => {
                    let sql = format!(
                        "INSERT INTO memory AS m (project_id, kind, title, content, tags, data, written_by, person_id, author)
                         VALUES ($1, 'session', $2, $3, $4, $5::text::jsonb, $6, $7, 'captured') RETURNING {MEMORY_COLUMNS}"
                    );
                    let params: [&(dyn tokio_postgres::types::ToSql + Sync); 7] =
                        [&project.id, &title, &content, &tags, &data, &person, &me];
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
                 WHERE project_id BETWEEN $1 AND $1 AND kind = $2 AND data->>'key' = $3
                 ORDER BY project_id, id DESC LIMIT 1",
                &[&project.id, &kind, &key],
            )
            .await?;
            let (id, changed) = match found.map(|r| (r.get::<_, i64>(0), r.get::<_, bool>(1))) {
                Some((_, true)) => return Ok(None),
                Some((id, false)) => {
                    let n = sql::exec(
                        &tx,
                        "UPDATE memory SET title = $2, content = $3, tags = $4, data = $5::text::jsonb, updated_at = now()
                         WHERE id = $1 AND (title IS DISTINCT FROM $2 OR content IS DISTINCT FROM $3
                                            OR data IS DISTINCT FROM $5::text::jsonb)",
                        &[&id, &title, &content, &tags, &data],
                    )
                    .await?;
                    (id, n > 0)
                }
                None => {
                    let params: [&(dyn tokio_postgres::types::ToSql + Sync); 8] =
                        [&project.id, &kind, &title, &content, &tags, &data, &person, &me];
                    let row = sql::row(
                        &tx,
                        "INSERT INTO memory (project_id, kind, title, content, tags, data, written_by, person_id, author)
                         VALUES ($1, $2, $3, $4, $5, $6::text::jsonb, $7, $8, 'mooring') RETURNING id",
                        &params,
                    )
                    .await?;
                    (row.get::<_, i64>(0), true)
                }
            };
            let newly = sql::exec(
                &tx,
                "UPDATE memory SET data = coalesce(data, '{}'::jsonb)
                     || jsonb_build_object('superseded_by', $3::bigint, 'superseded_at', now(), 'folded_at', now())
                 WHERE id = ANY($2) AND project_id BETWEEN $1 AND $1 AND kind = 'session' AND forgotten_at IS NULL
                   AND NOT (coalesce(data, '{}'::jsonb) ? 'superseded_by')
                   AND NOT (coalesce(data, '{}'::jsonb) ? 'folded_at')",
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

impl MemoryReads for PgStore {
    fn authors_are_people(&self, _slug: &str) -> bool {
        true
    }

    fn memory_page(&self, slug: &str, f: &PageFilter) -> Result<(String, Vec<MemoryRow>)> {
        let (slug, me) = (slug.to_owned(), self.me()?);
        let (before, limit) = (f.before, i64::from(f.limit));
        // `project_id BETWEEN $1 AND $1` with the project first in the order, where `=`
        // would do: PostgreSQL assumes a project's entries are spread evenly over ids, so
        // with `=` it may walk the whole table backwards by id and skip other projects'
        // rows, which after a burst of writes elsewhere are all the newest (8 agents
        // listing while others wrote: 769 calls/s against 3,280). A range is no constant,
        // so only the per-project indexes give this order.
        let mut sql = format!(
            "SELECT {MEMORY_COLUMNS} FROM memory m WHERE m.project_id BETWEEN $1 AND $1 AND m.forgotten_at IS NULL"
        );
        // Kind and status are written into the statement, not bound: a cached statement
        // is planned once for any value, and PostgreSQL's plan for "some kind, some
        // status" scans the table, where the plan for "open blockers" reads a few rows of
        // the index by kind (a 30,000-entry project: 5.6 ms against 0.02). Both are
        // core's own storage names (closed enums), never a client's text.
        if let Some(kind) = f.kind {
            sql.push_str(&format!(" AND m.kind = '{}'", kind.as_str()));
        }
        if let Some(status) = f.status {
            sql.push_str(&format!(" AND m.status = '{}'", status.as_str()));
        }
        sql.push_str(match before {
            Some(_) => " AND m.id < $3 ORDER BY m.project_id, m.id DESC LIMIT $2",
            None => " ORDER BY m.project_id, m.id DESC LIMIT $2",
        });
        self.run(|pool| async move {
            let client = pool.get().await.map_err(pool_error)?;
            let project = seen(&client, &slug, me, false).await?.project;
            let rows = match &before {
                Some(before) => sql::rows(&client, &sql, &[&project.id, &limit, before]).await?,
                None => sql::rows(&client, &sql, &[&project.id, &limit]).await?,
            };
            Ok((project.slug, rows.iter().map(memory).collect()))
        })
    }

    fn memory_get(&self, slug: &str, id: i64) -> Result<(String, Option<MemoryRow>)> {
        let (slug, me) = (slug.to_owned(), self.me()?);
        self.run(move |pool| async move {
            let client = pool.get().await.map_err(pool_error)?;
            let project = seen(&client, &slug, me, false).await?.project;
            let sql = format!(
                "SELECT {MEMORY_COLUMNS} FROM memory m
                 WHERE m.project_id = $1 AND m.id = $2 AND m.forgotten_at IS NULL"
            );
            let row = sql::row_opt(&client, &sql, &[&project.id, &id]).await?;
            Ok((project.slug, row.as_ref().map(memory)))
        })
    }

    fn count_live(
        &self,
        slug: &str,
        kind: Kind,
        status: Option<BlockerStatus>,
        superseded: bool,
    ) -> Result<u64> {
        let (slug, me) = (slug.to_owned(), self.me()?);
        self.run(move |pool| async move {
            let client = pool.get().await.map_err(pool_error)?;
            let project = seen(&client, &slug, me, false).await?.project;
            let (kind, status) = (kind.as_str(), status.map(|s| s.as_str()));
            let row = sql::row(
                &client,
                "SELECT COUNT(*) FROM memory m
                 WHERE m.project_id = $1 AND m.kind = $2 AND m.forgotten_at IS NULL
                   AND ($3::text IS NULL OR m.status = $3) AND coalesce(m.data ? 'superseded_by', false) = $4",
                &[&project.id, &kind, &status, &superseded],
            )
            .await?;
            Ok(row.get::<_, i64>(0) as u64)
        })
    }

    fn newest_changed(&self, slug: &str, kind: Kind) -> Result<Option<MemoryRow>> {
        let (slug, me) = (slug.to_owned(), self.me()?);
        self.run(move |pool| async move {
            let client = pool.get().await.map_err(pool_error)?;
            let project = seen(&client, &slug, me, false).await?.project;
            let sql = format!(
                "SELECT {MEMORY_COLUMNS} FROM memory m
                 WHERE m.project_id = $1 AND m.kind = $2 AND m.forgotten_at IS NULL
                   AND NOT coalesce(m.data ? 'superseded_by', false)
                 ORDER BY m.data->>'last_at' DESC NULLS LAST, m.updated_at DESC, m.id DESC LIMIT 1"
            );
            let row = sql::row_opt(&client, &sql, &[&project.id, &kind.as_str()]).await?;
            Ok(row.as_ref().map(memory))
        })
    }

    fn session_entry(&self, slug: &str, key: &str) -> Result<(String, Option<MemoryRow>)> {
        let (slug, key, me) = (slug.to_owned(), key.to_owned(), self.me()?);
        self.run(move |pool| async move {
            let client = pool.get().await.map_err(pool_error)?;
            let project = seen(&client, &slug, me, false).await?.project;
            let sql = format!(
                "SELECT {MEMORY_COLUMNS} FROM memory m
                 WHERE m.project_id BETWEEN $1 AND $1 AND m.kind = 'session' AND m.data->>'key' = $2
                 ORDER BY m.project_id, m.id DESC LIMIT 1"
            );
            let row = sql::row_opt(&client, &sql, &[&project.id, &key]).await?;
            Ok((project.slug, row.as_ref().map(memory)))
        })
    }

    fn lock_get(&self, slug: &str, topic: &str, version: Option<i64>) -> Result<(String, Option<LockRow>)> {
        self.lock_get_in_team(slug, topic, version)
    }

    fn lock_topics(&self, slug: &str) -> Result<(String, Vec<LockRow>)> {
        self.lock_topics_in_team(slug)
    }
}

impl MemorySearch for PgStore {
    fn search_memory(&self, q: &SearchQuery<'_>) -> Result<Vec<RowHit>> {
        let tsquery = tsquery(q.words, q.any);
        let any = q.any && q.words.len() > 1;
        let terms = quoted(q.words);
        let least = i64::from(q.least.clamp(1, q.words.len().max(1) as u32));
        let (slug, kind, limit) =
            (q.project.map(str::to_owned), q.kind.map(str::to_owned), i64::from(q.limit));
        let me = self.me()?;
        self.run(move |pool| async move {
            let client = pool.get().await.map_err(pool_error)?;
            let project_id = match &slug {
                Some(s) => Some(seen(&client, s, me, false).await?.project.id),
                None => None,
            };
            let rows = if any {
                let (share, from) = (COMMON_SHARE, COMMON_FROM);
                let params: [&(dyn tokio_postgres::types::ToSql + Sync); 9] =
                    [&tsquery, &project_id, &kind, &limit, &me, &terms, &share, &from, &least];
                sql::rows(&client, &ranked(ANY_TOP), &params).await?
            } else {
                sql::rows(&client, &ranked(ALL_TOP), &[&tsquery, &project_id, &kind, &limit, &me]).await?
            };
            Ok(rows
                .iter()
                .map(|r| RowHit { row: memory(r), slug: r.get(13), snippet: r.get(14), score: r.get(15) })
                .collect())
        })
    }

    fn nearest_memory(&self, query: &NearestQuery<'_>) -> Result<Option<Vec<RowHit>>> {
        self.nearest_in_team(query)
    }

    fn previous_entries(&self, hits: &[(&str, i64)]) -> Result<Vec<Option<i64>>> {
        let ids: Vec<i64> = hits.iter().map(|h| h.1).collect();
        self.run(move |pool| async move {
            let client = pool.get().await.map_err(pool_error)?;
            let rows = sql::rows(
                &client,
                "SELECT m.id, (SELECT p.id FROM memory p WHERE p.project_id = m.project_id AND p.id < m.id
                               ORDER BY p.id DESC LIMIT 1)
                 FROM memory m WHERE m.id = ANY($1)",
                &[&ids],
            )
            .await?;
            let before: std::collections::HashMap<i64, Option<i64>> =
                rows.iter().map(|r| (r.get(0), r.get(1))).collect();
            Ok(ids.iter().map(|id| before.get(id).copied().flatten()).collect())
        })
    }

    fn vectors_waiting(&self, project: Option<&str>) -> Result<Option<u64>> {
        Ok(Some(self.vectors_in_team(project, true)?.waiting))
    }

    fn has_vectors(&self, project: Option<&str>) -> Result<Option<bool>> {
        Ok(Some(self.has_vectors_in_team(project)?))
    }
}

impl MemoryUpkeep for PgStore {
    fn warm_vectors(&self, model: &str, dim: usize) -> Result<()> {
        self.warm_in_team(model, dim)
    }

    fn vector_progress(&self, project: Option<&str>) -> Result<Option<VectorProgress>> {
        Ok(Some(self.vectors_in_team(project, false)?))
    }

    fn index_vectors(&self, model: &str, limit: u32, embed: &Embedder<'_>) -> Result<Option<usize>> {
        Ok(Some(self.index_in_team(model, limit, embed)?))
    }
}

impl PgStore {
    /// Change one live entry of a project that passes `check`, in one transaction with
    /// the project's row held; `None` if there is no such live entry.
    fn change<C>(
        &self,
        slug: String,
        id: i64,
        check: ProjectCheck,
        change: C,
    ) -> Result<Option<(String, MemoryRow)>>
    where
        C: for<'a> FnOnce(
                &'a deadpool_postgres::Transaction<'a>,
                Project,
                MemoryRow,
            ) -> std::pin::Pin<
                Box<dyn std::future::Future<Output = Result<MemoryRow>> + Send + 'a>,
            > + Send
            + 'static,
    {
        let me = self.me()?;
        self.run(move |pool| async move {
            let mut client = pool.get().await.map_err(pool_error)?;
            let tx = client.transaction().await.map_err(db_error)?;
            let project = writable(&tx, &slug, me, check).await?;
            let sql = format!(
                "SELECT {MEMORY_COLUMNS} FROM memory m
                 WHERE m.project_id = $1 AND m.id = $2 AND m.forgotten_at IS NULL FOR UPDATE"
            );
            let Some(row) = sql::row_opt(&tx, &sql, &[&project.id, &id]).await? else {
                return Ok(None);
            };
            let slug = project.slug.clone();
            let row = change(&tx, project, memory(&row)).await?;
            tx.commit().await.map_err(db_error)?;
            Ok(Some((slug, row)))
        })
    }
}

/// The matches holding every word, ranked (`top`): a title match weighs most; scores are
/// divided by 1 + the log of the entry's length, as BM25 favours the shorter of two equal
/// matches. The query is written out at each use, not taken from a CTE: only
/// `search @@ to_tsquery(…, $1)` lets the planner use the GIN index; from a CTE it tested
/// every entry (30,000 entries: 12.9 ms a search).
const ALL_TOP: &str = "top AS (
   SELECT m.id, ts_rank(m.search, to_tsquery('mooring', $1), 1) AS score
   FROM memory m
   WHERE m.search @@ to_tsquery('mooring', $1) AND m.forgotten_at IS NULL
     AND ($2::bigint IS NULL OR m.project_id = $2) AND ($3::text IS NULL OR m.kind = $3)
     AND m.project_id IN (SELECT project_id FROM members WHERE person_id = $5)
   ORDER BY score DESC, m.id DESC LIMIT $4)";

/// The matches holding any word, ranked as BM25 ranks them (`top`): each word's `ts_rank`
/// in an entry weighted by its inverse document frequency among the entries searched (a
/// rare word counts for more than a common one). `$6` holds the words, one `tsquery` each;
/// the scope is inlined at each use (`NOT MATERIALIZED`) so each keeps the GIN index. An
/// entry holding only common words (in more than `$7` of the scope, when it has `$8`
/// entries or more) is not a match unless every word is that common, as on SQLite
/// (`mooring_core::store::backend::COMMON_SHARE`); nor is one holding fewer than `$9` words.
const ANY_TOP: &str = "scope AS NOT MATERIALIZED (
   SELECT m.id, m.search FROM memory m
   WHERE m.forgotten_at IS NULL
     AND ($2::bigint IS NULL OR m.project_id = $2) AND ($3::text IS NULL OR m.kind = $3)
     AND m.project_id IN (SELECT project_id FROM members WHERE person_id = $5)),
 total AS (SELECT count(*)::float8 AS n FROM scope),
 terms AS (SELECT to_tsquery('mooring', t) AS q FROM unnest($6::text[]) AS t),
 df AS (SELECT terms.q, (SELECT count(*) FROM scope WHERE scope.search @@ terms.q)::float8 AS n FROM terms),
 top AS (
   SELECT s.id, sum(ln(1 + (total.n - df.n + 0.5) / (df.n + 0.5)) * ts_rank(s.search, df.q, 1)) AS score
   FROM scope s CROSS JOIN df CROSS JOIN total
   WHERE s.search @@ to_tsquery('mooring', $1) AND s.search @@ df.q
   GROUP BY s.id
   HAVING (bool_or(df.n <= $7 * total.n OR total.n < $8)
           OR (SELECT bool_and(d.n > $7 * t.n) FROM df d CROSS JOIN total t))
      AND count(*) >= $9
   ORDER BY score DESC, s.id DESC LIMIT $4)";

/// A search: the ranked `top` of `ctes`, then the entries read and their snippets cut
/// for the few that are shown.
fn ranked(ctes: &str) -> String {
    format!(
        "WITH {ctes}
         SELECT {MEMORY_COLUMNS}, p.slug,
                ts_headline('mooring', m.content, to_tsquery('mooring', $1),
                  'StartSel=[, StopSel=], MaxWords=24, MinWords=8, MaxFragments=2, FragmentDelimiter=\" … \"'),
                top.score::float8
         FROM top JOIN memory m ON m.id = top.id JOIN projects p ON p.id = m.project_id
         ORDER BY top.score DESC, m.id DESC"
    )
}

/// Each word as a `tsquery` term: quoted, a prefix word with `:*`.
fn quoted(words: &[Word]) -> Vec<String> {
    words.iter().map(|w| format!("'{}'{}", w.text, if w.prefix { ":*" } else { "" })).collect()
}

/// The words as a `tsquery`: all required, a prefix word with `:*`. Words are letters,
/// digits and `_` only (see `search::words`), so quoting each keeps operators out.
fn tsquery(words: &[Word], any: bool) -> String {
    quoted(words).join(if any { " | " } else { " & " })
}

/// Entries in one write from which the planner's statistics are brought up to date.
const BULK: usize = 1_000;

/// Refresh the planner's statistics of `memory` after a write of `written` entries, when
/// it was an import's or a share's: autovacuum does so within a minute or so, and until
/// then PostgreSQL plans reads by kind as if the table were empty and walks every entry
/// (a preamble on a just-imported 30,000-entry project took 10 ms instead of 1). Best
/// effort: the write is done either way.
pub(crate) async fn analyze_after_bulk(client: &impl GenericClient, written: usize) {
    if written >= BULK
        && let Err(e) = client.batch_execute("ANALYZE memory").await
    {
        tracing::warn!("could not refresh the statistics of the team's memory: {e}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_is_quoted_and_required() {
        let words = mooring_core::search::words("Leader's elect* OR 'x'");
        assert_eq!(tsquery(&words, false), "'leader' & 's' & 'elect':* & 'or' & 'x'");
        assert_eq!(tsquery(&words, true), "'leader' | 's' | 'elect':* | 'or' | 'x'");
    }
}
