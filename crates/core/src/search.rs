//! Full-text search over memory, in one project or all of them: the words parsed and
//! checked here, the search itself by the backend (FTS5 ranked by BM25 without IDF on
//! SQLite, see `store::rank`; `tsvector` on PostgreSQL).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::backend::{MemoryBackend, SearchQuery, Word};
use crate::error::{Error, Result};
use crate::memory::{Entry, Kind, MAX_LIMIT};
use crate::store::Store;

/// One hit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Hit {
    /// The entry (with its project).
    pub entry: Entry,
    /// The matching passage, terms in [brackets].
    pub snippet: String,
    /// Relevance, higher is better.
    pub score: f64,
}

/// The words a person typed: letters, digits and `_` (operators and punctuation split
/// words and are otherwise ignored), lowercase, at most 32, all required. A word ending in
/// `*` matches as a prefix; others match whole (stemmed) words, which keeps common
/// prefixes from expanding into thousands of terms.
pub fn words(text: &str) -> Vec<Word> {
    let mut words = Vec::new();
    for raw in text.split_whitespace() {
        let prefix = raw.ends_with('*');
        let parts: Vec<&str> =
            raw.split(|c: char| !c.is_alphanumeric() && c != '_').filter(|w| !w.is_empty()).collect();
        let last = parts.len().saturating_sub(1);
        for (i, w) in parts.into_iter().enumerate() {
            words.push(Word { text: w.to_lowercase(), prefix: prefix && i == last });
        }
    }
    words.truncate(32);
    words
}

/// Search `query` in `project` (or every project when `None`).
pub fn search(
    store: &dyn MemoryBackend,
    query: &str,
    project: Option<&str>,
    kind: Option<&str>,
    limit: u32,
) -> Result<Vec<Hit>> {
    let words = words(query);
    if words.is_empty() {
        return Err(Error::invalid("query", "query has no words to search for; give one or more words"));
    }
    if limit == 0 || limit > MAX_LIMIT {
        return Err(Error::invalid("limit", format!("limit {limit} is out of range; use 1 to {MAX_LIMIT}")));
    }
    let kind = kind.map(|k| Kind::parse("kind", k)).transpose()?;
    let query = SearchQuery { words: &words, project, kind: kind.map(Kind::as_str), limit, any: false };
    Ok(store
        .search_memory(&query)?
        .into_iter()
        .map(|h| Hit { snippet: h.snippet, score: h.score, entry: Entry::from_row(h.row, &h.slug) })
        .collect())
}

/// Merge the full-text index into one segment (a maintenance pass; seconds on a million
/// entries).
pub fn optimize_index(store: &Store) -> Result<()> {
    store.write(|tx| {
        tx.execute("INSERT INTO memory_fts(memory_fts) VALUES ('optimize')", [])?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_lowercase_split_at_punctuation_and_keep_a_prefix_star() {
        let text = |q: &str| words(q).into_iter().map(|w| (w.text, w.prefix)).collect::<Vec<_>>();
        assert_eq!(text("Leader election"), [("leader".into(), false), ("election".into(), false)]);
        assert_eq!(
            text("NOT \"x\" OR y*"),
            [("not".into(), false), ("x".into(), false), ("or".into(), false), ("y".into(), true)]
        );
        assert_eq!(
            text("lead* raft-log"),
            [("lead".into(), true), ("raft".into(), false), ("log".into(), false)]
        );
        assert!(words("  ?? ").is_empty());
    }

    #[test]
    fn words_match_title_content_and_tags_never_the_scope() {
        let store = Store::open_in_memory().unwrap();
        let p = crate::Registry::new(&store)
            .create(crate::NewProject { name: "Billing".into(), ..Default::default() })
            .unwrap()
            .project;
        let entry = crate::memory::NewEntry {
            kind: "decision".into(),
            content: "Use Stripe for invoices".into(),
            tags: vec!["payments".into()],
            ..Default::default()
        };
        crate::memory::remember(&store, "billing", &entry, None).unwrap();
        let scope = format!("p{}", p.id);
        let prefix = format!("{scope}*");
        let stemmed = format!("{scope}s");
        for (query, hits) in [
            (scope.as_str(), 0),
            (prefix.as_str(), 0),
            (stemmed.as_str(), 0),
            ("stripe", 1),
            ("payments", 1),
            ("invoices", 1),
        ] {
            for project in [None, Some("billing")] {
                let found = search(&store, query, project, None, 10).unwrap();
                assert_eq!(found.len(), hits, "{query} in {project:?}");
            }
        }
    }
}
