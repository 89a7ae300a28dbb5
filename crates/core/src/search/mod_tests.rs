use super::*;

#[test]
fn a_question_finds_by_its_content_words_and_one_of_only_stop_words_says_so() {
    let store = Store::open_in_memory().unwrap();
    crate::Registry::new(&store)
        .create(crate::NewProject { name: "Billing".into(), ..Default::default() })
        .unwrap();
    for content in ["The ledger moved to Postgres in March", "Invoices are rendered as PDF", "Ledger notes"] {
        let e = crate::memory::NewEntry {
            kind: "decision".into(),
            content: content.into(),
            ..Default::default()
        };
        crate::memory::remember(&store, "billing", &e, None).unwrap();
    }
    let ask = |q: &str| {
        find(
            &store,
            &Request { query: q, project: Some("billing"), kind: None, limit: 10, mode: Mode::Keyword },
        )
        .unwrap()
    };
    let found = ask("When did we move the ledger to Postgres?");
    let contents: Vec<&str> = found.hits.iter().map(|h| h.entry.content.as_str()).collect();
    // No entry holds move, ledger and postgres: those holding any follow, the one with
    // two of them first; the entry sharing no word is not there.
    assert_eq!(contents, ["The ledger moved to Postgres in March", "Ledger notes"]);
    let nothing = ask("what did we do about it?");
    assert!(nothing.hits.is_empty());
    assert_eq!(nothing.note.as_deref(), Some(ONLY_STOP_WORDS));
}

#[test]
fn hybrid_takes_hits_from_both_halves_and_says_which_found_each() {
    let store = Store::open_in_memory().unwrap();
    crate::Registry::new(&store)
        .create(crate::NewProject { name: "Billing".into(), ..Default::default() })
        .unwrap();
    let by_meaning = "Renewal cadence: every 5 s, TTL 15 s";
    let by_word = "Ledger export refreshes nightly at two";
    for content in [
        by_meaning,
        by_word,
        "The dashboard is plain ES modules with no bundler",
        "Invoices are rendered to PDF with the customer's billing address",
        "Translations live in one JSON file per locale",
        "Release builds use fat LTO and one codegen unit",
    ] {
        let e = crate::memory::NewEntry {
            kind: "decision".into(),
            content: content.into(),
            ..Default::default()
        };
        crate::memory::remember(&store, "billing", &e, None).unwrap();
    }
    crate::search::semantic::index_pending(&store, None).unwrap();
    let r = Request {
        query: "How often do we refresh the lease, and the ledger?",
        project: Some("billing"),
        kind: None,
        limit: 3,
        mode: Mode::Hybrid,
    };
    let found = find(&store, &r).unwrap();
    let by =
        |content: &str| found.hits.iter().find(|h| h.entry.content == content).map(|h| h.found_by.clone());
    assert_eq!(by(by_meaning), Some(vec![Mode::Semantic]), "{:?}", found.hits);
    assert!(by(by_word).is_some_and(|b| b.contains(&Mode::Keyword)), "{:?}", found.hits);
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
