//! A person's own project moved into the team and kept again on leaving: memory (a
//! forgotten entry stays forgotten, a resolved blocker stays resolved), context locks and
//! history cross both ways as they were, with authors and times.

use mooring_core::memory::{ListQuery, NewEntry, forget, list, remember, resolve_blocker};
use mooring_core::{NewProject, ProjectStats, Registry, Store, memory::locks};
use mooring_team::PgStore;
use mooring_team::testing::{PASSWORD, Postgres};

fn note(kind: &str, content: &str) -> NewEntry {
    NewEntry { kind: kind.into(), content: content.into(), ..Default::default() }
}

/// Each entry's content, status, time and what supersedes it (by its content: the ids
/// differ between the stores).
fn contents(
    store: &dyn mooring_core::store::backend::MemoryBackend,
) -> Vec<(String, Option<String>, String, Option<String>)> {
    let page = list(store, "scratch", &ListQuery { limit: Some(50), ..Default::default() }).unwrap();
    let content_of = |id: i64| page.entries.iter().find(|e| e.id == id).map(|e| e.content.clone());
    page.entries
        .iter()
        .map(|e| {
            (e.content.clone(), e.status.clone(), e.created_at.clone(), e.superseded_by.and_then(content_of))
        })
        .collect()
}

#[test]
fn a_shared_project_kept_on_leaving_comes_back_whole() {
    let pg = Postgres::start();
    let ada = PgStore::connect(&pg.fresh_db(), Some(PASSWORD), "Ada").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let local = Store::open_in(dir.path()).unwrap();
    Registry::new(&local).create(NewProject { name: "Scratch".into(), ..Default::default() }).unwrap();
    remember(&local, "scratch", &note("decision", "use sqlite locally"), None).unwrap();
    let blocker = remember(&local, "scratch", &note("blocker", "flaky watcher"), None).unwrap();
    resolve_blocker(&local, "scratch", blocker.id, Some("waited for the callback")).unwrap();
    // A superseded note, its link naming this machine's id, which the team's differs from.
    let old = remember(&local, "scratch", &note("note", "retry three times"), None).unwrap();
    let gone = remember(&local, "scratch", &note("note", "a passing thought"), None).unwrap();
    let new = remember(&local, "scratch", &note("note", "retry five times"), None).unwrap();
    mooring_core::memory::supersede::supersede(&local, "scratch", new.id, &[old.id]).unwrap();
    forget(&local, "scratch", gone.id).unwrap();
    locks::lock(&local, "scratch", "api", "v1 shape", &[], None).unwrap();
    locks::lock(&local, "scratch", "api", "v2 shape", &[], None).unwrap();
    let before = contents(&local);
    assert!(before.iter().any(|c| c.0 == "retry three times" && c.3.as_deref() == Some("retry five times")));
    let local_counts = Registry::new(&local).get("scratch").unwrap().stats;

    // Shared: the team has it all, and the local copies are gone.
    let (_, moved) = ada.share(&local, "scratch").unwrap();
    assert_eq!(moved, 5, "the forgotten entry moves too, still forgotten");
    assert_eq!(contents(&ada), before);
    let api = locks::read(&ada, "scratch", "api", None).unwrap();
    assert_eq!((api.version, api.content.as_str()), (2, "v2 shape"));
    assert_eq!(locks::read(&ada, "scratch", "api", Some(1)).unwrap().content, "v1 shape");
    // The team keeps the listing's counts as SQLite does, through every kind of change.
    let counts = || ada.stats().unwrap().remove("scratch").unwrap();
    assert_eq!(counts(), local_counts);
    assert_eq!(counts(), ProjectStats { decisions: 1, open_blockers: 0, context_locks: 1, memory_total: 4 });
    remember(&ada, "scratch", &note("decision", "written in the team"), None).unwrap();
    let open = remember(&ada, "scratch", &note("blocker", "team blocker"), None).unwrap();
    let passing = remember(&ada, "scratch", &note("decision", "soon forgotten"), None).unwrap();
    locks::lock(&ada, "scratch", "schema", "s1", &[], None).unwrap();
    locks::lock(&ada, "scratch", "api", "v3 shape", &[], None).unwrap();
    assert_eq!(counts(), ProjectStats { decisions: 3, open_blockers: 1, context_locks: 2, memory_total: 7 });
    resolve_blocker(&ada, "scratch", open.id, Some("done")).unwrap();
    forget(&ada, "scratch", passing.id).unwrap();
    forget(&ada, "scratch", open.id).unwrap();
    locks::lock(&ada, "scratch", "schema", "s2", &[], None).unwrap();
    let team_counts = counts();
    assert_eq!(
        team_counts,
        ProjectStats { decisions: 2, open_blockers: 0, context_locks: 2, memory_total: 5 }
    );
    let in_team = contents(&ada);

    // Another project's entry here, so the ids kept entries get are not the team's.
    Registry::new(&local).create(NewProject { name: "Other".into(), ..Default::default() }).unwrap();
    remember(&local, "other", &note("note", "elsewhere"), None).unwrap();
    // Kept: one's own project again, as the team had it, the team's author included.
    let kept = ada.keep(&local).unwrap();
    assert_eq!(kept, [("scratch".to_owned(), 8)]);
    assert!(!mooring_team::routed::is_team(&local, "scratch").unwrap());
    assert_eq!(contents(&local), in_team);
    assert_eq!(Registry::new(&local).get("scratch").unwrap().stats, team_counts);
    let newest = list(&local, "scratch", &ListQuery::default()).unwrap().entries.remove(0);
    assert_eq!((newest.content.as_str(), newest.written_by.as_deref()), ("written in the team", Some("Ada")));
    let topics = locks::topics(&local, "scratch").unwrap();
    let mut latest: Vec<_> =
        topics.iter().map(|t| (t.topic.as_str(), t.version, t.content.as_str())).collect();
    latest.sort();
    assert_eq!(latest, [("api", 3, "v3 shape"), ("schema", 2, "s2")]);
    let kinds: Vec<String> =
        Registry::new(&local).events("scratch").unwrap().into_iter().map(|e| e.kind).collect();
    for kind in ["created", "shared", "kept_from_team"] {
        assert!(kinds.iter().any(|k| k == kind), "no {kind} in {kinds:?}");
    }
    // A new entry locally goes on from there, and the team's copy is untouched.
    remember(&local, "scratch", &note("note", "mine again"), None).unwrap();
    assert_eq!(contents(&ada), in_team);
}

#[test]
fn a_secret_kept_before_its_rule_existed_is_taken_out_on_the_way_to_the_team() {
    let pg = Postgres::start();
    let ada = PgStore::connect(&pg.fresh_db(), Some(PASSWORD), "Ada").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let local = Store::open_in(dir.path()).unwrap();
    Registry::new(&local).create(NewProject { name: "Scratch".into(), ..Default::default() }).unwrap();
    let kept = remember(&local, "scratch", &note("note", "deploy notes"), None).unwrap();
    locks::lock(&local, "scratch", "deploy", "steps", &[], None).unwrap();
    // As an older Mooring stored them: no rule for these shapes then.
    let key = format!("sk-or-v1-{}", "a1b2c3d4e5f6".repeat(5) + "abcd");
    local
        .write(|tx| {
            tx.execute(
                "UPDATE memory SET content = ?1 WHERE id = ?2",
                rusqlite::params![format!("use {key}"), kept.id],
            )?;
            tx.execute(
                "INSERT INTO context_locks (project_id, topic, version, content, created_at)
                 SELECT project_id, topic, 2, ?1, created_at FROM context_locks",
                [format!("mysql -u root -pS3cretPassw0rd {key}")],
            )?;
            tx.execute("UPDATE projects SET description = ?1", [format!("staging key {key}")])?;
            Ok(())
        })
        .unwrap();
    ada.share(&local, "scratch").unwrap();
    let team = format!(
        "{:?} {:?} {:?}",
        contents(&ada),
        locks::read(&ada, "scratch", "deploy", None).unwrap().content,
        ada.projects().unwrap()[0].project.description
    );
    assert!(!team.contains(&key) && !team.contains("S3cretPassw0rd"), "a secret reached the team: {team}");
    assert!(team.contains("[redacted:"), "{team}");
}
