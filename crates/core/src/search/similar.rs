//! Keeping memory in shape as it grows: when an entry is written, the entries of the
//! same kind it likely repeats or contradicts are found (by shared rare words and, where
//! the model is installed, by meaning) and handed back with it, so the agent or the
//! person can judge; the judgement is a `supersedes` link (`memory::supersede`), never a
//! deletion. No model is asked to judge.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::memory::supersede::{check_old, supersede};
use crate::memory::{Entry, Kind, NewEntry};
use crate::model::Author;
use crate::search::content_words;
use crate::store::backend::{MemoryBackend, SearchQuery, Word};

/// How an earlier entry looks beside a new one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Likely {
    /// Says much the same: keep one.
    Duplicate,
    /// On the same subject: the new one may update or contradict it.
    Related,
}

impl Likely {
    /// Its name, as the JSON says it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Duplicate => "duplicate",
            Self::Related => "related",
        }
    }
}

/// An earlier entry a new one may repeat or contradict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Candidate {
    /// Its id (pass it in `supersedes` to retire it).
    pub id: i64,
    /// Its title.
    pub title: String,
    /// When it was written, for people.
    pub created: String,
    /// Duplicate or related.
    pub likely: Likely,
    /// How close, 0 to 1: the share of the new entry's word weight (or words) it holds,
    /// or its meaning's cosine.
    pub similarity: f64,
}

/// Kinds checked: what the preamble and recall carry and a person writes. Sessions,
/// handovers and context carries are records of their own.
pub fn checked(kind: Kind) -> bool {
    matches!(kind, Kind::Decision | Kind::Blocker | Kind::Note | Kind::Summary)
}

/// Words of a new entry looked up at most (a long note's first words say what it is about).
const MAX_WORDS: usize = 24;
/// Words of a new entry its earlier entries are looked up by: its rarest this many in
/// the project (each counted only so far, over a bounded walk of the newest matches: a
/// write's check costs the same at 100 entries and at 100,000).
const RAREST: u32 = 8;
/// Entries of the kind compared by meaning: the newest this many (held in memory by the
/// hub). An older entry it repeats is found by its words.
const NEWEST_BY_MEANING: u32 = 2_000;
/// Earlier entries each ranking hands over.
const LOOKED_AT: u32 = 12;
/// Candidates returned at most.
pub const MAX_CANDIDATES: usize = 5;
/// Word weight share (see [`Candidate::similarity`]) from which an entry is a duplicate.
pub const DUPLICATE_SHARE: f64 = 0.6;
/// Word weight share from which an entry is related. An entry holding only words common
/// in the project (in a fifth of it: "use", "we") is no hit at all, so an unrelated
/// decision scores nothing; a contradiction on the same subject scored 0.22 to 0.61 (a
/// rare subject word shared, in a project of 4 to 300 entries), a reworded duplicate 0.74.
pub const RELATED_SHARE: f64 = 0.2;
/// Share of the new entry's words an entry holds from which it is related (the new
/// entry's words only count when the project has any entry with a word that is not
/// common: see `store::backend::COMMON_SHARE`).
pub const RELATED_COVERED: f64 = 0.25;
/// Cosine (of the static model's vectors) from which an entry is a duplicate by meaning.
/// On the synthetic year (`supersede_tests`): a reworded duplicate 0.79, a contradiction
/// on the same subject 0.65, the nearest unrelated decision 0.41.
pub const DUPLICATE_COSINE: f64 = 0.8;
/// Cosine from which an entry is related by meaning alone.
pub const RELATED_COSINE: f64 = 0.7;
/// Cosine from which an entry is related by meaning when it shares a word too.
pub const RELATED_COSINE_WITH_A_WORD: f64 = 0.55;

/// The earlier live entries of `stored`'s kind in its project that it likely repeats or
/// contradicts, closest first (at most [`MAX_CANDIDATES`]); superseded ones are skipped.
pub fn candidates(store: &dyn MemoryBackend, stored: &Entry) -> Result<Vec<Candidate>> {
    if !checked(stored.kind) {
        return Ok(Vec::new());
    }
    let mut words: Vec<Word> = Vec::new();
    for w in content_words(&format!("{}\n{}", stored.title, stored.content)) {
        if !words.iter().any(|seen| seen.text == w.text) {
            words.push(w);
        }
    }
    words.truncate(MAX_WORDS);
    if words.is_empty() {
        return Ok(Vec::new());
    }
    let query = SearchQuery {
        words: &words,
        project: Some(&stored.project),
        kind: Some(stored.kind.as_str()),
        limit: LOOKED_AT,
        any: true,
        least: 1,
        rarest: RAREST,
    };
    let hits = store.search_memory(&query)?;
    // The new entry holds all its own words: its score is what "everything shared" scores.
    let own = hits.iter().find(|h| h.row.id == stored.id).map(|h| h.score);
    let top = hits.iter().map(|h| h.score).fold(0.0, f64::max);
    let full = own.unwrap_or(top).max(f64::MIN_POSITIVE);
    let mut found: Vec<Candidate> = Vec::new();
    let mut add = |row: crate::store::rows::MemoryRow, similarity: f64, likely: Likely| {
        if row.id == stored.id || found.iter().any(|c| c.id == row.id) {
            return;
        }
        let entry = Entry::from_row(row, &stored.project);
        if entry.superseded_by.is_some() {
            return;
        }
        found.push(Candidate {
            id: entry.id,
            title: entry.title,
            created: entry.created,
            likely,
            similarity,
        });
    };
    for h in hits {
        let share = (h.score / full).clamp(0.0, 1.0);
        // In a small project every word looks common to IDF (the subject word is in the
        // old entry and the new, two of three): the share of the new entry's words the
        // hit holds counts too.
        let text = format!("{} {} {}", h.row.title, h.row.content, h.row.tags);
        let covered = super::recall::matched(&text, &words) as f64 / words.len() as f64;
        if share >= DUPLICATE_SHARE {
            add(h.row, round(share), Likely::Duplicate);
        } else if share >= RELATED_SHARE || covered >= RELATED_COVERED {
            add(h.row, round(share.max(covered)), Likely::Related);
        }
    }
    for (row, cosine) in by_meaning(store, stored) {
        let shares_a_word = {
            let text = format!("{} {}", row.title, row.content).to_lowercase();
            words.iter().any(|w| text.contains(&w.text))
        };
        if cosine >= DUPLICATE_COSINE {
            add(row, round(cosine), Likely::Duplicate);
        } else if cosine >= RELATED_COSINE || cosine >= RELATED_COSINE_WITH_A_WORD && shares_a_word {
            add(row, round(cosine), Likely::Related);
        }
    }
    found.sort_by(|a, b| b.similarity.total_cmp(&a.similarity).then(b.id.cmp(&a.id)));
    found.truncate(MAX_CANDIDATES);
    Ok(found)
}

fn round(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// The nearest earlier entries by meaning with their cosines (search's own ranking by
/// meaning); none without the model or vectors: the words still find candidates.
fn by_meaning(store: &dyn MemoryBackend, stored: &Entry) -> Vec<(crate::store::rows::MemoryRow, f64)> {
    let text = format!("{}\n{}", stored.title, stored.content);
    let kind = stored.kind.as_str();
    let r = super::Request {
        query: &text,
        project: Some(&stored.project),
        kind: Some(kind),
        limit: LOOKED_AT,
        mode: super::Mode::Semantic,
    };
    // Below the lowest bar nothing is a candidate: those hits are not even read.
    let least = Some(RELATED_COSINE_WITH_A_WORD as f32);
    super::nearest_within(store, &r, Some(kind), Some(NEWEST_BY_MEANING), least)
        .unwrap_or_default()
        .into_iter()
        .map(|h| (h.row, h.score))
        .collect()
}

/// What `remember` stored, what it superseded, and what it may repeat or contradict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Remembered {
    /// The entry stored.
    pub entry: Entry,
    /// The entries it superseded (as asked with `supersedes`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub superseded: Vec<Entry>,
    /// Entries named in `supersedes` that an agent may not retire: the person's (in a
    /// team, another member's). They stay current until a person confirms.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub awaiting_person: Vec<Entry>,
    /// What the agent should know about them, when there are any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waiting: Option<String>,
    /// Earlier entries it likely repeats or contradicts: pass their ids as `supersedes`
    /// (now, with `supersede`, or in the project view) when the new one replaces them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<Candidate>,
}

/// Whether an agent's entry `new` may retire `old` on its own: only an agent's entry
/// (in a team, one of the same member's agents). The person's, an import, a digest or
/// an entry of unknown author waits for a person.
pub fn agent_may_retire(old: &Entry, new: &Entry, teammates: bool) -> bool {
    old.author == Some(Author::Agent) && (!teammates || old.written_by == new.written_by)
}

/// Store `new` in `slug` (as [`super::remember`]), retire the entries it `supersedes`
/// (checked before anything is written: all or nothing), and find the candidates among
/// the rest. An agent (`new.author`) retires only what [`agent_may_retire`] allows; the
/// others it names stay current and come back in `awaiting_person`.
pub fn remember(
    store: &dyn MemoryBackend,
    slug: &str,
    new: &NewEntry,
    session: Option<&str>,
    supersedes: &[i64],
) -> Result<Remembered> {
    let kind = Kind::parse("kind", new.kind.trim())?;
    let olds = check_old(store, slug, kind, None, supersedes)?;
    let entry = crate::memory::remember(store, slug, new, session)?;
    let teammates = entry.author == Some(Author::Agent) && store.authors_are_people(slug);
    let (retired, awaiting): (Vec<Entry>, Vec<Entry>) = olds
        .into_iter()
        .partition(|old| entry.author != Some(Author::Agent) || agent_may_retire(old, &entry, teammates));
    let now: Vec<i64> = retired.iter().map(|e| e.id).collect();
    let superseded = supersede(store, slug, entry.id, &now)?;
    let waiting = (!awaiting.is_empty()).then(|| waiting_note(slug, entry.id, &awaiting));
    let mut candidates = candidates(store, &entry)?;
    candidates.retain(|c| !supersedes.contains(&c.id));
    Ok(Remembered { entry, superseded, awaiting_person: awaiting, waiting, candidates })
}

/// The sentence an agent gets for entries it may not retire.
fn waiting_note(slug: &str, by: i64, awaiting: &[Entry]) -> String {
    let ids: Vec<String> = awaiting.iter().map(|e| format!("#{}", e.id)).collect();
    let olds: Vec<String> = awaiting.iter().map(|e| e.id.to_string()).collect();
    format!(
        "{} stay{} current: an agent does not retire what the person (or another team member) wrote. \
         Waiting for the person to confirm: tell them, and they can run `mooring memory supersede {slug} {by} {}` \
         or pick it under Replaces an older one… in the project view.",
        ids.join(", "),
        if awaiting.len() == 1 { "s" } else { "" },
        olds.join(" ")
    )
}

#[cfg(test)]
#[path = "similar_tests.rs"]
mod tests;
