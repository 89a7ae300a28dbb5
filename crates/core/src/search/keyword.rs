//! The keyword rankings: a keyword search's, and the keyword half of a fusion.

use super::fusion;
use crate::error::Result;
use crate::store::backend::{MemorySearch, RowHit, SearchQuery, Word};

/// The keyword ranking of a query, question or not: entries holding every content word
/// first (or every word, when all are stop words), ranked as BM25 without IDF; then, to
/// fill `limit`, entries holding any content word, ranked by BM25 with IDF (so a rare word
/// counts for more). A natural question ("when did we move the ledger to Postgres?")
/// finds what shares only some of its words; its stop words never decide.
pub(super) fn lexical(
    store: &dyn MemorySearch,
    all: &[Word],
    content: &[Word],
    project: Option<&str>,
    kind: Option<&str>,
    limit: u32,
) -> Result<Vec<RowHit>> {
    let required = if content.is_empty() { all } else { content };
    let mut found = ask(store, required, project, kind, limit, false)?;
    if found.len() < limit as usize && content.len() > 1 {
        let any = ask(store, content, project, kind, limit, true)?;
        for hit in any {
            if found.len() == limit as usize {
                break;
            }
            if !found.iter().any(|h| h.row.id == hit.row.id) {
                found.push(hit);
            }
        }
    }
    Ok(found)
}

/// The keyword half of a fusion: the best [`fusion::CANDIDATES`] entries holding any
/// content word (BM25 with IDF), and those holding every one (every word, for a
/// question of stop words only).
pub fn keyword_halves(
    store: &dyn MemorySearch,
    all: &[Word],
    content: &[Word],
    project: Option<&str>,
    kind: Option<&str>,
) -> Result<(Vec<RowHit>, Vec<RowHit>)> {
    let required = if content.is_empty() { all } else { content };
    let every = ask(store, required, project, kind, fusion::CANDIDATES, false)?;
    // One word: the entries holding it are both lists.
    let any = if required.len() > 1 {
        ask(store, required, project, kind, fusion::CANDIDATES, true)?
    } else {
        every.clone()
    };
    Ok((any, every))
}

/// Entries holding every one of `words` (`any`: any of them, by BM25 with IDF), best first.
fn ask(
    store: &dyn MemorySearch,
    words: &[Word],
    project: Option<&str>,
    kind: Option<&str>,
    limit: u32,
    any: bool,
) -> Result<Vec<RowHit>> {
    store.search_memory(&SearchQuery { words, project, kind, limit, any, least: 1, rarest: 0 })
}
