//! Full-text search over memory (FTS5, ranked by BM25 without IDF: see `store::rank`), in
//! one project or all of them.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::memory::{Entry, Kind, MAX_LIMIT};
use crate::registry::find_row;
use crate::store::Store;
use crate::store::memory as q;

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

/// Turn what a person typed into a safe FTS5 query: every word quoted (so operators
/// and punctuation are plain text) and all words required. A word ending in `*` matches
/// as a prefix; others match whole (stemmed) words, which keeps common prefixes from
/// expanding into thousands of terms.
pub fn fts_query(text: &str) -> Option<String> {
    let mut words = Vec::new();
    for raw in text.split_whitespace() {
        let prefix = raw.ends_with('*');
        let parts: Vec<&str> =
            raw.split(|c: char| !c.is_alphanumeric() && c != '_').filter(|w| !w.is_empty()).collect();
        let last = parts.len().saturating_sub(1);
        for (i, w) in parts.into_iter().enumerate() {
            let star = if prefix && i == last { "*" } else { "" };
            words.push(format!("\"{}\"{star}", w.to_lowercase()));
        }
    }
    words.truncate(32);
    (!words.is_empty()).then(|| words.join(" "))
}

/// Whether a quoted query word could match a scope token (`p` and digits): `p…` followed
/// by a digit, or `p` itself (as a prefix). Porter stemming could turn `p12s` into `p12`,
/// so anything after the digits does not clear it.
fn may_name_a_scope(terms: &str) -> bool {
    terms.split('"').skip(1).step_by(2).any(|w| {
        let b = w.as_bytes();
        b.first() == Some(&b'p') && b.get(1).is_none_or(u8::is_ascii_digit)
    })
}

/// Search `query` in `project` (or every project when `None`).
pub fn search(
    store: &Store,
    query: &str,
    project: Option<&str>,
    kind: Option<&str>,
    limit: u32,
) -> Result<Vec<Hit>> {
    let Some(terms) = fts_query(query) else {
        return Err(Error::invalid("query", "query has no words to search for; give one or more words"));
    };
    if limit == 0 || limit > MAX_LIMIT {
        return Err(Error::invalid("limit", format!("limit {limit} is out of range; use 1 to {MAX_LIMIT}")));
    }
    let kind = kind.map(|k| Kind::parse("kind", k)).transpose()?;
    store.read(|c| {
        // The words match title, content and tags only: the scope column is for filtering,
        // and a word must not match every entry of the project it names. Only a word that
        // could be a scope token needs the column filter (measured with bm25, where it
        // doubled the cost of ranking a common word; with mooring_rank not measured again).
        let words = if may_name_a_scope(&terms) {
            format!("{{title content tags}} : ({terms})")
        } else {
            format!("({terms})")
        };
        let fts = match project {
            Some(slug) => {
                let p = find_row(c, "project", slug)?;
                format!("scope:p{} AND {words}", p.id)
            }
            None => words,
        };
        let hits = q::search(c, &fts, kind.map(Kind::as_str), limit)?;
        Ok(hits
            .into_iter()
            .map(|h| Hit { snippet: h.snippet, score: -h.rank, entry: Entry::from_row(h.row, &h.slug) })
            .collect())
    })
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
    fn only_words_that_could_be_a_scope_token_need_the_column_filter() {
        for (q, needs) in
            [("p12", true), ("p*", true), ("p1s", true), ("plan", false), ("leader p", true), ("up1", false)]
        {
            assert_eq!(may_name_a_scope(&fts_query(q).unwrap()), needs, "{q}");
        }
    }

    #[test]
    fn queries_are_quoted_and_prefixed() {
        assert_eq!(fts_query("leader election").unwrap(), "\"leader\" \"election\"");
        assert_eq!(fts_query("NOT \"x\" OR y*").unwrap(), "\"not\" \"x\" \"or\" \"y\"*");
        assert_eq!(fts_query("lead* raft-log").unwrap(), "\"lead\"* \"raft\" \"log\"");
        assert_eq!(fts_query("  ?? "), None);
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
