//! Claude Code's hooks (checked against the pinned 2.1.330): `SessionStart` (with
//! `source: compact` after a compaction), `UserPromptSubmit`, `Stop`, `SubagentStop`,
//! `PreCompact`, `SessionEnd`, `PermissionRequest` (it takes rules back for the session),
//! `PreToolUse`/`PostToolUse`; its replies set the shape the others follow.

use serde_json::{Value, json};

use super::{Abilities, Dialect, Event, Input, Reply, Writes, claude_shaped, common, text};
use crate::entry::PERMISSION_TIMEOUT;

pub(super) const DIALECT: Dialect = Dialect {
    input,
    reply,
    abilities: Abilities { captures: true, continues: true, permissions: true, session_rules: true },
    asks_before_edit: true,
    start_path: &["hooks", "SessionStart"],
    start_entry: |command| {
        json!({
            "matcher": "startup|resume|clear|compact",
            "hooks": [{ "type": "command", "command": command, "timeout": 5 }]
        })
    },
    capture_paths: &[
        &["hooks", "UserPromptSubmit"],
        &["hooks", "Stop"],
        &["hooks", "PreCompact"],
        &["hooks", "SessionEnd"],
    ],
    // A turn's end may hold for the away person's next instruction (the hook bounds
    // itself: capture within seconds, the hold within nine minutes).
    capture_entry: Some(
        |command| json!({ "hooks": [{ "type": "command", "command": command, "timeout": 600 }] }),
    ),
    // Checked against the pinned 2.1.330 (it runs in `-p` too).
    permission_path: Some(&["hooks", "PermissionRequest"]),
    permission_entry: Some(
        |command| json!({ "matcher": "*", "hooks": [{ "type": "command", "command": command, "timeout": PERMISSION_TIMEOUT }] }),
    ),
    // Claims are checked before the file tools and shell commands write (the client's
    // own ask shows the reason when the project asks). A shell command that writes no
    // file it plainly names costs the hook's start and a parse, before any database.
    pre_edit_path: Some(&["hooks", "PreToolUse"]),
    pre_edit_entry: Some(
        |command| json!({ "matcher": "Write|Edit|MultiEdit|NotebookEdit|Bash", "hooks": [{ "type": "command", "command": command, "timeout": 10 }] }),
    ),
    edited,
    ..Dialect::BASE
};

/// What Write, Edit, MultiEdit, NotebookEdit and Bash are about to write (Codex's `Bash` too).
pub(super) fn edited(tool: &super::Tool) -> Option<super::Edit> {
    tool.writes(&[
        ("Write", "file_path", Writes::File),
        ("Edit", "file_path", Writes::File),
        ("MultiEdit", "file_path", Writes::File),
        ("NotebookEdit", "notebook_path", Writes::File),
        ("Bash", "command", Writes::Shell),
    ])
}

/// Its event names, which Codex uses too.
pub(super) fn event(name: Option<&str>) -> Event {
    match name {
        None | Some("SessionStart") => Event::Start,
        Some("UserPromptSubmit") => Event::Prompt,
        Some("Stop") => Event::TurnEnd,
        Some("SubagentStop") => Event::SubagentEnd,
        Some("PreCompact") => Event::PreCompact,
        Some("SessionEnd") => Event::SessionEnd,
        Some("PermissionRequest") => Event::Permission,
        Some("PreToolUse") => Event::ToolUse(true),
        Some("PostToolUse") => Event::ToolUse(false),
        Some(_) => Event::Other,
    }
}

/// How the prompts open that Claude Code submits but the person did not write: since
/// 2.1.309 `UserPromptSubmit` also fires for a background task's result, a message from
/// another session, a channel's message and a teammate's (the pinned 2.1.330 wraps each
/// so; its own instructions tell the model none of them is the user's intent).
const NOT_THE_PERSON: [&str; 5] = [
    "<task-notification>",
    "<cross-session-message",
    "<teammate-message",
    "<channel",
    "[SYSTEM NOTIFICATION",
];

fn input(v: &Value, named: Option<&str>) -> Input {
    let mut input = common(v, named, event);
    // Cursor runs Claude Code's hooks too (behind a setting): Mooring's own Cursor hooks
    // answer there, so a session is not handed its context or kept twice. VS Code's Local
    // harness runs them too: it takes the start's context and nothing else, and its
    // transcript is no format to read.
    if super::cursor::runs_claude_hooks(v) || super::vscode::runs(v) && input.event != Event::Start {
        input.event = Event::Other;
        return input;
    }
    input.last_message = text(v, "last_assistant_message");
    input.suggestions = v.get("permission_suggestions").cloned();
    input.from_person =
        input.prompt.as_deref().is_none_or(|p| !NOT_THE_PERSON.iter().any(|m| p.trim_start().starts_with(m)));
    input
}

fn reply(input: &Input, reply: &Reply) -> Value {
    claude_shaped(input, reply)
}
