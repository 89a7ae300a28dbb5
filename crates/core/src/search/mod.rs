//! Search over memory, in one project or all of them: by keyword (the words parsed and
//! checked here, a question's stop words left out; the search itself by the backend:
//! entries holding every word ranked by BM25 without IDF on SQLite, see `store::index::rank`,
//! `ts_rank` on PostgreSQL; entries holding any word by BM25 with IDF), by meaning (the
//! nearest vectors, see `semantic`), or both fused by their scores (the default, see
//! `fusion`).

pub mod dates;
pub mod fusion;
mod halves;
mod keyword;
pub use keyword::keyword_halves;
pub mod query_words;
pub mod recall;
pub mod rerank;
pub mod semantic;
pub mod similar;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::memory::{Entry, Kind, MAX_LIMIT};
pub use crate::search::query_words::{ONLY_STOP_WORDS, content_words, meaningful, words};
use crate::store::Store;
use crate::store::backend::{MemoryBackend, RowHit};

/// One hit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Hit {
    /// The entry (with its project).
    pub entry: Entry,
    /// The matching passage, terms in [brackets].
    pub snippet: String,
    /// Relevance, higher is better.
    pub score: f64,
    /// Which rankings found it: `keyword` (shared words), `semantic` (meaning), or both.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub found_by: Vec<Mode>,
}

/// Search `query` in `project` (or every project when `None`) by keyword.
pub fn search(
    store: &dyn MemoryBackend,
    query: &str,
    project: Option<&str>,
    kind: Option<&str>,
    limit: u32,
) -> Result<Vec<Hit>> {
    Ok(find(store, &Request { query, project, kind, limit, mode: Mode::Keyword })?.hits)
}

/// How to rank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Keyword and meaning, fused by their scores.
    #[default]
    Hybrid,
    /// Shared words only.
    Keyword,
    /// Meaning only.
    Semantic,
}

impl Mode {
    /// Parse a mode a person or an agent gave.
    pub fn parse(field: &str, s: &str) -> Result<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "hybrid" => Ok(Self::Hybrid),
            "keyword" => Ok(Self::Keyword),
            "semantic" => Ok(Self::Semantic),
            other => Err(Error::invalid(
                field,
                format!("{field} '{other}' is not one of hybrid, keyword, semantic"),
            )),
        }
    }

    /// Its name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Hybrid => "hybrid",
            Self::Keyword => "keyword",
            Self::Semantic => "semantic",
        }
    }
}

/// What a search found, and how.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Found {
    /// The hits, best first.
    pub hits: Vec<Hit>,
    /// How they were ranked (keyword when meaning was asked for but unavailable).
    pub mode: Mode,
    /// Why the ranking is not the one asked for, or is incomplete.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A search as asked.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    /// What to find.
    pub query: &'a str,
    /// One project's slug, or every project.
    pub project: Option<&'a str>,
    /// Only this kind.
    pub kind: Option<&'a str>,
    /// At most this many hits.
    pub limit: u32,
    /// How to rank.
    pub mode: Mode,
}

/// Reciprocal rank fusion's constant: ranks past the first few weigh little.
const RRF_K: f64 = 60.0;
/// Candidates each ranking contributes to the fusion: twice what is asked, at least 20
/// (past that, a hit of one ranking alone cannot reach the first `limit`).
fn fused_from(limit: u32) -> u32 {
    (limit * 2).clamp(20, MAX_LIMIT)
}

/// Search as `r` asks: by keyword, by meaning or both. Meaning falls back to keyword
/// (with a note saying why) when the model or a project's vectors are unavailable; a
/// failure there never fails the search.
pub fn find(store: &dyn MemoryBackend, r: &Request<'_>) -> Result<Found> {
    find_with(store, r, None)
}

/// The cosines of a question with each candidate (a project's slug and an entry's id) by
/// a sentence encoder, in their order; `None` for one it has not encoded.
pub type Encoded<'a> = dyn Fn(&[(&str, i64)]) -> Vec<Option<f64>> + 'a;

/// [`find`], with the meaning half of a hybrid search scored by `encoded` where given:
/// every candidate of both halves it encoded, by its cosine (see `rerank`).
pub fn find_with(store: &dyn MemoryBackend, r: &Request<'_>, encoded: Option<&Encoded<'_>>) -> Result<Found> {
    let words = words(r.query);
    if words.is_empty() {
        return Err(Error::invalid("query", "query has no words to search for; give one or more words"));
    }
    if r.limit == 0 || r.limit > MAX_LIMIT {
        return Err(Error::invalid(
            "limit",
            format!("limit {} is out of range; use 1 to {MAX_LIMIT}", r.limit),
        ));
    }
    let kind = r.kind.map(|k| Kind::parse("kind", k)).transpose()?.map(Kind::as_str);
    let content = content_words(r.query);
    let keyword = |limit: u32| keyword::lexical(store, &words, &content, r.project, kind, limit);
    let stop_note = || content.is_empty().then(|| ONLY_STOP_WORDS.to_owned());
    if r.mode == Mode::Keyword {
        let hits = found_by(hits(keyword(r.limit)?), Mode::Keyword);
        let note = if hits.is_empty() { stop_note() } else { None };
        return Ok(Found { hits, mode: Mode::Keyword, note });
    }
    let by_keyword_only = |why: String| -> Result<Found> {
        let hits = found_by(hits(keyword(r.limit)?), Mode::Keyword);
        Ok(Found { hits, mode: Mode::Keyword, note: Some(format!("{why}; these hits are by keyword only")) })
    };
    if r.mode == Mode::Semantic {
        let nearest = match nearest(store, r, kind) {
            Ok(n) => n,
            Err(why) => return by_keyword_only(why),
        };
        let mut hits = found_by(hits(nearest), Mode::Semantic);
        hits.truncate(r.limit as usize);
        return Ok(Found { hits, mode: Mode::Semantic, note: waiting_note(store, r.project) });
    }
    // The fusion's halves, at once when they are long enough to pay for it (see
    // `halves`; each on its own read connection where the store has them), fused by
    // their scores (see `fusion`). A panic by meaning leaves the keyword half, as a
    // failure there does (rayon would carry it on into this search).
    let by_meaning = || {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            nearest_within(
                store,
                &Request { limit: fusion::CANDIDATES, mode: Mode::Semantic, ..*r },
                kind,
                None,
                None,
            )
        }))
        .unwrap_or_else(|_| Err("search by meaning failed".into()))
    };
    let (nearest, by_words) =
        halves::both(by_meaning, || keyword::keyword_halves(store, &words, &content, r.project, kind));
    let nearest = match nearest {
        Ok(n) => n,
        Err(why) => return by_keyword_only(why),
    };
    let note = waiting_note(store, r.project);
    let (any_words, all_words) = by_words?;
    let nearest = match encoded {
        Some(encoded) => by_encoder(encoded, &any_words, &all_words, nearest),
        None => nearest,
    };
    let by_keyword: Vec<i64> = any_words.iter().chain(&all_words).map(|h| h.row.id).collect();
    let by_meaning: Vec<i64> = nearest.iter().map(|h| h.row.id).collect();
    let mut fused = fuse_halves(store, r.query, &any_words, &all_words, &nearest)?;
    fused.truncate(r.limit as usize);
    let mut hits = hits(fused);
    for h in &mut hits {
        h.found_by = [(Mode::Keyword, &by_keyword), (Mode::Semantic, &by_meaning)]
            .into_iter()
            .filter(|(_, ids)| ids.contains(&h.entry.id))
            .map(|(m, _)| m)
            .collect();
    }
    Ok(Found { hits, mode: Mode::Hybrid, note })
}

/// The halves of a hybrid search fused (see `fusion`), with the time `query` names and
/// each candidate's neighbour as the backend knows it.
pub fn fuse_halves(
    store: &dyn MemoryBackend,
    query: &str,
    any_words: &[RowHit],
    all_words: &[RowHit],
    nearest: &[RowHit],
) -> Result<Vec<RowHit>> {
    // Each candidate once: the halves share most of theirs.
    let mut keys: Vec<(&str, i64)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for h in any_words.iter().chain(all_words).chain(nearest) {
        if seen.insert((h.slug.as_str(), h.row.id)) {
            keys.push((h.slug.as_str(), h.row.id));
        }
    }
    let previous: fusion::Previous = keys
        .iter()
        .zip(store.previous_entries(&keys)?)
        .filter_map(|(&(slug, id), prev)| Some(((slug.to_owned(), id), prev?)))
        .collect();
    let span = dates::span(query, chrono::Utc::now());
    Ok(fusion::fuse(&fusion::Halves { any_words, all_words, nearest, span }, &previous))
}

/// Why some hits may be missing by meaning: entries not indexed by meaning yet.
fn waiting_note(store: &dyn MemoryBackend, project: Option<&str>) -> Option<String> {
    let waiting = store.vectors_waiting(project).ok().flatten().filter(|w| *w > 0)?;
    Some(format!(
        "{} {} not indexed by meaning yet, so {} found by keyword only; a running Mooring \
         indexes in the background, `mooring memory index` does it now",
        crate::projects::event_words::plural(waiting as i64, "entry", "entries"),
        if waiting == 1 { "is" } else { "are" },
        if waiting == 1 { "it is" } else { "those are" }
    ))
}

/// The meaning half scored by a sentence encoder: the candidates of both halves it has
/// encoded, by their cosines, nearest first (unencoded ones keep the static model's
/// place: the half as it was when none is encoded).
fn by_encoder(encoded: &Encoded<'_>, any: &[RowHit], all: &[RowHit], nearest: Vec<RowHit>) -> Vec<RowHit> {
    let mut seen = std::collections::HashSet::new();
    let pool: Vec<RowHit> = nearest
        .iter()
        .chain(any)
        .chain(all)
        .filter(|h| seen.insert((h.slug.as_str(), h.row.id)))
        .cloned()
        .collect();
    let keys: Vec<(&str, i64)> = pool.iter().map(|h| (h.slug.as_str(), h.row.id)).collect();
    let cosines = encoded(&keys);
    if cosines.iter().all(Option::is_none) {
        return nearest;
    }
    let mut scored: Vec<RowHit> =
        pool.iter().zip(cosines).filter_map(|(h, c)| Some(RowHit { score: c?, ..h.clone() })).collect();
    scored.sort_by(|a, b| b.score.total_cmp(&a.score));
    scored.truncate(fusion::CANDIDATES as usize);
    scored
}

/// The nearest entries by meaning, or why there are none.
fn nearest(
    store: &dyn MemoryBackend,
    r: &Request<'_>,
    kind: Option<&str>,
) -> std::result::Result<Vec<RowHit>, String> {
    nearest_within(store, r, kind, None, None)
}

/// [`nearest`] among the project's newest `newest` entries (all when `None`), of a
/// cosine of at least `least`.
pub(crate) fn nearest_within(
    store: &dyn MemoryBackend,
    r: &Request<'_>,
    kind: Option<&str>,
    newest: Option<u32>,
    least: Option<f32>,
) -> std::result::Result<Vec<RowHit>, String> {
    let limit = if r.mode == Mode::Semantic { r.limit } else { fused_from(r.limit) };
    let q = crate::search::semantic::TextQuery {
        text: r.query.to_owned(),
        project: r.project.map(str::to_owned),
        kind: kind.map(str::to_owned),
        limit,
        newest,
        least,
    };
    crate::search::semantic::nearest_text(store, &q)
}

/// Reciprocal rank fusion: each hit scores `Σ 1/(k + rank)` over the rankings it is in;
/// its passage comes from the first ranking that has it (the keyword one marks words).
pub fn fuse(rankings: &[Vec<RowHit>]) -> Vec<RowHit> {
    let weighted: Vec<(&[RowHit], f64)> = rankings.iter().map(|r| (r.as_slice(), 1.0)).collect();
    fuse_weighted(&weighted)
}

/// [`fuse`] with a weight per ranking: `Σ w/(k + rank)`.
pub fn fuse_weighted(rankings: &[(&[RowHit], f64)]) -> Vec<RowHit> {
    let mut out: Vec<(f64, usize, RowHit)> = Vec::new();
    for (list, (ranking, weight)) in rankings.iter().enumerate() {
        for (rank, hit) in ranking.iter().enumerate() {
            let add = weight / (RRF_K + rank as f64 + 1.0);
            match out.iter_mut().find(|(_, _, h)| h.row.id == hit.row.id && h.slug == hit.slug) {
                Some((score, _, _)) => *score += add,
                None => out.push((add, list * 100_000 + rank, hit.clone())),
            }
        }
    }
    out.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    out.into_iter().map(|(score, _, hit)| RowHit { score, ..hit }).collect()
}

fn hits(rows: Vec<RowHit>) -> Vec<Hit> {
    rows.into_iter()
        .map(|h| Hit {
            snippet: h.snippet,
            score: h.score,
            entry: Entry::from_row(h.row, &h.slug),
            found_by: Vec::new(),
        })
        .collect()
}

fn found_by(mut hits: Vec<Hit>, by: Mode) -> Vec<Hit> {
    hits.iter_mut().for_each(|h| h.found_by = vec![by]);
    hits
}

/// Merge the full-text index into one segment (a maintenance pass; seconds on a million
/// entries).
pub fn optimize_index(store: &Store) -> Result<()> {
    store.write(|tx| crate::store::index::keyword::optimize_fts(tx))
}

#[cfg(test)]
#[path = "mod_tests.rs"]
mod tests;
