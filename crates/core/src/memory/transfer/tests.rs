use super::*;
use crate::memory::handover::{HandoverInput, save};
use crate::memory::locks::lock;
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

    // A captured session (from a transcript recorded from Claude Code) travels too.
    let transcript = tmp.path().join("t.jsonl");
    std::fs::write(&transcript, include_str!("../../../tests/fixtures/claude-code-2.1.330-work.jsonl"))
        .unwrap();
    let turn = crate::capture::Turn {
        cwd: Some("/tmp/rec/work"),
        ..crate::capture::Turn::new(mooring_clients::Client::ClaudeCode, "s3", &transcript)
    };
    crate::capture::capture(&a, "leader-election", &turn).unwrap();

    let first = tmp.path().join("first");
    export(&a, "leader-election", &first).unwrap();
    let sessions = std::fs::read_to_string(first.join("sessions.md")).unwrap();
    assert!(
        sessions.contains("created retry.py") && sessions.contains("Document the retry policy"),
        "{sessions}"
    );
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
    assert_eq!(crate::memory::handover::last(&b_store, "leader-election").unwrap().unwrap().files, ["f.rs"]);
    let q = crate::memory::ListQuery { kind: Some("session".into()), ..Default::default() };
    let imported = crate::memory::list(&b_store, "leader-election", &q).unwrap().entries;
    assert_eq!(imported.len(), 1);
    assert!(imported[0].content.contains("Add a retry helper"), "{}", imported[0].content);
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

#[test]
fn an_imported_folder_carrying_secrets_is_stored_redacted() {
    let tmp = tempfile::tempdir().unwrap();
    let a = Store::open_in_memory().unwrap();
    Registry::new(&a).create(NewProject { name: "Billing".into(), ..Default::default() }).unwrap();
    let n = NewEntry { kind: "decision".into(), content: "Use Stripe".into(), ..Default::default() };
    remember(&a, "billing", &n, None).unwrap();
    lock(&a, "billing", "keys", "see vault", &[], None).unwrap();
    let out = tmp.path().join("billing");
    export(&a, "billing", &out).unwrap();
    // Someone pastes secrets into the exported files before they are imported elsewhere.
    let key = format!("{}{}", "sk_live_", "51H8sKdLkP3jQ9rT2vW4xY6zA8bC0dE");
    let token = format!("{}{}", "ghp_", "aB3dE5fG7haB3dE5fG7haB3dE5fG7haB3dE5");
    for (file, secret) in [("decisions.md", &key), ("locks.md", &token)] {
        let path = out.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(
            &path,
            text.replace("Use Stripe", &format!("Use Stripe {secret}"))
                .replace("see vault", &format!("see vault {secret}")),
        )
        .unwrap();
    }
    let b = Store::open_in_memory().unwrap();
    import(&b, &out).unwrap();
    let page = crate::memory::list(&b, "billing", &Default::default()).unwrap();
    let all = serde_json::to_string(&page).unwrap()
        + &serde_json::to_string(&crate::memory::locks::read(&b, "billing", "keys", None).unwrap()).unwrap();
    assert!(!all.contains(&key) && !all.contains(&token), "{all}");
    assert!(all.contains("[redacted:stripe-access-token]") && all.contains("[redacted:github-pat]"), "{all}");
}

#[test]
fn a_supersede_link_survives_export_and_import_pointing_at_the_imported_entry() {
    let tmp = tempfile::tempdir().unwrap();
    let a = Store::open_in_memory().unwrap();
    Registry::new(&a).create(NewProject { name: "Billing".into(), ..Default::default() }).unwrap();
    let n =
        |content: &str| NewEntry { kind: "decision".into(), content: content.into(), ..Default::default() };
    // A forgotten entry first, so the ids of the store imported into differ.
    let gone = remember(&a, "billing", &n("A draft"), None).unwrap();
    forget(&a, "billing", gone.id).unwrap();
    let old = remember(&a, "billing", &n("Invoices go out on the first"), None).unwrap();
    let new = remember(&a, "billing", &n("Invoices go out on the fifteenth"), None).unwrap();
    crate::memory::supersede::supersede(&a, "billing", new.id, &[old.id]).unwrap();
    let out = tmp.path().join("billing");
    export(&a, "billing", &out).unwrap();

    let b = Store::open_in_memory().unwrap();
    import(&b, &out).unwrap();
    let page = crate::memory::list(&b, "billing", &Default::default()).unwrap();
    let by_content = |c: &str| page.entries.iter().find(|e| e.content == c).unwrap().clone();
    let (old_b, new_b) =
        (by_content("Invoices go out on the first"), by_content("Invoices go out on the fifteenth"));
    assert_ne!(new_b.id, new.id, "imported under other ids");
    assert_eq!(old_b.superseded_by, Some(new_b.id), "the link names the imported entry");
    assert_eq!(new_b.superseded_by, None);
}
