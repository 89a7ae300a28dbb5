use super::*;
use crate::handover::{HandoverInput, save};
use crate::locks::lock;
use crate::memory::{NewEntry, forget, remember, resolve_blocker};
use crate::{NewProject, Registry};

fn files(dir: &Path) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (e.file_name().to_string_lossy().into_owned(), std::fs::read_to_string(e.path()).unwrap())
        })
        .collect();
    out.sort();
    out
}

#[test]
fn export_import_export_gives_the_same_files() {
    let tmp = tempfile::tempdir().unwrap();
    let code = tmp.path().join("code");
    std::fs::create_dir(&code).unwrap();
    let a = Store::open_in_memory().unwrap();
    Registry::new(&a)
        .create(NewProject {
            name: "Leader Election".into(),
            description: Some("Etcd leases.\n\nSecond paragraph with ## hashes".into()),
            code_paths: vec![code.display().to_string()],
            repo_url: Some("git@github.com:me/le.git".into()),
            ..Default::default()
        })
        .unwrap();
    let n = |kind: &str, content: &str| NewEntry {
        kind: kind.into(),
        content: content.into(),
        tags: vec!["t1".into()],
        ..Default::default()
    };
    remember(&a, "leader-election", &n("decision", "Use etcd\n\n## with a heading inside"), Some("s1"))
        .unwrap();
    let b = remember(&a, "leader-election", &n("blocker", "certs"), None).unwrap();
    resolve_blocker(&a, "leader-election", b.id, Some("arrived")).unwrap();
    remember(&a, "leader-election", &n("blocker", "still open"), None).unwrap();
    let gone = remember(&a, "leader-election", &n("note", "forget me"), None).unwrap();
    forget(&a, "leader-election", gone.id).unwrap();
    remember(&a, "leader-election", &n("summary", "half way"), None).unwrap();
    lock(&a, "leader-election", "api", "v1", &[], None).unwrap();
    lock(&a, "leader-election", "api", "v2", &["x".into()], None).unwrap();
    save(
        &a,
        "leader-election",
        &HandoverInput {
            work_done: "w".into(),
            next_steps: "n".into(),
            files: vec!["f.rs".into()],
            ..Default::default()
        },
        Some("s2"),
    )
    .unwrap();

    let first = tmp.path().join("first");
    export(&a, "leader-election", &first).unwrap();
    assert!(!std::fs::read_to_string(first.join("notes.md")).unwrap().contains("forget me"));

    let b_store = Store::open_in_memory().unwrap();
    std::fs::remove_dir(&code).unwrap();
    assert_eq!(import(&b_store, &first).unwrap(), "leader-election");
    let second = tmp.path().join("second");
    export(&b_store, "leader-election", &second).unwrap();
    assert_eq!(files(&first), files(&second));

    let p = Registry::new(&b_store).get("leader-election").unwrap();
    assert_eq!(p.stats.open_blockers, 1);
    assert_eq!(p.stats.context_locks, 1);
    assert_eq!(crate::handover::last(&b_store, "leader-election").unwrap().unwrap().files, ["f.rs"]);
    assert_eq!(import(&b_store, &first).unwrap_err().field.as_deref(), Some("slug"), "the slug is taken now");
}

#[test]
fn refuses_non_empty_targets_and_foreign_folders() {
    let tmp = tempfile::tempdir().unwrap();
    let store = Store::open_in_memory().unwrap();
    Registry::new(&store).create(NewProject { name: "A".into(), ..Default::default() }).unwrap();
    std::fs::write(tmp.path().join("x"), "x").unwrap();
    assert_eq!(export(&store, "a", tmp.path()).unwrap_err().field.as_deref(), Some("to"));
    let empty = tempfile::tempdir().unwrap();
    assert_eq!(import(&store, empty.path()).unwrap_err().field.as_deref(), Some("dir"));
    std::fs::write(empty.path().join("project.md"), "<!-- mooring {not json} -->\n## x\n").unwrap();
    assert!(import(&store, empty.path()).unwrap_err().message.contains("marker JSON"));
}
