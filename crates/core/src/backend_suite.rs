//! One test body for every memory backend: the same cases run on the embedded SQLite
//! store (this crate's tests) and on PostgreSQL (`mooring-team`'s), so the two cannot
//! drift apart. Built with the `backend-suite` feature.

use crate::memory::{
    ListQuery, MAX_CONTENT, NewEntry, forget, list, remember, remember_batch, resolve_blocker,
};
use crate::search::search;
use crate::store::backend::MemoryBackend;
use crate::{ErrorCode, memory};

mod meaning;

/// A fresh store holding two active projects, `alpha` and `beta`, and nothing else.
pub trait Host {
    /// The backend under test.
    fn backend(&self) -> &dyn MemoryBackend;
    /// Archive a project (read-only from then on).
    fn archive(&self, slug: &str);
    /// The kinds of a project's events, in order.
    fn event_kinds(&self, slug: &str) -> Vec<String>;
}

/// One case of the suite.
pub type Case = fn(&dyn Host);

/// Every case, by name.
pub const CASES: &[(&str, Case)] = &[
    ("remember_derives_title_and_opens_blockers", remember_derives_title_and_opens_blockers),
    ("refusals_name_their_field", refusals_name_their_field),
    ("pages_newest_first_with_filters", pages_newest_first_with_filters),
    ("blockers_resolve_once_and_forget_hides_everywhere", blockers_resolve_once_and_forget_hides_everywhere),
    ("search_ranks_titles_first_and_scopes_projects", search_ranks_titles_first_and_scopes_projects),
    ("a_kind_filter_applies_before_the_limit", a_kind_filter_applies_before_the_limit),
    ("batches_land_whole_or_not_at_all", batches_land_whole_or_not_at_all),
    ("secrets_never_reach_the_store", secrets_never_reach_the_store),
    ("handovers_keep_their_fields_and_the_newest_wins", handovers_keep_their_fields_and_the_newest_wins),
    ("context_locks_add_versions_and_keep_every_one", context_locks_add_versions_and_keep_every_one),
    ("a_captured_session_is_one_entry_replaced_in_place", a_captured_session_is_one_entry_replaced_in_place),
    (
        "a_superseded_entry_is_marked_kept_and_can_come_back",
        a_superseded_entry_is_marked_kept_and_can_come_back,
    ),
    ("old_sessions_fold_into_a_weekly_digest_once", old_sessions_fold_into_a_weekly_digest_once),
    (
        "only_current_entries_count_and_a_resumed_session_is_the_last",
        only_current_entries_count_and_a_resumed_session_is_the_last,
    ),
    (
        "a_paraphrase_is_found_by_meaning_in_its_project_only",
        meaning::a_paraphrase_is_found_by_meaning_in_its_project_only,
    ),
];

fn note(kind: &str, content: &str) -> NewEntry {
    NewEntry { kind: kind.into(), content: content.into(), ..Default::default() }
}

fn count(h: &dyn Host, slug: &str) -> usize {
    list(h.backend(), slug, &ListQuery { limit: Some(memory::MAX_LIMIT), ..Default::default() })
        .unwrap()
        .entries
        .len()
}

fn remember_derives_title_and_opens_blockers(h: &dyn Host) {
    let store = h.backend();
    let d =
        remember(store, "alpha", &note("decision", "# Use etcd\nchosen over Consul"), Some("s1")).unwrap();
    assert_eq!(d.title, "Use etcd");
    assert_eq!(d.kind, memory::Kind::Decision);
    assert_eq!(d.status, None);
    assert_eq!(d.project, "alpha");
    let tags = vec!["#Certs".into(), "certs".into()];
    let b = remember(store, "Alpha", &NewEntry { tags, ..note("blocker", "waiting on TLS certs") }, None)
        .unwrap();
    assert_eq!(b.status.as_deref(), Some("open"));
    assert_eq!(b.tags, ["certs"]);
    assert_eq!(b.project, "alpha", "the slug as stored, however it was typed");
    assert!(b.id > d.id);
    assert!(b.created_at.ends_with('Z') && b.created_at.len() == 24, "{}", b.created_at);
    assert_eq!(h.event_kinds("alpha"), ["memory_added", "memory_added"]);
}

fn refusals_name_their_field(h: &dyn Host) {
    let store = h.backend();
    let cases = [
        (note("decision", "  "), "content"),
        (note("opinion", "x"), "kind"),
        (note("handover", "x"), "kind"),
        (NewEntry { title: Some("t".repeat(201)), ..note("note", "x") }, "title"),
        (NewEntry { tags: vec!["two words".into()], ..note("note", "x") }, "tags"),
        (note("note", &"x".repeat(MAX_CONTENT + 1)), "content"),
    ];
    for (entry, field) in cases {
        assert_eq!(remember(store, "alpha", &entry, None).unwrap_err().field.as_deref(), Some(field));
    }
    let missing = remember(store, "nope", &note("note", "x"), None).unwrap_err();
    assert_eq!((missing.code, missing.field.as_deref()), (ErrorCode::NotFound, Some("project")));
    h.archive("beta");
    let err = remember(store, "beta", &note("note", "x"), None).unwrap_err();
    assert!(err.message.contains("read-only"), "{}", err.message);
    assert_eq!(count(h, "alpha") + count(h, "beta"), 0, "nothing half-written");
}

fn pages_newest_first_with_filters(h: &dyn Host) {
    let store = h.backend();
    for i in 0..5 {
        remember(store, "alpha", &note("note", &format!("note {i}")), None).unwrap();
    }
    remember(store, "alpha", &note("blocker", "stuck"), None).unwrap();
    let first = list(store, "alpha", &ListQuery { limit: Some(4), ..Default::default() }).unwrap();
    assert_eq!(first.entries.len(), 4);
    assert_eq!(first.entries[0].content, "stuck");
    let rest =
        list(store, "alpha", &ListQuery { limit: Some(4), before: first.next_before, ..Default::default() })
            .unwrap();
    assert_eq!(rest.entries.len(), 2);
    assert_eq!(rest.next_before, None);
    assert_eq!(rest.entries[1].content, "note 0");
    let open = ListQuery { kind: Some("blocker".into()), status: Some("open".into()), ..Default::default() };
    assert_eq!(list(store, "alpha", &open).unwrap().entries.len(), 1);
    assert_eq!(count(h, "beta"), 0, "projects keep their own memory");
    for (q, field) in [
        (ListQuery { limit: Some(0), ..Default::default() }, "limit"),
        (ListQuery { limit: Some(201), ..Default::default() }, "limit"),
        (ListQuery { status: Some("done".into()), ..Default::default() }, "status"),
        (ListQuery { kind: Some("x".into()), ..Default::default() }, "kind"),
    ] {
        assert_eq!(list(store, "alpha", &q).unwrap_err().field.as_deref(), Some(field));
    }
}

fn blockers_resolve_once_and_forget_hides_everywhere(h: &dyn Host) {
    let store = h.backend();
    let b = remember(store, "alpha", &note("blocker", "waiting on certificates"), None).unwrap();
    let d = remember(store, "alpha", &note("decision", "certificates from the internal CA"), None).unwrap();
    assert_eq!(resolve_blocker(store, "alpha", d.id, None).unwrap_err().field.as_deref(), Some("id"));
    let r = resolve_blocker(store, "alpha", b.id, Some("SRE sent them")).unwrap();
    assert_eq!(r.status.as_deref(), Some("resolved"));
    assert_eq!(r.resolution.as_deref(), Some("SRE sent them"));
    assert_eq!(resolve_blocker(store, "alpha", b.id, None).unwrap_err().code, ErrorCode::Conflict);
    let elsewhere = resolve_blocker(store, "beta", b.id, None).unwrap_err();
    assert_eq!(
        (elsewhere.code, elsewhere.field.as_deref()),
        (ErrorCode::NotFound, Some("id")),
        "ids are per project"
    );

    assert_eq!(search(store, "certificates", Some("alpha"), None, 10).unwrap().len(), 2);
    forget(store, "alpha", d.id).unwrap();
    assert_eq!(search(store, "certificates", Some("alpha"), None, 10).unwrap().len(), 1);
    assert!(list(store, "alpha", &ListQuery::default()).unwrap().entries.iter().all(|e| e.id != d.id));
    assert_eq!(forget(store, "alpha", d.id).unwrap_err().code, ErrorCode::NotFound);
    let kinds = h.event_kinds("alpha");
    assert!(kinds.ends_with(&["blocker_resolved".to_owned(), "memory_forgotten".to_owned()]), "{kinds:?}");
}

fn search_ranks_titles_first_and_scopes_projects(h: &dyn Host) {
    let store = h.backend();
    remember(store, "alpha", &note("note", "the raft leader is elected by majority"), None).unwrap();
    let titled = NewEntry { title: Some("Raft".into()), ..note("decision", "we use it for consensus") };
    remember(store, "alpha", &titled, None).unwrap();
    remember(store, "beta", &note("note", "raft boats on the river"), None).unwrap();
    let hits = search(store, "raft", Some("alpha"), None, 10).unwrap();
    assert_eq!(hits.len(), 2);
    assert_eq!(hits[0].entry.title, "Raft", "a title match outranks a body match");
    assert!(hits[0].score >= hits[1].score);
    assert!(hits.iter().all(|h| h.entry.project == "alpha"));
    let everywhere = search(store, "raft", None, None, 10).unwrap();
    assert_eq!(everywhere.len(), 3);
    assert!(everywhere.iter().any(|h| h.entry.project == "beta"));
    assert_eq!(search(store, "raft", None, Some("decision"), 10).unwrap().len(), 1);
    assert!(search(store, "lead*", Some("alpha"), None, 10).unwrap()[0].snippet.contains("[leader]"));
    assert_eq!(search(store, "elected", Some("alpha"), None, 10).unwrap().len(), 1, "stemmed: elect");
    // Operators are words ("or" a stop word): entries holding both words would come
    // first; none does, so those holding either follow, the rarer word's first.
    let either = search(store, "Raft OR river", None, None, 10).unwrap();
    assert_eq!(either.len(), 3, "any content word, when no entry holds them all");
    assert_eq!(either[0].entry.content, "raft boats on the river", "the entry with both words ranks first");
    assert_eq!(search(store, "!!", None, None, 10).unwrap_err().field.as_deref(), Some("query"));
    assert_eq!(search(store, "raft", Some("nope"), None, 10).unwrap_err().code, ErrorCode::NotFound);
}

fn a_kind_filter_applies_before_the_limit(h: &dyn Host) {
    let store = h.backend();
    for i in 0..12 {
        let title = Some(format!("Raft raft {i}"));
        remember(store, "alpha", &NewEntry { title, ..note("note", "raft raft raft") }, None).unwrap();
    }
    remember(store, "alpha", &note("decision", "we keep raft for consensus"), None).unwrap();
    let top = search(store, "raft", Some("alpha"), None, 5).unwrap();
    assert_eq!(top.len(), 5);
    assert!(top.iter().all(|h| h.entry.kind.as_str() == "note"), "the notes rank above the decision");
    let decisions = search(store, "raft", Some("alpha"), Some("decision"), 1).unwrap();
    assert_eq!(decisions.len(), 1);
    assert_eq!(decisions[0].entry.kind.as_str(), "decision");
    assert!(decisions[0].snippet.contains("[raft]"), "{}", decisions[0].snippet);
}

fn batches_land_whole_or_not_at_all(h: &dyn Host) {
    let store = h.backend();
    let good: Vec<NewEntry> = (0..50).map(|i| note("note", &format!("n{i}"))).collect();
    assert_eq!(remember_batch(store, "alpha", &good, None).unwrap(), 50);
    let page = list(store, "alpha", &ListQuery { limit: Some(2), ..Default::default() }).unwrap();
    assert_eq!(page.entries[0].content, "n49", "a batch keeps its order");
    let mut bad = good.clone();
    bad[30].content = " ".into();
    let err = remember_batch(store, "alpha", &bad, None).unwrap_err();
    assert!(err.message.starts_with("entry 30:"), "{}", err.message);
    assert_eq!(count(h, "alpha"), 50);
}

fn secrets_never_reach_the_store(h: &dyn Host) {
    let store = h.backend();
    // Built at run time so the source holds no key-shaped string.
    let key = format!("{}{}", "AKIA", "QZ7R2XK4M6P5T3VW");
    let stored =
        remember(store, "alpha", &note("note", &format!("deploy key {key} for staging")), None).unwrap();
    assert!(!stored.content.contains(&key), "{}", stored.content);
    assert!(stored.redacted.is_some());
    let again = list(store, "alpha", &ListQuery::default()).unwrap();
    assert!(!again.entries[0].content.contains(&key));
    assert!(search(store, &key, None, None, 10).unwrap().is_empty());
}

fn handovers_keep_their_fields_and_the_newest_wins(h: &dyn Host) {
    use crate::memory::handover::{HandoverInput, last, save};
    let store = h.backend();
    assert!(last(store, "alpha").unwrap().is_none());
    let first = HandoverInput {
        work_done: "wired the importer".into(),
        next_steps: "tests".into(),
        ..Default::default()
    };
    save(store, "alpha", &first, None).unwrap();
    let second = HandoverInput {
        work_done: "importer tested".into(),
        next_steps: "ship it".into(),
        open_questions: Some("which release?".into()),
        files: vec!["src/import.rs".into()],
    };
    let saved = save(store, "alpha", &second, None).unwrap();
    let newest = last(store, "alpha").unwrap().unwrap();
    assert_eq!(newest.id, saved.id);
    assert_eq!((newest.work_done.as_str(), newest.next_steps.as_str()), ("importer tested", "ship it"));
    assert_eq!(newest.open_questions.as_deref(), Some("which release?"));
    assert_eq!(newest.files, ["src/import.rs"]);
    assert!(last(store, "beta").unwrap().is_none(), "per project");
    assert_eq!(h.event_kinds("alpha"), ["handover_saved", "handover_saved"]);
    h.archive("beta");
    assert!(save(store, "beta", &first, None).unwrap_err().message.contains("read-only"));
}

fn context_locks_add_versions_and_keep_every_one(h: &dyn Host) {
    use crate::memory::locks::{lock, read, topics};
    let store = h.backend();
    let v1 = lock(store, "alpha", "API-Contract", "v1 text", &[], Some("s")).unwrap();
    let v2 = lock(store, "alpha", "api-contract", "v2 text", &["api".into()], None).unwrap();
    lock(store, "alpha", "release", "friday", &[], None).unwrap();
    assert_eq!((v1.version, v2.version, v2.project.as_str()), (1, 2, "alpha"));
    assert_eq!(v2.tags, ["api"]);
    assert_eq!(read(store, "alpha", "api-contract", None).unwrap().content, "v2 text");
    assert_eq!(read(store, "alpha", "api-contract", Some(1)).unwrap().content, "v1 text");
    let latest: Vec<(String, i64)> =
        topics(store, "alpha").unwrap().into_iter().map(|l| (l.topic, l.version)).collect();
    assert_eq!(latest.len(), 2);
    assert!(latest.contains(&("api-contract".into(), 2)) && latest.contains(&("release".into(), 1)));
    assert!(topics(store, "beta").unwrap().is_empty(), "per project");
    assert_eq!(read(store, "alpha", "api-contract", Some(3)).unwrap_err().field.as_deref(), Some("topic"));
    assert_eq!(
        lock(store, "alpha", "has space", "c", &[], None).unwrap_err().field.as_deref(),
        Some("topic")
    );
    let kinds = h.event_kinds("alpha");
    assert_eq!(kinds.iter().filter(|k| *k == "context_locked").count(), 3);
    h.archive("beta");
    assert!(lock(store, "beta", "t", "c", &[], None).unwrap_err().message.contains("read-only"));
}

fn a_captured_session_is_one_entry_replaced_in_place(h: &dyn Host) {
    use crate::store::rows::NewMemoryRow;
    let store = h.backend();
    let row = |title: &'static str| NewMemoryRow {
        kind: "session".into(),
        title: title.into(),
        content: format!("{title}, in full").into(),
        tags: "claude-code".into(),
        status: None,
        data: Some(r#"{"key":"claude-code:abc","read_to":10}"#.into()),
        author: None,
        written_by: None,
        key: None,
    };
    let check = crate::memory::check_writable;
    let (_, first) =
        store.put_session("alpha", "claude-code:abc", &row("Session: add retries"), check).unwrap().unwrap();
    let (_, again) = store
        .put_session("alpha", "claude-code:abc", &row("Session: add retries and docs"), check)
        .unwrap()
        .unwrap();
    assert_eq!(first.id, again.id, "the same key is the same entry");
    assert_eq!((again.kind.as_str(), again.title.as_str()), ("session", "Session: add retries and docs"));
    let (_, found) = store.session_entry("alpha", "claude-code:abc").unwrap();
    assert_eq!(found.map(|r| r.id), Some(first.id));
    assert!(store.session_entry("beta", "claude-code:abc").unwrap().1.is_none(), "keys are per project");
    let hits = search(store, "docs", Some("alpha"), None, 5).unwrap();
    assert_eq!(hits.len(), 1, "the new text is what search finds");
    forget(store, "alpha", first.id).unwrap();
    assert!(store.put_session("alpha", "claude-code:abc", &row("Session: back?"), check).unwrap().is_none());
    assert_eq!(count(h, "alpha"), 0, "a forgotten record stays forgotten");
    h.archive("beta");
    let refused = store.put_session("beta", "claude-code:abc", &row("Session: x"), check).unwrap_err();
    assert_eq!(refused.code, ErrorCode::InvalidInput, "{}", refused.message);
}

fn a_superseded_entry_is_marked_kept_and_can_come_back(h: &dyn Host) {
    use crate::memory::supersede::{restore, supersede};
    let store = h.backend();
    remember(store, "alpha", &note("decision", "Sessions live in Redis"), None).unwrap();
    let old = remember(store, "alpha", &note("decision", "The ledger stays on MySQL"), None).unwrap();
    remember(store, "beta", &note("decision", "The ledger of beta stays on MySQL"), None).unwrap();
    let done = crate::search::similar::remember(
        store,
        "alpha",
        &note("decision", "The ledger moves to Postgres"),
        None,
        &[],
    )
    .unwrap();
    assert_eq!(
        done.candidates.iter().map(|c| c.id).collect::<Vec<_>>(),
        vec![old.id],
        "{:?}",
        done.candidates
    );
    let new = done.entry;
    let marked = supersede(store, "alpha", new.id, &[old.id]).unwrap();
    assert_eq!(marked[0].superseded_by, Some(new.id));
    let listed = list(store, "alpha", &ListQuery::default()).unwrap().entries;
    assert!(listed.iter().any(|e| e.id == old.id && e.superseded_by == Some(new.id)), "kept in history");
    let again = crate::search::similar::remember(
        store,
        "alpha",
        &note("decision", "The ledger stays on Postgres"),
        None,
        &[],
    )
    .unwrap();
    assert!(again.candidates.iter().all(|c| c.id != old.id), "a superseded entry is no candidate");
    assert_eq!(supersede(store, "alpha", new.id, &[old.id]).unwrap_err().code, ErrorCode::Conflict);
    assert_eq!(supersede(store, "beta", new.id, &[old.id]).unwrap_err().code, ErrorCode::NotFound);
    assert_eq!(restore(store, "alpha", old.id).unwrap().superseded_by, None);
    let kinds = h.event_kinds("alpha");
    assert!(kinds.ends_with(&["memory_added".to_owned(), "supersede_undone".to_owned()]), "{kinds:?}");
    assert!(kinds.contains(&"memory_superseded".to_owned()), "{kinds:?}");
}

fn old_sessions_fold_into_a_weekly_digest_once(h: &dyn Host) {
    use crate::capture::digest::roll_up;
    use crate::store::backend::Fold;
    let store = h.backend();
    let check = crate::memory::check_writable;
    let now = chrono::Utc::now();
    let put = |slug: &str, n: usize, days_ago: i64| {
        let mut r = crate::capture::SessionRecord::new("claude-code", &format!("claude-code:{n:024}"));
        let at = now - chrono::Duration::days(days_ago) + chrono::Duration::minutes(n as i64);
        r.saw_time(&at.to_rfc3339());
        r.request(&format!("Tidy the importer, part {n}"));
        let key = r.key.clone();
        let (row, _) = crate::capture::entry(&mut r).unwrap();
        store.put_session(slug, &key, &row, check).unwrap().unwrap().1.id
    };
    let old: Vec<i64> = (0..3).map(|n| put("alpha", n, 40)).collect();
    let fresh = put("alpha", 3, 1);
    let other = put("beta", 4, 40);
    let done = roll_up(store, "alpha", 14, now).unwrap();
    assert_eq!((done.weeks, done.written, done.folded), (1, 1, 3), "{done:?}");
    let sessions =
        list(store, "alpha", &ListQuery { kind: Some("session".into()), ..Default::default() }).unwrap();
    let digest =
        list(store, "alpha", &ListQuery { kind: Some("context_carry".into()), ..Default::default() })
            .unwrap()
            .entries;
    assert_eq!(digest.len(), 1);
    for e in &sessions.entries {
        let want = old.contains(&e.id).then_some(digest[0].id);
        assert_eq!(e.superseded_by, want, "session {}", e.id);
    }
    assert!(sessions.entries.iter().any(|e| e.id == fresh));
    assert!(digest[0].content.contains("Tidy the importer, part 0"), "{}", digest[0].content);
    // Rebuilt: the same, nothing folded twice.
    assert_eq!(roll_up(store, "alpha", 14, now).unwrap().written, 0);
    // Another project's session is never folded into this one's digest.
    let row = digest[0].clone();
    let new = crate::store::rows::NewMemoryRow {
        kind: "context_carry".into(),
        title: row.title.clone().into(),
        content: row.content.clone().into(),
        tags: "digest".into(),
        status: None,
        data: None,
        author: None,
        written_by: None,
        key: None,
    };
    let fold = Fold { key: "digest:1999-W01", digest: &new, sessions: &[other] };
    assert_eq!(store.fold_sessions("alpha", &fold, check).unwrap().unwrap().1.newly, 0);
    let beta =
        list(store, "beta", &ListQuery { kind: Some("session".into()), ..Default::default() }).unwrap();
    assert_eq!(beta.entries[0].superseded_by, None);
    // Brought back, it stays back; the digest forgotten, it stays forgotten.
    crate::memory::supersede::restore(store, "alpha", old[0]).unwrap();
    forget(store, "alpha", digest[0].id).unwrap();
    put("alpha", 5, 40);
    roll_up(store, "alpha", 14, now).unwrap();
    let after =
        list(store, "alpha", &ListQuery { kind: Some("session".into()), ..Default::default() }).unwrap();
    assert_eq!(after.entries.iter().filter(|e| e.superseded_by.is_some()).count(), 2);
    let kept = list(store, "alpha", &ListQuery { kind: Some("context_carry".into()), ..Default::default() })
        .unwrap();
    assert!(kept.entries.iter().all(|e| e.id != digest[0].id), "the forgotten digest stays forgotten");
    assert!(h.event_kinds("alpha").contains(&"sessions_folded".to_owned()));
}

fn only_current_entries_count_and_a_resumed_session_is_the_last(h: &dyn Host) {
    use crate::model::{BlockerStatus, Kind};
    let store = h.backend();
    let check = crate::memory::check_writable;
    let d: Vec<i64> = (0..4)
        .map(|i| remember(store, "alpha", &note("decision", &format!("Cache rule {i}")), None).unwrap().id)
        .collect();
    crate::memory::supersede::supersede(store, "alpha", d[3], &[d[0], d[1]]).unwrap();
    remember(store, "alpha", &note("blocker", "CI is red"), None).unwrap();
    assert_eq!(store.count_live("alpha", Kind::Decision, None, false).unwrap(), 2, "current decisions");
    assert_eq!(store.count_live("alpha", Kind::Decision, None, true).unwrap(), 2, "superseded ones");
    assert_eq!(store.count_live("alpha", Kind::Blocker, Some(BlockerStatus::Open), false).unwrap(), 1);
    assert_eq!(store.count_live("beta", Kind::Decision, None, false).unwrap(), 0, "per project");
    forget(store, "alpha", d[2]).unwrap();
    assert_eq!(
        store.count_live("alpha", Kind::Decision, None, false).unwrap(),
        1,
        "forgotten is not current"
    );

    let now = chrono::Utc::now();
    let put = |n: usize, days_ago: i64| {
        let mut r = crate::capture::SessionRecord::new("claude-code", &format!("claude-code:{n:024}"));
        r.saw_time(
            &(now - chrono::Duration::days(days_ago) + chrono::Duration::minutes(n as i64)).to_rfc3339(),
        );
        r.request(&format!("Tidy the importer, part {n}"));
        let key = r.key.clone();
        let (row, _) = crate::capture::entry(&mut r).unwrap();
        store.put_session("alpha", &key, &row, check).unwrap().unwrap().1.id
    };
    let old: Vec<i64> = (0..3).map(|n| put(n, 40)).collect();
    let fresh = put(3, 1);
    crate::capture::digest::roll_up(store, "alpha", 14, now).unwrap();
    assert_eq!(store.count_live("alpha", Kind::Session, None, true).unwrap(), 3, "three folded");
    assert_eq!(store.newest_changed("alpha", Kind::Session).unwrap().map(|r| r.id), Some(fresh));
    crate::memory::supersede::restore(store, "alpha", old[0]).unwrap();
    assert_eq!(store.count_live("alpha", Kind::Session, None, true).unwrap(), 2, "one restored");
    assert_eq!(
        store.newest_changed("alpha", Kind::Session).unwrap().map(|r| r.id),
        Some(fresh),
        "a restored session is not where work stopped"
    );
    // The person resumes an old, folded session: capture rewrites it, and it is the last.
    let resumed = put(1, 0);
    assert_eq!(resumed, old[1]);
    assert_eq!(store.count_live("alpha", Kind::Session, None, true).unwrap(), 1);
    assert_eq!(store.newest_changed("alpha", Kind::Session).unwrap().map(|r| r.id), Some(old[1]));
}
