//! Registry rules through the public API, on a real database file.

use mooring_core::{ErrorCode, NewProject, PathState, ProjectEdit, ProjectStatus, Registry, Store};

fn store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(&dir.path().join("data")).unwrap();
    (dir, store)
}

fn new(name: &str) -> NewProject {
    NewProject { name: name.into(), ..Default::default() }
}

#[test]
fn duplicate_slug_suggests_the_next_free_one() {
    let (_d, store) = store();
    let reg = Registry::new(&store);
    reg.create(new("Leader Election")).unwrap();
    let err = reg.create(new("Leader Election")).unwrap_err();
    assert_eq!(err.code, ErrorCode::Conflict);
    assert_eq!(err.field.as_deref(), Some("slug"));
    assert!(err.message.contains("leader-election-2"), "{}", err.message);
}

#[test]
fn a_path_owned_by_another_project_is_a_conflict_naming_it() {
    let (dir, store) = store();
    let code = dir.path().join("code");
    std::fs::create_dir(&code).unwrap();
    let reg = Registry::new(&store);
    reg.create(NewProject { code_paths: vec![code.display().to_string()], ..new("Alpha") }).unwrap();
    let err =
        reg.create(NewProject { code_paths: vec![code.display().to_string()], ..new("Beta") }).unwrap_err();
    assert_eq!(err.code, ErrorCode::Conflict);
    assert!(err.message.contains("'alpha'"));
    assert!(reg.get("beta").is_err(), "the failed create left nothing behind");
}

#[test]
fn several_paths_and_idempotent_re_adds() {
    let (dir, store) = store();
    let a = dir.path().join("a");
    let b = dir.path().join("b");
    std::fs::create_dir(&a).unwrap();
    let reg = Registry::new(&store);
    let created = reg
        .create(NewProject {
            code_paths: vec![a.display().to_string(), b.display().to_string(), format!("{}/", a.display())],
            ..new("Multi")
        })
        .unwrap();
    assert_eq!(created.project.code_paths.len(), 2, "the trailing-slash duplicate collapsed");
    let states: Vec<PathState> = created.project.code_paths.iter().map(|c| c.state).collect();
    assert_eq!(states, [PathState::Present, PathState::Missing]);
    assert_eq!(created.warnings.len(), 1);
    let again = reg
        .edit("multi", ProjectEdit { add_code_paths: vec![a.display().to_string()], ..Default::default() })
        .unwrap();
    assert!(again.updated_fields.is_empty());
    assert!(again.warnings[0].contains("already a code path"));
}

#[test]
fn edit_is_all_or_nothing() {
    let (_d, store) = store();
    let reg = Registry::new(&store);
    reg.create(new("Alpha")).unwrap();
    let err = reg
        .edit(
            "alpha",
            ProjectEdit {
                name: Some("Renamed".into()),
                status: Some(ProjectStatus::Paused),
                remove_code_paths: vec!["/not/a/path".into()],
                ..Default::default()
            },
        )
        .unwrap_err();
    assert_eq!(err.field.as_deref(), Some("remove_code_paths"));
    let p = reg.get("alpha").unwrap();
    assert_eq!(p.name, "Alpha");
    assert_eq!(p.status, ProjectStatus::Active);
    assert_eq!(reg.events("alpha").unwrap().len(), 1);
}

#[test]
fn archive_keeps_data_and_resume_clears_the_stamp() {
    let (_d, store) = store();
    let reg = Registry::new(&store);
    reg.create(NewProject { description: Some("keep me".into()), ..new("Alpha") }).unwrap();
    let archived = reg.archive("alpha").unwrap().project;
    assert_eq!(archived.status, ProjectStatus::Archived);
    assert!(archived.archived_at.is_some());
    assert_eq!(reg.list(Some(ProjectStatus::Active)).unwrap().len(), 0);
    let back = reg.resume("alpha").unwrap().project;
    assert_eq!(back.status, ProjectStatus::Active);
    assert_eq!(back.archived_at, None);
    assert_eq!(back.description, "keep me");
    let kinds: Vec<String> = reg.events("alpha").unwrap().into_iter().map(|e| e.kind).collect();
    assert_eq!(kinds, ["created", "archived", "resumed"]);
}

#[test]
fn focus_persists_refuses_archived_and_clears_on_delete() {
    let (dir, store) = store();
    let reg = Registry::new(&store);
    reg.create(new("Alpha")).unwrap();
    reg.create(new("Old")).unwrap();
    reg.archive("old").unwrap();
    assert_eq!(reg.set_focus("old").unwrap_err().field.as_deref(), Some("project"));
    reg.set_focus("alpha").unwrap();
    drop(reg);
    drop(store);
    let store = Store::open_in(&dir.path().join("data")).unwrap();
    let reg = Registry::new(&store);
    assert_eq!(reg.focus().unwrap().unwrap().slug, "alpha", "focus survives a restart");
    reg.delete("alpha").unwrap();
    assert!(reg.focus().unwrap().is_none());
}

#[test]
fn empty_edit_and_unknown_project_are_refused() {
    let (_d, store) = store();
    let reg = Registry::new(&store);
    assert_eq!(reg.edit("x", ProjectEdit::default()).unwrap_err().field.as_deref(), Some("edit"));
    let err = reg.get("nope").unwrap_err();
    assert_eq!(err.code, ErrorCode::NotFound);
    assert!(err.message.contains("no projects exist yet"));
}

#[test]
fn an_archived_project_is_read_only_unless_the_same_edit_brings_it_back() {
    let (dir, store) = store();
    let reg = Registry::new(&store);
    reg.create(new("Alpha")).unwrap();
    reg.edit("alpha", ProjectEdit { status: Some(ProjectStatus::Archived), ..Default::default() }).unwrap();
    let code = dir.path().join("code");
    std::fs::create_dir(&code).unwrap();
    for edit in [
        ProjectEdit { description: Some("changed while archived".into()), ..Default::default() },
        ProjectEdit { name: Some("Beta".into()), ..Default::default() },
        ProjectEdit { add_code_paths: vec![code.display().to_string()], ..Default::default() },
    ] {
        let e = reg.edit("alpha", edit).unwrap_err();
        assert_eq!((e.code, e.field.as_deref()), (ErrorCode::Conflict, Some("status")), "{}", e.message);
        assert!(e.message.contains("archived and read-only"), "{}", e.message);
    }
    let p = reg.get("alpha").unwrap();
    assert_eq!((p.description.as_str(), p.name.as_str(), p.code_paths.len()), ("", "Alpha", 0));
    let back = ProjectEdit {
        status: Some(ProjectStatus::Active),
        description: Some("back in use".into()),
        ..Default::default()
    };
    reg.edit("alpha", back).unwrap();
    assert_eq!(reg.get("alpha").unwrap().description, "back in use");
}

#[test]
fn path_errors_name_the_fields_the_api_takes() {
    let (dir, store) = store();
    let reg = Registry::new(&store);
    let code = dir.path().join("code");
    std::fs::create_dir(&code).unwrap();
    reg.create(NewProject { code_paths: vec![code.display().to_string()], ..new("Alpha") }).unwrap();
    reg.create(new("Beta")).unwrap();
    let taken = ProjectEdit { add_code_paths: vec![code.display().to_string()], ..Default::default() };
    assert_eq!(reg.edit("beta", taken).unwrap_err().field.as_deref(), Some("add_code_paths"));
    let root = ProjectEdit { add_code_paths: vec!["/".into()], ..Default::default() };
    assert_eq!(reg.edit("beta", root).unwrap_err().field.as_deref(), Some("add_code_paths"));
    let gone = ProjectEdit { remove_code_paths: vec!["/not/there".into()], ..Default::default() };
    assert_eq!(reg.edit("beta", gone).unwrap_err().field.as_deref(), Some("remove_code_paths"));
    let created = reg.create(NewProject { code_paths: vec![code.display().to_string()], ..new("Gamma") });
    assert_eq!(created.unwrap_err().field.as_deref(), Some("code_paths"));
}
