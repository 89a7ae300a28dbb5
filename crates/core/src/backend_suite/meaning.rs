//! The suite's cases on search by meaning (they need the embedding model installed, as
//! the test tier does with `scripts/fetch-model.sh`).

use mooring_embed::Quantized;

use super::{Host, note};
use crate::memory::{NewEntry, forget, remember};
use crate::search::semantic::{self, MODEL};
use crate::search::{Mode, Request, find};
use crate::store::backend::MemoryBackend;

/// Give up to `limit` waiting entries their vectors; how many were stored.
fn index(store: &dyn MemoryBackend, limit: u32) -> usize {
    let embed = |text: &str| semantic::embed(text).map(|v| Quantized::new(&v).to_bytes());
    store.index_vectors(MODEL, limit, &embed).unwrap().expect("this backend keeps vectors")
}

fn titles(store: &dyn MemoryBackend, query: &str, project: Option<&str>, mode: Mode) -> Vec<String> {
    let r = Request { query, project, kind: None, limit: 5, mode };
    let found = find(store, &r).unwrap();
    assert_eq!(found.mode, mode, "{query}: {:?}", found.note);
    found.hits.into_iter().map(|h| h.entry.title).collect()
}

/// Entries about other things, so a paraphrase has something to beat.
const OTHERS: &[&str] = &[
    "Invoices are generated on the first of each month",
    "The dashboard is built with plain ES modules, no bundler",
    "CI runs on two cores; keep the whole run under forty minutes",
    "Release notes are written by hand for every tag",
];

pub(super) fn a_paraphrase_is_found_by_meaning_in_its_project_only(h: &dyn Host) {
    let store = h.backend();
    let add = |project: &str, title: &str, content: &str| {
        let e = NewEntry { title: Some(title.into()), ..note("decision", content) };
        remember(store, project, &e, None).unwrap().id
    };
    let lease = add("alpha", "Lease timing", "Renewal cadence: every 5 s, TTL 15 s");
    for (i, text) in OTHERS.iter().enumerate() {
        add("alpha", &format!("Other {i}"), text);
    }
    add("beta", "Beta lease", "Renewal cadence of the leader lease: every 2 s");
    assert_eq!(store.vector_progress(Some("alpha")).unwrap().map(|p| (p.waiting, p.stored)), Some((5, 0)));
    assert_eq!(store.has_vectors(Some("alpha")).unwrap(), Some(false), "waiting is not stored");
    // A backfill stores the newest first; a search between two batches holds a copy of
    // what was there, and still sees the older entries stored after it.
    assert_eq!(index(store, 2), 2);
    assert_eq!(store.has_vectors(None).unwrap(), Some(true));
    assert_eq!(store.has_vectors(Some("alpha")).unwrap(), Some(true));
    let question = "How often do we refresh the leader's lease?";
    titles(store, question, Some("alpha"), Mode::Semantic);
    while index(store, 2) > 0 {}
    assert_eq!(store.vector_progress(Some("alpha")).unwrap().map(|p| (p.waiting, p.stored)), Some((0, 5)));
    for mode in [Mode::Semantic, Mode::Hybrid] {
        let found = titles(store, question, Some("alpha"), mode);
        assert!(found.contains(&"Lease timing".to_owned()), "{mode:?}: {found:?}");
        assert!(!found.contains(&"Beta lease".to_owned()), "another project's entry: {found:?}");
    }
    let everywhere = titles(store, question, None, Mode::Semantic);
    assert!(everywhere.contains(&"Beta lease".to_owned()), "{everywhere:?}");
    // By keyword the question shares one content word ("lease", in the title) with its
    // answer: its stop words no longer sink it.
    let by_word = titles(store, question, Some("alpha"), Mode::Keyword);
    assert_eq!(by_word.first().map(String::as_str), Some("Lease timing"), "{by_word:?}");

    // A changed entry is embedded again and found by its new meaning.
    let e =
        NewEntry { title: Some("Other 0".into()), ..note("decision", "Backups of the ledger run nightly") };
    let id = remember(store, "alpha", &e, None).unwrap().id;
    assert_eq!(index(store, 10), 1);
    let session = crate::store::rows::NewMemoryRow {
        kind: "session".into(),
        title: "Session: raft".into(),
        content: "Tuned the election timeout of the raft leader".into(),
        tags: String::new().into(),
        status: None,
        data: Some(r#"{"key":"k1"}"#.into()),
        author: None,
        written_by: None,
        key: None,
    };
    store.put_session("alpha", "k1", &session, crate::memory::check_writable).unwrap();
    assert_eq!(index(store, 10), 1);
    let rewritten = crate::store::rows::NewMemoryRow {
        title: "Session: invoices".into(),
        content: "Moved invoice generation to the fifteenth".into(),
        ..session
    };
    store.put_session("alpha", "k1", &rewritten, crate::memory::check_writable).unwrap();
    assert_eq!(store.vectors_waiting(Some("alpha")).unwrap(), Some(1), "queued again by its new text");
    assert_eq!(index(store, 10), 1);
    let found = titles(store, "billing date for customer bills", Some("alpha"), Mode::Semantic);
    assert!(found.contains(&"Session: invoices".to_owned()), "{found:?}");

    // Forgetting leaves no vector and no hit.
    forget(store, "alpha", lease).unwrap();
    forget(store, "alpha", id).unwrap();
    assert_eq!(store.vector_progress(Some("alpha")).unwrap().map(|p| (p.waiting, p.stored)), Some((0, 5)));
    let found = titles(store, question, Some("alpha"), Mode::Semantic);
    assert!(!found.contains(&"Lease timing".to_owned()), "{found:?}");
}
