//! The agent clients people run Mooring from, and registering Mooring with them: each
//! client's own config file and format, edited so that only Mooring's entry changes.

#![forbid(unsafe_code)]

pub mod apply;
pub mod catalog;
pub mod entry;
pub mod hooks;
pub mod json_doc;
pub mod toml_doc;

use std::path::{Path, PathBuf};

use serde_json::Value;

pub use apply::FileEdit;
pub use catalog::{Client, Env, Format, Identity, Os, Scope, Unsupported};
pub use entry::{SERVER_NAME, ShimSpec};

use json_doc::JsonDoc;
use toml_doc::TomlDoc;

/// Why a client's configuration could not be read or changed.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file is not valid in the client's format; it is left untouched.
    #[error(
        "{} line {line}: {message}. Nothing was written: fix that line (or move the file away) and run the command again",
        file.display()
    )]
    Unparseable {
        /// The file.
        file: PathBuf,
        /// 1-based line of the problem.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The file could not be read or written.
    #[error("{}: {message}", file.display())]
    Io {
        /// The file.
        file: PathBuf,
        /// What failed.
        message: String,
    },
    /// The client has no such configuration.
    #[error("{0}")]
    Unsupported(String),
}

impl From<Unsupported> for ConfigError {
    fn from(u: Unsupported) -> Self {
        ConfigError::Unsupported(u.0)
    }
}

/// Add Mooring, or take it out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Write (or refresh) Mooring's entry.
    Install,
    /// Remove Mooring's entry.
    Remove,
}

/// The MCP server entry change for `client`, reading `file`.
pub fn server_change(
    client: Client,
    scope: &Scope,
    spec: &ShimSpec,
    file: &Path,
    action: Action,
) -> Result<FileEdit, ConfigError> {
    let before = apply::read(file)?;
    let text = before.as_deref().unwrap_or("");
    let key = client.servers_key();
    let entry = entry::server_entry(client, scope, spec);
    let after = match client.format() {
        Format::Toml => {
            let mut doc = TomlDoc::parse(text, file)?;
            match action {
                Action::Install if doc.get(key, SERVER_NAME).as_ref() != Some(&entry) => {
                    doc.set(key, SERVER_NAME, &entry, file)?
                }
                Action::Remove => {
                    doc.remove(key, SERVER_NAME);
                }
                Action::Install => {}
            }
            doc.text()
        }
        format => {
            let mut doc = JsonDoc::parse(text, format, file)?;
            let path = [key, SERVER_NAME];
            match action {
                Action::Install if doc.get(&path).as_ref() != Some(&entry) => doc.set(&path, &entry, file)?,
                Action::Remove => {
                    doc.remove(&path);
                }
                Action::Install => {}
            }
            doc.text()
        }
    };
    Ok(finish(file, before, after))
}

/// The session-hook change for `client` in its hooks `file`.
pub fn hook_change(
    client: Client,
    spec: &ShimSpec,
    file: &Path,
    action: Action,
) -> Result<FileEdit, ConfigError> {
    let before = apply::read(file)?;
    if let Some(plugin) = client.dialect().and_then(|d| d.plugin) {
        // A file of Mooring's own: written whole, or taken away.
        let after = match action {
            Action::Install => plugin(spec),
            Action::Remove => String::new(),
        };
        return Ok(FileEdit { file: file.to_path_buf(), before, after, executable: false });
    }
    let text = before.clone().unwrap_or_default();
    hook_edit(client, spec, file, before, &text, action)
}

/// Every hook change for `client` whose hooks file is `file`: one, or for a client whose
/// hooks are scripts named after their events (Cline), one per script in that folder. A
/// script of the same name that is not Mooring's is never overwritten.
pub fn hook_changes(
    client: Client,
    spec: &ShimSpec,
    file: &Path,
    action: Action,
) -> Result<Vec<FileEdit>, ConfigError> {
    let Some(scripts) = client.dialect().and_then(|d| d.scripts) else {
        return Ok(vec![hook_change(client, spec, file, action)?]);
    };
    let mut edits = Vec::new();
    for event in scripts.events {
        let file = file.with_file_name(format!("{event}{}", scripts.ext));
        let before = apply::read(&file)?;
        if before.as_deref().is_some_and(|t| !names_mooring(client, t)) {
            return Err(ConfigError::Io {
                file: file.clone(),
                message: format!(
                    "this {event} hook is not Mooring's; rename it (to {event}.sh, say: {} runs both) and run this again",
                    client.title()
                ),
            });
        }
        let after = match action {
            Action::Install => (scripts.script)(spec, event),
            Action::Remove => String::new(),
        };
        edits.push(FileEdit { file, before, after, executable: true });
    }
    Ok(edits)
}

/// The hook change made on top of `earlier`, a change to the same file (Gemini CLI keeps
/// its servers and hooks in one `settings.json`).
pub fn hook_change_after(
    client: Client,
    spec: &ShimSpec,
    earlier: &FileEdit,
    action: Action,
) -> Result<FileEdit, ConfigError> {
    hook_edit(client, spec, &earlier.file, earlier.before.clone(), &earlier.after, action)
}

fn hook_edit(
    client: Client,
    spec: &ShimSpec,
    file: &Path,
    before: Option<String>,
    text: &str,
    action: Action,
) -> Result<FileEdit, ConfigError> {
    let format = client.dialect().map_or(Format::Json, |d| d.hooks_format);
    let mut doc = JsonDoc::parse(text, format, file)?;
    let new = match action {
        Action::Install => entry::hook_entry(client, spec),
        Action::Remove => None,
    };
    if client.dialect().is_some_and(|d| d.versioned) && new.is_some() && doc.get(&["version"]).is_none() {
        doc.set(&["version"], &Value::from(1), file)?;
    }
    doc.upsert_in_array(
        entry::hooks_path(client),
        |v| entry::is_mooring_hook(client, v),
        new.as_ref(),
        file,
    )?;
    for path in entry::capture_paths(client) {
        let capture = match action {
            Action::Install => entry::capture_entry(client, spec, path),
            Action::Remove => None,
        };
        doc.upsert_in_array(path, |v| entry::is_mooring_hook(client, v), capture.as_ref(), file)?;
    }
    if let Some(path) = entry::permission_path(client) {
        let permission = match action {
            Action::Install => entry::permission_entry(client, spec),
            Action::Remove => None,
        };
        doc.upsert_in_array(path, |v| entry::is_mooring_hook(client, v), permission.as_ref(), file)?;
    }
    if let Some(path) = entry::pre_edit_path(client) {
        let pre_edit = match action {
            Action::Install => entry::pre_edit_entry(client, spec),
            Action::Remove => None,
        };
        doc.upsert_in_array(path, |v| entry::is_mooring_hook(client, v), pre_edit.as_ref(), file)?;
    }
    Ok(finish(file, before, doc.text()))
}

/// Whether Mooring's entry is in the client's file (and what it says), for `--list` and
/// `doctor`.
pub fn configured_entry(client: Client, file: &Path) -> Result<Option<Value>, ConfigError> {
    let Some(text) = apply::read(file)? else { return Ok(None) };
    Ok(match client.format() {
        Format::Toml => TomlDoc::parse(&text, file)?.get(client.servers_key(), SERVER_NAME),
        format => JsonDoc::parse(&text, format, file)?.get(&[client.servers_key(), SERVER_NAME]),
    })
}

/// Whether Mooring's session hook is in the client's hooks file.
pub fn hook_installed(client: Client, file: &Path) -> Result<Option<Value>, ConfigError> {
    let Some(text) = apply::read(file)? else { return Ok(None) };
    hook_in(client, &text, file)
}

/// [`hook_installed`], of the hooks file's `text`.
fn hook_in(client: Client, text: &str, file: &Path) -> Result<Option<Value>, ConfigError> {
    if client.dialect().is_some_and(|d| d.plugin.is_some() || d.scripts.is_some()) {
        return Ok(names_mooring(client, text).then(|| Value::String(file.display().to_string())));
    }
    let format = client.dialect().map_or(Format::Json, |d| d.hooks_format);
    let doc = JsonDoc::parse(text, format, file)?;
    Ok(doc.get(entry::hooks_path(client)).and_then(|v| {
        v.as_array().and_then(|a| a.iter().find(|h| entry::is_mooring_hook(client, h)).cloned())
    }))
}

/// Whether Mooring's hooks in `file` check a write against other sessions' claims before
/// it runs; `None` where this Mooring's hooks for `client` do not (or no Mooring hook is
/// there). Hooks an older Mooring installed may lack the check a newer one installs.
pub fn claims_checked(client: Client, file: &Path) -> Option<bool> {
    let dialect = client.dialect()?;
    let text = apply::read(file).ok().flatten()?;
    hook_in(client, &text, file).ok().flatten()?;
    if let Some(plugin) = dialect.plugin {
        // A plugin checks them from its `tool.execute.before` hook, if this Mooring's does.
        let hook = "\"tool.execute.before\"";
        let spec = entry::ShimSpec { binary: "mooring".into(), data_dir: None };
        return plugin(&spec).contains(hook).then(|| text.contains(hook));
    }
    if dialect.scripts.is_some() {
        // Cline's are checked by its `PreToolUse` script: the file its hooks are known by.
        return Some(true);
    }
    let doc = JsonDoc::parse(&text, dialect.hooks_format, file).ok()?;
    let entries = doc.get(dialect.pre_edit_path?);
    Some(
        entries
            .as_ref()
            .and_then(Value::as_array)
            .is_some_and(|a| a.iter().any(|h| entry::is_mooring_hook(client, h))),
    )
}

/// Whether a file of Mooring's own (opencode's plugin, Cline's scripts) is Mooring's: it
/// says `mooring hook CLIENT` in so many words.
fn names_mooring(client: Client, text: &str) -> bool {
    text.contains(&format!("mooring hook {}", client.name()))
}

/// A file that did not exist and would only receive an empty document stays absent.
fn finish(file: &Path, before: Option<String>, after: String) -> FileEdit {
    let after = match (&before, after.trim()) {
        (None, "{}" | "") => String::new(),
        _ => after,
    };
    FileEdit { file: file.to_path_buf(), before, after, executable: false }
}
