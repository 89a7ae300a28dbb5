use super::*;
use crate::memory::handover::{HandoverInput, save};
use crate::memory::{NewEntry, remember};
use crate::{NewProject, ProjectEdit, Registry};

fn setup() -> Store {
    let store = Store::open_in_memory().unwrap();
    let reg = Registry::new(&store);
    reg.create(NewProject {
        name: "Leader Election".into(),
        description: Some("Move to etcd leases".into()),
        repo_url: Some("https://github.com/me/le".into()),
        ..Default::default()
    })
    .unwrap();
    reg.create(NewProject {
        name: "Monitoring".into(),
        description: Some("Grafana or Datadog".into()),
        ..Default::default()
    })
    .unwrap();
    reg.create(NewProject { name: "Old".into(), ..Default::default() }).unwrap();
    reg.edit("old", ProjectEdit { status: Some(ProjectStatus::Archived), ..Default::default() }).unwrap();
    store
}

fn add(store: &Store, kind: &str, content: &str) {
    remember(
        store,
        "leader-election",
        &NewEntry { kind: kind.into(), content: content.into(), ..Default::default() },
        None,
    )
    .unwrap();
}

#[test]
fn holds_every_section_in_priority_order_with_the_index() {
    let store = setup();
    add(&store, "decision", "Use etcd 3.5 with TLS");
    add(&store, "blocker", "Waiting on TLS certs");
    add(&store, "summary", "Lease renewal implemented");
    crate::memory::locks::lock(&store, "leader-election", "api-contract", "the API", &[], None).unwrap();
    save(
        &store,
        "leader-election",
        &HandoverInput { work_done: "renewal".into(), next_steps: "sidecar".into(), ..Default::default() },
        None,
    )
    .unwrap();
    let p = build(&store, &store, "leader-election", None, Caps::default()).unwrap();
    let t = &p.text;
    for needle in [
        "# Project: Leader Election",
        "Move to etcd leases",
        "https://github.com/me/le",
        "Waiting on TLS certs",
        "Use etcd 3.5",
        "Next steps: sidecar",
        "api-contract (v1",
        "Lease renewal",
        "**monitoring**: Grafana or Datadog",
    ] {
        assert!(t.contains(needle), "missing {needle:?} in\n{t}");
    }
    assert!(!t.contains("**old**"), "archived projects stay out of the index");
    let order: Vec<usize> = [
        "## Open blockers",
        "## Decisions",
        "## Last handover",
        "## Context locks",
        "## Recent summaries",
        "## Other projects",
    ]
    .iter()
    .map(|h| t.find(h).unwrap())
    .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "sections out of order");
    assert_eq!(p.tokens, count_tokens(t));
    assert!(!t.contains("Left out"));
}

#[test]
fn never_exceeds_the_budget_and_says_what_it_left_out() {
    let store = setup();
    for i in 0..60 {
        add(
            &store,
            "decision",
            &format!(
                "Decision number {i}: {}",
                "we weighed the options carefully and chose the simplest. ".repeat(3)
            ),
        );
    }
    for i in 0..5 {
        add(&store, "blocker", &format!("Blocker {i} waiting on another team"));
    }
    for budget in [MIN_BUDGET, 500, 1_000, 4_000] {
        let p = build(&store, &store, "leader-election", Some(budget), Caps::default()).unwrap();
        assert!(p.tokens <= budget, "{} tokens for a budget of {budget}", p.tokens);
        assert_eq!(p.tokens, count_tokens(&p.text));
        assert!(p.text.contains("Left out to fit"), "no omission note at {budget}");
        let decisions = p.sections.iter().find(|s| s.name == "decisions").unwrap();
        let early = p.sections.iter().find(|s| s.name == "early_decisions").unwrap();
        assert_eq!(decisions.included + decisions.omitted + early.included + early.omitted, 60);
        // Priority: blockers fill before any decision, the index comes last.
        let blockers = &p.sections[0];
        if decisions.included > 0 {
            assert_eq!(blockers.omitted, 0);
        }
    }
    let capped =
        build(&store, &store, "leader-election", Some(100_000), Caps { decisions: 3, ..Caps::default() })
            .unwrap();
    assert_eq!(capped.sections[1].included, 3);
    assert_eq!(capped.sections[1].omitted, 0);
    // The preamble's table: the 30 before the newest as titles, the rest counted.
    let early = capped.sections.iter().find(|s| s.name == "early_decisions").unwrap();
    assert_eq!((early.included, early.omitted), (30, 27));
    assert!(capped.text.contains("## Early decisions"), "{}", capped.text);
    assert!(capped.text.contains("Decision number 56: we weighed"), "the newest early one, by title");
    assert!(!capped.text.contains("Decision number 26:"), "{}", capped.text);
    assert!(capped.text.contains("27 early decisions (list_memory"));
}

#[test]
fn budget_out_of_range_is_refused() {
    let store = setup();
    for b in [0, 50, MAX_BUDGET + 1] {
        assert_eq!(
            build(&store, &store, "leader-election", Some(b), Caps::default()).unwrap_err().field.as_deref(),
            Some("budget_tokens")
        );
    }
}

#[test]
fn superseded_decisions_are_not_counted_as_left_out() {
    let store = setup();
    let ids: Vec<i64> = (0..40)
        .map(|i| {
            let e = NewEntry {
                kind: "decision".into(),
                content: format!("Rule {i} of the cache"),
                ..Default::default()
            };
            remember(&store, "leader-election", &e, None).unwrap().id
        })
        .collect();
    // Twelve of the oldest were replaced by the newest one.
    crate::memory::supersede::supersede(&store, "leader-election", ids[39], &ids[..12]).unwrap();
    let p = build(&store, &store, "leader-election", Some(100_000), Caps { decisions: 3, ..Caps::default() })
        .unwrap();
    let early = p.sections.iter().find(|s| s.name == "early_decisions").unwrap();
    // 28 current: 3 in full, 25 as titles (fewer than the 30 room), nothing left out.
    assert_eq!((early.included, early.omitted), (25, 0), "{}", p.text);
    assert!(!p.text.contains("early decisions (list_memory"), "{}", p.text);
}
