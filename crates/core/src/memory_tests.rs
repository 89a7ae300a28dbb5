use super::*;
use crate::search::search;
use crate::{NewProject, Registry};

fn setup() -> Store {
    let store = Store::open_in_memory().unwrap();
    let reg = Registry::new(&store);
    for name in ["Alpha", "Beta"] {
        reg.create(NewProject { name: name.into(), ..Default::default() }).unwrap();
    }
    store
}

fn note(kind: &str, content: &str) -> NewEntry {
    NewEntry { kind: kind.into(), content: content.into(), ..Default::default() }
}

#[test]
fn remember_derives_title_and_opens_blockers() {
    let store = setup();
    let d =
        remember(&store, "alpha", &note("decision", "# Use etcd\nchosen over Consul"), Some("s1")).unwrap();
    assert_eq!(d.title, "Use etcd");
    assert_eq!(d.kind, Kind::Decision);
    assert_eq!(d.status, None);
    let b = remember(
        &store,
        "alpha",
        &NewEntry { tags: vec!["#Certs".into(), "certs".into()], ..note("blocker", "waiting on TLS certs") },
        None,
    )
    .unwrap();
    assert_eq!(b.status.as_deref(), Some("open"));
    assert_eq!(b.tags, ["certs"]);
    let stats = Registry::new(&store).get("alpha").unwrap().stats;
    assert_eq!((stats.decisions, stats.open_blockers, stats.memory_total), (1, 1, 2));
}

#[test]
fn refusals_name_their_field() {
    let store = setup();
    let cases = [
        (note("decision", "  "), "content"),
        (note("opinion", "x"), "kind"),
        (note("handover", "x"), "kind"),
        (NewEntry { title: Some("t".repeat(201)), ..note("note", "x") }, "title"),
        (NewEntry { tags: vec!["two words".into()], ..note("note", "x") }, "tags"),
        (note("note", &"x".repeat(MAX_CONTENT + 1)), "content"),
    ];
    for (entry, field) in cases {
        assert_eq!(remember(&store, "alpha", &entry, None).unwrap_err().field.as_deref(), Some(field));
    }
    assert_eq!(
        remember(&store, "nope", &note("note", "x"), None).unwrap_err().field.as_deref(),
        Some("project")
    );
    Registry::new(&store).archive("beta").unwrap();
    let err = remember(&store, "beta", &note("note", "x"), None).unwrap_err();
    assert!(err.message.contains("read-only"), "{}", err.message);
    assert_eq!(
        list(&store, "alpha", &ListQuery::default()).unwrap().entries.len(),
        0,
        "nothing half-written"
    );
}

#[test]
fn pages_newest_first_with_filters() {
    let store = setup();
    for i in 0..5 {
        remember(&store, "alpha", &note("note", &format!("note {i}")), None).unwrap();
    }
    remember(&store, "alpha", &note("blocker", "stuck"), None).unwrap();
    let first = list(&store, "alpha", &ListQuery { limit: Some(4), ..Default::default() }).unwrap();
    assert_eq!(first.entries.len(), 4);
    assert_eq!(first.entries[0].content, "stuck");
    let rest =
        list(&store, "alpha", &ListQuery { limit: Some(4), before: first.next_before, ..Default::default() })
            .unwrap();
    assert_eq!(rest.entries.len(), 2);
    assert_eq!(rest.next_before, None);
    assert_eq!(rest.entries[1].content, "note 0");
    let blockers = list(
        &store,
        "alpha",
        &ListQuery { kind: Some("blocker".into()), status: Some("open".into()), ..Default::default() },
    )
    .unwrap();
    assert_eq!(blockers.entries.len(), 1);
    for (q, field) in [
        (ListQuery { limit: Some(0), ..Default::default() }, "limit"),
        (ListQuery { limit: Some(201), ..Default::default() }, "limit"),
        (ListQuery { status: Some("done".into()), ..Default::default() }, "status"),
        (ListQuery { kind: Some("x".into()), ..Default::default() }, "kind"),
    ] {
        assert_eq!(list(&store, "alpha", &q).unwrap_err().field.as_deref(), Some(field));
    }
}

#[test]
fn blockers_resolve_once_and_forget_hides_everywhere() {
    let store = setup();
    let b = remember(&store, "alpha", &note("blocker", "waiting on certificates"), None).unwrap();
    let d = remember(&store, "alpha", &note("decision", "certificates from the internal CA"), None).unwrap();
    assert_eq!(resolve_blocker(&store, "alpha", d.id, None).unwrap_err().field.as_deref(), Some("id"));
    let r = resolve_blocker(&store, "alpha", b.id, Some("SRE sent them")).unwrap();
    assert_eq!(r.status.as_deref(), Some("resolved"));
    assert_eq!(r.resolution.as_deref(), Some("SRE sent them"));
    assert_eq!(resolve_blocker(&store, "alpha", b.id, None).unwrap_err().code, crate::ErrorCode::Conflict);
    assert_eq!(
        resolve_blocker(&store, "beta", b.id, None).unwrap_err().field.as_deref(),
        Some("id"),
        "ids are per project"
    );

    assert_eq!(search(&store, "certificates", Some("alpha"), None, 10).unwrap().len(), 2);
    forget(&store, "alpha", d.id).unwrap();
    assert_eq!(search(&store, "certificates", Some("alpha"), None, 10).unwrap().len(), 1);
    assert!(list(&store, "alpha", &ListQuery::default()).unwrap().entries.iter().all(|e| e.id != d.id));
    assert_eq!(forget(&store, "alpha", d.id).unwrap_err().code, crate::ErrorCode::NotFound);
    let stats = Registry::new(&store).get("alpha").unwrap().stats;
    assert_eq!((stats.decisions, stats.open_blockers, stats.memory_total), (0, 0, 1), "triggers keep counts");
    let kinds: Vec<String> =
        Registry::new(&store).events("alpha").unwrap().into_iter().map(|e| e.kind).collect();
    assert!(kinds.contains(&"memory_forgotten".to_owned()));
}

#[test]
fn search_ranks_titles_first_and_scopes_projects() {
    let store = setup();
    remember(&store, "alpha", &note("note", "the raft leader is elected by majority"), None).unwrap();
    remember(
        &store,
        "alpha",
        &NewEntry { title: Some("Raft".into()), ..note("decision", "we use it for consensus") },
        None,
    )
    .unwrap();
    remember(&store, "beta", &note("note", "raft boats on the river"), None).unwrap();
    let hits = search(&store, "raft", Some("alpha"), None, 10).unwrap();
    assert_eq!(hits.len(), 2);
    assert_eq!(hits[0].entry.title, "Raft", "a title match outranks a body match");
    assert!(hits[0].score >= hits[1].score);
    assert!(hits.iter().all(|h| h.entry.project == "alpha"));
    let everywhere = search(&store, "raft", None, None, 10).unwrap();
    assert_eq!(everywhere.len(), 3);
    assert!(everywhere.iter().any(|h| h.entry.project == "beta"));
    let decisions = search(&store, "raft", None, Some("decision"), 10).unwrap();
    assert_eq!(decisions.len(), 1);
    assert!(search(&store, "lead*", Some("alpha"), None, 10).unwrap()[0].snippet.contains("[leader]"));
    assert_eq!(search(&store, "!!", None, None, 10).unwrap_err().field.as_deref(), Some("query"));
}

#[test]
fn a_kind_filter_applies_before_the_limit() {
    let store = setup();
    for i in 0..12 {
        let title = Some(format!("Raft raft {i}"));
        remember(&store, "alpha", &NewEntry { title, ..note("note", "raft raft raft") }, None).unwrap();
    }
    remember(&store, "alpha", &note("decision", "we keep raft for consensus"), None).unwrap();
    let top = search(&store, "raft", Some("alpha"), None, 5).unwrap();
    assert_eq!(top.len(), 5);
    assert!(top.iter().all(|h| h.entry.kind.as_str() == "note"), "the notes rank above the decision");
    let decisions = search(&store, "raft", Some("alpha"), Some("decision"), 1).unwrap();
    assert_eq!(decisions.len(), 1);
    assert_eq!(decisions[0].entry.kind.as_str(), "decision");
    assert!(decisions[0].snippet.contains("[raft]"));
}

#[test]
fn batches_land_whole_or_not_at_all() {
    let store = setup();
    let good: Vec<NewEntry> = (0..50).map(|i| note("note", &format!("n{i}"))).collect();
    assert_eq!(remember_batch(&store, "alpha", &good, None).unwrap(), 50);
    let mut bad = good.clone();
    bad[30].content = " ".into();
    let err = remember_batch(&store, "alpha", &bad, None).unwrap_err();
    assert!(err.message.starts_with("entry 30:"), "{}", err.message);
    assert_eq!(Registry::new(&store).get("alpha").unwrap().stats.memory_total, 50);
}
