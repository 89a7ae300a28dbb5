//! Claude Code's hooks (checked against the pinned 2.1.330): `SessionStart` (with
//! `source: compact` after a compaction), `UserPromptSubmit`, `Stop`, `SubagentStop`,
//! `PreCompact`, `SessionEnd`, `PermissionRequest` (it takes rules back for the session),
//! `PreToolUse`/`PostToolUse`; its replies set the shape the others follow.

use serde_json::Value;

use super::{Abilities, Event, Input, Reply, claude_shaped, common, text};

pub(super) const ABILITIES: Abilities = Abilities { continues: true, permissions: true, session_rules: true };

fn event(name: Option<&str>) -> Event {
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

pub(super) fn input(v: &Value) -> Input {
    let name = v.get("hook_event_name").and_then(Value::as_str);
    let mut input = common(v, event(name), name.unwrap_or("SessionStart"));
    input.last_message = text(v, "last_assistant_message");
    input.suggestions = v.get("permission_suggestions").cloned();
    input.from_person =
        input.prompt.as_deref().is_none_or(|p| !NOT_THE_PERSON.iter().any(|m| p.trim_start().starts_with(m)));
    input
}

pub(super) fn reply(input: &Input, reply: &Reply) -> Value {
    claude_shaped(input, reply)
}
