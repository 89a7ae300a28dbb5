//! Qwen Code's hooks (checked against the pinned 0.15.10): Claude Code's events and
//! shapes in its `settings.json` (`SessionStart`, `UserPromptSubmit`, `Stop` with
//! `last_assistant_message`, `PreCompact`, `SessionEnd`, `PreToolUse`/`PostToolUse`,
//! `PermissionRequest`), with timeouts in milliseconds as in Gemini CLI, which it forks.
//! Headless (`-p`) it fires neither `SessionStart` nor `SessionEnd`, and it fires
//! `UserPromptSubmit` again after every tool result with an empty prompt: that one is not
//! the person's. It escapes `<` and `>` in the context it is handed. Its
//! `PermissionRequest` fires where it would show its dialog (interactive, or with
//! `--input-format stream-json`; plain `-p` refuses instead of asking) and takes Claude
//! Code's `decision` with `behavior` and `message`, but no rules for the session: its
//! allow reads only `updatedInput` (checked against 0.15.10, tests/e2e/remote.sh).
//! Its `PreToolUse` (named by the tool's own name: `write_file`, `edit`,
//! `run_shell_command`) takes Claude Code's `permissionDecision`, but refuses on `ask`
//! as on `deny` and reads neither `additionalContext` nor `systemMessage` there, so
//! Mooring asks the person itself and a warning reaches no one (checked against 0.15.10).

use serde_json::{Value, json};

use super::{
    Abilities, Dialect, Edit, Guard, Input, Reply, Tool, Writes, claude_code, claude_shaped, common, text,
};
use crate::catalog::Format;
use crate::entry::PERMISSION_TIMEOUT;

pub(super) const DIALECT: Dialect = Dialect {
    input,
    reply,
    // Its `Stop` takes `decision: block` with the reason as the next prompt (checked in
    // tests/e2e/remote.sh: the turn goes on with the phone's words).
    abilities: Abilities { captures: true, continues: true, permissions: true, session_rules: false },
    hooks_format: Format::Jsonc,
    setup_note: Some(
        "Qwen Code runs no SessionStart hook in headless runs (`qwen -p`): there the project's context comes with the session's first prompt. It runs a project's .qwen/settings.json hooks only in a folder you trust.",
    ),
    start_may_not_fire: true,
    start_path: &["hooks", "SessionStart"],
    start_entry: |command| json!({ "matcher": "*", "hooks": [{ "name": "mooring-context", "type": "command", "command": command, "timeout": 5000 }] }),
    capture_paths: &[
        &["hooks", "UserPromptSubmit"],
        &["hooks", "Stop"],
        &["hooks", "PreCompact"],
        &["hooks", "SessionEnd"],
    ],
    // A turn's end may hold for the away person's next instruction (the hook bounds
    // itself: capture within seconds, the hold within nine minutes).
    capture_entry: Some(
        |command| json!({ "matcher": "*", "hooks": [{ "name": "mooring-capture", "type": "command", "command": command, "timeout": 600_000 }] }),
    ),
    permission_path: Some(&["hooks", "PermissionRequest"]),
    permission_entry: Some(
        |command| json!({ "matcher": "*", "hooks": [{ "name": "mooring-permission", "type": "command", "command": command, "timeout": PERMISSION_TIMEOUT * 1000 }] }),
    ),
    // Claims are checked before its file tools and shell commands run; its matcher is a
    // regular expression over the tool's name, anchored so no other tool's name matches.
    pre_edit_path: Some(&["hooks", "PreToolUse"]),
    pre_edit_entry: Some(|command| {
        json!({ "matcher": "^(write_file|edit|run_shell_command)$",
                "hooks": [{ "name": "mooring-claims", "type": "command", "command": command, "timeout": PERMISSION_TIMEOUT * 1000 }] })
    }),
    edited,
    ..Dialect::BASE
};

fn input(v: &Value, named: Option<&str>) -> Input {
    let mut input = common(v, named, claude_code::event);
    input.last_message = text(v, "last_assistant_message");
    // The empty prompt it submits after each tool result.
    input.from_person = input.prompt.as_deref().is_none_or(|p| !p.trim().is_empty());
    input
}

fn reply(input: &Input, reply: &Reply) -> Value {
    match reply {
        // Its `ask` refuses as `deny` does, with "User confirmation required" where the
        // reason is missing: say what happened rather than promise a question.
        Reply::Guard(Guard::Ask(why)) => claude_shaped(input, &Reply::Guard(Guard::Deny(why.clone()))),
        reply => claude_shaped(input, reply),
    }
}

/// What its tools write: `write_file` and `edit` (Gemini CLI's `replace`, renamed) a
/// file, `run_shell_command` a command.
fn edited(tool: &Tool) -> Option<Edit> {
    tool.writes(&[
        ("write_file", "file_path", Writes::File),
        ("edit", "file_path", Writes::File),
        ("run_shell_command", "command", Writes::Shell),
    ])
}
