//! Cursor's own hooks (`.cursor/hooks.json`, from its published hook reference; Cursor
//! cannot run here): camel-cased `sessionStart`, `beforeSubmitPrompt`, `stop`,
//! `afterAgentResponse`, `preCompact`, `sessionEnd`, `preToolUse`/`postToolUse`. Its
//! input names the session `session_id` (or `conversation_id`) and its directories
//! `workspace_roots`; its replies are flat: `additional_context`, `followup_message`,
//! `permission`.

use serde_json::{Value, json};

use super::{Abilities, Decision, Dialect, Event, Input, Reply, Tool, text};

pub(super) const DIALECT: Dialect = Dialect {
    input,
    reply,
    // Only the session's start is installed so far: capture needs its transcript.
    abilities: Abilities { captures: false, continues: false, permissions: false, session_rules: false },
    versioned: true,
    setup_note: Some(
        "Cursor runs sessionStart hooks from version 2 on; older versions report \"Unknown hook type\" and skip it.",
    ),
    start_path: &["hooks", "sessionStart"],
    start_entry: |command| json!({ "command": command }),
    ..Dialect::BASE
};

fn event(name: Option<&str>) -> Event {
    match name {
        None | Some("sessionStart") => Event::Start,
        Some("beforeSubmitPrompt") => Event::Prompt,
        Some("stop") => Event::TurnEnd,
        Some("preCompact") => Event::PreCompact,
        Some("sessionEnd") => Event::SessionEnd,
        Some("preToolUse") => Event::ToolUse(true),
        Some("postToolUse") => Event::ToolUse(false),
        Some(_) => Event::Other,
    }
}

fn input(v: &Value, named: Option<&str>) -> Input {
    let name = v.get("hook_event_name").and_then(Value::as_str).or(named);
    let event = event(name);
    let root = v.get("workspace_roots").and_then(|r| r.get(0)).and_then(Value::as_str);
    Input {
        session: text(v, "session_id").or_else(|| text(v, "conversation_id")),
        transcript: text(v, "transcript_path").map(Into::into),
        cwd: text(v, "cwd").or_else(|| root.filter(|r| !r.trim().is_empty()).map(str::to_owned)),
        prompt: v.get("prompt").and_then(Value::as_str).map(str::to_owned),
        last_message: text(v, "text"),
        tool: text(v, "tool_name")
            .map(|name| Tool { name, input: v.get("tool_input").cloned().unwrap_or(Value::Null) }),
        end_reason: (event == Event::SessionEnd).then(|| text(v, "reason").unwrap_or_else(|| "other".into())),
        ..Input::bare(event, name.unwrap_or("sessionStart"))
    }
}

fn reply(_input: &Input, reply: &Reply) -> Value {
    match reply {
        Reply::Context(text) => {
            json!({ "additional_context": crate::entry::clip(text, crate::entry::HOOK_MAX_CHARS) })
        }
        Reply::Continue(text) => json!({ "followup_message": text }),
        Reply::Permission(Decision::Allow | Decision::AllowWithRules(_)) => json!({ "permission": "allow" }),
        Reply::Permission(Decision::Deny(message)) => {
            json!({ "permission": "deny", "agent_message": message })
        }
    }
}
