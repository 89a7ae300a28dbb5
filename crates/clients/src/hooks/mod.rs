//! The hook protocol every client speaks in its own dialect: which event fired, what the
//! client said about it, and what Mooring answers. Each client's file reads its hook JSON
//! into an [`Input`] and writes a [`Reply`] in its shape, so the conductor (`mooring
//! hook`) never spells a client's event or field names.

use std::path::PathBuf;

use serde_json::Value;

use crate::Client;

mod claude_code;
mod cline;
mod codex;
mod copilot_cli;
mod cursor;
mod gemini_cli;
mod kilo;
mod opencode;
mod pi;
mod qwen_code;
mod tool;
mod vscode;
mod windsurf;

pub use tool::{Edit, Tool};
use tool::{Writer, Writes};

/// What happened in the client's session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// A session starts, resumes, is cleared or was compacted: hand over the preamble.
    Start,
    /// The person sent a prompt: hand the model what memory holds about it.
    Prompt,
    /// The agent's turn ended: bring the record up to date (and, away, hold for the
    /// person's next instruction).
    TurnEnd,
    /// A subagent finished: bring the record up to date.
    SubagentEnd,
    /// The context is about to be compacted: bring the record up to date.
    PreCompact,
    /// The session ended: the record's last update.
    SessionEnd,
    /// The client asks whether a tool may run (away: the phone answers).
    Permission,
    /// A tool is about to run (`true`) or has run (`false`).
    ToolUse(bool),
    /// An event Mooring does not act on.
    Other,
}

impl Event {
    /// Whether the event brings the session's record up to date.
    pub fn captures(self) -> bool {
        matches!(self, Event::TurnEnd | Event::SubagentEnd | Event::PreCompact | Event::SessionEnd)
    }

    /// Whether a client whose hooks are the record folds this event in: the prompt, each
    /// step done and the turn's end.
    pub fn recorded(self) -> bool {
        matches!(self, Event::Prompt | Event::ToolUse(false)) || self.captures()
    }
}

/// A hook's input, read from the client's JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct Input {
    /// What fired.
    pub event: Event,
    /// The client's own name for it, as its replies must repeat it.
    pub event_name: String,
    /// The client's session id.
    pub session: Option<String>,
    /// The session's transcript file.
    pub transcript: Option<PathBuf>,
    /// A subagent's own transcript file.
    pub agent_transcript: Option<PathBuf>,
    /// The session's directory.
    pub cwd: Option<String>,
    /// The prompt (a prompt event).
    pub prompt: Option<String>,
    /// Whether the prompt is the person's own words: clients also submit background
    /// tasks' results, other sessions' messages and the like as prompts.
    pub from_person: bool,
    /// The agent's last message (a turn's end).
    pub last_message: Option<String>,
    /// The tool (a permission or tool-use event).
    pub tool: Option<Tool>,
    /// Rules the client suggests the person could allow for the session.
    pub suggestions: Option<Value>,
    /// A start right after the client compacted the context.
    pub after_compaction: bool,
    /// Why the session ended (a session's end).
    pub end_reason: Option<String>,
    /// The hook's own input, for a client whose hooks are the record (Windsurf: it says
    /// what each step did, and no transcript Mooring can read holds more): each is folded
    /// into the session's record as it fires.
    pub record: Option<Value>,
}

impl Input {
    /// An input that names nothing but its event.
    fn bare(event: Event, event_name: &str) -> Self {
        Self {
            event,
            event_name: event_name.to_owned(),
            session: None,
            transcript: None,
            agent_transcript: None,
            cwd: None,
            prompt: None,
            from_person: true,
            last_message: None,
            tool: None,
            suggestions: None,
            after_compaction: false,
            end_reason: None,
            record: None,
        }
    }
}

/// How the person answered a permission prompt.
#[derive(Debug, Clone, PartialEq)]
pub enum Decision {
    /// Run the tool this once.
    Allow,
    /// Run it, and the client's suggested rules hold for the rest of the session.
    AllowWithRules(Vec<Value>),
    /// Do not run it; the message tells the agent why.
    Deny(String),
}

/// What Mooring answers a hook.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// Text for the model's context (a start's preamble, a prompt's recall).
    Context(String),
    /// Keep going with this instruction instead of stopping (a turn's end).
    Continue(String),
    /// The person's answer to a permission prompt.
    Permission(Decision),
    /// Before a tool writes a file another session holds: what the client does with it.
    Guard(Guard),
}

/// What a write into a file another agent session holds meets (the project's setting).
#[derive(Debug, Clone, PartialEq)]
pub enum Guard {
    /// The client asks the person, showing why.
    Ask(String),
    /// The tool does not run; the agent is told why.
    Deny(String),
    /// The tool runs; the agent is told who holds the file.
    Warn(String),
}

/// What a client's hooks can do beyond capture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Abilities {
    /// Its hooks bring the session's record up to date (its session file is read at
    /// each turn's end).
    pub captures: bool,
    /// A turn's end can be told to go on with an instruction.
    pub continues: bool,
    /// Permission prompts reach a hook that can answer them.
    pub permissions: bool,
    /// The hook takes back rules to allow for the session.
    pub session_rules: bool,
}

/// The person's home folder, as the hook's environment names it (where a client that
/// does not name its session file keeps it: Cursor, Cline).
fn home() -> Option<PathBuf> {
    let var = if cfg!(windows) { "USERPROFILE" } else { "HOME" };
    std::env::var_os(var).filter(|h| !h.is_empty()).map(PathBuf::from)
}

/// `text` of a JSON object's field `key`, when it is a non-blank string.
fn text(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).filter(|s| !s.trim().is_empty()).map(str::to_owned)
}

/// The fields Claude Code and the clients that follow its shape share (`session_id`,
/// `transcript_path`, `cwd`, `tool_name`/`tool_input`), under the event its
/// `hook_event_name` (else the command line's `named`, else a start) names in `events`.
fn common(v: &Value, named: Option<&str>, events: fn(Option<&str>) -> Event) -> Input {
    let name = v.get("hook_event_name").and_then(Value::as_str).or(named);
    let (event, name) = (events(name), name.unwrap_or("SessionStart"));
    Input {
        session: text(v, "session_id"),
        transcript: text(v, "transcript_path").map(PathBuf::from),
        agent_transcript: text(v, "agent_transcript_path").map(PathBuf::from),
        cwd: text(v, "cwd"),
        prompt: v.get("prompt").and_then(Value::as_str).map(str::to_owned),
        tool: text(v, "tool_name")
            .map(|name| Tool { name, input: v.get("tool_input").cloned().unwrap_or(Value::Null) }),
        after_compaction: v.get("source").and_then(Value::as_str) == Some("compact"),
        end_reason: (event == Event::SessionEnd).then(|| text(v, "reason").unwrap_or_else(|| "other".into())),
        ..Input::bare(event, name)
    }
}

/// Everything Mooring knows about one client's hooks: how to read and answer them, and
/// where its entries go in the client's hooks file. Each client's file defines one.
pub struct Dialect {
    /// Read a hook's JSON input (and the event the command line names, for a client
    /// whose input does not).
    pub input: fn(&Value, Option<&str>) -> Input,
    /// Write a reply to an input.
    pub reply: fn(&Input, &Reply) -> Value,
    /// What its hooks can do beyond capture.
    pub abilities: Abilities,
    /// Its hook input does not name the event: each entry's command does.
    pub names_event: bool,
    /// Its hooks file starts with `"version": 1`.
    pub versioned: bool,
    /// Its hooks file's format (JSON, or JSON with comments where the client's
    /// settings allow them).
    pub hooks_format: crate::catalog::Format,
    /// What the person should know after `mooring setup CLIENT --hooks`, if anything.
    pub setup_note: Option<&'static str>,
    /// Its hooks can hand the model text (the project's context, a prompt's recall);
    /// Windsurf's are advisory.
    pub hands_context: bool,
    /// Its session-start hook does not always run (headless, say): the session's first
    /// prompt then brings the project's context.
    pub start_may_not_fire: bool,
    /// It reads what a hook says only at a tool call (Cline): the session's first tool
    /// call brings the project's context.
    pub context_at_first_tool: bool,
    /// Whether its session file is still to be written (the client writes it only once it
    /// exits, after its last hook): a capture then waits for it in a process of its own.
    pub transcript_pending: Option<fn(&std::path::Path) -> bool>,
    /// Its hooks are a plugin Mooring writes whole into the hooks file (opencode), not
    /// entries in a shared file: the file's text, running this Mooring.
    pub plugin: Option<fn(&crate::entry::ShimSpec) -> String>,
    /// Its hooks are scripts named after their events, in a folder (Cline): Mooring
    /// writes one of its own for each event it uses.
    pub scripts: Option<Scripts>,
    /// Where the session-start entry goes in the hooks file.
    pub start_path: &'static [&'static str],
    /// The session-start entry, running `command`.
    pub start_entry: fn(&str) -> Value,
    /// Where the per-turn entries go (each prompt, each turn's end, before compaction,
    /// the session's end); empty while Mooring does not read the client's sessions.
    pub capture_paths: &'static [&'static [&'static str]],
    /// The per-turn entry, running `command`.
    pub capture_entry: Option<fn(&str) -> Value>,
    /// Where the permission entry goes, for a client whose permission prompts reach a
    /// hook.
    pub permission_path: Option<&'static [&'static str]>,
    /// The permission entry, running `command`.
    pub permission_entry: Option<fn(&str) -> Value>,
    /// Where the pre-edit entry goes (claims are checked before the write), for a client
    /// whose hooks can stop a tool before it runs.
    pub pre_edit_path: Option<&'static [&'static str]>,
    /// The pre-edit entry, running `command`.
    pub pre_edit_entry: Option<fn(&str) -> Value>,
    /// Its pre-edit hook can have the client ask the person (Claude Code's `ask`); where
    /// it cannot, Mooring asks the person itself before answering allow or deny.
    pub asks_before_edit: bool,
    /// What a tool is about to write: a file as the client names it (relative to the
    /// session's folder or absolute), or a shell command line (whose plain writes Mooring
    /// reads); `None` for a tool that writes nothing it names.
    pub edited: fn(&Tool) -> Option<Edit>,
}

/// A client's hook scripts: one file per event, `EVENT` + `ext`, each running this Mooring.
#[derive(Clone, Copy)]
pub struct Scripts {
    /// The events Mooring hooks into.
    pub events: &'static [&'static str],
    /// The files' extension (the client tells a hook's event by its name).
    pub ext: &'static str,
    /// The script for an event.
    pub script: fn(&crate::entry::ShimSpec, &str) -> String,
}

impl Dialect {
    /// Whether its prompts get a recall: its hooks hand the model text, and its prompt
    /// hook's answer is read (not Windsurf's, not Cline's).
    pub fn recalls(&self) -> bool {
        self.hands_context && !self.context_at_first_tool
    }

    /// What a dialect leaves as it is: no setup note, a start hook that runs, JSON hooks
    /// without a version, entries at the start only. Each client's file states its
    /// reading, replies, abilities and start entry, and whatever else differs.
    pub(super) const BASE: Dialect = Dialect {
        input: |_, _| Input::bare(Event::Other, ""),
        reply: |_, _| Value::Null,
        abilities: Abilities { captures: false, continues: false, permissions: false, session_rules: false },
        names_event: false,
        versioned: false,
        hooks_format: crate::catalog::Format::Json,
        setup_note: None,
        hands_context: true,
        start_may_not_fire: false,
        context_at_first_tool: false,
        asks_before_edit: false,
        transcript_pending: None,
        plugin: None,
        scripts: None,
        start_path: &[],
        start_entry: |_| Value::Null,
        capture_paths: &[],
        capture_entry: None,
        permission_path: None,
        permission_entry: None,
        pre_edit_path: None,
        pre_edit_entry: None,
        edited: |_| None,
    };
}

impl Client {
    /// This client's hook dialect; `None` for a client without hooks Mooring installs.
    pub fn dialect(self) -> Option<&'static Dialect> {
        match self {
            Client::ClaudeCode => Some(&claude_code::DIALECT),
            Client::Codex => Some(&codex::DIALECT),
            Client::GeminiCli => Some(&gemini_cli::DIALECT),
            Client::CopilotCli => Some(&copilot_cli::DIALECT),
            Client::QwenCode => Some(&qwen_code::DIALECT),
            Client::Opencode => Some(&opencode::DIALECT),
            Client::Kilo => Some(&kilo::DIALECT),
            Client::Cursor => Some(&cursor::DIALECT),
            Client::Windsurf => Some(&windsurf::DIALECT),
            Client::Cline => Some(&cline::DIALECT),
            Client::Pi => Some(&pi::DIALECT),
            _ => None,
        }
    }

    /// Read a hook's JSON input in this client's dialect (`Value::Null` when the input was
    /// not JSON: a start with nothing said).
    pub fn hook_input(self, v: &Value) -> Input {
        self.hook_input_named(v, None)
    }

    /// [`Client::hook_input`] with the event its entry's command names (`mooring hook
    /// copilot-cli agentStop`), for a client whose input does not name it.
    pub fn hook_input_named(self, v: &Value, event: Option<&str>) -> Input {
        self.dialect().map_or_else(|| Input::bare(Event::Other, ""), |d| (d.input)(v, event))
    }

    /// The hook's standard output answering `input` with `reply`, in this client's shape.
    pub fn hook_reply(self, input: &Input, reply: &Reply) -> String {
        self.dialect().map_or(Value::Null, |d| (d.reply)(input, reply)).to_string()
    }

    /// What this client's hooks can do beyond capture.
    pub fn hook_abilities(self) -> Abilities {
        self.dialect().map_or(
            Abilities { captures: false, continues: false, permissions: false, session_rules: false },
            |d| d.abilities,
        )
    }
}

/// The reply shape Claude Code set and Codex and Gemini CLI follow: context under
/// `hookSpecificOutput`, a turn's end kept going by `decision: block`.
fn claude_shaped(input: &Input, reply: &Reply) -> Value {
    use serde_json::json;
    match reply {
        Reply::Context(text) => json!({ "hookSpecificOutput": {
            "hookEventName": input.event_name,
            "additionalContext": crate::entry::clip(text, crate::entry::HOOK_MAX_CHARS) } }),
        Reply::Continue(text) => json!({ "decision": "block", "reason": text }),
        Reply::Permission(decision) => {
            let decision = match decision {
                Decision::Allow => json!({ "behavior": "allow" }),
                Decision::AllowWithRules(rules) => {
                    json!({ "behavior": "allow", "updatedPermissions": rules })
                }
                Decision::Deny(message) => json!({ "behavior": "deny", "message": message }),
            };
            json!({ "hookSpecificOutput": { "hookEventName": input.event_name, "decision": decision } })
        }
        // Checked against the pinned 2.1.330: PreToolUse takes `permissionDecision` (allow,
        // deny, ask) with its reason, or `additionalContext` alone.
        Reply::Guard(Guard::Ask(why)) => json!({ "hookSpecificOutput": {
            "hookEventName": input.event_name, "permissionDecision": "ask", "permissionDecisionReason": why } }),
        Reply::Guard(Guard::Deny(why)) => json!({ "hookSpecificOutput": {
            "hookEventName": input.event_name, "permissionDecision": "deny", "permissionDecisionReason": why } }),
        Reply::Guard(Guard::Warn(why)) => json!({ "hookSpecificOutput": {
            "hookEventName": input.event_name, "additionalContext": why } }),
    }
}

#[cfg(test)]
mod tests;
