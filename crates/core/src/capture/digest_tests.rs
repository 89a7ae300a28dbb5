//! A year of synthetic captured sessions rolled up into weekly digests.

use chrono::{DateTime, Duration, TimeZone, Utc};

use super::{MAX_CHARS, RollUp, roll_up, week_of};
use crate::capture::record::{Commit, FileAction, FileTouch, SessionRecord};
use crate::memory::{Entry, ListQuery, list};
use crate::store::backend::MemoryWrites as _;
use crate::{NewProject, Registry, Store};

fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 27, 9, 0, 0).unwrap()
}

fn store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path()).unwrap();
    Registry::new(&store).create(NewProject { name: "Ledger".into(), ..NewProject::default() }).unwrap();
    (dir, store)
}

/// A captured session `n` that started at `at`, as capture would store it.
fn session(store: &Store, n: usize, at: DateTime<Utc>) -> i64 {
    let mut r = SessionRecord::new(
        if n.is_multiple_of(3) { "codex" } else { "claude-code" },
        &format!("claude-code:{n:024}"),
    );
    r.saw_time(&at.to_rfc3339());
    r.saw_time(&(at + Duration::minutes(40)).to_rfc3339());
    r.request(&format!("Fix the ledger import for batch {n}"));
    r.request("and run the tests");
    r.files.push(FileTouch {
        path: "src/ledger.rs".into(),
        action: FileAction::Edited,
        from: None,
        subagent: false,
        asked: None,
    });
    r.files.push(FileTouch {
        path: format!("src/batch_{}.rs", n % 7),
        action: FileAction::Written,
        from: None,
        subagent: false,
        asked: None,
    });
    r.add_todo(&format!("check batch {n}"), None);
    if n.is_multiple_of(4) {
        r.commits.push(Commit { id: format!("{n:07x}"), subject: format!("Import batch {n}") });
        r.carry(&format!("Summary: the import of batch {n} now retries twice."));
    }
    let key = r.key.clone();
    let (row, _) = crate::capture::entry(&mut r).unwrap();
    store.put_session("ledger", &key, &row, crate::memory::check_writable).unwrap().unwrap().1.id
}

/// A year of sessions, three a week, the last started two days before `now()`: each
/// one's id and whether its last turn is over 14 days old.
fn year(store: &Store) -> Vec<(i64, bool)> {
    (0..156)
        .map(|n| {
            let at = now() - Duration::days(2) - Duration::hours(56 * (155 - n as i64));
            (session(store, n, at), at + Duration::minutes(40) < now() - Duration::days(14))
        })
        .collect()
}

fn entries(store: &Store, kind: &str) -> Vec<Entry> {
    let mut out = Vec::new();
    let mut before = None;
    loop {
        let q = ListQuery { kind: Some(kind.into()), limit: Some(200), before, ..ListQuery::default() };
        let page = list(store, "ledger", &q).unwrap();
        out.extend(page.entries);
        before = page.next_before;
        if before.is_none() {
            return out;
        }
    }
}

#[test]
fn a_year_folds_into_one_digest_a_week_and_rebuilds_to_the_same_text() {
    let (_dir, store) = store();
    let year = year(&store);
    let done = roll_up(&store, "ledger", 14, now()).unwrap();
    let digests = entries(&store, "context_carry");
    assert_eq!(done.weeks, digests.len());
    assert!((50..=54).contains(&done.weeks), "{done:?}");
    let sessions = entries(&store, "session");
    let folded: Vec<&Entry> = sessions.iter().filter(|e| e.superseded_by.is_some()).collect();
    assert_eq!(done.folded, folded.len());
    // Only sessions whose last turn is over 14 days old: the last two weeks' stay live.
    for (id, old) in &year {
        let e = sessions.iter().find(|e| e.id == *id).unwrap();
        assert_eq!(e.superseded_by.is_some(), *old, "session {id}");
    }
    assert!(year.iter().filter(|(_, old)| !old).count() >= 5);
    // Every folded session points at the digest of its week, which names it.
    let mid = folded[folded.len() / 2];
    let d = digests.iter().find(|d| d.id == mid.superseded_by.unwrap()).unwrap();
    assert!(d.content.contains(&format!("#{}", mid.id)), "{}", d.content);
    assert!(d.content.starts_with("Week of "), "{}", d.content);
    assert!(d.content.contains("src/ledger.rs (3 sessions)"), "{}", d.content);
    assert!(d.content.contains("\"Fix the ledger import for batch"), "{}", d.content);
    assert!(d.tags == ["digest"], "{:?}", d.tags);
    // Rebuilt: nothing written, nothing folded, the same text.
    let again = roll_up(&store, "ledger", 14, now()).unwrap();
    assert_eq!(again, RollUp { weeks: done.weeks, written: 0, folded: 0 });
    let texts: Vec<(i64, String)> =
        entries(&store, "context_carry").into_iter().map(|e| (e.id, e.content)).collect();
    assert_eq!(texts, digests.iter().map(|e| (e.id, e.content.clone())).collect::<Vec<_>>());
    // Nothing happens with the setting at 0.
    assert_eq!(roll_up(&store, "ledger", 0, now()).unwrap(), RollUp::default());
}

#[test]
fn folded_sessions_leave_the_preamble_and_recall_but_stay_in_search() {
    let (_dir, store) = store();
    for n in 0..6 {
        session(&store, n, now() - Duration::days(40) + Duration::hours(n as i64));
    }
    let before = crate::memory::preamble::build(&store, &store, "ledger", None, Default::default()).unwrap();
    assert!(before.text.contains("## Last session"), "{}", before.text);
    roll_up(&store, "ledger", 14, now()).unwrap();
    let after = crate::memory::preamble::build(&store, &store, "ledger", None, Default::default()).unwrap();
    assert!(!after.text.contains("## Last session"), "{}", after.text);
    assert!(after.text.contains("## Earlier weeks"), "{}", after.text);
    assert!(after.text.contains("6 sessions folded into 1 weekly digest"), "{}", after.text);
    let recalled =
        crate::search::recall::recall(&store, "ledger", "ledger import batch retries", &[]).unwrap();
    assert!(recalled.iter().all(|e| e.kind.as_str() != "session"), "{recalled:?}");
    let found =
        crate::search::search(&store, "ledger import batch", Some("ledger"), Some("session"), 10).unwrap();
    assert!(!found.is_empty(), "folded sessions stay searchable");
}

#[test]
fn a_forgotten_session_stays_forgotten_and_leaves_its_digest() {
    let (_dir, store) = store();
    let ids: Vec<i64> =
        (0..3).map(|n| session(&store, n, now() - Duration::days(30) + Duration::hours(n as i64))).collect();
    roll_up(&store, "ledger", 14, now()).unwrap();
    crate::memory::forget(&store, "ledger", ids[1]).unwrap();
    let done = roll_up(&store, "ledger", 14, now()).unwrap();
    assert_eq!((done.written, done.folded), (1, 0));
    let d = &entries(&store, "context_carry")[0];
    assert!(!d.content.contains(&format!("#{}", ids[1])), "{}", d.content);
    assert!(d.content.contains(&format!("#{}", ids[2])), "{}", d.content);
    assert!(entries(&store, "session").iter().all(|e| e.id != ids[1]), "still forgotten");
    // A forgotten digest stays forgotten, and nothing new is folded into its week.
    crate::memory::forget(&store, "ledger", d.id).unwrap();
    session(&store, 9, now() - Duration::days(30) + Duration::hours(5));
    roll_up(&store, "ledger", 14, now()).unwrap();
    assert!(entries(&store, "context_carry").is_empty());
    assert!(entries(&store, "session").iter().any(|e| e.superseded_by.is_none()), "the new one stays out");
}

#[test]
fn a_session_brought_back_is_not_folded_again() {
    let (_dir, store) = store();
    let ids: Vec<i64> =
        (0..2).map(|n| session(&store, n, now() - Duration::days(30) + Duration::hours(n as i64))).collect();
    roll_up(&store, "ledger", 14, now()).unwrap();
    crate::memory::supersede::restore(&store, "ledger", ids[0]).unwrap();
    roll_up(&store, "ledger", 14, now()).unwrap();
    let back = entries(&store, "session").into_iter().find(|e| e.id == ids[0]).unwrap();
    assert_eq!(back.superseded_by, None);
    // Still in its week's digest: the digest says what the week did.
    assert!(entries(&store, "context_carry")[0].content.contains(&format!("#{}", ids[0])));
}

#[test]
fn a_crowded_week_gives_a_bounded_digest() {
    let (_dir, store) = store();
    let monday = week_of((now() - Duration::days(60)).date_naive()).1;
    let start = Utc.from_utc_datetime(&monday.and_hms_opt(8, 0, 0).unwrap());
    for n in 0..300 {
        session(&store, n, start + Duration::minutes(20 * n as i64));
    }
    roll_up(&store, "ledger", 14, now()).unwrap();
    let digests = entries(&store, "context_carry");
    assert_eq!(digests.len(), 1);
    assert!(digests[0].content.chars().count() <= MAX_CHARS, "{}", digests[0].content.len());
    assert!(digests[0].content.contains("(+"), "says what it left out");
}

#[test]
fn week_keys_follow_iso_weeks() {
    let day = |y, m, d| chrono::NaiveDate::from_ymd_opt(y, m, d).unwrap();
    assert_eq!(week_of(day(2026, 1, 1)), ("digest:2026-W01".into(), day(2025, 12, 29)));
    assert_eq!(week_of(day(2027, 1, 3)).0, "digest:2026-W53");
}

#[test]
fn a_week_whose_sessions_are_all_forgotten_loses_its_digest() {
    let (_dir, store) = store();
    let ids: Vec<i64> =
        (0..2).map(|n| session(&store, n, now() - Duration::days(30) + Duration::hours(n as i64))).collect();
    roll_up(&store, "ledger", 14, now()).unwrap();
    assert_eq!(entries(&store, "context_carry").len(), 1);
    for id in ids {
        crate::memory::forget(&store, "ledger", id).unwrap();
    }
    roll_up(&store, "ledger", 14, now()).unwrap();
    assert!(
        entries(&store, "context_carry").is_empty(),
        "nothing of the forgotten sessions is left in a digest"
    );
}
