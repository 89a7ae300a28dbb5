//! Codex's hooks (checked against the pinned 0.169): Claude Code's names and shapes for
//! `SessionStart`, `UserPromptSubmit`, `Stop`, `PreCompact`, `PermissionRequest` and the
//! tool events; no end-of-session hook (its `Stop` at every turn's end keeps the record
//! current), and a permission reply with any field beyond allow/deny fails closed, so it
//! takes no rules back. Its `PreToolUse` (every shell command, `apply_patch` edits too,
//! named `Bash`) is where claims are checked: `deny` blocks, `ask` counts as a failed hook
//! and lets the command run, so Mooring asks the person itself; a warning's
//! `additionalContext` reaches its model (tests/e2e/capture_codex_gemini.sh).

use serde_json::{Value, json};

use super::{Abilities, Dialect, Guard, Input, Reply, claude_shaped, common, text};
use crate::entry::PERMISSION_TIMEOUT;

pub(super) const DIALECT: Dialect = Dialect {
    input,
    reply,
    abilities: Abilities { captures: true, continues: true, permissions: true, session_rules: false },
    setup_note: Some(
        "Codex runs a new hook only after you trust it: start `codex`, open /hooks and trust \"mooring hook codex\" once.",
    ),
    start_path: &["hooks", "SessionStart"],
    start_entry: |command| {
        json!({
            "matcher": "startup|resume|clear",
            "hooks": [{ "type": "command", "command": command, "timeout": 5, "statusMessage": "Loading the Mooring project context" }]
        })
    },
    capture_paths: &[&["hooks", "UserPromptSubmit"], &["hooks", "Stop"], &["hooks", "PreCompact"]],
    // Its `Stop` takes `decision: block` with a reason too (checked against 0.169).
    capture_entry: Some(
        |command| json!({ "hooks": [{ "type": "command", "command": command, "timeout": 600 }] }),
    ),
    // The same shape in and out as Claude Code's (its interactive session asks; `codex
    // exec` never does).
    permission_path: Some(&["hooks", "PermissionRequest"]),
    // It reads a matcher as a pattern: no matcher is every tool.
    permission_entry: Some(
        |command| json!({ "hooks": [{ "type": "command", "command": command, "timeout": PERMISSION_TIMEOUT }] }),
    ),
    // Claims are checked before a shell command runs: Codex names every one `Bash`, its
    // edits too (`apply_patch` with the patch as a here-document; recorded from 0.169).
    pre_edit_path: Some(&["hooks", "PreToolUse"]),
    // Long enough for Mooring to ask the person when the project asks (Codex cannot).
    pre_edit_entry: Some(
        |command| json!({ "matcher": "Bash", "hooks": [{ "type": "command", "command": command, "timeout": PERMISSION_TIMEOUT }] }),
    ),
    edited: super::claude_code::edited,
    ..Dialect::BASE
};

fn input(v: &Value, named: Option<&str>) -> Input {
    // Claude Code's event names (Codex has no `SessionEnd`: its `Stop` keeps the record).
    let mut input = common(v, named, super::claude_code::event);
    input.last_message = text(v, "last_assistant_message");
    input
}

fn reply(input: &Input, reply: &Reply) -> Value {
    match reply {
        // 0.169 has no ask before a tool: `ask` counts as a failed hook and the command
        // runs. Mooring asks the person itself; when no one can be asked, refused, with
        // the reason that says to ask the person.
        Reply::Guard(Guard::Ask(why)) => claude_shaped(input, &Reply::Guard(Guard::Deny(why.clone()))),
        reply => claude_shaped(input, reply),
    }
}
