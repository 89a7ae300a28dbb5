//! Memory calls routed to where each project's memory lives: the embedded store for a
//! person's own projects, the team database for team projects (marked in
//! `team_projects`). With no team, everything stays local.

use std::sync::Arc;

use crate::error::Result;
use crate::model::{BlockerStatus, Kind};
use crate::store::backend::{
    Embedder, Fold, Folded, MemoryBackend, MemoryReads, MemorySearch, MemoryUpkeep, MemoryWrites,
    NearestQuery, NewLock, PageFilter, ProjectCheck, RowCheck, RowHit, SearchQuery, VectorProgress,
};
use crate::store::rows::{LockRow, MemoryRow, NewMemoryRow};
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

    fn pick(&self, slug: &str) -> Result<&dyn MemoryBackend> {
        if let Some(team) = &self.team
            && self.local.read(|c| team_projects::is_team(c, slug))?
        {
            return Ok(team.as_ref());
        }
        Ok(self.local.as_ref())
    }

    /// Which of `hits` (a project's slug and an entry's id) are a team project's: each
    /// project asked once (a search's candidates are mostly of one).
    fn team_hits(&self, hits: &[(&str, i64)]) -> Result<Vec<bool>> {
        if self.team.is_none() {
            return Ok(vec![false; hits.len()]);
        }
        let mut known: std::collections::HashMap<&str, bool> = std::collections::HashMap::new();
        let mut out = Vec::with_capacity(hits.len());
        for &(slug, _) in hits {
            if !known.contains_key(slug) {
                known.insert(slug, self.local.read(|c| team_projects::is_team(c, slug))?);
            }
            out.push(known[slug]);
        }
        Ok(out)
    }
}

/// Methods answered by the backend holding project `slug`, the first argument of each.
macro_rules! by_project {
    ($($name:ident($($arg:ident: $ty:ty),*) -> $ret:ty;)*) => {
        $(fn $name(&self, slug: &str, $($arg: $ty),*) -> Result<$ret> {
            self.pick(slug)?.$name(slug, $($arg),*)
        })*
    };
}

impl MemoryWrites for Routed {
    by_project! {
        insert_memory(rows: &[NewMemoryRow<'_>], session: Option<&str>, check: ProjectCheck) -> (String, Vec<MemoryRow>);
        resolve_memory(id: i64, data: &str, check: ProjectCheck, row_check: RowCheck) -> Option<(String, MemoryRow)>;
        forget_memory(id: i64, check: ProjectCheck) -> Option<(String, MemoryRow)>;
        supersede_memory(id: i64, by: Option<i64>, check: ProjectCheck) -> Option<(String, MemoryRow)>;
        put_session(key: &str, row: &NewMemoryRow<'_>, check: ProjectCheck) -> Option<(String, MemoryRow)>;
        fold_sessions(fold: &Fold<'_>, check: ProjectCheck) -> Option<(String, Folded)>;
        lock_next(lock: &NewLock<'_>, session: Option<&str>, check: ProjectCheck) -> (String, LockRow);
    }
}

impl MemoryReads for Routed {
    fn authors_are_people(&self, slug: &str) -> bool {
        self.pick(slug).is_ok_and(|b| b.authors_are_people(slug))
    }

    by_project! {
        memory_page(filter: &PageFilter) -> (String, Vec<MemoryRow>);
        count_live(kind: Kind, status: Option<BlockerStatus>, superseded: bool) -> u64;
        newest_changed(kind: Kind) -> Option<MemoryRow>;
        memory_get(id: i64) -> (String, Option<MemoryRow>);
        session_entry(key: &str) -> (String, Option<MemoryRow>);
        lock_get(topic: &str, version: Option<i64>) -> (String, Option<LockRow>);
        lock_topics() -> (String, Vec<LockRow>);
    }
}

impl MemorySearch for Routed {
    fn search_memory(&self, query: &SearchQuery<'_>) -> Result<Vec<RowHit>> {
        if let Some(slug) = query.project {
            return self.pick(slug)?.search_memory(query);
        }
        let hits = self.local.search_memory(query)?;
        let Some(team) = &self.team else { return Ok(hits) };
        // Everywhere means both stores; an unreachable team database leaves the local
        // hits rather than failing the search.
        match team.search_memory(query) {
            Ok(more) => Ok(interleave(hits, more, query.limit as usize)),
            Err(e) => {
                tracing::warn!(error = %e, "team search skipped");
                Ok(hits)
            }
        }
    }

    fn nearest_memory(&self, query: &NearestQuery<'_>) -> Result<Option<Vec<RowHit>>> {
        if let Some(slug) = query.project {
            return self.pick(slug)?.nearest_memory(query);
        }
        let local = self.local.nearest_memory(query)?;
        let Some(team) = &self.team else { return Ok(local) };
        // Cosines by one model compare across stores (unlike the two keyword scores).
        match team.nearest_memory(query) {
            Ok(more) => {
                let mut all: Vec<RowHit> = local.into_iter().chain(more).flatten().collect();
                all.sort_by(|a, b| b.score.total_cmp(&a.score));
                all.truncate(query.limit as usize);
                Ok(Some(all))
            }
            Err(e) => {
                tracing::warn!(error = %e, "team search by meaning skipped");
                Ok(local)
            }
        }
    }

    fn vectors_waiting(&self, project: Option<&str>) -> Result<Option<u64>> {
        match project {
            Some(slug) => self.pick(slug)?.vectors_waiting(project),
            None => {
                let team = self.team.as_ref().and_then(|t| t.vectors_waiting(None).ok().flatten());
                Ok(add(self.local.vectors_waiting(None)?, team, |a, b| a + b))
            }
        }
    }

    fn has_vectors(&self, project: Option<&str>) -> Result<Option<bool>> {
        match project {
            Some(slug) => self.pick(slug)?.has_vectors(project),
            None => {
                let team = self.team.as_ref().and_then(|t| t.has_vectors(None).ok().flatten());
                Ok(add(self.local.has_vectors(None)?, team, |a, b| a || b))
            }
        }
    }

    fn rerank_vectors(&self, model: &str, hits: &[(&str, i64)]) -> Result<Vec<Option<Vec<u8>>>> {
        let team_hit = self.team_hits(hits)?;
        let asked: Vec<(&str, i64)> =
            hits.iter().zip(&team_hit).filter(|(_, t)| !**t).map(|(h, _)| *h).collect();
        let mut found = self.local.rerank_vectors(model, &asked)?.into_iter();
        Ok(team_hit.iter().map(|&t| if t { None } else { found.next().flatten() }).collect())
    }

    fn previous_entries(&self, hits: &[(&str, i64)]) -> Result<Vec<Option<i64>>> {
        let team_hit = self.team_hits(hits)?;
        let pick = |team: bool| -> Vec<(&str, i64)> {
            hits.iter().zip(&team_hit).filter(|(_, t)| **t == team).map(|(h, _)| *h).collect()
        };
        let mut local = self.local.previous_entries(&pick(false))?.into_iter();
        let mut team = match &self.team {
            Some(team) => team.previous_entries(&pick(true))?,
            None => Vec::new(),
        }
        .into_iter();
        Ok(team_hit.iter().map(|&t| if t { team.next().flatten() } else { local.next().flatten() }).collect())
    }
}

impl MemoryUpkeep for Routed {
    fn vector_progress(&self, project: Option<&str>) -> Result<Option<VectorProgress>> {
        match project {
            Some(slug) => self.pick(slug)?.vector_progress(project),
            None => {
                let team = self.team.as_ref().and_then(|t| t.vector_progress(None).ok().flatten());
                Ok(add(self.local.vector_progress(None)?, team, |a, b| VectorProgress {
                    waiting: a.waiting + b.waiting,
                    stored: a.stored + b.stored,
                }))
            }
        }
    }

    fn tidy_index(&self) -> Result<()> {
        self.local.tidy_index()
    }

    fn warm_vectors(&self, model: &str, dim: usize) -> Result<()> {
        self.local.warm_vectors(model, dim)?;
        if let Some(team) = &self.team
            && let Err(e) = team.warm_vectors(model, dim)
        {
            // The team's vectors are read on its first search instead.
            tracing::debug!(error = %e, "team vectors not held ahead");
        }
        Ok(())
    }

    // Re-ranking vectors are kept for this machine's projects only: a team project's
    // hits keep the fusion's order.
    fn index_rerank(&self, model: &str, limit: u32, embed: &Embedder<'_>) -> Result<Option<usize>> {
        self.local.index_rerank(model, limit, embed)
    }

    fn rerank_waiting(&self, model: &str) -> Result<Option<u64>> {
        self.local.rerank_waiting(model)
    }

    fn index_vectors(&self, model: &str, limit: u32, embed: &Embedder<'_>) -> Result<Option<usize>> {
        let local = self.local.index_vectors(model, limit, embed)?.unwrap_or(0);
        let Some(team) = self.team.as_ref().filter(|_| local < limit as usize) else {
            return Ok(Some(local));
        };
        // Every member's hub takes part in indexing the team's memory; an unreachable
        // database is reported by the calls that need it, not each second here.
        match team.index_vectors(model, limit - local as u32, embed) {
            Ok(n) => Ok(Some(local + n.unwrap_or(0))),
            Err(e) => {
                tracing::debug!(error = %e, "team memory not indexed this time");
                Ok(Some(local))
            }
        }
    }
}

/// Two stores' figures together; either alone when the other has none.
fn add<T>(a: Option<T>, b: Option<T>, f: impl FnOnce(T, T) -> T) -> Option<T> {
    match (a, b) {
        (Some(a), Some(b)) => Some(f(a, b)),
        (a, b) => a.or(b),
    }
}

/// Two ranked lists as one: BM25 (SQLite) and `ts_rank` (PostgreSQL) scores are on
/// different scales, so neither may outrank the other by its number; each list keeps
/// its own order and they take turns (reciprocal-rank fusion with equal weights).
fn interleave(a: Vec<RowHit>, b: Vec<RowHit>, limit: usize) -> Vec<RowHit> {
    let mut out = Vec::with_capacity(limit.min(a.len() + b.len()));
    let (mut a, mut b) = (a.into_iter(), b.into_iter());
    while out.len() < limit {
        match (a.next(), b.next()) {
            (None, None) => break,
            (x, y) => out.extend(x.into_iter().chain(y)),
        }
    }
    out.truncate(limit);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::rows::MemoryRow;

    fn hit(slug: &str, score: f64) -> RowHit {
        let row = MemoryRow {
            id: 0,
            project_id: 0,
            kind: "note".into(),
            title: String::new(),
            content: String::new(),
            tags: String::new(),
            status: None,
            data: None,
            written_by: None,
            author: None,
            created_at: String::new(),
            updated_at: String::new(),
            forgotten_at: None,
            links: Default::default(),
            key: None,
        };
        RowHit { row, slug: slug.into(), snippet: String::new(), score }
    }

    #[test]
    fn scores_of_two_stores_never_outrank_each_other() {
        // SQLite's BM25 numbers dwarf ts_rank's; the team's best still comes second.
        let local = vec![hit("mine-1", 12.0), hit("mine-2", 11.0), hit("mine-3", 10.0)];
        let team = vec![hit("team-1", 0.09), hit("team-2", 0.01)];
        let slugs = |v: Vec<RowHit>| v.into_iter().map(|h| h.slug).collect::<Vec<_>>();
        assert_eq!(
            slugs(interleave(local.clone(), team.clone(), 10)),
            ["mine-1", "team-1", "mine-2", "team-2", "mine-3"]
        );
        assert_eq!(slugs(interleave(local, team, 3)), ["mine-1", "team-1", "mine-2"]);
        assert!(interleave(Vec::new(), Vec::new(), 5).is_empty());
    }
}
