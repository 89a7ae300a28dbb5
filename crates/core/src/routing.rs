//! Memory calls routed to where each project's memory lives: the embedded store for a
//! person's own projects, the team database for team projects (marked in
//! `team_projects`). With no team, everything stays local.

use std::sync::Arc;

use crate::backend::{
    MemoryBackend, NewLock, NewRow, PageFilter, ProjectCheck, RowCheck, RowHit, SearchQuery,
};
use crate::error::Result;
use crate::store::locks::LockRow;
use crate::store::memory::MemoryRow;
use crate::store::{Store, team_projects};

/// The memory backend a server or the CLI uses.
pub struct Routed {
    local: Arc<Store>,
    team: Option<Arc<dyn MemoryBackend>>,
}

impl Routed {
    /// Everything local.
    pub fn local(local: Arc<Store>) -> Self {
        Self { local, team: None }
    }

    /// Team projects to `team`, the rest local.
    pub fn with_team(local: Arc<Store>, team: Arc<dyn MemoryBackend>) -> Self {
        Self { local, team: Some(team) }
    }

    /// Whether a team is joined.
    pub fn has_team(&self) -> bool {
        self.team.is_some()
    }

    fn pick(&self, slug: &str) -> Result<&dyn MemoryBackend> {
        if let Some(team) = &self.team
            && self.local.read(|c| team_projects::is_team(c, slug))?
        {
            return Ok(team.as_ref());
        }
        Ok(self.local.as_ref())
    }
}

impl MemoryBackend for Routed {
    fn insert_memory(
        &self,
        slug: &str,
        rows: &[NewRow<'_>],
        session: Option<&str>,
        check: ProjectCheck,
    ) -> Result<(String, Vec<MemoryRow>)> {
        self.pick(slug)?.insert_memory(slug, rows, session, check)
    }

    fn memory_page(&self, slug: &str, filter: &PageFilter<'_>) -> Result<(String, Vec<MemoryRow>)> {
        self.pick(slug)?.memory_page(slug, filter)
    }

    fn resolve_memory(
        &self,
        slug: &str,
        id: i64,
        data: &str,
        check: ProjectCheck,
        row_check: RowCheck,
    ) -> Result<Option<(String, MemoryRow)>> {
        self.pick(slug)?.resolve_memory(slug, id, data, check, row_check)
    }

    fn forget_memory(&self, slug: &str, id: i64, check: ProjectCheck) -> Result<Option<(String, MemoryRow)>> {
        self.pick(slug)?.forget_memory(slug, id, check)
    }

    fn search_memory(&self, query: &SearchQuery<'_>) -> Result<Vec<RowHit>> {
        if let Some(slug) = query.project {
            return self.pick(slug)?.search_memory(query);
        }
        let mut hits = self.local.search_memory(query)?;
        if let Some(team) = &self.team {
            // Everywhere means both stores; an unreachable team database leaves the local
            // hits rather than failing the search.
            match team.search_memory(query) {
                Ok(more) => hits.extend(more),
                Err(e) => tracing::warn!(error = %e, "team search skipped"),
            }
            hits.sort_by(|a, b| b.score.total_cmp(&a.score));
            hits.truncate(query.limit as usize);
        }
        Ok(hits)
    }

    fn lock_next(
        &self,
        slug: &str,
        lock: &NewLock<'_>,
        session: Option<&str>,
        check: ProjectCheck,
    ) -> Result<(String, LockRow)> {
        self.pick(slug)?.lock_next(slug, lock, session, check)
    }

    fn lock_get(&self, slug: &str, topic: &str, version: Option<i64>) -> Result<(String, Option<LockRow>)> {
        self.pick(slug)?.lock_get(slug, topic, version)
    }

    fn lock_topics(&self, slug: &str) -> Result<(String, Vec<LockRow>)> {
        self.pick(slug)?.lock_topics(slug)
    }
}
