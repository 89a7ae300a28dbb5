//! GitHub Copilot CLI's hooks (checked against the pinned 1.0.102, whose hooks fired in
//! `-p` mode here with the payloads in `tests/fixtures/copilot-cli-1.0.102/`): hooks
//! files in `~/.copilot/hooks/` or a repository's `.github/hooks/`, `{"version": 1,
//! "hooks": {EVENT: [{"type": "command", "bash": …, "timeoutSec": …}]}}`. Its input is
//! camel-cased and does not name the event, so each entry's command does. A start's and
//! a prompt's `additionalContext` reach the model (checked: the stand-in model received
//! it). Its session file (`session-state/<id>/events.jsonl`, which core's capture reads)
//! is written only when the process exits, after its `agentStop` and `sessionEnd` hooks
//! ran (checked in `-p` mode: the folder holds no events file at either hook), so its
//! `agentStop` capture waits for the file in a process of its own.
//!
//! Its `preToolUse` fires before every tool, `-p` runs with `--allow-all-tools`
//! included, and takes a top-level `permissionDecision`: `deny` refuses the tool and its
//! model reads "Denied by preToolUse hook: REASON"; `ask` refuses likewise where no one
//! can answer; a top-level `additionalContext` alone reaches the model and leaves the
//! person's own permission rules alone (all checked against 1.0.102). Claims are checked
//! there: its `create` and `edit` name a file, its `bash` a command line.

use serde_json::{Value, json};

use super::{Abilities, Decision, Dialect, Edit, Event, Guard, Input, Reply, Tool, Writes, text};
use crate::entry::PERMISSION_TIMEOUT;

pub(super) const DIALECT: Dialect = Dialect {
    input,
    reply,
    abilities: Abilities { captures: true, continues: true, permissions: false, session_rules: false },
    names_event: true,
    versioned: true,
    transcript_pending: Some(pending),
    start_path: &["hooks", "sessionStart"],
    start_entry: |command| json!({ "type": "command", "bash": command, "timeoutSec": 5 }),
    // Its `agentStop` names the session file (`sessionEnd` does not).
    capture_paths: &[&["hooks", "userPromptSubmitted"], &["hooks", "agentStop"]],
    // `agentStop` may hold for the away person's next instruction (the hook bounds
    // itself: capture within seconds, the hold within nine minutes).
    capture_entry: Some(|command| json!({ "type": "command", "bash": command, "timeoutSec": 600 })),
    // It has no matcher: the hook starts for every tool and answers at once for one that
    // writes nothing (before any database is opened).
    pre_edit_path: Some(&["hooks", "preToolUse"]),
    pre_edit_entry: Some(
        |command| json!({ "type": "command", "bash": command, "timeoutSec": PERMISSION_TIMEOUT }),
    ),
    edited,
    ..Dialect::BASE
};

/// Its session file is pending while it is missing or the session's folder still holds
/// the running client's `inuse.<pid>.lock`.
fn pending(transcript: &std::path::Path) -> bool {
    if !transcript.exists() {
        return true;
    }
    let Some(Ok(entries)) = transcript.parent().map(std::fs::read_dir) else { return false };
    entries.flatten().any(|e| {
        let name = e.file_name();
        let name = name.to_string_lossy();
        name.starts_with("inuse.") && name.ends_with(".lock")
    })
}

fn event(name: Option<&str>) -> Event {
    match name {
        None | Some("sessionStart") => Event::Start,
        Some("userPromptSubmitted") => Event::Prompt,
        Some("agentStop") => Event::TurnEnd,
        Some("subagentStop") => Event::SubagentEnd,
        Some("preCompact") => Event::PreCompact,
        Some("sessionEnd") => Event::SessionEnd,
        Some("permissionRequest") => Event::Permission,
        Some("preToolUse") => Event::ToolUse(true),
        Some("postToolUse") => Event::ToolUse(false),
        Some(_) => Event::Other,
    }
}

fn input(v: &Value, named: Option<&str>) -> Input {
    // VS Code runs the Copilot CLI hooks folder too: Mooring's Claude Code entries answer
    // it there (one context, not two).
    let event = if super::vscode::runs(v) { Event::Other } else { event(named) };
    let tool = text(v, "toolName").map(|name| Tool {
        name,
        input: v.get("toolArgs").or_else(|| v.get("toolInput")).cloned().unwrap_or(Value::Null),
    });
    Input {
        session: text(v, "sessionId"),
        transcript: text(v, "transcriptPath").map(Into::into),
        cwd: text(v, "cwd"),
        prompt: v.get("prompt").and_then(Value::as_str).map(str::to_owned),
        tool,
        suggestions: v.get("permissionSuggestions").cloned(),
        end_reason: (event == Event::SessionEnd).then(|| text(v, "reason").unwrap_or_else(|| "other".into())),
        ..Input::bare(event, named.unwrap_or("sessionStart"))
    }
}

fn reply(_input: &Input, reply: &Reply) -> Value {
    match reply {
        Reply::Context(text) => {
            json!({ "additionalContext": crate::entry::clip(text, crate::entry::HOOK_MAX_CHARS) })
        }
        Reply::Continue(text) => json!({ "decision": "block", "reason": text }),
        Reply::Permission(Decision::Allow | Decision::AllowWithRules(_)) => {
            json!({ "permissionDecision": "allow" })
        }
        Reply::Permission(Decision::Deny(message)) => {
            json!({ "permissionDecision": "deny", "permissionDecisionReason": message })
        }
        // It cannot ask before a tool where no one answers: Mooring asks the person first.
        Reply::Guard(Guard::Deny(why) | Guard::Ask(why)) => {
            json!({ "permissionDecision": "deny", "permissionDecisionReason": why })
        }
        Reply::Guard(Guard::Warn(why)) => json!({ "additionalContext": why }),
    }
}

/// What its tools write: `create` and `edit` a file, `bash` a command line.
fn edited(tool: &Tool) -> Option<Edit> {
    tool.writes(&[
        ("create", "path", Writes::File),
        ("edit", "path", Writes::File),
        ("bash", "command", Writes::Shell),
    ])
}
