//! The SQLite store's search: by words (FTS5, ranked by `store::index::rank` with each
//! word's IDF in the scope searched) and by meaning (the vectors held in memory).

use crate::error::Result;
use crate::store::backend::{MemorySearch, NearestQuery, RowHit, SearchQuery, Word};
use crate::store::index::sample;
use crate::store::index::vector_index::Scan;
use crate::store::index::{fts_terms, keyword};
use crate::store::memory as q;
use crate::store::projects::find_row;
use crate::store::vectors::Which;
use crate::store::{Store, rerank_vectors, vectors};

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
                let walk = if bounded { keyword::RANKED_BOUNDED } else { keyword::RANKED_ANY_AT_MOST };
                // Entries holding too few of the words rank 0 (see `store::index::rank`): not hits.
                // A write's check reads no passages.
                let passages = (!bounded).then_some(&kept[..]);
                let ranked = keyword::search_any(
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
                keyword::search(c, &scoped(in_columns(&terms)), query.words, query.kind, query.limit)?
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

/// Whether a word could match a scope token (`p` and digits): `p…` followed by a digit,
/// or `p` itself (as a prefix). Porter stemming could turn `p12s` into `p12`, so anything
/// after the digits does not clear it.
fn may_name_a_scope(words: &[Word]) -> bool {
    words.iter().any(|w| {
        let b = w.text.as_bytes();
        b.first() == Some(&b'p') && b.get(1).is_none_or(u8::is_ascii_digit)
    })
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
