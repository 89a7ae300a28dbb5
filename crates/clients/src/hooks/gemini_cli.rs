//! Gemini CLI's hooks (checked against the pinned 0.61): `SessionStart`, `BeforeAgent`
//! (a prompt), `AfterAgent` (a turn's end, with `prompt_response`; it takes `decision:
//! block` with a reason as the next prompt), `PreCompress`, `SessionEnd`,
//! `BeforeTool`/`AfterTool`; no permission hook. Replies in Claude Code's shape.

use serde_json::{Value, json};

use super::{Abilities, Dialect, Event, Input, Reply, claude_shaped, common, text};
use crate::catalog::Format;

pub(super) const DIALECT: Dialect = Dialect {
    input,
    reply,
    abilities: Abilities { captures: true, continues: true, permissions: false, session_rules: false },
    hooks_format: Format::Jsonc,
    setup_note: Some(
        "Gemini CLI shows hook output only when its hooks are enabled (they are by default since 0.26).",
    ),
    start_path: &["hooks", "SessionStart"],
    // Its timeouts are in milliseconds; the hook bounds itself well below.
    start_entry: |command| json!({ "hooks": [{ "name": "mooring-context", "type": "command", "command": command, "timeout": 5000 }] }),
    capture_paths: &[
        &["hooks", "BeforeAgent"],
        &["hooks", "AfterAgent"],
        &["hooks", "PreCompress"],
        &["hooks", "SessionEnd"],
    ],
    // `AfterAgent` takes `decision: block` with a reason as the next prompt (checked
    // against 0.61).
    capture_entry: Some(
        |command| json!({ "hooks": [{ "name": "mooring-capture", "type": "command", "command": command, "timeout": 600_000 }] }),
    ),
    ..Dialect::BASE
};

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

fn input(v: &Value, named: Option<&str>) -> Input {
    let mut input = common(v, named, event);
    input.last_message = text(v, "prompt_response");
    input
}

fn reply(input: &Input, reply: &Reply) -> Value {
    claude_shaped(input, reply)
}
