//! The team database's reads of a project's entries and locks.

use mooring_core::Result;
use mooring_core::model::{BlockerStatus, Kind};
use mooring_core::store::backend::{MemoryReads, PageFilter};
use mooring_core::store::rows::{LockRow, MemoryRow};

use crate::errors::pool_error;
use crate::projects::seen;
use crate::rows::{MEMORY_COLUMNS, memory};
use crate::{PgStore, sql};

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
                   AND ($3::text IS NULL OR m.status = $3) AND (m.superseded_by IS NOT NULL) = $4",
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
                   AND m.superseded_by IS NULL
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
                 WHERE m.project_id BETWEEN $1 AND $1 AND m.kind = 'session' AND m.key = $2
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
