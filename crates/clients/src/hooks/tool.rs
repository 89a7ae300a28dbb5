//! The tool a hook is about, and what it is about to write.

use serde_json::Value;

/// What a tool is about to write (see [`super::Dialect::edited`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edit {
    /// One file, as the client names it.
    File(String),
    /// A shell command line, to be read for the files it plainly writes.
    Shell(String),
}

impl Edit {
    /// The files a patch in Codex's `apply_patch` format names, as the command line Codex
    /// runs it with (core reads the files there).
    pub fn patch(patch: &str) -> Self {
        Self::Shell(format!("apply_patch <<'MOORING_PATCH'\n{patch}\nMOORING_PATCH"))
    }
}

/// What a writing tool's argument holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Writes {
    /// A file's path.
    File,
    /// A shell command line.
    Shell,
    /// A patch in Codex's `apply_patch` format.
    Patch,
}

/// A tool that writes, as one client names it: the tool, the argument naming what it
/// writes, and what that argument holds.
pub(super) type Writer = (&'static str, &'static str, Writes);

/// The tool a permission or tool-use event is about.
#[derive(Debug, Clone, PartialEq)]
pub struct Tool {
    /// The client's name for it (`Bash`, `Edit`, `run_shell_command`).
    pub name: String,
    /// Its arguments as the client gave them.
    pub input: Value,
}

impl Tool {
    /// What this tool is about to write, by its client's `writers`; `None` for a tool
    /// that is not one of them, or without the argument.
    pub(super) fn writes(&self, writers: &[Writer]) -> Option<Edit> {
        let (_, key, writes) = writers.iter().find(|(name, ..)| *name == self.name)?;
        let value = super::text(&self.input, key)?;
        Some(match writes {
            Writes::File => Edit::File(value),
            Writes::Shell => Edit::Shell(value),
            Writes::Patch => Edit::patch(&value),
        })
    }
}
