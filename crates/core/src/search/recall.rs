//! Recall per prompt: the few entries of a project's memory a person's prompt is about,
//! for the client's prompt hook to hand the model — only when they clear a relevance bar,
//! never an entry the session was already given, within a small token budget.

use crate::error::Result;
use crate::memory::Entry;
use crate::memory::preamble::count_tokens;
use crate::search::{fuse, meaningful};
use crate::store::backend::{MemoryBackend, RowHit, SearchQuery, Word};

/// Recency's half-life in recall's ranking: an entry this many days old weighs three
/// quarters of a new one, twice as old five eighths, never less than [`AGE_FLOOR`]; the
/// weight moves an entry by at most [`AGE_SHARE`] of its relevance, so age orders what
/// is about equally relevant and never hides an entry that answers more of the prompt.
/// Nothing expires on its own.
pub const HALF_LIFE_DAYS: f64 = 180.0;
/// The least an old entry's relevance is weighed (at any age).
pub const AGE_FLOOR: f64 = 0.5;

/// How much an entry written at `created_at` (RFC 3339) weighs at `now`: from 1 (today)
/// down towards [`AGE_FLOOR`], halving the distance every [`HALF_LIFE_DAYS`].
pub fn age_weight(created_at: &str, now: chrono::DateTime<chrono::Utc>) -> f64 {
    let Ok(then) = chrono::DateTime::parse_from_rfc3339(created_at) else { return 1.0 };
    let days = (now - then.with_timezone(&chrono::Utc)).num_seconds().max(0) as f64 / 86_400.0;
    AGE_FLOOR + (1.0 - AGE_FLOOR) * 0.5f64.powf(days / HALF_LIFE_DAYS)
}

/// How much age may move an entry in recall, as a share of its relevance: an entry
/// written today beats one of the same relevance written months ago, and never one that
/// answers clearly more of the prompt.
const AGE_SHARE: f64 = 0.1;

/// How much of the prompt an entry answers, from 0 to 1: the share of the prompt's
/// meaningful words it holds (`matched` of `wanted`), or, found by meaning, its cosine
/// mapped from the bar ([`NEAR_WITH_A_WORD`]: 0) to 0.5 (1), whichever is more.
fn relevance(matched: usize, wanted: usize, cosine: Option<f64>) -> f64 {
    let by_words = if wanted == 0 { 0.0 } else { matched as f64 / wanted as f64 };
    let by_meaning =
        cosine.map_or(0.0, |c| ((c - NEAR_WITH_A_WORD) / (0.5 - NEAR_WITH_A_WORD)).clamp(0.0, 1.0));
    by_words.max(by_meaning)
}

/// Recall's order: relevance first; age (its [`age_weight`]) moves an entry by at most
/// [`AGE_SHARE`] of it; the fused rank only breaks what is left even.
fn ranked(relevance: f64, age: f64, fused: f64) -> f64 {
    let fresh = (age - AGE_FLOOR) / (1.0 - AGE_FLOOR);
    relevance * (1.0 - AGE_SHARE + AGE_SHARE * fresh) + fused * 1e-3
}

/// The most recall hands over, in o200k tokens.
pub const BUDGET: usize = 400;
/// The most entries recall hands over.
const MAX_ENTRIES: usize = 3;
/// The cosine an entry found by meaning alone must reach. With the static model, answers
/// to paraphrased questions score 0.20–0.36 (p10–p90 on the labelled set) and the best
/// entry for an off-topic prompt up to 0.38 in a project of 2,000 entries: the bar lets
/// the closest paraphrases through and keeps most small talk out (`quality` bench).
pub const NEAR_ENOUGH: f64 = 0.35;
/// The cosine enough for an entry that also shares one meaningful word with the prompt.
pub const NEAR_WITH_A_WORD: f64 = 0.25;
/// Entries compared by meaning at a prompt: the newest this many. The hook is a process
/// of its own with 180 ms in all; reading a project's 100,000 vectors takes 100 ms, its
/// newest 10,000 a tenth of that (keyword recall still reaches every entry).
const NEWEST_BY_MEANING: u32 = 10_000;
/// Candidates ranked before the bar is applied.
const CANDIDATES: u32 = 20;
/// Longest text of one entry, in characters.
const ENTRY_CHARS: usize = 300;

/// How many of `wanted` start a word of `text` (by their first five letters, so
/// "elections" finds "election", as the index's stemming would).
pub(crate) fn matched(text: &str, wanted: &[Word]) -> usize {
    let lower = text.to_lowercase();
    let seen: Vec<&str> = lower.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    wanted
        .iter()
        .filter(|w| {
            let stem: String = w.text.chars().take(5).collect();
            seen.iter().any(|s| s.starts_with(&stem))
        })
        .count()
}

/// What a hit's words are matched in: title, content and tags.
fn text_of(h: &RowHit) -> String {
    format!("{} {} {}", h.row.title, h.row.content, h.row.tags)
}

/// The entries of project `slug` that `prompt` is about, best first, leaving out `given`
/// (ids the session has already seen): each must share at least two of the prompt's
/// meaningful words with it (one, when the prompt has only one), or be near it in
/// meaning (a cosine of [`NEAR_ENOUGH`], or [`NEAR_WITH_A_WORD`] with one shared word);
/// both rankings are fused by rank.
pub fn recall(memory: &dyn MemoryBackend, slug: &str, prompt: &str, given: &[i64]) -> Result<Vec<Entry>> {
    let wanted = meaningful(prompt);
    if wanted.is_empty() {
        return Ok(Vec::new());
    }
    let bar = wanted.len().min(2);
    let query = SearchQuery {
        words: &wanted,
        project: Some(slug),
        kind: None,
        limit: CANDIDATES,
        any: true,
        least: 1,
        rarest: 0,
    };
    let lexical: Vec<RowHit> =
        memory.search_memory(&query)?.into_iter().filter(|h| matched(&text_of(h), &wanted) >= bar).collect();
    // Meaning fills in where words fall short: with enough entries sharing the prompt's
    // words the hook spares itself the model (about 60 ms of a 180 ms budget).
    let by_words = lexical.iter().filter(|h| !given.contains(&h.row.id)).count();
    let near = if by_words < MAX_ENTRIES {
        let q = crate::search::semantic::TextQuery {
            text: prompt.to_owned(),
            project: Some(slug.to_owned()),
            kind: None,
            limit: CANDIDATES,
            newest: Some(NEWEST_BY_MEANING),
            // Below the lower bar (kept below) a hit is never recalled: not even read.
            least: Some(NEAR_WITH_A_WORD.min(NEAR_ENOUGH) as f32),
        };
        // A failure here leaves recall by words: the prompt must never wait on it.
        crate::search::semantic::nearest_text(memory, &q).unwrap_or_default()
    } else {
        Vec::new()
    };
    let near: Vec<RowHit> = near
        .into_iter()
        .filter(|h| {
            h.score >= NEAR_ENOUGH || h.score >= NEAR_WITH_A_WORD && matched(&text_of(h), &wanted) >= 1
        })
        .collect();
    let mut out = Vec::new();
    let now = chrono::Utc::now();
    let cosine: std::collections::HashMap<i64, f64> = near.iter().map(|h| (h.row.id, h.score)).collect();
    let mut fused = fuse(&[lexical, near]);
    for h in &mut fused {
        let relevance =
            relevance(matched(&text_of(h), &wanted), wanted.len(), cosine.get(&h.row.id).copied());
        h.score = ranked(relevance, age_weight(&h.row.created_at, now), h.score);
    }
    fused.sort_by(|a, b| b.score.total_cmp(&a.score));
    for hit in fused {
        if given.contains(&hit.row.id) {
            continue;
        }
        let entry = Entry::from_row(hit.row, &hit.slug);
        // What a newer entry replaced is history, not something to act on.
        if entry.superseded_by.is_some() {
            continue;
        }
        out.push(entry);
        if out.len() == MAX_ENTRIES {
            break;
        }
    }
    Ok(out)
}

/// The recalled entries as the model reads them, within [`BUDGET`] tokens; the ids given.
/// `teammates`: the project is a team's (authors are its people).
pub fn render(entries: &[Entry], teammates: bool) -> (String, Vec<i64>) {
    let mut text = format!(
        "## From this project's memory (Mooring recalled it for this prompt)\n_{}_\n",
        crate::guard::quoted::FRAME
    );
    let mut ids = Vec::new();
    for e in entries {
        let day = e.created_at.get(..10).unwrap_or(&e.created_at);
        let body = crate::capture::record::trim(&crate::guard::quoted::line(&e.content), ENTRY_CHARS);
        let by = e.provenance(teammates);
        let title = crate::guard::quoted::line(&e.title);
        let line = format!("- [{} {day} #{}, {by}] {title}: {body}\n", e.kind.as_str(), e.id);
        if count_tokens(&text) + count_tokens(&line) > BUDGET {
            break;
        }
        text.push_str(&line);
        ids.push(e.id);
    }
    if ids.is_empty() { (String::new(), ids) } else { (text, ids) }
}

#[cfg(test)]
mod tests {
    use super::{recall, render};
    use crate::memory::{NewEntry, remember};
    use crate::{NewProject, Registry, Store};

    fn store_with(entries: &[(&str, &str)]) -> (tempfile::TempDir, Store, Vec<i64>) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_in(dir.path()).unwrap();
        Registry::new(&store).create(NewProject { name: "Leases".into(), ..NewProject::default() }).unwrap();
        let ids = entries
            .iter()
            .map(|(kind, text)| {
                let e = NewEntry {
                    kind: (*kind).into(),
                    content: (*text).into(),
                    author: Some(crate::model::Author::Person),
                    ..NewEntry::default()
                };
                remember(&store, "leases", &e, None).unwrap().id
            })
            .collect();
        (dir, store, ids)
    }

    #[test]
    fn a_prompt_about_an_old_decision_brings_it_and_small_talk_brings_nothing() {
        let (_d, store, ids) = store_with(&[
            ("decision", "Lease renewals retry twice with jitter, then the leader steps down"),
            ("note", "The dashboard uses plain ES modules"),
            ("decision", "Elections use raft with a 300 ms heartbeat"),
        ]);
        let found = recall(&store, "leases", "Why do lease renewals retry only twice?", &[]).unwrap();
        assert_eq!(found.iter().map(|e| e.id).collect::<Vec<_>>(), [ids[0]]);
        assert!(recall(&store, "leases", "Thanks, looks good to me!", &[]).unwrap().is_empty());
        // One shared word is not enough when the prompt has several.
        assert!(recall(&store, "leases", "Which modules does the build bundle?", &[]).unwrap().is_empty());
        // What the session was given already is not given again.
        assert!(recall(&store, "leases", "lease renewals retry", &[ids[0]]).unwrap().is_empty());
    }

    #[test]
    fn of_two_equally_relevant_entries_the_newer_comes_first_and_the_old_still_comes() {
        let (_d, store, ids) = store_with(&[
            ("decision", "Lease renewals retry twice: lease renewals retry, then the leader steps down"),
            ("decision", "Lease renewals retry twice, then the leader steps down"),
        ]);
        // By relevance alone the first (more of the prompt's words) comes first.
        let fresh = recall(&store, "leases", "how do lease renewals retry?", &[]).unwrap();
        assert_eq!(fresh.iter().map(|e| e.id).collect::<Vec<_>>(), [ids[0], ids[1]]);
        // It was written a year ago.
        store
            .write(|tx| {
                tx.execute(
                    "UPDATE memory SET created_at = '2025-11-01T00:00:00.000Z' WHERE id = ?1",
                    [ids[0]],
                )?;
                Ok(())
            })
            .unwrap();
        let found = recall(&store, "leases", "how do lease renewals retry?", &[]).unwrap();
        assert_eq!(found.iter().map(|e| e.id).collect::<Vec<_>>(), [ids[1], ids[0]]);
        let now = chrono::Utc::now();
        assert_eq!(super::age_weight(&crate::humanize::format_ts(now), now), 1.0);
        let half = crate::humanize::format_ts(now - chrono::Duration::days(180));
        assert!((super::age_weight(&half, now) - 0.75).abs() < 1e-6);
        let ancient = crate::humanize::format_ts(now - chrono::Duration::days(36_500));
        assert!(super::age_weight(&ancient, now) >= super::AGE_FLOOR);
    }

    #[test]
    fn an_old_note_that_answers_every_word_beats_newer_ones_that_only_mention_the_topic() {
        let (_d, store, ids) = store_with(&[
            ("note", "Staging deploys need the VPN profile ops-staging.ovpn and a fresh SSO login"),
            ("note", "Staging deploys were slow on Monday"),
            ("note", "Staging deploys are announced in the channel"),
            ("note", "Staging deploys moved to Tuesdays"),
        ]);
        let month_ago = crate::humanize::format_ts(chrono::Utc::now() - chrono::Duration::days(30));
        store
            .write(|tx| {
                tx.execute(
                    "UPDATE memory SET created_at = ?2 WHERE id = ?1",
                    rusqlite::params![ids[0], month_ago],
                )?;
                Ok(())
            })
            .unwrap();
        let found = recall(&store, "leases", "staging deploys VPN profile SSO login", &[]).unwrap();
        assert_eq!(
            found.first().map(|e| e.id),
            Some(ids[0]),
            "{:?}",
            found.iter().map(|e| &e.title).collect::<Vec<_>>()
        );
    }

    #[test]
    fn what_is_handed_over_stays_within_its_budget_and_names_kind_date_and_id() {
        let long = "renewal ".repeat(200);
        let (_d, store, ids) = store_with(&[("decision", &long), ("decision", &long), ("decision", &long)]);
        let found = recall(&store, "leases", "renewal?", &[]).unwrap();
        let (text, given) = render(&found, false);
        assert!(crate::memory::preamble::count_tokens(&text) <= super::BUDGET, "{text}");
        assert!(!given.is_empty() && given.iter().all(|g| ids.contains(g)));
        assert!(
            text.contains(&format!(
                "[decision {} #{}, written by the person]",
                &found[0].created_at[..10],
                found[0].id
            )),
            "{text}"
        );
    }

    #[test]
    fn a_prompt_in_other_words_brings_its_answer_by_meaning() {
        crate::search::semantic::model().unwrap_or_else(|a| panic!("{a:?}: run scripts/fetch-model.sh"));
        let (_d, store, ids) = store_with(&[
            ("decision", "We chose Postgres over MySQL for the ledger because of transactional DDL"),
            ("note", "The dashboard uses plain ES modules"),
            ("note", "Invoices are rendered to PDF with the customer's billing address"),
        ]);
        crate::search::semantic::index_pending(&store, None).unwrap();
        let prompt = "Which relational database stores the accounting records?";
        let found = recall(&store, "leases", prompt, &[]).unwrap();
        assert_eq!(found.first().map(|e| e.id), Some(ids[0]), "{found:?}");
        assert!(recall(&store, "leases", "Thanks, looks good to me!", &[]).unwrap().is_empty());
    }
}
