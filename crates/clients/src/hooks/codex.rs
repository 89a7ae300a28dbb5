//! Codex's hooks (checked against the pinned 0.169): Claude Code's names and shapes for
//! `SessionStart`, `UserPromptSubmit`, `Stop`, `PreCompact`, `PermissionRequest` and the
//! tool events; no end-of-session hook (its `Stop` at every turn's end keeps the record
//! current), and a permission reply with any field beyond allow/deny fails closed, so it
//! takes no rules back.

use serde_json::Value;

use super::{Abilities, Event, Input, Reply, claude_shaped, common, text};

pub(super) const ABILITIES: Abilities =
    Abilities { continues: true, permissions: true, session_rules: false };

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

pub(super) fn input(v: &Value) -> Input {
    let name = v.get("hook_event_name").and_then(Value::as_str);
    let mut input = common(v, event(name), name.unwrap_or("SessionStart"));
    input.last_message = text(v, "last_assistant_message");
    input
}

pub(super) fn reply(input: &Input, reply: &Reply) -> Value {
    claude_shaped(input, reply)
}
