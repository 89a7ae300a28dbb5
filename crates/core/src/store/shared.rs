//! The SQLite side of the storage seam (`crate::store::backend`): a project's memory in the
//! embedded store, each call one transaction.

use serde_json::json;

use super::index::fts_terms;
use super::index::sample;
use super::locks as locks_q;
use super::memory::{self as q, Filter};
use super::projects::find_row;
use super::vectors::Which;
use super::{Cached as _, Store, events, projects, rerank_vectors, vectors};
use crate::error::Result;
use crate::humanize::now;
use crate::model::{BlockerStatus, Kind};
use crate::store::backend::{
    Embedder, Fold, Folded, MemoryReads, MemorySearch, MemoryUpkeep, MemoryWrites, NearestQuery, NewLock,
    PageFilter, ProjectCheck, RowCheck, RowHit, SearchQuery, VectorProgress, Word, added_event, folded_event,
};
use crate::store::index::vector_index::Scan;
use crate::store::rows::{LockRow, MemoryRow, NewMemoryRow};

impl MemoryWrites for Store {
    fn insert_memory(
        &self,
        slug: &str,
        rows: &[NewMemoryRow<'_>],
        session: Option<&str>,
        check: ProjectCheck,
    ) -> Result<(String, Vec<MemoryRow>)> {
        self.write(|tx| {
            let project = find_row(tx, "project", slug)?;
            check(&project)?;
            let stamp = now();
            let written_by: Option<String> = match session {
                Some(id) => tx
                    .row("SELECT client_name FROM sessions WHERE id = ?1", [id], |r| r.get(0))
                    .ok()
                    .flatten(),
                None => None,
            };
            let mut stored = Vec::with_capacity(rows.len());
            for r in rows {
                let id = q::insert(tx, project.id, r, session, &stamp)?;
                stored.push(MemoryRow {
                    id,
                    project_id: project.id,
                    kind: r.kind.to_string(),
                    title: r.title.to_string(),
                    content: r.content.to_string(),
                    tags: r.tags.to_string(),
                    status: r.status.as_deref().map(str::to_owned),
                    data: r.data.as_deref().map(str::to_owned),
                    written_by: r.written_by.as_deref().map(str::to_owned).or_else(|| written_by.clone()),
                    author: r.author.map(|a| a.as_str().to_owned()),
                    created_at: stamp.clone(),
                    updated_at: stamp.clone(),
                    forgotten_at: None,
                });
            }
            let (event, detail) = added_event(&stored);
            projects::mark_used(tx, project.id, &stamp)?;
            events::record(tx, project.id, &project.slug, event, &detail, &stamp)?;
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
        self.write(|tx| {
            let project = find_row(tx, "project", slug)?;
            check(&project)?;
            let Some(row) = live(tx, project.id, id)? else { return Ok(None) };
            row_check(&row)?;
            let stamp = now();
            q::resolve(tx, id, data, &stamp)?;
            let detail = json!({ "id": id, "title": crate::store::backend::event_title(&row.title) });
            events::record(tx, project.id, &project.slug, "blocker_resolved", &detail, &stamp)?;
            let row = q::get(tx, project.id, id)?;
            Ok(row.map(|r| (project.slug, r)))
        })
    }

    fn forget_memory(&self, slug: &str, id: i64, check: ProjectCheck) -> Result<Option<(String, MemoryRow)>> {
        self.write(|tx| {
            let project = find_row(tx, "project", slug)?;
            check(&project)?;
            let Some(row) = live(tx, project.id, id)? else { return Ok(None) };
            let stamp = now();
            q::forget(tx, id, &stamp)?;
            let detail = json!({ "id": id, "kind": row.kind, "title": row.title });
            events::record(tx, project.id, &project.slug, "memory_forgotten", &detail, &stamp)?;
            Ok(Some((project.slug, row)))
        })
    }

    fn supersede_memory(
        &self,
        slug: &str,
        id: i64,
        by: Option<i64>,
        check: ProjectCheck,
    ) -> Result<Option<(String, MemoryRow)>> {
        self.write(|tx| {
            let project = find_row(tx, "project", slug)?;
            check(&project)?;
            let Some(row) = live(tx, project.id, id)? else { return Ok(None) };
            let stamp = now();
            q::set_superseded(tx, id, by, &stamp)?;
            let (event, detail) = crate::store::backend::supersede_event(&row, by);
            events::record(tx, project.id, &project.slug, event, &detail, &stamp)?;
            Ok(q::get(tx, project.id, id)?.map(|r| (project.slug, r)))
        })
    }

    fn put_session(
        &self,
        slug: &str,
        key: &str,
        row: &NewMemoryRow<'_>,
        check: ProjectCheck,
    ) -> Result<Option<(String, MemoryRow)>> {
        self.write(|tx| {
            let project = find_row(tx, "project", slug)?;
            check(&project)?;
            let stamp = now();
            let id = match q::session_by_key(tx, project.id, key)? {
                Some(old) if old.forgotten_at.is_some() => return Ok(None),
                Some(old) => {
                    q::replace(tx, old.id, row, &stamp)?;
                    old.id
                }
                None => {
                    let id = q::insert(tx, project.id, row, None, &stamp)?;
                    let detail = json!({ "id": id, "kind": "session" });
                    events::record(tx, project.id, &project.slug, "memory_added", &detail, &stamp)?;
                    id
                }
            };
            projects::mark_used(tx, project.id, &stamp)?;
            Ok(q::get(tx, project.id, id)?.map(|r| (project.slug, r)))
        })
    }

    fn fold_sessions(
        &self,
        slug: &str,
        fold: &Fold<'_>,
        check: ProjectCheck,
    ) -> Result<Option<(String, Folded)>> {
        self.write(|tx| {
            let project = find_row(tx, "project", slug)?;
            check(&project)?;
            let stamp = now();
            let d = fold.digest;
            let (id, changed) = match q::by_key(tx, project.id, &d.kind, fold.key)? {
                Some(old) if old.forgotten_at.is_some() => return Ok(None),
                Some(old) => {
                    let same = old.title == *d.title
                        && old.content == *d.content
                        && old.data.as_deref() == d.data.as_deref();
                    if !same {
                        q::replace(tx, old.id, d, &stamp)?;
                    }
                    (old.id, !same)
                }
                None => (q::insert(tx, project.id, d, None, &stamp)?, true),
            };
            let mut newly = 0;
            for &session in fold.sessions {
                newly += usize::from(q::fold_into(tx, project.id, session, id, &stamp)?);
            }
            let digest = q::get(tx, project.id, id)?
                .ok_or_else(|| crate::error::Error::storage("the digest vanished"))?;
            if newly > 0 {
                let (event, detail) = folded_event(&digest, fold.key, newly);
                events::record(tx, project.id, &project.slug, event, &detail, &stamp)?;
            }
            Ok(Some((project.slug, Folded { digest, newly, changed })))
        })
    }

    fn lock_next(
        &self,
        slug: &str,
        lock: &NewLock<'_>,
        session: Option<&str>,
        check: ProjectCheck,
    ) -> Result<(String, LockRow)> {
        self.write(|tx| {
            let project = find_row(tx, "project", slug)?;
            check(&project)?;
            let stamp = now();
            let version =
                locks_q::insert_next(tx, project.id, lock.topic, lock.content, lock.tags, session, &stamp)?;
            projects::mark_used(tx, project.id, &stamp)?;
            let detail = json!({ "topic": lock.topic, "version": version });
            events::record(tx, project.id, &project.slug, "context_locked", &detail, &stamp)?;
            let row = locks_q::get(tx, project.id, lock.topic, Some(version))?
                .ok_or_else(|| crate::error::Error::storage("the lock vanished"))?;
            Ok((project.slug, row))
        })
    }
}

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

impl MemorySearch for Store {
    fn search_memory(&self, query: &SearchQuery<'_>) -> Result<Vec<RowHit>> {
        let terms = fts_terms(query.words, query.any);
        self.read_together(|c| {
            // The words match title, content and tags only: the scope column is for
            // filtering, and a word must not match every entry of the project it names.
            // Only a word that could be a scope token needs the column filter (measured
            // with bm25, where it doubled the cost of ranking a common word; with
            // mooring_rank not measured again).
            let columns_only = may_name_a_scope(query.words);
            let in_columns = |terms: &str| {
                if columns_only {
                    format!("{{title content tags}} : ({terms})")
                } else {
                    format!("({terms})")
                }
            };
            let project = match query.project {
                Some(slug) => Some(find_row(c, "project", slug)?.id),
                None => None,
            };
            let scope = project.map(|id| format!("scope:p{id}"));
            let scoped = |words: String| match &scope {
                Some(scope) => format!("{scope} AND {words}"),
                None => words,
            };
            let hits = if query.any {
                let bounded = query.rarest > 0;
                // Only a bounded search counts the project's words by its rows: an
                // unbounded one counts the project itself by its token.
                let sampled = match project.zip(scope.as_deref()) {
                    Some((id, token)) => {
                        let bound = self.samples.bound(c, id)?;
                        Some(if bounded {
                            sample::Scope::of(c, id, token, bound)?
                        } else {
                            sample::Scope::by_token(id, token, bound)
                        })
                    }
                    None => None,
                };
                let joined = sampled.and_then(|s| s.joined());
                let scoped = |words: String| match sampled {
                    Some(s) => s.scoped(&words),
                    None => words,
                };
                let cap = bounded.then_some(sample::COUNTED_BOUNDED);
                let mut weighed = sample::idf_in_scope(c, sampled, query.words, columns_only, cap)?;
                let mut kept: Vec<Word> = query.words.to_vec();
                if bounded && kept.len() > query.rarest as usize {
                    // The rarest first (stable: equally rare ones in the entry's order).
                    let mut order: Vec<usize> = (0..kept.len()).collect();
                    order.sort_by(|&a, &b| weighed[b].idf.total_cmp(&weighed[a].idf));
                    order.truncate(query.rarest as usize);
                    order.sort_unstable();
                    kept = order.iter().map(|&i| kept[i].clone()).collect();
                    weighed = order.iter().map(|&i| weighed[i]).collect();
                }
                let terms = if bounded { fts_terms(&kept, true) } else { terms };
                // Any word matches, but one not common must be among them: the second
                // group's phrases only filter (weight 0), the first's rank by their IDF.
                let rare: Vec<Word> =
                    kept.iter().zip(&weighed).filter(|(_, w)| !w.common).map(|(w, _)| w.clone()).collect();
                let mut words = in_columns(&terms);
                // The scope token, when the query holds one, is phrase 0: a filter.
                let token = sampled.is_some_and(|s| s.token.is_some());
                let mut weights: Vec<f64> = if token { vec![0.0] } else { Vec::new() };
                weights.extend(weighed.iter().map(|w| w.idf));
                if rare.len() < kept.len() {
                    words = format!("{words} AND {}", in_columns(&fts_terms(&rare, true)));
                    weights.extend(rare.iter().map(|_| 0.0));
                }
                let least = query.least.clamp(1, kept.len().max(1) as u32);
                let walk = if bounded { q::RANKED_BOUNDED } else { q::RANKED_ANY_AT_MOST };
                // Entries holding too few of the words rank 0 (see `store::index::rank`): not hits.
                // A write's check reads no passages.
                let passages = (!bounded).then_some(&kept[..]);
                let ranked = q::search_any(
                    c,
                    &scoped(words),
                    passages,
                    query.kind,
                    joined,
                    query.limit,
                    &weights,
                    least,
                    walk,
                )?;
                ranked.into_iter().filter(|h| h.rank < 0.0).collect()
            } else {
                q::search(c, &scoped(in_columns(&terms)), query.words, query.kind, query.limit)?
            };
            Ok(hits
                .into_iter()
                .map(|h| RowHit { row: h.row, slug: h.slug, snippet: h.snippet, score: -h.rank })
                .collect())
        })
    }

    fn nearest_memory(&self, query: &NearestQuery<'_>) -> Result<Option<Vec<RowHit>>> {
        let limit = query.limit as usize;
        self.read_together(|c| {
            let read = |project, which| {
                let mut scan = Scan::new(query.vector, query.kind, limit);
                vectors::each(c, project, query.model, which, |s| scan.add(&s))?;
                Ok::<_, crate::error::Error>(scan.finish())
            };
            let source = vectors::Sqlite(c);
            let found = match (query.project, query.newest) {
                (Some(slug), Some(n)) => {
                    let id = find_row(c, "project", slug)?.id;
                    let (v, kind) = (query.vector, query.kind);
                    match self.vectors.nearest_newest(&source, id, query.model, v, kind, limit, n as usize)? {
                        Some(found) => found,
                        None => read(Some(id), Which::Newest(n))?,
                    }
                }
                (project, _) => {
                    // Every project is compared from its own centre, held as one is.
                    let ids = match project {
                        Some(slug) => vec![find_row(c, "project", slug)?.id],
                        None => vectors::projects(c)?,
                    };
                    self.vectors.nearest_in(&source, &ids, query.model, query.vector, query.kind, limit)?
                }
            };
            let found: Vec<(i64, f32)> = found
                .into_iter()
                .filter(|(_, score)| query.least.is_none_or(|least| *score >= least))
                .collect();
            let ids: Vec<i64> = found.iter().map(|(id, _)| *id).collect();
            let mut rows = q::get_many_with_slug(c, &ids)?;
            let mut hits = Vec::with_capacity(found.len());
            for (id, score) in found {
                if let Some((row, slug)) = rows.remove(&id)
                    && row.forgotten_at.is_none()
                {
                    let snippet = crate::store::backend::meaning_snippet(&row.content);
                    hits.push(RowHit { row, slug, snippet, score: f64::from(score) });
                }
            }
            Ok(Some(hits))
        })
    }

    fn vectors_waiting(&self, project: Option<&str>) -> Result<Option<u64>> {
        self.read(|c| {
            let id = project.map(|slug| find_row(c, "project", slug).map(|p| p.id)).transpose()?;
            Ok(Some(vectors::waiting(c, id)?))
        })
    }

    fn has_vectors(&self, project: Option<&str>) -> Result<Option<bool>> {
        self.read(|c| {
            let id = project.map(|slug| find_row(c, "project", slug).map(|p| p.id)).transpose()?;
            Ok(Some(vectors::any_stored(c, id)?))
        })
    }

    fn rerank_vectors(&self, model: &str, hits: &[(&str, i64)]) -> Result<Vec<Option<Vec<u8>>>> {
        let ids: Vec<i64> = hits.iter().map(|h| h.1).collect();
        let mut found: std::collections::HashMap<i64, Vec<u8>> =
            self.read(|c| rerank_vectors::of(c, model, &ids))?.into_iter().collect();
        Ok(ids.iter().map(|id| found.remove(id)).collect())
    }

    fn previous_entries(&self, hits: &[(&str, i64)]) -> Result<Vec<Option<i64>>> {
        let ids: Vec<i64> = hits.iter().map(|h| h.1).collect();
        self.read(|c| q::previous_in_project(c, &ids))
    }
}

impl MemoryUpkeep for Store {
    fn vector_progress(&self, project: Option<&str>) -> Result<Option<VectorProgress>> {
        self.read(|c| {
            let id = project.map(|slug| find_row(c, "project", slug).map(|p| p.id)).transpose()?;
            let (waiting, stored) = vectors::progress(c, id)?;
            Ok(Some(VectorProgress { waiting, stored }))
        })
    }

    fn warm_vectors(&self, model: &str, dim: usize) -> Result<()> {
        self.read_passing(|c| self.vectors.hold(&vectors::Sqlite(c), &vectors::projects(c)?, model, dim))
    }

    fn tidy_index(&self) -> Result<()> {
        self.write(|tx| q::merge_index(tx))
    }

    fn index_vectors(&self, model: &str, limit: u32, embed: &Embedder<'_>) -> Result<Option<usize>> {
        let pending = self.read(|c| vectors::pending(c, limit))?;
        self.store_made(&pending, embed, |tx, p, v| vectors::put(tx, p, model, v)).map(Some)
    }

    fn index_rerank(&self, model: &str, limit: u32, embed: &Embedder<'_>) -> Result<Option<usize>> {
        let pending = self.read(|c| rerank_vectors::pending(c, model, limit))?;
        self.store_made(&pending, embed, |tx, p, v| rerank_vectors::put(tx, p, model, v)).map(Some)
    }

    fn rerank_waiting(&self, model: &str) -> Result<Option<u64>> {
        self.read(|c| rerank_vectors::waiting(c, model)).map(Some)
    }
}

/// A live (not forgotten) row of a project.
fn live(conn: &rusqlite::Connection, project_id: i64, id: i64) -> Result<Option<MemoryRow>> {
    Ok(q::get(conn, project_id, id)?.filter(|r| r.forgotten_at.is_none()))
}

/// Whether a word could match a scope token (`p` and digits): `p…` followed by a digit,
/// or `p` itself (as a prefix). Porter stemming could turn `p12s` into `p12`, so anything
/// after the digits does not clear it.
fn may_name_a_scope(words: &[Word]) -> bool {
    words.iter().any(|w| {
        let b = w.text.as_bytes();
        b.first() == Some(&b'p') && b.get(1).is_none_or(u8::is_ascii_digit)
    })
}

impl Store {
    /// Make each pending entry's vector with `embed` (outside the write lock, stopping at
    /// the first it cannot make) and store them in one transaction with `put`, which skips
    /// an entry written since; how many were stored.
    fn store_made(
        &self,
        pending: &[vectors::Pending],
        embed: &Embedder<'_>,
        put: impl Fn(&rusqlite::Connection, &vectors::Pending, &[u8]) -> Result<bool>,
    ) -> Result<usize> {
        let made: Vec<Vec<u8>> = pending.iter().map_while(|p| embed(&p.text)).collect();
        if made.is_empty() {
            return Ok(0);
        }
        self.write(|tx| {
            let mut n = 0;
            for (p, v) in pending.iter().zip(&made) {
                n += usize::from(put(tx, p, v)?);
            }
            Ok(n)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_words_that_could_be_a_scope_token_need_the_column_filter() {
        for (q, needs) in
            [("p12", true), ("p*", true), ("p1s", true), ("plan", false), ("leader p", true), ("up1", false)]
        {
            assert_eq!(may_name_a_scope(&crate::search::words(q)), needs, "{q}");
        }
    }

    #[test]
    fn words_are_quoted_and_prefixes_keep_their_star() {
        assert_eq!(
            fts_terms(&crate::search::words("Etc* leader-election"), false),
            "\"etc\"* \"leader\" \"election\""
        );
    }
}
