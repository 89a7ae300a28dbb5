//! The code-path watcher on a real file system: rename, move, delete, recreate, move
//! back, symlinks, vanished and unreadable parents. After each operation, resolution from
//! a subdirectory (through the same in-memory index the server uses) gives the expected
//! project, or none.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use mooring_core::projects::live_index::LiveIndex;
use mooring_core::projects::watch::PathWatcher;
use mooring_core::{NewProject, PathState, Registry, Store};

/// Generous for a loaded 2-core CI machine; the bench measures the real delay.
const BOUND: Duration = Duration::from_secs(3);

struct World {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    store: Arc<Store>,
    live: LiveIndex,
    /// How many events project `api` had when the change callback last ran.
    heard: Arc<AtomicUsize>,
    watcher: Option<PathWatcher>,
}

impl World {
    fn new() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(tmp.path()).unwrap();
        let store = Arc::new(Store::open_in(&root.join("data")).unwrap());
        Self {
            _tmp: tmp,
            root,
            store,
            live: LiveIndex::new(),
            heard: Arc::new(AtomicUsize::new(0)),
            watcher: None,
        }
    }

    fn dir(&self, rel: &str) -> PathBuf {
        let p = self.root.join(rel);
        std::fs::create_dir_all(&p).unwrap();
        p
    }

    fn project(&self, name: &str, paths: &[&Path]) {
        let new = NewProject {
            name: name.into(),
            code_paths: paths.iter().map(|p| p.display().to_string()).collect(),
            ..NewProject::default()
        };
        Registry::new(&self.store).create(new).unwrap();
    }

    fn start(&mut self) {
        let (heard, store) = (self.heard.clone(), self.store.clone());
        // What the callback promises: it runs after every recorded change, so the
        // surfaces it refreshes see the latest state (one call may cover several changes).
        let on_change = Box::new(move || {
            let events = Registry::new(&store).events("api").map(|e| e.len()).unwrap_or(0);
            heard.fetch_max(events, Ordering::Relaxed);
        });
        self.watcher = Some(PathWatcher::start(self.store.clone(), on_change).unwrap());
    }

    fn resolves(&self, path: &Path) -> Option<String> {
        let canonical = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        self.live.get(&self.store).unwrap().index.match_path(&canonical).map(|h| h.slug)
    }

    /// Wait until `path` resolves to `want`.
    fn expect(&self, path: &Path, want: Option<&str>, what: &str) {
        let deadline = Instant::now() + BOUND;
        loop {
            let got = self.resolves(path);
            if got.as_deref() == want {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "{what}: {} resolves to {got:?}, expected {want:?}",
                path.display()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Wait until the project's code paths are exactly these (path, state).
    fn expect_paths(&self, slug: &str, want: &[(&Path, PathState)], what: &str) {
        let deadline = Instant::now() + BOUND;
        loop {
            let p = Registry::new(&self.store).get(slug).unwrap();
            let got: Vec<(String, PathState)> =
                p.code_paths.iter().map(|c| (c.path.clone(), c.state)).collect();
            let want: Vec<(String, PathState)> =
                want.iter().map(|(p, s)| (p.display().to_string(), *s)).collect();
            if got == want {
                return;
            }
            assert!(Instant::now() < deadline, "{what}: {slug} has {got:?}, expected {want:?}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn events(&self, slug: &str) -> Vec<String> {
        Registry::new(&self.store).events(slug).unwrap().into_iter().map(|e| e.kind).collect()
    }
}

#[test]
fn rename_move_delete_recreate_and_move_back() {
    let mut w = World::new();
    let api = w.dir("src/api");
    w.dir("src/api/sub/deep");
    let other = w.dir("work/other");
    w.project("Api", &[&api]);
    w.project("Other", &[&other]);
    w.start();
    w.expect(&api.join("sub/deep"), Some("api"), "before anything moved");

    // Renamed within its parent: the code path follows.
    let renamed = w.root.join("src/api-v2");
    std::fs::rename(&api, &renamed).unwrap();
    w.expect(&renamed.join("sub/deep"), Some("api"), "renamed in its parent");
    w.expect_paths("api", &[(&renamed, PathState::Present)], "renamed");

    // Moved into another watched directory (the parent of another project's path).
    let moved = w.root.join("work/api");
    std::fs::rename(&renamed, &moved).unwrap();
    w.expect(&moved.join("sub"), Some("api"), "moved into another watched directory");

    // Deleted: missing, and nothing resolves there.
    std::fs::remove_dir_all(&moved).unwrap();
    w.expect_paths("api", &[(&moved, PathState::Missing)], "deleted");
    assert_eq!(w.resolves(&moved), None);

    // Recreated (cloned again): present again.
    std::fs::create_dir_all(moved.join("sub")).unwrap();
    w.expect_paths("api", &[(&moved, PathState::Present)], "recreated");
    w.expect(&moved.join("sub"), Some("api"), "recreated");

    // Moved out of sight, then back.
    let away = w.dir("elsewhere/deeper");
    std::fs::rename(&moved, away.join("api")).unwrap();
    w.expect_paths("api", &[(&moved, PathState::Missing)], "moved out of sight");
    std::fs::rename(away.join("api"), &moved).unwrap();
    w.expect_paths("api", &[(&moved, PathState::Present)], "moved back");
    w.expect(&moved.join("sub"), Some("api"), "moved back");

    let events = w.events("api");
    for kind in ["path_moved", "path_missing", "path_restored"] {
        assert!(events.iter().any(|k| k == kind), "no {kind} event in {events:?}");
    }
    assert_eq!(events.iter().filter(|k| *k == "path_moved").count(), 2, "{events:?}");
    // The callback runs just after each batch commits, so the last one can trail the
    // state the test saw in the database: wait for it (bounded) instead of racing it.
    let deadline = std::time::Instant::now() + BOUND;
    while w.heard.load(Ordering::Relaxed) < events.len() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(w.heard.load(Ordering::Relaxed), events.len(), "no change callback after the last change");
    // The other project was never disturbed.
    w.expect(&other, Some("other"), "bystander");
}

#[test]
fn symlinked_code_path_follows_its_target() {
    let mut w = World::new();
    let real = w.dir("real/app");
    let link = w.root.join("link-to-app");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    w.project("App", &[&link]);
    w.start();
    // Stored canonical: the target.
    w.expect_paths("app", &[(&real, PathState::Present)], "registered through a symlink");
    let renamed = w.root.join("real/app-renamed");
    std::fs::rename(&real, &renamed).unwrap();
    w.expect(&renamed, Some("app"), "target renamed");
}

#[test]
fn parent_removed_then_restored_and_registered_while_missing() {
    let mut w = World::new();
    let proj = w.dir("outer/mid/proj");
    let later = w.root.join("future/checkout");
    w.project("Proj", &[&proj]);
    w.project("Later", &[&later]);
    w.start();
    w.expect_paths("later", &[(&later, PathState::Missing)], "registered while missing");

    std::fs::remove_dir_all(w.root.join("outer/mid")).unwrap();
    w.expect_paths("proj", &[(&proj, PathState::Missing)], "parent removed");
    std::fs::create_dir_all(&proj).unwrap();
    w.expect_paths("proj", &[(&proj, PathState::Present)], "parent and path back");
    w.expect(&proj, Some("proj"), "back");

    std::fs::create_dir_all(later.join("src")).unwrap();
    w.expect_paths("later", &[(&later, PathState::Present)], "created after registration");
    w.expect(&later.join("src"), Some("later"), "created after registration");
}

#[test]
fn nested_code_paths_follow_a_renamed_outer_directory() {
    let mut w = World::new();
    let mono = w.dir("mono");
    let svc = w.dir("mono/services/billing");
    w.project("Mono", &[&mono]);
    w.project("Billing", &[&svc]);
    w.start();
    let renamed = w.root.join("monorepo");
    std::fs::rename(&mono, &renamed).unwrap();
    w.expect(&renamed, Some("mono"), "outer renamed");
    let inner = renamed.join("services/billing");
    w.expect(&inner, Some("billing"), "the inner code path went along");
    w.expect_paths("billing", &[(&inner, PathState::Present)], "inner followed");
    std::fs::rename(&renamed, &mono).unwrap();
    w.expect(&mono, Some("mono"), "outer moved back");
    w.expect(&svc, Some("billing"), "inner moved back too");
}

#[test]
fn unreadable_parent_does_not_stop_the_watcher() {
    use std::os::unix::fs::PermissionsExt;
    let mut w = World::new();
    let locked = w.dir("locked/proj");
    let free = w.dir("free/proj");
    w.project("Locked", &[&locked]);
    w.project("Free", &[&free]);
    std::fs::set_permissions(w.root.join("locked"), std::fs::Permissions::from_mode(0o000)).unwrap();
    w.start();
    let moved = w.root.join("free/proj-2");
    std::fs::rename(&free, &moved).unwrap();
    w.expect(&moved, Some("free"), "a move elsewhere is still followed");
    std::fs::set_permissions(w.root.join("locked"), std::fs::Permissions::from_mode(0o755)).unwrap();
    w.expect(&locked, Some("locked"), "readable again");
}

#[test]
fn a_thousand_paths_under_fifty_parents_use_at_most_1050_watches() {
    let mut w = World::new();
    let mut all = Vec::new();
    for i in 0..1000 {
        all.push(w.dir(&format!("repos/g{}/p{i}", i % 50)));
    }
    // One transaction per project would be slow to set up; the registry takes them one
    // at a time either way.
    for (i, p) in all.iter().enumerate() {
        w.project(&format!("P {i}"), &[p]);
    }
    w.start();
    let n = w.watcher.as_ref().unwrap().watch_count();
    assert!(n <= 1050, "{n} watches");
    assert_eq!(n, 1050, "each path and each shared parent once");
}
