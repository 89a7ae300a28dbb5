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

/// The tool a permission or tool-use event is about.
#[derive(Debug, Clone, PartialEq)]
pub struct Tool {
    /// The client's name for it (`Bash`, `Edit`, `run_shell_command`).
    pub name: String,
    /// Its arguments as the client gave them.
    pub input: Value,
}
