//! The files a session changed, as the record lists them: each path relative to the
//! session's checkout whatever directory the agent had `cd`-ed into, each file once with
//! the strongest thing done to it.

use std::path::{Component, Path, PathBuf};

use super::record::{FileAction, FileTouch, SessionRecord};

/// Files kept.
const KEEP_FILES: usize = 100;

/// Where a session works: its checkout, which paths are shown relative to, and the
/// directory a line ran in, which relative paths start from.
#[derive(Debug, Clone, Copy, Default)]
pub struct Place<'a> {
    /// The checkout (git top level or the project's code path).
    pub root: Option<&'a str>,
    /// The directory the client ran the line in (it follows the agent's `cd`).
    pub cwd: Option<&'a str>,
}

impl<'a> Place<'a> {
    /// The same checkout, with the line's own directory when it names one.
    pub fn at(self, cwd: Option<&'a str>) -> Self {
        Self { cwd: cwd.filter(|c| Path::new(c).is_absolute()).or(self.cwd), ..self }
    }
}

/// `path` as the record keeps it: inside the checkout (or, without one, the directory),
/// relative to it; elsewhere, its name only; never empty.
pub fn shown_path(path: &str, place: Place<'_>) -> String {
    let p = Path::new(path);
    let absolute = match (p.is_absolute(), place.cwd) {
        (true, _) => lexical(p),
        (false, Some(cwd)) => lexical(&Path::new(cwd).join(p)),
        (false, None) => {
            let rel = lexical(p);
            return match rel.as_os_str().is_empty() {
                true => "…".to_owned(),
                false => rel.display().to_string(),
            };
        }
    };
    for base in [place.root, place.cwd].into_iter().flatten() {
        if let Ok(rel) = absolute.strip_prefix(lexical(Path::new(base)))
            && !rel.as_os_str().is_empty()
        {
            return rel.display().to_string();
        }
    }
    match absolute.file_name() {
        Some(name) => format!("…/{}", name.to_string_lossy()),
        None => "…".to_owned(),
    }
}

/// `path` with `.` and `..` worked out on the text alone (the file may be gone).
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

impl SessionRecord {
    /// Note a file; its index in the list, if kept.
    pub fn file(&mut self, path: &str, action: FileAction, subagent: bool) -> Option<usize> {
        if let Some(i) = self.files.iter().position(|f| f.path == path) {
            let f = &mut self.files[i];
            // Created then edited is still a new file; edited then written whole is written.
            if f.action == FileAction::Edited && matches!(action, FileAction::Written | FileAction::Created)
                || f.action == FileAction::Deleted && action != FileAction::Deleted
            {
                f.action = action;
            }
            f.subagent &= subagent;
            return Some(i);
        }
        if self.files.len() == KEEP_FILES {
            return None;
        }
        self.files.push(FileTouch { path: path.to_owned(), action, from: None, subagent });
        Some(self.files.len() - 1)
    }

    /// Note that `path` was deleted.
    pub fn deleted(&mut self, path: &str) {
        match self.files.iter().position(|f| f.path == path) {
            // Created in this session and deleted again: nothing is left to tell.
            Some(i) if self.files[i].action == FileAction::Created => {
                self.files.remove(i);
            }
            Some(i) => {
                self.files[i].action = FileAction::Deleted;
                self.files[i].from = None;
            }
            None => {
                self.file(path, FileAction::Deleted, false);
            }
        }
    }

    /// Note that `from` became `to`.
    pub fn renamed(&mut self, from: &str, to: &str) {
        match self.files.iter().position(|f| f.path == from) {
            Some(i) => {
                self.files[i].path = to.to_owned();
                if self.files[i].action != FileAction::Created {
                    self.files[i].from = self.files[i].from.take().or_else(|| Some(from.to_owned()));
                    self.files[i].action = FileAction::Renamed;
                }
                // The new name may have been listed already: one file, listed once.
                if let Some(j) = self.files.iter().enumerate().position(|(j, f)| j != i && f.path == to) {
                    self.files.remove(j);
                }
            }
            None => {
                if let Some(i) = self.file(to, FileAction::Renamed, false) {
                    self.files[i].from = Some(from.to_owned());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Place, shown_path};

    #[test]
    fn paths_are_relative_to_the_checkout_whatever_the_agent_cd_ed_into() {
        let root = Place { root: Some("/w/app"), cwd: Some("/w/app") };
        let inside = root.at(Some("/w/app/assets"));
        assert_eq!(shown_path("/w/app/assets/js/live.ex", inside), "assets/js/live.ex");
        assert_eq!(shown_path("js/live.ex", inside), "assets/js/live.ex");
        assert_eq!(shown_path("../lib/a.ex", inside), "lib/a.ex");
        assert_eq!(shown_path("/etc/hosts", inside), "…/hosts");
        // The checkout itself is never an empty path.
        assert_eq!(shown_path("/w/app", inside), "…/app");
        assert_eq!(shown_path("./x/./y.rs", Place::default()), "x/y.rs");
        assert_eq!(shown_path("/w/app/a.rs", Place { root: None, cwd: Some("/w/app") }), "a.rs");
    }
}
