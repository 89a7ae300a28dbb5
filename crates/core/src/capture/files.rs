//! The files a session changed, as the record lists them: each file once, with the
//! strongest thing done to it.

use super::record::{FileAction, FileTouch, KEEP_FILES, SessionRecord};

impl SessionRecord {
    /// Note a file; its index in the list, if kept.
    pub fn file(&mut self, path: &str, action: FileAction, subagent: bool) -> Option<usize> {
        if let Some(i) = self.files.iter().position(|f| f.path == path) {
            // What git saw adds nothing to what a tool (or a subagent's tool) named.
            if action == FileAction::SeenByGit {
                return Some(i);
            }
            let f = &mut self.files[i];
            // What a tool named says more than what git saw, including who did it: git can
            // see a subagent's write before the subagent's transcript is flushed.
            if f.action == FileAction::SeenByGit {
                f.action = action;
                f.subagent = subagent;
                return Some(i);
            }
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
        let asked = (self.requests_total > 0).then_some(self.requests_total);
        self.files.push(FileTouch { path: path.to_owned(), action, from: None, subagent, asked });
        Some(self.files.len() - 1)
    }

    /// Note the files git saw change during a turn (absolute paths), each shown as the
    /// record shows paths; a file a tool already named keeps what the tool said.
    pub fn seen_by_git(&mut self, paths: &[std::path::PathBuf], place: super::Place<'_>) {
        for p in paths {
            let shown = super::place::shown_path(&p.to_string_lossy(), place);
            self.file(&shown, FileAction::SeenByGit, false);
        }
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
