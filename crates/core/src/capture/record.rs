//! A captured session: what an agent session was asked, what it changed, the commands it
//! ran, its todo list, the Mooring tools it called and its last word — folded from the
//! client's transcript line by line, deterministically (no model), never keeping file
//! contents, tool output or the environment. What each client's lines mean is in its own
//! module (`claude_code`, `codex`, `gemini`); this is what they all fold into.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Requests kept: the first and the latest few.
const KEEP_REQUESTS: usize = 4;
/// Commands kept: the latest.
const KEEP_COMMANDS: usize = 15;
/// Files kept.
const KEEP_FILES: usize = 100;
/// Todo items kept.
const KEEP_TODOS: usize = 50;
/// Longest request kept, in characters.
const REQUEST_CHARS: usize = 300;
/// Longest command kept.
const COMMAND_CHARS: usize = 200;
/// Longest last message kept.
const MESSAGE_CHARS: usize = 600;
/// Tool-call ids remembered to fold each call once.
const KEEP_SEEN: usize = 64;

/// What happened to a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FileAction {
    /// Written whole (created or replaced).
    Written,
    /// Created (the client said so).
    Created,
    /// Edited in place.
    Edited,
    /// Renamed or moved (from `FileTouch::from`).
    Renamed,
    /// Deleted.
    Deleted,
}

/// A file the session changed, relative to its working directory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileTouch {
    /// The path inside the working directory, or `…/name` outside it (never one
    /// machine's absolute path).
    pub path: String,
    /// The strongest thing done to it.
    pub action: FileAction,
    /// Where a renamed file was before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
}

/// A commit made in the checkout during the session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Commit {
    /// Its id, abbreviated.
    pub id: String,
    /// Its message's first line, trimmed.
    pub subject: String,
}

/// A command the session ran (never its output).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommandRun {
    /// The command line, trimmed.
    pub command: String,
    /// Whether the client reported it failed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub failed: bool,
}

/// One item of the session's todo list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Todo {
    /// The client's id for it, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// What is to be done.
    pub subject: String,
    /// `pending`, `in_progress` or `completed`.
    pub status: String,
}

impl Todo {
    /// Whether it is still to be done.
    pub fn open(&self) -> bool {
        !matches!(self.status.as_str(), "completed" | "cancelled")
    }
}

/// A tool call whose result is still to come (in a later line).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "tool", rename_all = "snake_case")]
pub(super) enum Pending {
    Command { index: usize },
    TaskCreate { subject: String },
    File { index: usize },
}

/// One captured session.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionRecord {
    /// Which client session this is (a hash of the client's id for it).
    pub key: String,
    /// The client (`claude-code`, …).
    pub client: String,
    /// The model the client named.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// First line's time (RFC 3339).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_at: Option<String>,
    /// Latest line's time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_at: Option<String>,
    /// The person's requests: the first and the latest few.
    #[serde(default)]
    pub requests: Vec<String>,
    /// How many requests there were.
    #[serde(default)]
    pub requests_total: usize,
    /// Files changed.
    #[serde(default)]
    pub files: Vec<FileTouch>,
    /// Commands run, the latest.
    #[serde(default)]
    pub commands: Vec<CommandRun>,
    /// How many commands there were.
    #[serde(default)]
    pub commands_total: usize,
    /// The todo list as it stands.
    #[serde(default)]
    pub todos: Vec<Todo>,
    /// Mooring tools the agent called, with how often.
    #[serde(default)]
    pub mooring_tools: BTreeMap<String, usize>,
    /// The agent's last message, trimmed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_message: Option<String>,
    /// How often the client compacted its context.
    #[serde(default)]
    pub compactions: usize,
    /// Why the session ended, once it has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<String>,
    /// How far the client's transcript has been read (bytes): the next turn reads on
    /// from here. Kept with the record so the two never disagree.
    #[serde(default)]
    pub read_to: u64,
    /// Commits made in the checkout during the session.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commits: Vec<Commit>,
    /// Tool calls waiting for their results.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pending: BTreeMap<String, Pending>,
    /// The latest tool calls folded in, by the client's id.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    seen: Vec<String>,
}

/// `text` cut to `max` characters (an ellipsis marks a cut).
pub use crate::humanize::clip as trim;

/// `path` as the record keeps it: inside `cwd`, relative; elsewhere, its name only.
pub fn shown_path(path: &str, cwd: Option<&str>) -> String {
    let p = std::path::Path::new(path);
    if let Some(rel) = cwd.and_then(|c| p.strip_prefix(c).ok()) {
        return rel.display().to_string();
    }
    if p.is_relative() {
        return path.to_owned();
    }
    match p.file_name() {
        Some(name) => format!("…/{}", name.to_string_lossy()),
        None => "…".to_owned(),
    }
}

/// The person's text without what hooks added to it: Gemini CLI puts a start hook's
/// context in front of the prompt (in its session file and in the next hook's `prompt`),
/// inside `<hook_context>` tags.
pub fn without_hook_context(text: &str) -> String {
    const OPEN: &str = "<hook_context>";
    const CLOSE: &str = "</hook_context>";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(OPEN) {
        out.push_str(&rest[..at]);
        match rest[at..].find(CLOSE) {
            Some(end) => rest = &rest[at + end + CLOSE.len()..],
            None => return out,
        }
    }
    out.push_str(rest);
    out
}

impl SessionRecord {
    /// A new record for `client`'s session `key`.
    pub fn new(client: &str, key: &str) -> Self {
        Self { client: client.to_owned(), key: key.to_owned(), ..Self::default() }
    }

    /// Note the time of a line (RFC 3339): the first is the start, the latest the end.
    pub fn saw_time(&mut self, at: &str) {
        if self.started_at.is_none() {
            self.started_at = Some(at.to_owned());
        }
        self.last_at = Some(at.to_owned());
    }

    /// Note one of the person's requests; the client's own markup (slash commands,
    /// reminders, environment blocks, hook output) is not the person's and is skipped.
    pub fn request(&mut self, text: &str) {
        let text = text.trim();
        if text.is_empty() || text.starts_with('<') || text.starts_with("Caveat:") {
            return;
        }
        self.requests_total += 1;
        let text = trim(text, REQUEST_CHARS);
        if self.requests.len() == KEEP_REQUESTS {
            self.requests.remove(1);
        }
        self.requests.push(text);
    }

    /// Note the agent's latest words.
    pub fn last_word(&mut self, text: &str) {
        if !text.trim().is_empty() {
            self.last_message = Some(trim(text, MESSAGE_CHARS));
        }
    }

    /// Note a command line run (never its output), and the files it plainly renamed or
    /// deleted; its index while its result is still to come.
    pub fn command(&mut self, command: &str, cwd: Option<&str>) -> usize {
        for change in super::shell::file_changes(command) {
            match change {
                super::shell::Change::Deleted(path) => self.deleted(&shown_path(&path, cwd)),
                super::shell::Change::Renamed(from, to) => {
                    self.renamed(&shown_path(&from, cwd), &shown_path(&to, cwd))
                }
            }
        }
        self.commands_total += 1;
        if self.commands.len() == KEEP_COMMANDS {
            self.commands.remove(0);
            for p in self.pending.values_mut() {
                if let Pending::Command { index } = p {
                    *index = index.saturating_sub(1);
                }
            }
        }
        self.commands.push(CommandRun { command: trim(command, COMMAND_CHARS), failed: false });
        self.commands.len() - 1
    }

    /// Mark the command at `index` failed.
    pub fn command_failed(&mut self, index: usize) {
        if let Some(c) = self.commands.get_mut(index) {
            c.failed = true;
        }
    }

    /// Replace the todo list with `items` (subject, status, the client's id).
    pub fn set_todos<'a>(&mut self, items: impl Iterator<Item = (&'a str, &'a str, Option<&'a str>)>) {
        self.todos = items
            .take(KEEP_TODOS)
            .map(|(subject, status, id)| Todo {
                id: id.map(str::to_owned),
                subject: trim(subject, REQUEST_CHARS),
                status: status.to_owned(),
            })
            .collect();
    }

    /// Add one item to the todo list.
    pub fn add_todo(&mut self, subject: &str, id: Option<String>) {
        if self.todos.len() < KEEP_TODOS {
            self.todos.push(Todo { id, subject: trim(subject, REQUEST_CHARS), status: "pending".into() });
        }
    }

    /// Note a call of one of Mooring's own tools, when `name` is one (the client's
    /// spelling: `mcp__mooring__remember`, `mcp_mooring_remember`, …).
    pub fn mooring_tool(&mut self, name: &str) {
        let Some(rest) = name.strip_prefix("mcp__").or_else(|| name.strip_prefix("mcp_")) else { return };
        let Some(at) = rest.find("mooring") else { return };
        let tool = rest[at + "mooring".len()..].trim_start_matches('_');
        if !tool.is_empty() && self.mooring_tools.len() < KEEP_FILES {
            *self.mooring_tools.entry(tool.to_owned()).or_default() += 1;
        }
    }

    /// Whether a tool call with the client's id `id` was folded in already (clients that
    /// rewrite a message as its calls complete show the same call more than once).
    pub fn seen_call(&mut self, id: &str) -> bool {
        if id.is_empty() {
            return false;
        }
        if self.seen.iter().any(|s| s == id) {
            return true;
        }
        if self.seen.len() == KEEP_SEEN {
            self.seen.remove(0);
        }
        self.seen.push(id.to_owned());
        false
    }

    /// Wait for the result of call `id`.
    pub(super) fn wait(&mut self, id: &str, what: Pending) {
        self.pending.insert(id.to_owned(), what);
    }

    /// What call `id` was waiting for, now that its result came.
    pub(super) fn resolved(&mut self, id: &str) -> Option<Pending> {
        self.pending.remove(id)
    }

    /// Note that `path` was deleted.
    pub fn deleted(&mut self, path: &str) {
        match self.files.iter().position(|f| f.path == path) {
            // Created in this session and deleted again: nothing is left to tell.
            Some(i) if self.files[i].action == FileAction::Created => {
                self.files.remove(i);
                self.repoint_files(i);
            }
            Some(i) => {
                self.files[i].action = FileAction::Deleted;
                self.files[i].from = None;
            }
            None => {
                self.file(path, FileAction::Deleted);
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
            }
            None => {
                if let Some(i) = self.file(to, FileAction::Renamed) {
                    self.files[i].from = Some(from.to_owned());
                }
            }
        }
    }

    /// After the file at `removed` left the list, pending results point past it.
    fn repoint_files(&mut self, removed: usize) {
        self.pending.retain(|_, p| !matches!(p, Pending::File { index } if *index == removed));
        for p in self.pending.values_mut() {
            if let Pending::File { index } = p
                && *index > removed
            {
                *index -= 1;
            }
        }
    }

    /// The file at `index`, written whole, did not exist before.
    pub fn created(&mut self, index: usize) {
        if let Some(f) = self.files.get_mut(index).filter(|f| f.action == FileAction::Written) {
            f.action = FileAction::Created;
        }
    }

    /// The commits made in the checkout while the session ran (replacing what was known).
    pub fn set_commits(&mut self, commits: Vec<Commit>) {
        if !commits.is_empty() || self.commits.is_empty() {
            self.commits = commits;
        }
    }
    /// Note a file; its index in the list, if kept.
    pub fn file(&mut self, path: &str, action: FileAction) -> Option<usize> {
        if let Some(i) = self.files.iter().position(|f| f.path == path) {
            // Created then edited is still a new file.
            if self.files[i].action == FileAction::Edited && action == FileAction::Written {
                self.files[i].action = action;
            }
            return Some(i);
        }
        if self.files.len() == KEEP_FILES {
            return None;
        }
        self.files.push(FileTouch { path: path.to_owned(), action, from: None });
        Some(self.files.len() - 1)
    }

    /// Whether anything worth keeping happened.
    pub fn is_empty(&self) -> bool {
        self.requests.is_empty()
            && self.files.is_empty()
            && self.commands.is_empty()
            && self.todos.is_empty()
            && self.commits.is_empty()
    }
}
