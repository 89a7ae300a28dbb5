//! What became of one code path, decided by looking at the disk: still there, moved
//! (its directory, known by device and inode, now has another name), gone, or back.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::model::PathState;
use crate::paths::file_id;
use crate::store::code_paths::Watched;

/// A change to record for a code path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathChange {
    /// The directory now lives at `to`.
    Moved { to: String, file_id: Option<(u64, u64)> },
    /// The directory is gone.
    Missing,
    /// The directory exists again.
    Restored { file_id: Option<(u64, u64)> },
    /// Same place, identity learnt (or replaced while nobody looked): no event.
    Identified { file_id: Option<(u64, u64)> },
}

/// Decide the change for `cp`. A vanished directory is looked for among the entries of
/// `search` (the directories where something just happened); `taken` are paths other
/// code paths already own. Unreadable places decide nothing (the caller retries later).
pub fn check(cp: &Watched, search: &[PathBuf], taken: &HashSet<String>) -> Option<PathChange> {
    let path = Path::new(&cp.path);
    match file_id(path) {
        Ok(id) => match cp.state {
            PathState::Missing => Some(PathChange::Restored { file_id: id }),
            PathState::Present if cp.file_id != id => Some(PathChange::Identified { file_id: id }),
            PathState::Present => None,
        },
        Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => None,
        Err(_) => {
            if let Some(to) = cp.file_id.and_then(|id| find(id, search, taken)) {
                return Some(PathChange::Moved { to, file_id: cp.file_id });
            }
            (cp.state == PathState::Present).then_some(PathChange::Missing)
        }
    }
}

/// A directory with this identity among the entries of `search` (and `search` itself).
fn find(id: (u64, u64), search: &[PathBuf], taken: &HashSet<String>) -> Option<String> {
    let canonical = |p: &Path| std::fs::canonicalize(p).ok().map(|c| c.display().to_string());
    for dir in search {
        let Ok(entries) = std::fs::read_dir(dir) else { continue };
        let here = std::iter::once(dir.clone()).chain(entries.filter_map(|e| e.ok().map(|e| e.path())));
        for candidate in here {
            if file_id(&candidate).ok().flatten() == Some(id)
                && let Some(c) = canonical(&candidate)
                && !taken.contains(&c)
            {
                return Some(c);
            }
        }
    }
    None
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    fn watched(path: &Path, state: PathState, file_id: Option<(u64, u64)>) -> Watched {
        Watched { id: 1, project_id: 1, slug: "p".into(), path: path.display().to_string(), state, file_id }
    }

    #[test]
    fn present_moved_missing_restored() {
        let tmp = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(tmp.path()).unwrap();
        let a = root.join("a");
        std::fs::create_dir(&a).unwrap();
        let id = file_id(&a).unwrap();
        let none = HashSet::new();
        assert_eq!(check(&watched(&a, PathState::Present, id), &[], &none), None);
        assert_eq!(
            check(&watched(&a, PathState::Present, None), &[], &none),
            Some(PathChange::Identified { file_id: id })
        );

        let b = root.join("b");
        std::fs::rename(&a, &b).unwrap();
        let cp = watched(&a, PathState::Present, id);
        let moved = check(&cp, std::slice::from_ref(&root), &none);
        assert_eq!(moved, Some(PathChange::Moved { to: b.display().to_string(), file_id: id }));
        // The new place already belongs to another code path: not a move.
        let taken: HashSet<String> = [b.display().to_string()].into();
        assert_eq!(check(&cp, std::slice::from_ref(&root), &taken), Some(PathChange::Missing));
        // Out of sight.
        assert_eq!(check(&cp, &[], &none), Some(PathChange::Missing));
        assert_eq!(check(&watched(&a, PathState::Missing, id), &[], &none), None);

        std::fs::create_dir(&a).unwrap();
        let back = check(&watched(&a, PathState::Missing, id), &[], &none);
        assert!(matches!(back, Some(PathChange::Restored { file_id: Some(_) })), "{back:?}");
    }

    #[test]
    fn a_file_where_the_directory_was_is_not_the_directory() {
        let tmp = tempfile::tempdir().unwrap();
        let a = tmp.path().join("a");
        std::fs::write(&a, "x").unwrap();
        let cp = watched(&a, PathState::Present, Some((1, 2)));
        assert_eq!(check(&cp, &[], &HashSet::new()), Some(PathChange::Missing));
    }
}
