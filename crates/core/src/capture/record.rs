//! A captured session: what an agent session was asked, what it changed, the commands it
//! ran, its todo list, the Mooring tools it called and its last word — folded from the
//! client's transcript line by line, deterministically (no model), never keeping file
//! contents, tool output or the environment.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

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
}

/// A file the session changed, relative to its working directory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileTouch {
    /// The path inside the working directory, or `…/name` outside it (never one
    /// machine's absolute path).
    pub path: String,
    /// The strongest thing done to it.
    pub action: FileAction,
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
        self.status != "completed"
    }
}

/// A tool call whose result is still to come (in a later line).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "tool", rename_all = "snake_case")]
enum Pending {
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
    /// Tool calls waiting for their results.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pending: BTreeMap<String, Pending>,
}

/// `text` cut to `max` characters (an ellipsis marks a cut).
pub fn trim(text: &str, max: usize) -> String {
    let text = text.trim();
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(max).collect();
    out.push('…');
    out
}

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

impl SessionRecord {
    /// A new record for `client`'s session `key`.
    pub fn new(client: &str, key: &str) -> Self {
        Self { client: client.to_owned(), key: key.to_owned(), ..Self::default() }
    }

    /// Fold one line of a Claude Code transcript in; `cwd` is the session's directory.
    /// Lines of kinds it does not know change nothing.
    pub fn apply_claude_code(&mut self, line: &Value, cwd: Option<&str>) {
        if let Some(at) = line.get("timestamp").and_then(Value::as_str) {
            if self.started_at.is_none() {
                self.started_at = Some(at.to_owned());
            }
            self.last_at = Some(at.to_owned());
        }
        let message = line.get("message");
        match line.get("type").and_then(Value::as_str) {
            Some("user") if line.get("isMeta").and_then(Value::as_bool) != Some(true) => {
                match message.and_then(|m| m.get("content")) {
                    Some(Value::String(text)) => self.request(text),
                    Some(Value::Array(items)) => {
                        for item in items {
                            match item.get("type").and_then(Value::as_str) {
                                Some("text") => {
                                    self.request(item.get("text").and_then(Value::as_str).unwrap_or(""))
                                }
                                Some("tool_result") => self.result(item, line.get("toolUseResult")),
                                _ => {}
                            }
                        }
                    }
                    _ => {}
                }
            }
            Some("assistant") => {
                if let Some(model) = message.and_then(|m| m.get("model")).and_then(Value::as_str) {
                    self.model = Some(model.to_owned());
                }
                for item in
                    message.and_then(|m| m.get("content")).and_then(Value::as_array).into_iter().flatten()
                {
                    match item.get("type").and_then(Value::as_str) {
                        Some("tool_use") => self.tool_use(item, cwd),
                        Some("text") => {
                            let text = item.get("text").and_then(Value::as_str).unwrap_or("");
                            if !text.trim().is_empty() {
                                self.last_message = Some(trim(text, MESSAGE_CHARS));
                            }
                        }
                        _ => {}
                    }
                }
            }
            Some("system") if line.get("subtype").and_then(Value::as_str) == Some("compact_boundary") => {
                self.compactions += 1;
            }
            _ => {}
        }
    }

    fn request(&mut self, text: &str) {
        let text = text.trim();
        // The client's own markup (slash commands, reminders, hook output) is not the person's.
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

    fn tool_use(&mut self, item: &Value, cwd: Option<&str>) {
        let name = item.get("name").and_then(Value::as_str).unwrap_or("");
        let id = item.get("id").and_then(Value::as_str).unwrap_or("").to_owned();
        let input = item.get("input").cloned().unwrap_or(Value::Null);
        let text = |k: &str| input.get(k).and_then(Value::as_str).map(str::to_owned);
        match name {
            "Write" | "Edit" | "MultiEdit" | "NotebookEdit" => {
                let Some(path) = text("file_path").or_else(|| text("notebook_path")) else { return };
                let action = if name == "Write" { FileAction::Written } else { FileAction::Edited };
                let index = self.file(&shown_path(&path, cwd), action);
                if let Some(index) = index {
                    self.pending.insert(id, Pending::File { index });
                }
            }
            "Bash" => {
                let Some(command) = text("command") else { return };
                self.commands_total += 1;
                if self.commands.len() == KEEP_COMMANDS {
                    self.commands.remove(0);
                    for p in self.pending.values_mut() {
                        if let Pending::Command { index } = p {
                            *index = index.saturating_sub(1);
                        }
                    }
                }
                self.commands.push(CommandRun { command: trim(&command, COMMAND_CHARS), failed: false });
                self.pending.insert(id, Pending::Command { index: self.commands.len() - 1 });
            }
            "TaskCreate" => {
                let subject = text("subject").unwrap_or_default();
                self.pending.insert(id, Pending::TaskCreate { subject });
            }
            "TaskUpdate" => {
                let (Some(task), Some(status)) = (text("taskId"), text("status")) else { return };
                if status == "deleted" {
                    self.todos.retain(|t| t.id.as_deref() != Some(task.as_str()));
                } else if let Some(t) = self.todos.iter_mut().find(|t| t.id.as_deref() == Some(task.as_str()))
                {
                    t.status = status;
                }
            }
            "TodoWrite" => {
                let items = input.get("todos").and_then(Value::as_array).cloned().unwrap_or_default();
                self.todos = items
                    .iter()
                    .filter_map(|t| {
                        Some(Todo {
                            id: t.get("id").and_then(Value::as_str).map(str::to_owned),
                            subject: trim(t.get("content").and_then(Value::as_str)?, REQUEST_CHARS),
                            status: t.get("status").and_then(Value::as_str).unwrap_or("pending").to_owned(),
                        })
                    })
                    .take(KEEP_TODOS)
                    .collect();
            }
            other => {
                if let Some(tool) = other.strip_prefix("mcp__").and_then(|rest| rest.split_once("__"))
                    && tool.0.contains("mooring")
                {
                    *self.mooring_tools.entry(tool.1.to_owned()).or_default() += 1;
                }
            }
        }
    }

    /// A tool's result: whether a command failed, a created task's id, a created file.
    fn result(&mut self, item: &Value, detail: Option<&Value>) {
        let Some(id) = item.get("tool_use_id").and_then(Value::as_str) else { return };
        let Some(pending) = self.pending.remove(id) else { return };
        let failed = item.get("is_error").and_then(Value::as_bool) == Some(true);
        match pending {
            Pending::Command { index } => {
                if let Some(c) = self.commands.get_mut(index) {
                    c.failed = failed;
                }
            }
            Pending::TaskCreate { subject } if !failed => {
                let task = detail.and_then(|d| d.get("task"));
                let id = task.and_then(|t| t.get("id")).and_then(Value::as_str).map(str::to_owned);
                if self.todos.len() < KEEP_TODOS {
                    self.todos.push(Todo {
                        id,
                        subject: trim(&subject, REQUEST_CHARS),
                        status: "pending".into(),
                    });
                }
            }
            Pending::File { index } => {
                let created = detail.and_then(|d| d.get("type")).and_then(Value::as_str) == Some("create");
                if let Some(f) =
                    self.files.get_mut(index).filter(|f| created && f.action == FileAction::Written)
                {
                    f.action = FileAction::Created;
                }
            }
            Pending::TaskCreate { .. } => {}
        }
    }

    /// Note a file; its index in the list, if kept.
    fn file(&mut self, path: &str, action: FileAction) -> Option<usize> {
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
        self.files.push(FileTouch { path: path.to_owned(), action });
        Some(self.files.len() - 1)
    }

    /// Every text the record holds passed through the secret scanner (and `<private>`
    /// spans dropped); what was taken out.
    pub fn scrub(&mut self) -> crate::redact::Redactions {
        let mut found = crate::redact::Redactions::default();
        for r in &mut self.requests {
            *r = found.clean(r);
        }
        for c in &mut self.commands {
            c.command = found.clean(&c.command);
        }
        for t in &mut self.todos {
            t.subject = found.clean(&t.subject);
        }
        for f in &mut self.files {
            f.path = found.clean(&f.path);
        }
        if let Some(m) = &mut self.last_message {
            *m = found.clean(m);
        }
        found
    }

    /// Whether anything worth keeping happened.
    pub fn is_empty(&self) -> bool {
        self.requests.is_empty() && self.files.is_empty() && self.commands.is_empty() && self.todos.is_empty()
    }

    /// A one-line title: the first request.
    pub fn title(&self) -> String {
        match self.requests.first() {
            Some(r) => format!("Session: {}", trim(r, 90)),
            None => format!("Session in {}", self.client),
        }
    }

    /// The record for people and search, in Markdown.
    pub fn markdown(&self) -> String {
        let mut out = String::new();
        let mut line = |label: &str, text: String| {
            if !text.is_empty() {
                out.push_str(&format!("**{label}:** {text}\n"));
            }
        };
        let quoted = |v: &[String]| v.iter().map(|r| format!("\"{r}\"")).collect::<Vec<_>>().join(" … ");
        line("Asked", quoted(&self.requests));
        let files: Vec<String> = self
            .files
            .iter()
            .map(|f| {
                let verb = match f.action {
                    FileAction::Created => "created",
                    FileAction::Written => "wrote",
                    FileAction::Edited => "edited",
                };
                format!("{verb} {}", f.path)
            })
            .collect();
        line("Changed", files.join(", "));
        let commands: Vec<String> = self
            .commands
            .iter()
            .map(|c| format!("`{}`{}", c.command, if c.failed { " (failed)" } else { "" }))
            .collect();
        let more = self.commands_total.saturating_sub(self.commands.len());
        let tail = if more > 0 { format!(" (+{more} earlier)") } else { String::new() };
        line("Ran", if commands.is_empty() { String::new() } else { commands.join(", ") + &tail });
        let (open, done): (Vec<&Todo>, Vec<&Todo>) = self.todos.iter().partition(|t| t.open());
        let list = |v: &[&Todo]| v.iter().map(|t| t.subject.clone()).collect::<Vec<_>>().join("; ");
        line("Still open", list(&open));
        line("Done", list(&done));
        let tools: Vec<String> = self.mooring_tools.iter().map(|(t, n)| format!("{t} ×{n}")).collect();
        line("Mooring tools", tools.join(", "));
        line("Last word", self.last_message.as_ref().map(|m| format!("\"{m}\"")).unwrap_or_default());
        let mut facts = vec![self.client.clone()];
        facts.extend(self.model.clone());
        if let (Some(a), Some(b)) = (&self.started_at, &self.last_at) {
            facts.push(format!("{a} to {b}"));
        }
        if self.compactions > 0 {
            facts.push(format!("compacted {}×", self.compactions));
        }
        if let Some(why) = &self.ended {
            facts.push(format!("ended ({why})"));
        }
        line("Session", facts.join(" · "));
        out
    }
}
