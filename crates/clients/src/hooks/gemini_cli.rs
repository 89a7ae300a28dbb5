//! Gemini CLI's hooks (checked against the pinned 0.61): `SessionStart`, `BeforeAgent`
//! (a prompt), `AfterAgent` (a turn's end, with `prompt_response`; it takes `decision:
//! block` with a reason as the next prompt), `PreCompress`, `SessionEnd`,
//! `BeforeTool`/`AfterTool`; no permission hook. Replies in Claude Code's shape.

use serde_json::Value;

use super::{Abilities, Event, Input, Reply, claude_shaped, common, text};

pub(super) const ABILITIES: Abilities =
    Abilities { continues: true, permissions: false, session_rules: false };

fn event(name: Option<&str>) -> Event {
    match name {
        None | Some("SessionStart") => Event::Start,
        Some("BeforeAgent") => Event::Prompt,
        Some("AfterAgent") => Event::TurnEnd,
        Some("PreCompress") => Event::PreCompact,
        Some("SessionEnd") => Event::SessionEnd,
        Some("BeforeTool") => Event::ToolUse(true),
        Some("AfterTool") => Event::ToolUse(false),
        Some(_) => Event::Other,
    }
}

pub(super) fn input(v: &Value) -> Input {
    let name = v.get("hook_event_name").and_then(Value::as_str);
    let mut input = common(v, event(name), name.unwrap_or("SessionStart"));
    input.last_message = text(v, "prompt_response");
    input
}

pub(super) fn reply(input: &Input, reply: &Reply) -> Value {
    claude_shaped(input, reply)
}
