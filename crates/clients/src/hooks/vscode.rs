//! VS Code's agent hooks (its Local harness; checked against its published reference and
//! the hook service's source: VS Code cannot run here). VS Code reads hooks from
//! `~/.claude/settings.json` and `~/.copilot/hooks/` among others, so Mooring's Claude
//! Code and Copilot CLI entries run there too, with VS Code's input: Claude's snake-cased
//! fields plus a `timestamp`, and without Claude Code's `permission_mode` (Claude Code
//! 2.1.330 sends that one with every event and no timestamp). Its `SessionStart` takes
//! Claude's `hookSpecificOutput.additionalContext`; its `UserPromptSubmit` reads no
//! context back; and it calls its transcript's format no stable hook API. So VS Code
//! gets the project's context at a session's start, through the Claude Code entries, and
//! nothing else: the Copilot CLI entries stand aside (one context, not two) and no
//! transcript is read. Its Claude and Codex harnesses run those clients themselves, with
//! their own hooks and transcripts: captured as in the terminal.

use serde_json::Value;

/// Whether a hook's input came from VS Code's Local harness.
pub(super) fn runs(v: &Value) -> bool {
    v.get("hook_event_name").is_some()
        && v.get("timestamp").is_some_and(Value::is_string)
        && v.get("permission_mode").is_none()
}
