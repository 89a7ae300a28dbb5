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
/// Files kept (and Mooring tools counted).
pub(super) const KEEP_FILES: usize = 100;
/// Todo items kept.
const KEEP_TODOS: usize = 50;
/// Longest request shown, in characters.
pub(super) const REQUEST_CHARS: usize = 300;
/// Longest command shown.
pub(super) const COMMAND_CHARS: usize = 200;
/// Longest last message shown.
pub(super) const MESSAGE_CHARS: usize = 600;
/// Longest compaction summary shown.
pub(super) const CARRY_CHARS: usize = 1_500;
/// Longest text taken in before the secret scanner sees it: long enough that a pasted
/// key keeps its END line (the scanner runs on this, the cut to what is shown comes after).
const INTAKE_CHARS: usize = 8_192;
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
    /// Seen changed by git during one of the session's turns, named by none of its edit
    /// tools: a command's doing, or the person's own edit in the same minutes.
    SeenByGit,
}

/// A file the session changed, relative to its checkout.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileTouch {
    /// The path inside the checkout, or `…/name` outside it (never one machine's absolute
    /// path).
    pub path: String,
    /// The strongest thing done to it.
    pub action: FileAction,
    /// Where a renamed file was before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// Whether a subagent of the session did it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub subagent: bool,
    /// Which of the person's requests (1 for the first) was the latest when the file was
    /// first touched: the request that led to it (see [`SessionRecord::asked`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub asked: Option<usize>,
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
    /// The command line as the client gave it (shown on one line).
    pub command: String,
    /// Whether the client reported it failed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub failed: bool,
    /// Whether a subagent of the session ran it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub subagent: bool,
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

/// A change a patch makes to one file (paths as the patch wrote them).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct PatchChange {
    pub path: String,
    pub action: FileAction,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
}

/// A tool call whose outcome is still to come (in a later line): nothing is noted until
/// the client says the call ran, so a refused or rejected call leaves no trace.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "tool", rename_all = "snake_case")]
pub(super) enum Pending {
    Command {
        command: String,
        #[serde(default)]
        cwd: Option<String>,
        #[serde(default)]
        subagent: bool,
    },
    TaskCreate {
        subject: String,
    },
    File {
        path: String,
        action: FileAction,
        #[serde(default)]
        subagent: bool,
    },
    Patch {
        changes: Vec<PatchChange>,
        #[serde(default)]
        cwd: Option<String>,
    },
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
    /// What the client's own model wrote of the session when it last compacted the
    /// context (prose only): the context carried to the next session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_carry: Option<String>,
    /// How often the client compacted its context.
    #[serde(default)]
    pub compactions: usize,
    /// Why the session ended, once it has.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<String>,
    /// What it claimed in its checkout while it worked (files before their edits,
    /// folders, globs, tasks), as people read them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub held: Vec<String>,
    /// Writes it met another live session's claim on.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub conflicts: u32,
    /// How far the client's transcript has been read (bytes): the next turn reads on
    /// from here. Kept with the record so the two never disagree.
    #[serde(default)]
    pub read_to: u64,
    /// A hash of the transcript's path: another file for the same session is read from
    /// its start (the path names the client's session id, so it is not kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transcript: Option<String>,
    /// When the latest request came (RFC 3339): what git saw change since is this turn's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_started_at: Option<String>,
    /// How far each subagent transcript has been read, by file name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub subagents: BTreeMap<String, u64>,
    /// Commits made in the checkout during the session.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commits: Vec<Commit>,
    /// Which of the client's markers carries the person's messages, once one was seen
    /// (Codex writes the same message under more than one, depending on its version).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) request_marker: Option<String>,
    /// Tool calls waiting for their results.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(super) pending: BTreeMap<String, Pending>,
    /// The latest tool calls folded in, by the client's id.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    seen: Vec<String>,
}

/// `text` cut to `max` characters (an ellipsis marks a cut).
pub use crate::humanize::clip as trim;

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

/// `text` bounded for intake: the scanner sees this much, the cut to what is shown comes
/// after it.
pub(super) fn intake(text: &str) -> String {
    trim(text, INTAKE_CHARS)
}

impl SessionRecord {
    /// A new record for `client`'s session `key`.
    pub fn new(client: &str, key: &str) -> Self {
        Self { client: client.to_owned(), key: key.to_owned(), ..Self::default() }
    }

    /// Start again from an empty record for the same session and transcript (the file was
    /// replaced or cut).
    pub fn restart(&mut self) {
        let transcript = self.transcript.take();
        *self = Self { transcript, ..Self::new(&self.client, &self.key) };
    }

    /// Note the time of a line (RFC 3339): the first is the start, the latest the end.
    pub fn saw_time(&mut self, at: &str) {
        if chrono::DateTime::parse_from_rfc3339(at).is_err() {
            return;
        }
        if self.started_at.is_none() {
            self.started_at = Some(at.to_owned());
        }
        self.last_at = Some(at.to_owned());
    }

    /// The text of request number `n` (1 for the first), while the record keeps it (the
    /// first and the latest few are kept).
    pub fn asked(&self, n: usize) -> Option<&str> {
        let kept = self.requests.len();
        let i = match n {
            0 => return None,
            1 => 0,
            n if n > self.requests_total => return None,
            n => (kept + n).checked_sub(self.requests_total + 1).filter(|&i| i >= 1)?,
        };
        self.requests.get(i).map(String::as_str)
    }

    /// Note one of the person's requests, as the client's reader decided it is one.
    pub fn request(&mut self, text: &str) {
        let text = text.trim();
        if text.is_empty() {
            return;
        }
        self.requests_total += 1;
        self.turn_started_at = self.last_at.clone();
        if self.requests.len() == KEEP_REQUESTS {
            self.requests.remove(1);
        }
        self.requests.push(intake(text));
    }

    /// Whether the person's messages come from `marker` in this session: the first marker
    /// seen is the one used from then on.
    pub(super) fn requests_from(&mut self, marker: &str) -> bool {
        match &self.request_marker {
            Some(m) => m == marker,
            None => {
                self.request_marker = Some(marker.to_owned());
                true
            }
        }
    }

    /// Note the agent's latest words.
    pub fn last_word(&mut self, text: &str) {
        if !text.trim().is_empty() {
            self.last_message = Some(intake(text));
        }
    }

    /// Note the summary the client's model wrote when it compacted the context.
    pub fn carry(&mut self, summary: &str) {
        let prose = super::text::summary_prose(summary);
        if !prose.is_empty() {
            self.context_carry = Some(intake(&prose));
        }
    }

    /// Note a command line that ran (never its output), and the files it plainly renamed
    /// or deleted; its index in the list.
    pub fn command(&mut self, command: &str, place: Place<'_>, subagent: bool) -> usize {
        for change in super::shell::file_changes(command) {
            match change {
                super::shell::Change::Deleted(path) => self.deleted(&shown_path(&path, place)),
                super::shell::Change::Renamed(from, to) => {
                    self.renamed(&shown_path(&from, place), &shown_path(&to, place))
                }
            }
        }
        self.commands_total += 1;
        if self.commands.len() == KEEP_COMMANDS {
            self.commands.remove(0);
        }
        self.commands.push(CommandRun { command: intake(command), failed: false, subagent });
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
                id: id.map(|i| trim(i, 64)),
                subject: intake(subject),
                status: trim(status, 20),
            })
            .collect();
    }

    /// Replace the todo list with a client's list `items` (a JSON array), each item's
    /// text under `subject`, its `status` (pending when absent) and, when `id` names one,
    /// the client's id.
    pub fn todos_from(&mut self, items: Option<&serde_json::Value>, subject: &str, id: Option<&str>) {
        let items = items.and_then(serde_json::Value::as_array).map(Vec::as_slice).unwrap_or_default();
        self.set_todos(items.iter().filter_map(|t| {
            let text = t.get(subject).and_then(serde_json::Value::as_str)?;
            let status = t.get("status").and_then(serde_json::Value::as_str).unwrap_or("pending");
            Some((text, status, id.and_then(|k| t.get(k)).and_then(serde_json::Value::as_str)))
        }));
    }

    /// Add one item to the todo list.
    pub fn add_todo(&mut self, subject: &str, id: Option<String>) {
        if self.todos.len() < KEEP_TODOS {
            let id = id.map(|i| trim(&i, 64));
            self.todos.push(Todo { id, subject: intake(subject), status: "pending".into() });
        }
    }

    /// Note a call of one of Mooring's own tools, when `name` is one (the client's
    /// spelling: `mcp__mooring__remember`, `mcp_mooring_remember`, …).
    pub fn mooring_tool(&mut self, name: &str) {
        // Copilot CLI spells them `mooring-remember`, opencode `mooring_remember`.
        let Some(rest) = name
            .strip_prefix("mcp__")
            .or_else(|| name.strip_prefix("mcp_"))
            .or_else(|| name.strip_prefix("mooring-").map(|_| name))
            // opencode spells them `mooring_remember`.
            .or_else(|| name.strip_prefix("mooring_").map(|_| name))
        else {
            return;
        };
        let Some(at) = rest.find("mooring") else { return };
        let tool = rest[at + "mooring".len()..].trim_start_matches(['_', '-']);
        if !tool.is_empty() && self.mooring_tools.len() < KEEP_FILES {
            *self.mooring_tools.entry(trim(tool, 64)).or_default() += 1;
        }
    }

    /// Whether a tool call with the client's id `id` was folded in already (clients that
    /// rewrite a message as its calls complete show the same call more than once); notes
    /// it as folded.
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

    /// Wait for the outcome of call `id`.
    pub(super) fn wait(&mut self, id: &str, what: Pending) {
        if !id.is_empty() && self.pending.len() < KEEP_SEEN * 4 {
            self.pending.insert(id.to_owned(), what);
        }
    }

    /// What call `id` was waiting for, now that its outcome came.
    pub(super) fn resolved(&mut self, id: &str) -> Option<Pending> {
        self.pending.remove(id)
    }

    /// The commits made in the checkout while the session ran (replacing what was known).
    pub fn set_commits(&mut self, commits: Vec<Commit>) {
        if !commits.is_empty() || self.commits.is_empty() {
            self.commits = commits;
        }
    }

    /// Whether anything worth keeping happened.
    /// Note what the session holds now and the claims it met so far (what it held
    /// earlier stays listed: the record says what it touched).
    pub fn claims(&mut self, held: &[String], conflicts: u32) {
        for h in held {
            if !self.held.contains(h) && self.held.len() < MOST_HELD {
                self.held.push(h.clone());
            }
        }
        self.conflicts = self.conflicts.max(conflicts);
    }

    /// Whether nothing of the session is known yet.
    pub fn is_empty(&self) -> bool {
        self.requests.is_empty()
            && self.files.is_empty()
            && self.commands.is_empty()
            && self.todos.is_empty()
            && self.commits.is_empty()
            && self.context_carry.is_none()
    }
}

pub use super::place::{Place, shown_path};

/// Claims a record lists at most.
const MOST_HELD: usize = 40;

fn is_zero(n: &u32) -> bool {
    *n == 0
}
