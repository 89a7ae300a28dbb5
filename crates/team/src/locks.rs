//! Context locks of team projects: versioned topics, never rewritten. A new version is
//! numbered inside the transaction that holds the project's row, and the table's key
//! refuses a number twice, so two machines locking one topic at once get two versions.

use mooring_core::Result;
use mooring_core::store::backend::{NewLock, ProjectCheck};
use mooring_core::store::rows::LockRow;
use serde_json::json;
use tokio_postgres::Row;

use crate::errors::pool_error;
use crate::projects::{record, seen, writable};
use crate::rows::ts;
use crate::{PgStore, db_error, sql};

pub(crate) const LOCK_COLUMNS: &str =
    concat!("topic, version, content, tags, written_by, ", ts!("created_at"));

pub(crate) fn lock_row(r: &Row) -> LockRow {
    LockRow {
        topic: r.get(0),
        version: r.get(1),
        content: r.get(2),
        tags: r.get(3),
        written_by: r.get(4),
        created_at: r.get(5),
    }
}

impl PgStore {
    pub(crate) fn lock_next_in_team(
        &self,
        slug: &str,
        lock: &NewLock<'_>,
        check: ProjectCheck,
    ) -> Result<(String, LockRow)> {
        let (slug, me, person) = (slug.to_owned(), self.me()?, self.person.clone());
        let (topic, content, tags) = (lock.topic.to_owned(), lock.content.to_owned(), lock.tags.to_owned());
        self.run(move |pool| async move {
            let mut client = pool.get().await.map_err(pool_error)?;
            let tx = client.transaction().await.map_err(db_error)?;
            let project = writable(&tx, &slug, me, check).await?;
            // "Last used" moves in the same statement (one round trip less, as for memory).
            let insert = format!(
                "WITH touched AS (UPDATE projects SET last_used_at = now() WHERE id = $1)
                 INSERT INTO context_locks (project_id, topic, version, content, tags, written_by, person_id)
                 SELECT $1, $2, COALESCE(MAX(version), 0) + 1, $3, $4, $5, $6
                 FROM context_locks WHERE project_id = $1 AND topic = $2
                 RETURNING {LOCK_COLUMNS}"
            );
            let row = sql::row(&tx, &insert, &[&project.id, &topic, &content, &tags, &person, &me]).await?;
            let stored = lock_row(&row);
            let detail = json!({ "topic": topic, "version": stored.version });
            record(&tx, &project, "context_locked", &detail, me).await?;
            tx.commit().await.map_err(db_error)?;
            Ok((project.slug, stored))
        })
    }

    pub(crate) fn lock_get_in_team(
        &self,
        slug: &str,
        topic: &str,
        version: Option<i64>,
    ) -> Result<(String, Option<LockRow>)> {
        let (slug, topic, me) = (slug.to_owned(), topic.to_owned(), self.me()?);
        self.run(move |pool| async move {
            let client = pool.get().await.map_err(pool_error)?;
            let project = seen(&client, &slug, me, false).await?.project;
            let query = format!(
                "SELECT {LOCK_COLUMNS} FROM context_locks WHERE project_id = $1 AND topic = $2
                   AND ($3::bigint IS NULL OR version = $3) ORDER BY version DESC LIMIT 1"
            );
            let row = sql::row_opt(&client, &query, &[&project.id, &topic, &version]).await?;
            Ok((project.slug, row.as_ref().map(lock_row)))
        })
    }

    pub(crate) fn lock_topics_in_team(&self, slug: &str) -> Result<(String, Vec<LockRow>)> {
        let (slug, me) = (slug.to_owned(), self.me()?);
        self.run(move |pool| async move {
            let client = pool.get().await.map_err(pool_error)?;
            let project = seen(&client, &slug, me, false).await?.project;
            let query = format!(
                "SELECT DISTINCT ON (topic) {LOCK_COLUMNS}, created_at AS at FROM context_locks WHERE project_id = $1
                 ORDER BY topic, version DESC"
            );
            let mut rows: Vec<(LockRow, std::time::SystemTime)> = sql::rows(&client, &query, &[&project.id])
                .await?
                .iter()
                .map(|r| (lock_row(r), r.get(6)))
                .collect();
            rows.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.topic.cmp(&b.0.topic)));
            Ok((project.slug, rows.into_iter().map(|(r, _)| r).collect()))
        })
    }
}
