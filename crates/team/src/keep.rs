//! Keeping the team's projects on leaving (`mooring team leave --keep`): every team project
//! the person can read becomes their own project on this machine, once, with its memory
//! (forgotten entries stay forgotten), context locks and history copied as they were,
//! authors and times included. From then on it is local and the team's copy goes its own way.

use mooring_core::humanize::now;
use mooring_core::store::rows::{LockRow, MemoryRow};
use mooring_core::store::{events, locks, memory, team_projects};
use mooring_core::{Event, Result, Store};
use serde_json::json;

use crate::errors::pool_error;
use crate::locks::{LOCK_COLUMNS, lock_row};
use crate::projects::seen;
use crate::rows::{MEMORY_COLUMNS, memory as memory_row};
use crate::{PgStore, db_error, sql};

/// One team project as it is copied.
struct Copy {
    team_id: i64,
    slug: String,
    entries: Vec<MemoryRow>,
    locks: Vec<LockRow>,
    events: Vec<Event>,
}

/// What was kept: each project's slug and how many memory entries came with it.
pub type Kept = Vec<(String, usize)>;

impl PgStore {
    /// Copy every team project this person is in (viewers too) into `local` as their own
    /// project, all in one local transaction; the team is read in one snapshot.
    pub fn keep(&self, local: &Store) -> Result<Kept> {
        let me = self.me()?;
        let copies = self.run(move |pool| async move {
            let mut client = pool.get().await.map_err(pool_error)?;
            let tx = client.build_transaction().read_only(true).isolation_level(
                tokio_postgres::IsolationLevel::RepeatableRead,
            ).start().await.map_err(db_error)?;
            let slugs = sql::rows(&tx, "SELECT p.slug FROM projects p JOIN members m ON m.project_id = p.id
                                        WHERE m.person_id = $1 ORDER BY p.slug", &[&me]).await?;
            let mut copies = Vec::new();
            for row in slugs {
                let slug: String = row.get(0);
                let project = seen(&tx, &slug, me, false).await?.project;
                let entries = sql::rows(&tx, &format!("SELECT {MEMORY_COLUMNS} FROM memory m WHERE m.project_id = $1 ORDER BY m.id"), &[&project.id]).await?;
                let kept_locks = sql::rows(&tx, &format!("SELECT {LOCK_COLUMNS} FROM context_locks WHERE project_id = $1 ORDER BY id"), &[&project.id]).await?;
                let log = sql::rows(&tx, concat!(
                    "SELECT e.project, e.kind, e.detail, ", crate::rows::ts!("e.at"),
                    ", p.name FROM events e LEFT JOIN people p ON p.id = e.person_id WHERE e.project_id = $1 ORDER BY e.id"
                ), &[&project.id]).await?;
                copies.push(Copy {
                    team_id: project.id,
                    slug,
                    entries: entries.iter().map(memory_row).collect(),
                    locks: kept_locks.iter().map(lock_row).collect(),
                    events: log.iter().map(crate::edits::event_row).collect(),
                });
            }
            tx.commit().await.map_err(db_error)?;
            Ok(copies)
        })?;
        let stamp = now();
        local.write(|tx| {
            let here = team_projects::all(tx)?;
            let mut kept = Kept::new();
            for copy in &copies {
                // A team project whose slug one of your own projects took was never here.
                let Some((local_id, _, slug)) = here.iter().find(|(_, team_id, _)| *team_id == copy.team_id)
                else {
                    continue;
                };
                let mut ids = std::collections::HashMap::with_capacity(copy.entries.len());
                for e in &copy.entries {
                    ids.insert(e.id, memory::insert_copy(tx, *local_id, e)?);
                }
                // The links named the team's ids.
                memory::relink(tx, *local_id, &ids)?;
                for l in &copy.locks {
                    locks::insert_copy(tx, *local_id, l)?;
                }
                for e in &copy.events {
                    events::record(tx, *local_id, &e.project, &e.kind, &e.detail, &e.at)?;
                }
                let detail = json!({ "entries": copy.entries.len(), "context_locks": copy.locks.len() });
                events::record(tx, *local_id, slug, "kept_from_team", &detail, &stamp)?;
                team_projects::unmark(tx, *local_id)?;
                kept.push((copy.slug.clone(), copy.entries.len()));
            }
            Ok(kept)
        })
    }
}
