//! The code-path watcher: keeps the registry's map of directories true while people
//! rename, move, delete and re-clone repositories. It watches each code path and its
//! parent non-recursively (notify 8, inotify on Linux), debounces what happens there,
//! looks at the disk to decide what changed (see [`reconcile`]), and records it in one
//! transaction with an event per change. Resolution sees the result through
//! `registry_version` (see [`crate::projects::live_index`]).

pub mod plan;
pub mod reconcile;

use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use notify::event::{EventKind, ModifyKind};
use notify::{RecommendedWatcher, RecursiveMode, Watcher as _};
use serde_json::json;

use crate::error::{Error, Result};
use crate::model::PathState;
use crate::store::code_paths::{self, Watched};
use crate::store::{Store, events};
use reconcile::PathChange;

/// Quiet time that ends a burst of file-system events.
const SETTLE: Duration = Duration::from_millis(80);
/// Longest a burst is collected before it is handled.
const MAX_BATCH: Duration = Duration::from_millis(300);
/// How often the registry is checked for new or removed code paths.
const POLL: Duration = Duration::from_millis(400);
/// How often everything is looked at again (retries watches that failed).
const RESYNC: Duration = Duration::from_secs(30);

/// Called after the watcher changed the registry.
pub type OnChange = Box<dyn Fn() + Send + 'static>;

/// A running watcher; stops when dropped.
pub struct PathWatcher {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    watches: Arc<AtomicUsize>,
    limit: Arc<AtomicBool>,
}

impl PathWatcher {
    /// Look at every code path, set up the watches, and keep following changes on a
    /// thread of its own. Returns once the watches are in place.
    pub fn start(store: Arc<Store>, on_change: OnChange) -> Result<Self> {
        let (tx, rx) = channel();
        let watcher = notify::recommended_watcher(move |res| {
            let _ = tx.send(res);
        })
        .map_err(|e| Error::storage(format!("cannot watch code directories: {e}")))?;
        let watches = Arc::new(AtomicUsize::new(0));
        let limit = Arc::new(AtomicBool::new(false));
        let mut state = State {
            store,
            watcher,
            watched: BTreeSet::new(),
            missing: Vec::new(),
            reported: HashSet::new(),
            limit_reported: false,
            version: 0,
            on_change,
            watches: watches.clone(),
            limit: limit.clone(),
        };
        state.sync(None)?;
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let stop = stop.clone();
            std::thread::Builder::new()
                .name("mooring-watch".into())
                .spawn(move || state.run(&rx, &stop))
                .map_err(|e| Error::storage(format!("cannot start the watcher thread: {e}")))?
        };
        Ok(Self { stop, thread: Some(thread), watches, limit })
    }

    /// Directories watched now.
    pub fn watch_count(&self) -> usize {
        self.watches.load(Ordering::Relaxed)
    }

    /// Whether the system's watch limit stopped some watches (said once in the log).
    pub fn limit_reached(&self) -> bool {
        self.limit.load(Ordering::Relaxed)
    }
}

impl Drop for PathWatcher {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

struct State {
    store: Arc<Store>,
    watcher: RecommendedWatcher,
    watched: BTreeSet<PathBuf>,
    /// Code paths recorded missing; looked at on every idle tick, so a return that
    /// slipped between a removal and the new watches is still seen.
    missing: Vec<PathBuf>,
    /// Directories whose watch failed, reported once each.
    reported: HashSet<PathBuf>,
    limit_reported: bool,
    version: i64,
    on_change: OnChange,
    watches: Arc<AtomicUsize>,
    limit: Arc<AtomicBool>,
}

impl State {
    fn run(&mut self, rx: &Receiver<notify::Result<notify::Event>>, stop: &AtomicBool) {
        let mut last_resync = Instant::now();
        while !stop.load(Ordering::Relaxed) {
            let mut touched = BTreeSet::new();
            match rx.recv_timeout(POLL) {
                Ok(first) => {
                    collect(&mut touched, first);
                    let started = Instant::now();
                    while started.elapsed() < MAX_BATCH {
                        match rx.recv_timeout(SETTLE) {
                            Ok(more) => collect(&mut touched, more),
                            Err(_) => break,
                        }
                    }
                    if touched.is_empty() {
                        continue;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    let moved =
                        self.store.read(crate::store::registry_version::get).ok() != Some(self.version);
                    let back = self.missing.iter().any(|p| p.is_dir());
                    if !moved && !back && last_resync.elapsed() < RESYNC {
                        continue;
                    }
                    last_resync = Instant::now();
                }
                Err(RecvTimeoutError::Disconnected) => return,
            }
            let scope = (!touched.is_empty()).then_some(&touched);
            if let Err(e) = self.sync(scope) {
                tracing::warn!(error = %e, "the code-path watcher could not record a change; it retries");
            }
        }
    }

    /// Look at the code paths `touched` concerns (all when `None`), record what changed,
    /// and bring the watches in line. A second pass covers what happened while new
    /// watches were being added.
    fn sync(&mut self, touched: Option<&BTreeSet<PathBuf>>) -> Result<()> {
        let mut changed = false;
        let result = self.sync_passes(touched, &mut changed);
        // Even when a later step failed, what was committed is announced.
        if changed {
            (self.on_change)();
        }
        result
    }

    fn sync_passes(&mut self, touched: Option<&BTreeSet<PathBuf>>, changed: &mut bool) -> Result<()> {
        for pass in 0..2 {
            let paths = self.store.read(code_paths::watched)?;
            let changes = decide(&paths, touched);
            self.record(&paths, &changes)?;
            *changed |= changes.iter().any(|(_, c)| !matches!(c, PathChange::Identified { .. }));
            let added = self.rewatch()?;
            if touched.is_none() || !added || pass == 1 {
                break;
            }
        }
        Ok(())
    }

    fn record(&mut self, paths: &[Watched], changes: &[(usize, PathChange)]) -> Result<()> {
        if changes.is_empty() {
            return Ok(());
        }
        let now = crate::humanize::now();
        self.store.write(|tx| {
            for (i, change) in changes {
                let cp = &paths[*i];
                let (path, state, file_id, event) = match change {
                    PathChange::Moved { to, file_id } => (
                        to.as_str(),
                        PathState::Present,
                        *file_id,
                        Some(("path_moved", json!({ "from": cp.path, "to": to }))),
                    ),
                    PathChange::Missing => (
                        cp.path.as_str(),
                        PathState::Missing,
                        cp.file_id,
                        Some(("path_missing", json!({ "path": cp.path }))),
                    ),
                    PathChange::Restored { file_id } => (
                        cp.path.as_str(),
                        PathState::Present,
                        *file_id,
                        Some(("path_restored", json!({ "path": cp.path }))),
                    ),
                    PathChange::Identified { file_id } => {
                        (cp.path.as_str(), PathState::Present, *file_id, None)
                    }
                };
                code_paths::update_seen(tx, cp.id, path, state, file_id, &now)?;
                if let Some((kind, detail)) = event {
                    tracing::info!(project = %cp.slug, kind, %detail, "code path changed");
                    events::record(tx, cp.project_id, &cp.slug, kind, &detail, &now)?;
                }
            }
            Ok(())
        })
    }

    /// Watch what the plan says and nothing else. True when a watch was added.
    fn rewatch(&mut self) -> Result<bool> {
        let (paths, version) = self.store.read(|c| {
            let tx = c.unchecked_transaction()?;
            let v = crate::store::registry_version::get(&tx)?;
            Ok((code_paths::watched(&tx)?, v))
        })?;
        self.version = version;
        self.missing =
            paths.iter().filter(|p| p.state == PathState::Missing).map(|p| PathBuf::from(&p.path)).collect();
        let want = plan::watch_dirs(paths.iter().map(|p| Path::new(&p.path)), Path::is_dir);
        for gone in self.watched.difference(&want).cloned().collect::<Vec<_>>() {
            // The directory may be gone already, taking its watch with it.
            let _ = self.watcher.unwatch(&gone);
            self.watched.remove(&gone);
        }
        let mut added = false;
        for dir in want.difference(&self.watched).cloned().collect::<Vec<_>>() {
            match self.watcher.watch(&dir, RecursiveMode::NonRecursive) {
                Ok(()) => {
                    self.reported.remove(&dir);
                    self.watched.insert(dir);
                    added = true;
                }
                Err(e) if matches!(e.kind, notify::ErrorKind::MaxFilesWatch) => {
                    if !self.limit_reported {
                        self.limit_reported = true;
                        self.limit.store(true, Ordering::Relaxed);
                        tracing::warn!("{}", limit_message());
                    }
                    break;
                }
                Err(e) => {
                    if self.reported.insert(dir.clone()) {
                        tracing::warn!(dir = %dir.display(), error = %e, "cannot watch this directory; moves there are not followed (retried every 30 s)");
                    }
                }
            }
        }
        self.watches.store(self.watched.len(), Ordering::Relaxed);
        Ok(added)
    }
}

/// The sentence for a full inotify table.
pub fn limit_message() -> String {
    let now = std::fs::read_to_string("/proc/sys/fs/inotify/max_user_watches")
        .map(|s| s.trim().to_owned())
        .unwrap_or_else(|_| "?".into());
    format!(
        "the system's limit of file watches is reached (fs.inotify.max_user_watches = {now}); code paths still \
         resolve but stop following moves. Raise it: sudo sysctl fs.inotify.max_user_watches=524288"
    )
}

/// Paths an event names, and their parents (where a renamed entry is looked for).
fn collect(touched: &mut BTreeSet<PathBuf>, event: notify::Result<notify::Event>) {
    let Ok(event) = event else {
        // An overflow or a backend error: look at everything.
        touched.insert(PathBuf::from("/"));
        return;
    };
    let relevant = !matches!(
        event.kind,
        EventKind::Access(_) | EventKind::Modify(ModifyKind::Data(_) | ModifyKind::Metadata(_))
    );
    if relevant || event.need_rescan() {
        for p in event.paths {
            if let Some(parent) = p.parent() {
                touched.insert(parent.to_path_buf());
            }
            touched.insert(p);
        }
    }
}

/// Changes for the code paths in scope.
fn decide(paths: &[Watched], touched: Option<&BTreeSet<PathBuf>>) -> Vec<(usize, PathChange)> {
    let taken: HashSet<String> = paths.iter().map(|p| p.path.clone()).collect();
    let search: Vec<PathBuf> =
        touched.map(|t| t.iter().filter(|d| d.is_dir()).cloned().collect()).unwrap_or_default();
    let mut changes: Vec<(usize, PathChange)> = paths
        .iter()
        .enumerate()
        .filter(|(_, p)| touched.is_none_or(|t| plan::concerns(Path::new(&p.path), t)))
        .filter_map(|(i, p)| {
            // On a full look, a vanished directory is looked for beside where it was.
            let own;
            let search = if touched.is_some() {
                &search
            } else {
                own = Path::new(&p.path).parent().map(|d| vec![d.to_path_buf()]).unwrap_or_default();
                &own
            };
            reconcile::check(p, search, &taken).map(|c| (i, c))
        })
        .collect();
    follow_nested(paths, &mut changes);
    changes
}

/// A code path inside another that moved went along with it: find it at the same place
/// under the new location (same device and inode), instead of calling it missing.
fn follow_nested(paths: &[Watched], changes: &mut [(usize, PathChange)]) {
    let moves: Vec<(PathBuf, PathBuf)> = changes
        .iter()
        .filter_map(|(i, c)| match c {
            PathChange::Moved { to, .. } => Some((PathBuf::from(&paths[*i].path), PathBuf::from(to))),
            _ => None,
        })
        .collect();
    for (i, change) in changes.iter_mut() {
        let cp = &paths[*i];
        if *change != PathChange::Missing || cp.file_id.is_none() {
            continue;
        }
        let path = Path::new(&cp.path);
        let followed = moves.iter().find_map(|(from, to)| {
            let candidate = to.join(path.strip_prefix(from).ok()?);
            (crate::paths::file_id(&candidate).ok()? == cp.file_id).then(|| candidate.display().to_string())
        });
        if let Some(to) = followed {
            *change = PathChange::Moved { to, file_id: cp.file_id };
        }
    }
}
