//! The team database's search: `tsvector` and a GIN index, ranked, with snippets; by
//! meaning through the vectors it keeps.

use mooring_core::Result;
use mooring_core::store::backend::{
    COMMON_FROM, COMMON_SHARE, MemorySearch, NearestQuery, RowHit, SearchQuery, Word,
};

use crate::errors::pool_error;
use crate::projects::seen;
use crate::rows::{MEMORY_COLUMN_COUNT, MEMORY_COLUMNS, memory};
use crate::{PgStore, sql};

impl MemorySearch for PgStore {
    fn search_memory(&self, q: &SearchQuery<'_>) -> Result<Vec<RowHit>> {
        let tsquery = tsquery(q.words, q.any);
        let any = q.any && q.words.len() > 1;
        let terms = quoted(q.words);
        let least = i64::from(q.least.clamp(1, q.words.len().max(1) as u32));
        let (slug, kind, limit) =
            (q.project.map(str::to_owned), q.kind.map(str::to_owned), i64::from(q.limit));
        let me = self.me()?;
        self.run(move |pool| async move {
            let client = pool.get().await.map_err(pool_error)?;
            let project_id = match &slug {
                Some(s) => Some(seen(&client, s, me, false).await?.project.id),
                None => None,
            };
            let rows = if any {
                let (share, from) = (COMMON_SHARE, COMMON_FROM);
                let params: [&(dyn tokio_postgres::types::ToSql + Sync); 9] =
                    [&tsquery, &project_id, &kind, &limit, &me, &terms, &share, &from, &least];
                sql::rows(&client, &ranked(ANY_TOP), &params).await?
            } else {
                sql::rows(&client, &ranked(ALL_TOP), &[&tsquery, &project_id, &kind, &limit, &me]).await?
            };
            Ok(rows
                .iter()
                .map(|r| RowHit {
                    row: memory(r),
                    slug: r.get(MEMORY_COLUMN_COUNT),
                    snippet: r.get(MEMORY_COLUMN_COUNT + 1),
                    score: r.get(MEMORY_COLUMN_COUNT + 2),
                })
                .collect())
        })
    }

    fn nearest_memory(&self, query: &NearestQuery<'_>) -> Result<Option<Vec<RowHit>>> {
        self.nearest_in_team(query)
    }

    fn previous_entries(&self, hits: &[(&str, i64)]) -> Result<Vec<Option<i64>>> {
        let ids: Vec<i64> = hits.iter().map(|h| h.1).collect();
        self.run(move |pool| async move {
            let client = pool.get().await.map_err(pool_error)?;
            let rows = sql::rows(
                &client,
                "SELECT m.id, (SELECT p.id FROM memory p WHERE p.project_id = m.project_id AND p.id < m.id
                               ORDER BY p.id DESC LIMIT 1)
                 FROM memory m WHERE m.id = ANY($1)",
                &[&ids],
            )
            .await?;
            let before: std::collections::HashMap<i64, Option<i64>> =
                rows.iter().map(|r| (r.get(0), r.get(1))).collect();
            Ok(ids.iter().map(|id| before.get(id).copied().flatten()).collect())
        })
    }

    fn vectors_waiting(&self, project: Option<&str>) -> Result<Option<u64>> {
        Ok(Some(self.vectors_in_team(project, true)?.waiting))
    }

    fn has_vectors(&self, project: Option<&str>) -> Result<Option<bool>> {
        Ok(Some(self.has_vectors_in_team(project)?))
    }
}

/// The matches holding every word, ranked (`top`): a title match weighs most; scores are
/// divided by 1 + the log of the entry's length, as BM25 favours the shorter of two equal
/// matches. The query is written out at each use, not taken from a CTE: only
/// `search @@ to_tsquery(…, $1)` lets the planner use the GIN index; from a CTE it tested
/// every entry (30,000 entries: 12.9 ms a search).
const ALL_TOP: &str = "top AS (
   SELECT m.id, ts_rank(m.search, to_tsquery('mooring', $1), 1) AS score
   FROM memory m
   WHERE m.search @@ to_tsquery('mooring', $1) AND m.forgotten_at IS NULL
     AND ($2::bigint IS NULL OR m.project_id = $2) AND ($3::text IS NULL OR m.kind = $3)
     AND m.project_id IN (SELECT project_id FROM members WHERE person_id = $5)
   ORDER BY score DESC, m.id DESC LIMIT $4)";

/// The matches holding any word, ranked as BM25 ranks them (`top`): each word's `ts_rank`
/// in an entry weighted by its inverse document frequency among the entries searched (a
/// rare word counts for more than a common one). `$6` holds the words, one `tsquery` each;
/// the scope is inlined at each use (`NOT MATERIALIZED`) so each keeps the GIN index. An
/// entry holding only common words (in more than `$7` of the scope, when it has `$8`
/// entries or more) is not a match unless every word is that common, as on SQLite
/// (`mooring_core::store::backend::COMMON_SHARE`); nor is one holding fewer than `$9` words.
const ANY_TOP: &str = "scope AS NOT MATERIALIZED (
   SELECT m.id, m.search FROM memory m
   WHERE m.forgotten_at IS NULL
     AND ($2::bigint IS NULL OR m.project_id = $2) AND ($3::text IS NULL OR m.kind = $3)
     AND m.project_id IN (SELECT project_id FROM members WHERE person_id = $5)),
 total AS (SELECT count(*)::float8 AS n FROM scope),
 terms AS (SELECT to_tsquery('mooring', t) AS q FROM unnest($6::text[]) AS t),
 df AS (SELECT terms.q, (SELECT count(*) FROM scope WHERE scope.search @@ terms.q)::float8 AS n FROM terms),
 top AS (
   SELECT s.id, sum(ln(1 + (total.n - df.n + 0.5) / (df.n + 0.5)) * ts_rank(s.search, df.q, 1)) AS score
   FROM scope s CROSS JOIN df CROSS JOIN total
   WHERE s.search @@ to_tsquery('mooring', $1) AND s.search @@ df.q
   GROUP BY s.id
   HAVING (bool_or(df.n <= $7 * total.n OR total.n < $8)
           OR (SELECT bool_and(d.n > $7 * t.n) FROM df d CROSS JOIN total t))
      AND count(*) >= $9
   ORDER BY score DESC, s.id DESC LIMIT $4)";

/// A search: the ranked `top` of `ctes`, then the entries read and their snippets cut
/// for the few that are shown.
fn ranked(ctes: &str) -> String {
    format!(
        "WITH {ctes}
         SELECT {MEMORY_COLUMNS}, p.slug,
                ts_headline('mooring', m.content, to_tsquery('mooring', $1),
                  'StartSel=[, StopSel=], MaxWords=24, MinWords=8, MaxFragments=2, FragmentDelimiter=\" … \"'),
                top.score::float8
         FROM top JOIN memory m ON m.id = top.id JOIN projects p ON p.id = m.project_id
         ORDER BY top.score DESC, m.id DESC"
    )
}

/// Each word as a `tsquery` term: quoted, a prefix word with `:*`.
fn quoted(words: &[Word]) -> Vec<String> {
    words.iter().map(|w| format!("'{}'{}", w.text, if w.prefix { ":*" } else { "" })).collect()
}

/// The words as a `tsquery`: all required, a prefix word with `:*`. Words are letters,
/// digits and `_` only (see `search::words`), so quoting each keeps operators out.
fn tsquery(words: &[Word], any: bool) -> String {
    quoted(words).join(if any { " | " } else { " & " })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_is_quoted_and_required() {
        let words = mooring_core::search::words("Leader's elect* OR 'x'");
        assert_eq!(tsquery(&words, false), "'leader' & 's' & 'elect':* & 'or' & 'x'");
        assert_eq!(tsquery(&words, true), "'leader' | 's' | 'elect':* | 'or' | 'x'");
    }
}
