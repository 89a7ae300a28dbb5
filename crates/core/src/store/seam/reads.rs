//! The SQLite store's reads of a project's entries and locks.

use crate::error::Result;
use crate::model::{BlockerStatus, Kind};
use crate::store::Store;
use crate::store::backend::{MemoryReads, PageFilter};
use crate::store::locks as locks_q;
use crate::store::memory::{self as q, Filter};
use crate::store::projects::find_row;
use crate::store::rows::{LockRow, MemoryRow};

use super::live;
impl MemoryReads for Store {
    fn memory_page(&self, slug: &str, f: &PageFilter) -> Result<(String, Vec<MemoryRow>)> {
        self.read(|c| {
            let project = find_row(c, "project", slug)?;
            let filter = Filter {
                kind: f.kind.map(|k| k.as_str()),
                status: f.status.map(|s| s.as_str()),
                before: f.before,
                limit: f.limit,
            };
            Ok((project.slug, q::list(c, project.id, &filter)?))
        })
    }

    fn memory_get(&self, slug: &str, id: i64) -> Result<(String, Option<MemoryRow>)> {
        self.read(|c| {
            let project = find_row(c, "project", slug)?;
            Ok((project.slug, live(c, project.id, id)?))
        })
    }

    fn count_live(
        &self,
        slug: &str,
        kind: Kind,
        status: Option<BlockerStatus>,
        superseded: bool,
    ) -> Result<u64> {
        self.read(|c| {
            let project = find_row(c, "project", slug)?;
            q::count_live(c, project.id, kind.as_str(), status.map(|s| s.as_str()), superseded)
        })
    }

    fn newest_changed(&self, slug: &str, kind: Kind) -> Result<Option<MemoryRow>> {
        self.read(|c| {
            let project = find_row(c, "project", slug)?;
            q::newest_changed(c, project.id, kind.as_str())
        })
    }

    fn session_entry(&self, slug: &str, key: &str) -> Result<(String, Option<MemoryRow>)> {
        self.read(|c| {
            let project = find_row(c, "project", slug)?;
            Ok((project.slug, q::session_by_key(c, project.id, key)?))
        })
    }

    fn lock_get(&self, slug: &str, topic: &str, version: Option<i64>) -> Result<(String, Option<LockRow>)> {
        self.read(|c| {
            let project = find_row(c, "project", slug)?;
            Ok((project.slug.clone(), locks_q::get(c, project.id, topic, version)?))
        })
    }

    fn lock_topics(&self, slug: &str) -> Result<(String, Vec<LockRow>)> {
        self.read(|c| {
            let project = find_row(c, "project", slug)?;
            Ok((project.slug.clone(), locks_q::latest_per_topic(c, project.id)?))
        })
    }
}
