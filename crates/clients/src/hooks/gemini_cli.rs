//! Gemini CLI's hooks (checked against the pinned 0.61): `SessionStart`, `BeforeAgent`
//! (a prompt), `AfterAgent` (a turn's end, with `prompt_response`; it takes `decision:
//! block` with a reason as the next prompt), `PreCompress`, `SessionEnd`,
//! `BeforeTool`/`AfterTool`; no permission hook. Replies in Claude Code's shape, but for
//! `BeforeTool`, which reads a top-level `decision`: `deny` blocks the tool with the
//! reason as its result (claims are checked there), and its context is not read (a
//! warning goes to the person as `systemMessage`).

use serde_json::{Value, json};

use super::{
    Abilities, Dialect, Edit, Event, Guard, Input, Reply, Tool, Writes, claude_shaped, common, text,
};
use crate::catalog::Format;
use crate::entry::PERMISSION_TIMEOUT;

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
    // Claims are checked before its file tools and shell commands run. Its own `ask` is
    // not relied on (a session without a person at it cannot answer): Mooring asks.
    pre_edit_path: Some(&["hooks", "BeforeTool"]),
    pre_edit_entry: Some(|command| {
        json!({ "matcher": "write_file|replace|run_shell_command",
                "hooks": [{ "name": "mooring-claims", "type": "command", "command": command, "timeout": PERMISSION_TIMEOUT * 1000 }] })
    }),
    edited,
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
    match reply {
        Reply::Guard(Guard::Deny(why) | Guard::Ask(why)) => json!({ "decision": "deny", "reason": why }),
        Reply::Guard(Guard::Warn(why)) => json!({ "systemMessage": why }),
        reply => claude_shaped(input, reply),
    }
}

/// What its tools write: `write_file` and `replace` a file, `run_shell_command` a command.
fn edited(tool: &Tool) -> Option<Edit> {
    tool.writes(&[
        ("write_file", "file_path", Writes::File),
        ("replace", "file_path", Writes::File),
        ("run_shell_command", "command", Writes::Shell),
    ])
}
