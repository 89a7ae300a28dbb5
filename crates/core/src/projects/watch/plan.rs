//! Which directories to watch for a set of code paths: each path itself and its parent,
//! non-recursively — never whole trees. Parents shared by several paths are watched once;
//! a path whose parent is gone watches the nearest ancestor that exists, so its return
//! is seen. At most two watches per code path.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The directories to watch.
pub fn watch_dirs<'a>(
    paths: impl IntoIterator<Item = &'a Path>,
    is_dir: impl Fn(&Path) -> bool,
) -> BTreeSet<PathBuf> {
    let mut dirs = BTreeSet::new();
    for path in paths {
        if is_dir(path) {
            dirs.insert(path.to_path_buf());
        }
        if let Some(anchor) = path.ancestors().skip(1).find(|a| is_dir(a)) {
            dirs.insert(anchor.to_path_buf());
        }
    }
    dirs
}

/// Whether a change at `touched` can concern the code path `path`: it is the path, one of
/// its ancestors (a parent renamed or removed), or a sibling entry (a rename within the
/// parent names the new entry).
pub fn concerns(path: &Path, touched: &BTreeSet<PathBuf>) -> bool {
    path.ancestors().any(|a| touched.contains(a))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exists_in(set: &'static [&'static str]) -> impl Fn(&Path) -> bool {
        move |p: &Path| set.iter().any(|s| Path::new(s) == p)
    }

    #[test]
    fn a_path_and_its_parent_shared_parents_once() {
        let paths: Vec<PathBuf> =
            (0..1000).map(|i| PathBuf::from(format!("/src/g{}/p{i}", i % 50))).collect();
        let dirs = watch_dirs(paths.iter().map(PathBuf::as_path), |_| true);
        assert_eq!(dirs.len(), 1050, "1,000 paths under 50 parents");
        assert!(dirs.contains(Path::new("/src/g7")) && dirs.contains(Path::new("/src/g7/p7")));
        assert!(!dirs.contains(Path::new("/src")), "never the grandparent when the parent exists");
    }

    #[test]
    fn missing_paths_watch_the_nearest_existing_ancestor() {
        let is_dir = exists_in(&["/", "/home", "/home/me", "/home/me/src"]);
        let paths = [Path::new("/home/me/src/gone"), Path::new("/home/me/old/deep/gone")];
        let dirs = watch_dirs(paths, is_dir);
        let want: BTreeSet<PathBuf> = ["/home/me/src", "/home/me"].iter().map(PathBuf::from).collect();
        assert_eq!(dirs, want);
    }

    #[test]
    fn changes_concern_the_path_and_what_is_above_it() {
        let touched: BTreeSet<PathBuf> = ["/a", "/a/renamed"].iter().map(PathBuf::from).collect();
        assert!(concerns(Path::new("/a/proj"), &touched), "rename in the parent");
        assert!(concerns(Path::new("/a/x/y"), &touched), "an ancestor changed");
        assert!(!concerns(Path::new("/b/proj"), &touched));
    }
}
