//! What git saw change in a session's checkout during its turns: files a command changed
//! (`echo … > notes.txt`, `sed -i`, a formatter, a code generator) never appear among the
//! edit tools' calls, so at each turn's end the checkout's status is read (paths and
//! modification times only, never contents) and the files that changed since the turn's
//! request are kept. Git cannot tell a command's change from the person's own edit in
//! the same minutes: the record says so rather than guess.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use gix::status::index_worktree::Item;

/// Most files of a status looked at: a checkout with more uncommitted files than this is
/// mid-migration, and what the agent's tools named is enough.
const MOST_SCANNED: usize = 5_000;

/// The files under the git checkout holding `dir` that are modified, added or untracked
/// (not ignored) and were last changed at or after `since`, as absolute paths. Empty
/// outside a repository or when the status cannot be read. Deleted files carry no time
/// and are left to the tools that name them.
pub fn changed_since(dir: &Path, since: SystemTime) -> Vec<PathBuf> {
    let Ok(repo) = gix::discover(dir) else { return Vec::new() };
    let Some(top) = repo.workdir().map(Path::to_path_buf) else { return Vec::new() };
    let Ok(status) = repo.status(gix::progress::Discard) else { return Vec::new() };
    let status = status.untracked_files(gix::status::UntrackedFiles::Files);
    let Ok(items) = status.into_index_worktree_iter(Vec::new()) else { return Vec::new() };
    let mut out = Vec::new();
    for item in items.take(MOST_SCANNED).flatten() {
        let counts = match &item {
            Item::Modification { .. } => {
                item.summary().is_some_and(|s| s != gix::status::index_worktree::iter::Summary::Removed)
            }
            Item::DirectoryContents { entry, .. } => entry.status == gix::dir::entry::Status::Untracked,
            Item::Rewrite { .. } => true,
        };
        if !counts {
            continue;
        }
        let Ok(rela) = gix::path::from_bstr(item.rela_path()) else { continue };
        let path = top.join(rela);
        let changed = std::fs::symlink_metadata(&path).and_then(|m| m.modified());
        if changed.is_ok_and(|t| t >= since) {
            out.push(path);
        }
    }
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn git(dir: &Path, args: &[&str]) {
        super::super::commits::tests::git(dir, args, "@1700000000 +0000");
    }

    #[test]
    fn files_changed_after_the_turn_began_are_seen_and_older_or_ignored_ones_are_not() {
        let tmp = tempfile::tempdir().unwrap();
        let repo = tmp.path();
        git(repo, &["init", "-q"]);
        std::fs::write(repo.join(".gitignore"), "build/\n").unwrap();
        std::fs::write(repo.join("kept.rs"), "fn a() {}\n").unwrap();
        std::fs::write(repo.join("touched.rs"), "fn b() {}\n").unwrap();
        git(repo, &["add", "."]);
        git(repo, &["commit", "-qm", "init"]);
        // Dirty before the turn: the person's earlier edit, not this turn's.
        std::fs::write(repo.join("kept.rs"), "fn a() { 1 }\n").unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        let since = SystemTime::now();
        std::thread::sleep(std::time::Duration::from_millis(20));
        // What a command does during the turn.
        std::fs::write(repo.join("touched.rs"), "fn b() { 2 }\n").unwrap();
        std::fs::create_dir_all(repo.join("docs")).unwrap();
        std::fs::write(repo.join("docs/notes.txt"), "echoed\n").unwrap();
        std::fs::create_dir_all(repo.join("build")).unwrap();
        std::fs::write(repo.join("build/out.o"), "ignored\n").unwrap();
        let seen: Vec<String> = changed_since(&repo.join("docs"), since)
            .into_iter()
            .map(|p| p.strip_prefix(repo.canonicalize().unwrap()).unwrap_or(&p).display().to_string())
            .collect();
        assert_eq!(seen, ["docs/notes.txt", "touched.rs"]);
        assert!(changed_since(&tmp.path().join("nowhere"), since).is_empty());
    }
}
