//! Cursor's own hooks (`.cursor/hooks.json`; Cursor cannot run here, so this follows its
//! published hook reference and what public integrations recorded from Cursor 2.x/3.x
//! and its CLI): camel-cased `sessionStart`, `beforeSubmitPrompt`, `stop`, `preCompact`,
//! `sessionEnd`, `preToolUse`/`postToolUse`, entries `{"command", "timeout"}` (seconds).
//! Its input names the session `conversation_id` (a start also `session_id`, the same
//! value) and its folders `workspace_roots` (on Windows as `/C:/…`); its replies are
//! flat: `additional_context`, `continue`, `followup_message` (the next message, at most
//! five in a row), `permission`. Its transcript (`transcript_path`, which its CLI leaves
//! null; the hook's environment has `CURSOR_TRANSCRIPT_PATH`) is
//! `~/.cursor/projects/<folder as a name>/agent-transcripts/<id>.jsonl` (the editor:
//! `<id>/<id>.jsonl`). Headless (`-p`) Cursor fires neither `beforeSubmitPrompt` nor
//! `stop`: there the session is captured at its end.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::{Abilities, Decision, Dialect, Event, Input, Reply, Tool, text};

pub(super) const DIALECT: Dialect = Dialect {
    input,
    reply,
    abilities: Abilities { captures: true, continues: true, permissions: false, session_rules: false },
    versioned: true,
    setup_note: Some(
        "Cursor runs sessionStart hooks from version 2 on; older versions report \"Unknown hook type\" and skip it. Headless runs (`cursor-agent -p`) fire no beforeSubmitPrompt or stop hook: such a session is kept at its end, without recall per prompt. Mooring's Claude Code hooks stand aside when Cursor runs them (its third-party hooks setting): these answer instead.",
    ),
    start_path: &["hooks", "sessionStart"],
    start_entry: |command| json!({ "command": command, "timeout": 5 }),
    capture_paths: &[
        &["hooks", "beforeSubmitPrompt"],
        &["hooks", "stop"],
        &["hooks", "preCompact"],
        &["hooks", "sessionEnd"],
    ],
    // A turn's end may hold for the away person's next instruction (the hook bounds
    // itself: capture within seconds, the hold within nine minutes).
    capture_entry: Some(|command| json!({ "command": command, "timeout": 600 })),
    ..Dialect::BASE
};

fn event(name: Option<&str>) -> Event {
    match name {
        None | Some("sessionStart") => Event::Start,
        Some("beforeSubmitPrompt") => Event::Prompt,
        Some("stop") => Event::TurnEnd,
        Some("subagentStop") => Event::SubagentEnd,
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
    let root = v
        .get("workspace_roots")
        .and_then(|r| r.get(0))
        .and_then(Value::as_str)
        .filter(|r| !r.trim().is_empty())
        .map(windows_drive);
    let session = text(v, "conversation_id").or_else(|| text(v, "session_id"));
    let transcript = text(v, "transcript_path")
        .or_else(|| std::env::var("CURSOR_TRANSCRIPT_PATH").ok().filter(|p| !p.trim().is_empty()))
        .map(PathBuf::from)
        .or_else(|| Some(transcript_of(&super::home()?, root.as_deref()?, session.as_deref()?)));
    Input {
        session,
        transcript,
        agent_transcript: text(v, "agent_transcript_path").map(PathBuf::from),
        cwd: text(v, "cwd").map(|c| windows_drive(&c)).or(root),
        prompt: v.get("prompt").and_then(Value::as_str).map(str::to_owned),
        last_message: text(v, "text"),
        tool: text(v, "tool_name")
            .map(|name| Tool { name, input: v.get("tool_input").cloned().unwrap_or(Value::Null) }),
        end_reason: (event == Event::SessionEnd)
            .then(|| text(v, "reason").or_else(|| text(v, "final_status")).unwrap_or_else(|| "other".into())),
        ..Input::bare(event, name.unwrap_or("sessionStart"))
    }
}

fn reply(input: &Input, reply: &Reply) -> Value {
    match reply {
        Reply::Context(text) => {
            let text = crate::entry::clip(text, crate::entry::HOOK_MAX_CHARS);
            if input.event == Event::Prompt {
                json!({ "continue": true, "additional_context": text })
            } else {
                json!({ "additional_context": text })
            }
        }
        Reply::Continue(text) => json!({ "followup_message": text }),
        Reply::Permission(Decision::Allow | Decision::AllowWithRules(_)) => json!({ "permission": "allow" }),
        Reply::Permission(Decision::Deny(message)) => {
            json!({ "permission": "deny", "agent_message": message })
        }
        // No pre-edit entry is installed for it yet (claims: Claude Code's hooks).
        Reply::Guard(_) => Value::Null,
    }
}

/// Whether a Claude-shaped hook input came from Cursor running Claude Code's hooks (it
/// adds its own fields, `cursor_version` among them).
pub(super) fn runs_claude_hooks(v: &Value) -> bool {
    v.get("cursor_version").is_some()
}

/// `/C:/Users/me` (how Cursor on Windows names a folder) as `C:/Users/me`.
fn windows_drive(path: &str) -> String {
    let b = path.as_bytes();
    if b.len() >= 4
        && b[0] == b'/'
        && b[1].is_ascii_alphabetic()
        && b[2] == b':'
        && matches!(b[3], b'/' | b'\\')
    {
        path[1..].to_owned()
    } else {
        path.to_owned()
    }
}

/// Where Cursor keeps conversation `id` of folder `root`: its projects folder names the
/// folder by its path without the leading `/`, each other character not a letter or a
/// digit made `-`; the editor nests the file in a folder of its own, the CLI does not.
pub(super) fn transcript_of(home: &Path, root: &str, id: &str) -> PathBuf {
    let name: String = root
        .trim_start_matches(['/', '\\'])
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let dir = home.join(".cursor").join("projects").join(name).join("agent-transcripts");
    // The id names a file: nothing in it may climb out of the folder.
    let id: String = id.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_').collect();
    let nested = dir.join(&id).join(format!("{id}.jsonl"));
    if nested.exists() { nested } else { dir.join(format!("{id}.jsonl")) }
}
