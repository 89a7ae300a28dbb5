//! The counts a project listing shows (decisions, open blockers, lock topics, entries),
//! for the team projects a person is in, in one query: the counts are kept with each
//! project by triggers (migration V4), so a listing reads no memory.

use std::collections::HashMap;

use mooring_core::{ProjectStats, Result};

use crate::errors::pool_error;
use crate::{PgStore, sql};

impl PgStore {
    /// Each team project's counts, by slug.
    pub fn stats(&self) -> Result<HashMap<String, ProjectStats>> {
        let me = self.me()?;
        self.run(move |pool| async move {
            let client = pool.get().await.map_err(pool_error)?;
            let rows = sql::rows(
                &client,
                "SELECT p.slug, p.decisions, p.open_blockers, p.lock_topics, p.entries
                 FROM projects p
                 JOIN members mb ON mb.project_id = p.id AND mb.person_id = $1",
                &[&me],
            )
            .await?;
            let n = |v: i64| u64::try_from(v).unwrap_or(0);
            Ok(rows
                .iter()
                .map(|r| {
                    let stats = ProjectStats {
                        decisions: n(r.get(1)),
                        open_blockers: n(r.get(2)),
                        context_locks: n(r.get(3)),
                        memory_total: n(r.get(4)),
                    };
                    (r.get(0), stats)
                })
                .collect())
        })
    }
}
