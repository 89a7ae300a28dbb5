use super::*;

struct Fixture {
    _dir: tempfile::TempDir,
    root: PathBuf,
    index: ProjectIndex,
}

/// /a (alpha), /a/b (beta, nested), /ab (gamma), /old (archived)
fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    for d in ["a/b/c/d", "ab/x", "old", "gone-parent"] {
        std::fs::create_dir_all(root.join(d)).unwrap();
    }
    let mut index = ProjectIndex::default();
    index.add_project("alpha", ProjectStatus::Active);
    index.add_project("beta", ProjectStatus::Paused);
    index.add_project("gamma", ProjectStatus::Active);
    index.add_project("old", ProjectStatus::Archived);
    index.add_path(root.join("a"), "alpha", PathState::Present);
    index.add_path(root.join("a/b"), "beta", PathState::Present);
    index.add_path(root.join("ab"), "gamma", PathState::Present);
    index.add_path(root.join("old"), "old", PathState::Present);
    Fixture { _dir: dir, root, index }
}

fn path(f: &Fixture, rel: &str) -> Option<String> {
    Some(f.root.join(rel).to_str().unwrap().to_owned())
}

#[test]
fn nothing_given_is_pending_with_all_levels_listed() {
    let f = fixture();
    let r = resolve(&f.index, &Hints::default());
    assert_eq!(r.project, None);
    assert_eq!(r.decided_by, None);
    assert_eq!(r.levels.len(), 9);
    assert!(r.levels.iter().all(|l| l.outcome == Outcome::NotGiven && !l.decided));
    assert_eq!(r.levels.iter().map(|l| l.rank).collect::<Vec<_>>(), [1, 2, 3, 4, 5, 6, 7, 8, 9]);
}

#[test]
fn deepest_code_path_wins() {
    let f = fixture();
    let r = resolve(&f.index, &Hints { cwd: path(&f, "a/b/c/d"), ..Hints::default() });
    assert_eq!(r.project.as_deref(), Some("beta"));
    assert_eq!(r.decided_by, Some(Level::Cwd));
    let r = resolve(&f.index, &Hints { cwd: path(&f, "a"), ..Hints::default() });
    assert_eq!(r.project.as_deref(), Some("alpha"));
}

#[test]
fn matching_is_by_whole_components() {
    let f = fixture();
    // /ab must not match /a, and /abx must match nothing.
    let r = resolve(&f.index, &Hints { cwd: path(&f, "ab/x"), ..Hints::default() });
    assert_eq!(r.project.as_deref(), Some("gamma"));
    let r = resolve(&f.index, &Hints { cwd: path(&f, "abx"), ..Hints::default() });
    assert_eq!(r.project, None);
    assert_eq!(r.levels[5].outcome, Outcome::NoMatch);
}

#[test]
fn each_level_decides_when_it_is_the_highest_given() {
    let mut f = fixture();
    f.index.add_remote("https://host.example/me/gamma.git", "gamma");
    let all = Hints {
        explicit: Some("gamma".into()),
        session: Some("beta".into()),
        workspace: path(&f, "a"),
        env_project: Some("gamma".into()),
        roots: vec![format!("file://{}", f.root.join("a/b").display())],
        cwd: path(&f, "ab"),
        focus: Some("alpha".into()),
        // A worktree (anywhere) of the checkout at /a/b, cloned from gamma's repository.
        git: Some(GitFacts {
            checkout: f.root.join("elsewhere/wt"),
            main_checkout: Some(f.root.join("a/b")),
            remote_url: Some("git@host.example:me/gamma.git".into()),
            remote_key: normalize_remote("git@host.example:me/gamma.git"),
            branch: None,
        }),
    };
    let expect = [
        (Level::Explicit, "gamma"),
        (Level::Session, "beta"),
        (Level::Workspace, "alpha"),
        (Level::Env, "gamma"),
        (Level::Roots, "beta"),
        (Level::Cwd, "gamma"),
        (Level::GitWorktree, "beta"),
        (Level::GitRemote, "gamma"),
        (Level::Focus, "alpha"),
    ];
    let mut hints = all;
    for (level, slug) in expect {
        let r = resolve(&f.index, &hints);
        assert_eq!(r.decided_by, Some(level));
        assert_eq!(r.project.as_deref(), Some(slug), "{level:?}");
        assert_eq!(r.levels.iter().filter(|l| l.decided).count(), 1);
        // Remove this level's input so the next one down decides.
        match level {
            Level::Explicit => hints.explicit = None,
            Level::Session => hints.session = None,
            Level::Workspace => hints.workspace = None,
            Level::Env => hints.env_project = None,
            Level::Roots => hints.roots.clear(),
            Level::Cwd => hints.cwd = None,
            Level::GitWorktree => hints.git.as_mut().unwrap().main_checkout = None,
            Level::GitRemote => hints.git = None,
            Level::Focus => hints.focus = None,
        }
    }
}

#[test]
fn lower_levels_still_report_what_they_saw() {
    let f = fixture();
    let r =
        resolve(&f.index, &Hints { explicit: Some("alpha".into()), cwd: path(&f, "ab"), ..Hints::default() });
    let cwd = &r.levels[5];
    assert_eq!(cwd.outcome, Outcome::Matched);
    assert_eq!(cwd.project.as_deref(), Some("gamma"));
    assert!(!cwd.decided);
}

#[test]
fn unknown_and_archived_projects_are_rejected_and_fall_through() {
    let f = fixture();
    let r = resolve(
        &f.index,
        &Hints {
            explicit: Some("nope".into()),
            session: Some("old".into()),
            focus: Some("alpha".into()),
            ..Hints::default()
        },
    );
    assert_eq!(r.levels[0].outcome, Outcome::Rejected);
    assert!(r.levels[1].detail.contains("archived"));
    assert_eq!(r.decided_by, Some(Level::Focus));
    let r = resolve(&f.index, &Hints { cwd: path(&f, "old"), ..Hints::default() });
    assert_eq!(r.project, None, "archived code paths never decide");
}

#[test]
fn disagreeing_roots_are_ambiguous() {
    let f = fixture();
    let r = resolve(
        &f.index,
        &Hints { roots: vec![path(&f, "a/b").unwrap(), path(&f, "ab").unwrap()], ..Hints::default() },
    );
    assert_eq!(r.levels[4].outcome, Outcome::Ambiguous);
    assert_eq!(r.levels[4].candidates, ["beta", "gamma"]);
    assert_eq!(r.project, None);
}

#[test]
fn bad_paths_are_rejected_with_a_reason() {
    let f = fixture();
    let r = resolve(&f.index, &Hints { workspace: Some("relative/dir".into()), ..Hints::default() });
    assert_eq!(r.levels[2].outcome, Outcome::Rejected);
    assert!(r.levels[2].detail.contains("relative"));
}

#[test]
fn symlinked_working_directories_resolve_to_their_target() {
    let f = fixture();
    let link = f.root.join("link-to-b");
    std::os::unix::fs::symlink(f.root.join("a/b/c"), &link).unwrap();
    let r = resolve(&f.index, &Hints { cwd: Some(link.to_str().unwrap().into()), ..Hints::default() });
    assert_eq!(r.project.as_deref(), Some("beta"));
}

#[test]
fn missing_paths_only_match_when_the_directory_is_back() {
    let mut f = fixture();
    f.index.add_path(f.root.join("gone-parent/never"), "gamma", PathState::Missing);
    f.index.add_path(f.root.join("gone-parent"), "alpha", PathState::Missing);
    let r = resolve(&f.index, &Hints { cwd: path(&f, "gone-parent/never/deeper"), ..Hints::default() });
    assert_eq!(r.project, None, "a path that does not exist cannot prove its parent exists");
    let r = resolve(&f.index, &Hints { cwd: path(&f, "gone-parent"), ..Hints::default() });
    assert_eq!(r.project.as_deref(), Some("alpha"));
}

#[test]
fn a_skipped_missing_code_path_is_explained() {
    let mut f = fixture();
    f.index.add_path(f.root.join("moved-away"), "gamma", PathState::Missing);
    let r = resolve(&f.index, &Hints { cwd: path(&f, "moved-away/src"), ..Hints::default() });
    assert_eq!(r.project, None);
    let detail = &r.levels[5].detail;
    assert!(detail.contains("was skipped because it is missing"), "{detail}");
    assert!(detail.contains("of 'gamma'"), "{detail}");
}

#[test]
fn a_remote_shared_by_two_projects_is_ambiguous_and_archived_ones_do_not_count() {
    let mut f = fixture();
    f.index.add_remote("https://host.example/me/app", "alpha");
    f.index.add_remote("git@host.example:me/app.git", "gamma");
    f.index.add_remote("https://host.example/me/app", "old");
    let git = GitFacts {
        checkout: f.root.join("clone"),
        main_checkout: None,
        remote_url: Some("ssh://git@HOST.example/me/app/".into()),
        remote_key: normalize_remote("ssh://git@HOST.example/me/app/"),
        branch: None,
    };
    let r = resolve(&f.index, &Hints { git: Some(git), ..Hints::default() });
    assert_eq!(r.project, None);
    let remote = r.levels.iter().find(|l| l.level == Level::GitRemote).unwrap();
    assert_eq!(remote.outcome, Outcome::Ambiguous);
    assert_eq!(remote.candidates, ["alpha", "gamma"]);
}

#[test]
fn a_worktree_of_a_checkout_in_no_project_says_so() {
    let f = fixture();
    let git = GitFacts {
        checkout: f.root.join("wt"),
        main_checkout: Some(f.root.join("nowhere")),
        ..GitFacts::default()
    };
    let r = resolve(&f.index, &Hints { git: Some(git), ..Hints::default() });
    let wt = r.levels.iter().find(|l| l.level == Level::GitWorktree).unwrap();
    assert_eq!(wt.outcome, Outcome::NoMatch);
    assert!(wt.detail.contains("worktree of") && wt.detail.contains("nowhere"), "{}", wt.detail);
}
