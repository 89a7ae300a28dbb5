//! Team mode on a real PostgreSQL: people and their roles, handing a project off,
//! several writers on one project, and the database going away and coming back.

use std::sync::Arc;

use mooring_core::memory::{ListQuery, NewEntry, list, remember, resolve_blocker};
use mooring_core::search::search;
use mooring_core::{ErrorCode, NewProject, ProjectStatus};
use mooring_team::testing::{PASSWORD, Postgres};
use mooring_team::{PgStore, Role};

fn note(kind: &str, content: &str) -> NewEntry {
    NewEntry { kind: kind.into(), content: content.into(), ..Default::default() }
}

fn project(name: &str) -> NewProject {
    NewProject { name: name.into(), ..Default::default() }
}

#[test]
fn viewers_read_members_write_outsiders_see_nothing_and_handoff_moves_ownership() {
    let pg = Postgres::start();
    let url = pg.fresh_db();
    let ada = PgStore::connect(&url, Some(PASSWORD), "Ada").unwrap();
    let bob = PgStore::connect(&url, Some(PASSWORD), "Bob").unwrap();
    let eve = PgStore::connect(&url, Some(PASSWORD), "Eve").unwrap();
    ada.create_project(project("Billing")).unwrap();
    remember(&ada, "billing", &note("decision", "invoices go through Stripe"), None).unwrap();

    // Eve is in no project: Billing does not exist for her, even in a search everywhere.
    let hidden = list(&eve, "billing", &ListQuery::default()).unwrap_err();
    assert_eq!((hidden.code, hidden.field.as_deref()), (ErrorCode::NotFound, Some("project")));
    assert!(search(&eve, "stripe", None, None, 10).unwrap().is_empty());
    assert!(eve.projects().unwrap().is_empty());
    assert_eq!(eve.set_member("billing", "Eve", Role::Member).unwrap_err().code, ErrorCode::NotFound);

    // Bob as a viewer reads and searches, and his write is refused, naming who can help.
    ada.set_member("billing", "Bob", Role::Viewer).unwrap();
    assert_eq!(list(&bob, "billing", &ListQuery::default()).unwrap().entries.len(), 1);
    assert_eq!(search(&bob, "stripe", None, None, 10).unwrap().len(), 1);
    let refused = remember(&bob, "billing", &note("note", "viewers cannot write"), None).unwrap_err();
    assert_eq!((refused.code, refused.field.as_deref()), (ErrorCode::Forbidden, Some("project")));
    assert!(refused.message.contains("viewer") && refused.message.contains("Ada"), "{}", refused.message);
    assert_eq!(list(&ada, "billing", &ListQuery::default()).unwrap().entries.len(), 1, "nothing written");
    assert_eq!(bob.set_member("billing", "Eve", Role::Member).unwrap_err().code, ErrorCode::Forbidden);
    assert!(
        matches!(bob.set_member("nobody-here", "Eve", Role::Member), Err(e) if e.code == ErrorCode::NotFound)
    );
    assert_eq!(ada.set_member("billing", "Zed", Role::Member).unwrap_err().field.as_deref(), Some("person"));

    // As a member he writes; the entry says who wrote it.
    ada.set_member("billing", "Bob", Role::Member).unwrap();
    let by_bob = remember(&bob, "billing", &note("note", "retries back off exponentially"), None).unwrap();
    assert_eq!(by_bob.written_by.as_deref(), Some("Bob"));
    assert_eq!(bob.set_status("billing", ProjectStatus::Archived).unwrap_err().code, ErrorCode::Forbidden);
    assert_eq!(bob.delete_project("billing").unwrap_err().code, ErrorCode::Forbidden);

    // Handoff: Bob owns it, Ada stays a member and can no longer delete.
    assert_eq!(bob.handoff("billing", "Ada").unwrap_err().code, ErrorCode::Forbidden);
    ada.handoff("billing", "Bob").unwrap();
    let seen = bob.project("billing").unwrap();
    assert_eq!((seen.role, seen.owner.as_deref()), (Role::Owner, Some("Bob")));
    assert_eq!(ada.project("billing").unwrap().role, Role::Member);
    let denied = ada.delete_project("billing").unwrap_err();
    assert_eq!(denied.code, ErrorCode::Forbidden);
    assert!(denied.message.contains("Bob"), "{}", denied.message);
    let events = bob.events("billing").unwrap();
    let handed = events.iter().find(|e| e.kind == "handed_off").expect("a handoff event");
    assert_eq!((handed.detail["from"].as_str(), handed.detail["to"].as_str()), (Some("Ada"), Some("Bob")));
    assert_eq!(handed.detail["by"], "Ada", "events carry the person");
    let added: Vec<_> =
        events.iter().filter(|e| e.kind == "memory_added").map(|e| e.detail["by"].clone()).collect();
    assert_eq!(added, ["Ada", "Bob"]);

    // The new owner archives: read-only for everyone, readable still.
    bob.set_status("billing", ProjectStatus::Archived).unwrap();
    assert!(
        remember(&ada, "billing", &note("note", "too late"), None).unwrap_err().message.contains("read-only")
    );
    assert_eq!(list(&ada, "billing", &ListQuery::default()).unwrap().entries.len(), 2);
    bob.delete_project("billing").unwrap();
    assert_eq!(ada.project("billing").unwrap_err().code, ErrorCode::NotFound);
}

#[test]
fn writers_on_two_machines_lose_no_update() {
    let pg = Postgres::start();
    let url = pg.fresh_db();
    let ada = Arc::new(PgStore::connect(&url, Some(PASSWORD), "Ada").unwrap());
    let bob = Arc::new(PgStore::connect(&url, Some(PASSWORD), "Bob").unwrap());
    ada.create_project(project("Billing")).unwrap();
    ada.set_member("billing", "Bob", Role::Member).unwrap();
    let blocker = remember(&*ada, "billing", &note("blocker", "waiting on the bank"), None).unwrap();

    let writers: Vec<_> = [ada.clone(), bob.clone()]
        .into_iter()
        .enumerate()
        .map(|(w, store)| {
            std::thread::spawn(move || {
                let mut ids = Vec::new();
                for i in 0..100 {
                    let e =
                        remember(&*store, "billing", &note("note", &format!("writer {w} note {i}")), None)
                            .unwrap();
                    ids.push(e.id);
                }
                // Both resolve the same blocker at once: exactly one wins.
                let resolved = resolve_blocker(&*store, "billing", blocker.id, Some(&format!("writer {w}")));
                (ids, resolved)
            })
        })
        .collect();
    // Meanwhile both lock versions of one context topic: every lock gets its own version.
    let lockers: Vec<_> = [ada.clone(), bob.clone()]
        .into_iter()
        .map(|store| {
            std::thread::spawn(move || {
                (0..50)
                    .map(|i| {
                        mooring_core::memory::locks::lock(
                            &*store,
                            "billing",
                            "api",
                            &format!("take {i}"),
                            &[],
                            None,
                        )
                        .unwrap()
                        .version
                    })
                    .collect::<Vec<i64>>()
            })
        })
        .collect();
    let mut versions: Vec<i64> = lockers.into_iter().flat_map(|t| t.join().unwrap()).collect();
    versions.sort_unstable();
    assert_eq!(versions, (1..=100).collect::<Vec<i64>>(), "no version lost or given twice");
    let results: Vec<_> = writers.into_iter().map(|t| t.join().unwrap()).collect();
    let acknowledged: Vec<i64> = results.iter().flat_map(|(ids, _)| ids.clone()).collect();
    let won = results.iter().filter(|(_, r)| r.is_ok()).count();
    assert_eq!(won, 1, "one resolution wins");
    let lost = results.iter().find_map(|(_, r)| r.as_ref().err()).unwrap();
    assert_eq!(lost.code, ErrorCode::Conflict, "{}", lost.message);

    let mut stored = Vec::new();
    let mut before = None;
    loop {
        let page =
            list(&*bob, "billing", &ListQuery { limit: Some(200), before, ..Default::default() }).unwrap();
        stored.extend(page.entries.iter().map(|e| e.id));
        match page.next_before {
            Some(b) => before = Some(b),
            None => break,
        }
    }
    assert_eq!(stored.len(), 201);
    assert!(acknowledged.iter().all(|id| stored.contains(id)), "every acknowledged write is there");
}

#[test]
fn an_outage_is_named_local_work_goes_on_and_service_resumes_by_itself() {
    let pg = Postgres::start();
    let url = pg.fresh_db();
    let team = PgStore::connect(&url, Some(PASSWORD), "Ada").unwrap();
    team.create_project(project("Billing")).unwrap();
    let kept = remember(&team, "billing", &note("decision", "kept across the outage"), None).unwrap();
    let local = mooring_core::Store::open_in_memory().unwrap();
    mooring_core::Registry::new(&local).create(project("Notes")).unwrap();

    pg.stop();
    let err = remember(&team, "billing", &note("note", "during the outage"), None).unwrap_err();
    assert_eq!(err.code, ErrorCode::Unavailable, "{}", err.message);
    assert!(err.message.contains("unreachable since"), "{}", err.message);
    assert!(err.message.contains("local projects keep working"), "{}", err.message);
    assert!(team.down_since().is_some());
    let again = list(&team, "billing", &ListQuery::default()).unwrap_err();
    assert_eq!(again.code, ErrorCode::Unavailable);
    remember(&local, "notes", &note("note", "local work goes on"), None).unwrap();

    pg.restart();
    let after = remember(&team, "billing", &note("note", "after the outage"), None).unwrap();
    assert!(after.id > kept.id);
    assert_eq!(team.down_since(), None);
    let contents: Vec<String> = list(&team, "billing", &ListQuery::default())
        .unwrap()
        .entries
        .into_iter()
        .map(|e| e.content)
        .collect();
    assert_eq!(contents, ["after the outage", "kept across the outage"], "nothing lost, nothing queued");
}

#[test]
fn changes_are_announced_to_other_machines_and_resume_after_an_outage() {
    use mooring_team::listen::Announcement;
    use std::time::{Duration, Instant};
    let pg = Postgres::start();
    let url = pg.fresh_db();
    let ada = PgStore::connect(&url, Some(PASSWORD), "Ada").unwrap();
    let bob = PgStore::connect(&url, Some(PASSWORD), "Bob").unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<Announcement>();
    let tx = std::sync::Mutex::new(tx);
    bob.listen(Arc::new(move |c| {
        let _ = tx.lock().unwrap().send(c);
    }));
    let wait_for = |want: &dyn Fn(&Announcement) -> bool| {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let change = rx.recv_timeout(left).expect("the change was announced");
            if want(&change) {
                return;
            }
        }
    };
    // Listening begins with a resync: from then on every change is announced.
    wait_for(&|c| c.is_resync() && c.changes_projects());
    ada.create_project(project("Billing")).unwrap();
    wait_for(&|c| c.project == "billing" && c.kind == "created" && c.changes_projects());
    ada.set_member("billing", "Bob", Role::Member).unwrap();
    remember(&ada, "billing", &note("decision", "announced"), None).unwrap();
    wait_for(&|c| c.project == "billing" && c.kind == "memory_added" && !c.changes_projects());

    pg.stop();
    pg.restart();
    // Announcements resume by themselves once the database is back, after a resync
    // (what changed while nobody listened is read again).
    wait_for(&|c| c.is_resync());
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        remember(&ada, "billing", &note("note", "after the restart"), None).unwrap();
        if let Ok(c) = rx.recv_timeout(Duration::from_millis(500))
            && c.kind == "memory_added"
        {
            break;
        }
        assert!(Instant::now() < deadline, "announcements did not resume");
    }
}

#[test]
fn a_refresh_writes_only_what_the_team_changed() {
    let pg = Postgres::start();
    let ada = PgStore::connect(&pg.fresh_db(), Some(PASSWORD), "Ada").unwrap();
    ada.create_project(project("Billing")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let local = mooring_core::Store::open_in(dir.path()).unwrap();
    let first = mooring_team::sync::refresh(&local, &ada).unwrap();
    assert_eq!(first.added, ["billing"]);
    let stamp = || mooring_core::Registry::new(&local).get("billing").unwrap().updated_at;
    let before = stamp();
    std::thread::sleep(std::time::Duration::from_millis(5));
    let again = mooring_team::sync::refresh(&local, &ada).unwrap();
    assert_eq!(again, mooring_team::sync::Synced::default());
    assert_eq!(stamp(), before, "nothing new, nothing written");
    ada.set_status("billing", ProjectStatus::Paused).unwrap();
    mooring_team::sync::refresh(&local, &ada).unwrap();
    assert_eq!(mooring_core::Registry::new(&local).get("billing").unwrap().status, ProjectStatus::Paused);
}
