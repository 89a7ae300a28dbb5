//! The PostgreSQL side of the storage seam: a team project's memory, each call one
//! transaction; one file per trait of the seam.

mod reads;
mod search;
mod upkeep;
mod writes;

use deadpool_postgres::GenericClient;
use mooring_core::store::backend::ProjectCheck;
use mooring_core::store::rows::MemoryRow;
use mooring_core::{Project, Result};

use crate::errors::pool_error;
use crate::projects::writable;
use crate::rows::{MEMORY_COLUMNS, memory};
use crate::{PgStore, db_error, sql};

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
