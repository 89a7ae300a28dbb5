//! Recall per prompt: the few entries of a project's memory a person's prompt is about,
//! for the client's prompt hook to hand the model — only when they clear a relevance bar,
//! never an entry the session was already given, within a small token budget.

use crate::backend::{MemoryBackend, SearchQuery, Word};
use crate::error::Result;
use crate::memory::Entry;
use crate::preamble::count_tokens;
use crate::search::words;

/// The most recall hands over, in o200k tokens.
pub const BUDGET: usize = 400;
/// The most entries recall hands over.
const MAX_ENTRIES: usize = 3;
/// Candidates ranked before the bar is applied.
const CANDIDATES: u32 = 20;
/// Longest text of one entry, in characters.
const ENTRY_CHARS: usize = 300;

/// Words that say nothing about what a prompt is about.
const STOP: &[&str] = &[
    "the", "and", "for", "are", "but", "not", "you", "all", "any", "can", "had", "her", "was", "one", "our",
    "out", "has", "have", "what", "when", "where", "which", "who", "why", "how", "this", "that", "these",
    "those", "with", "from", "into", "about", "again", "did", "does", "done", "doing", "should", "would",
    "could", "will", "just", "then", "than", "them", "they", "their", "there", "here", "your", "yours", "we",
    "us", "its", "it's", "let", "lets", "please", "make", "use", "used", "using", "get", "got", "need",
    "want", "like", "some", "more", "most", "also", "very", "now", "new", "old", "way", "still", "yet",
    "one", "two", "tell", "show", "look", "know", "think", "see", "add", "fix", "run", "try", "code", "file",
];

/// The words of `prompt` that could say what it is about.
fn meaningful(prompt: &str) -> Vec<Word> {
    let mut out: Vec<Word> = Vec::new();
    for w in words(prompt) {
        if w.text.chars().count() < 3
            || STOP.contains(&w.text.as_str())
            || out.iter().any(|o| o.text == w.text)
        {
            continue;
        }
        out.push(Word { prefix: false, text: w.text });
        if out.len() == 12 {
            break;
        }
    }
    out
}

/// How many of `wanted` start a word of `text` (by their first five letters, so
/// "elections" finds "election").
fn matched(text: &str, wanted: &[Word]) -> usize {
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

/// The entries of project `slug` that `prompt` is about, best first, leaving out `given`
/// (ids the session has already seen): each must share at least two of the prompt's
/// meaningful words with it (one, when the prompt has only one).
pub fn recall(memory: &dyn MemoryBackend, slug: &str, prompt: &str, given: &[i64]) -> Result<Vec<Entry>> {
    let wanted = meaningful(prompt);
    if wanted.is_empty() {
        return Ok(Vec::new());
    }
    let bar = wanted.len().min(2);
    let query = SearchQuery { words: &wanted, project: Some(slug), kind: None, limit: CANDIDATES, any: true };
    let hits = memory.search_memory(&query)?;
    let mut out = Vec::new();
    for hit in hits {
        if given.contains(&hit.row.id) {
            continue;
        }
        if matched(&format!("{} {} {}", hit.row.title, hit.row.content, hit.row.tags), &wanted) < bar {
            continue;
        }
        out.push(Entry::from_row(hit.row, &hit.slug));
        if out.len() == MAX_ENTRIES {
            break;
        }
    }
    Ok(out)
}

/// The recalled entries as the model reads them, within [`BUDGET`] tokens; the ids given.
pub fn render(entries: &[Entry]) -> (String, Vec<i64>) {
    let mut text = String::from("## From this project's memory (Mooring recalled it for this prompt)\n");
    let mut ids = Vec::new();
    for e in entries {
        let day = e.created_at.get(..10).unwrap_or(&e.created_at);
        let body = crate::capture::record::trim(&e.content.replace('\n', " "), ENTRY_CHARS);
        let line = format!("- [{} {day} #{}] {}: {body}\n", e.kind.as_str(), e.id, e.title);
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
                let e = NewEntry { kind: (*kind).into(), content: (*text).into(), ..NewEntry::default() };
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
    fn what_is_handed_over_stays_within_its_budget_and_names_kind_date_and_id() {
        let long = "renewal ".repeat(200);
        let (_d, store, ids) = store_with(&[("decision", &long), ("decision", &long), ("decision", &long)]);
        let found = recall(&store, "leases", "renewal?", &[]).unwrap();
        let (text, given) = render(&found);
        assert!(crate::preamble::count_tokens(&text) <= super::BUDGET, "{text}");
        assert!(!given.is_empty() && given.iter().all(|g| ids.contains(g)));
        assert!(
            text.contains(&format!("[decision {} #{}]", &found[0].created_at[..10], found[0].id)),
            "{text}"
        );
    }
}
