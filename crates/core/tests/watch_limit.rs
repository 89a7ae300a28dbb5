//! The kernel's inotify watch limit: the watcher says so once and resolution goes on.
//! Needs root (it lowers fs.inotify.max_user_watches for a moment and restores it).
//! Elsewhere it says why it did not run and passes — except under CI (`CI` set), where a
//! test that did not run is a failure, not a quiet pass. Alone in its test binary so
//! nothing else is watching while the limit is low.

use std::sync::Arc;

use mooring_core::projects::live_index::LiveIndex;
use mooring_core::projects::watch::PathWatcher;
use mooring_core::{NewProject, Registry, Store};

const KNOB: &str = "/proc/sys/fs/inotify/max_user_watches";

/// Say why the test could not run: a failure under CI, a note elsewhere.
fn cannot_run(why: &str) {
    assert!(std::env::var_os("CI").is_none(), "not run under CI: {why}");
    eprintln!("skipped: {why}");
}

struct Restore(String);

impl Drop for Restore {
    fn drop(&mut self) {
        let _ = std::fs::write(KNOB, &self.0);
    }
}

#[test]
fn the_watch_limit_is_reported_and_resolution_goes_on() {
    let Ok(before) = std::fs::read_to_string(KNOB) else {
        return cannot_run(&format!("no {KNOB} on this system"));
    };
    let tmp = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(tmp.path()).unwrap();
    let store = Arc::new(Store::open_in(&root.join("data")).unwrap());
    let mut dirs = Vec::new();
    for i in 0..300 {
        let d = root.join(format!("g{i}/p{i}"));
        std::fs::create_dir_all(&d).unwrap();
        let new = NewProject {
            name: format!("P {i}"),
            code_paths: vec![d.display().to_string()],
            ..NewProject::default()
        };
        Registry::new(&store).create(new).unwrap();
        dirs.push(d);
    }
    if std::fs::write(KNOB, "100").is_err() {
        return cannot_run(&format!("lowering {KNOB} needs root"));
    }
    let _restore = Restore(before.trim().to_owned());
    let watcher = PathWatcher::start(store.clone(), Box::new(|| {})).unwrap();
    drop(_restore);
    assert!(watcher.limit_reached(), "the limit was not noticed");
    assert!(watcher.watch_count() < 600, "{} watches", watcher.watch_count());
    let live = LiveIndex::new();
    let snap = live.get(&store).unwrap();
    for (i, d) in dirs.iter().enumerate() {
        assert_eq!(snap.index.match_path(&d.join("src")).map(|h| h.slug), Some(format!("p-{i}")));
    }
    assert!(
        mooring_core::projects::watch::limit_message().contains("sudo sysctl fs.inotify.max_user_watches=")
    );
}
